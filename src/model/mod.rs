//! Functions, decoded code and control flow of one object.

pub mod address_taken;
pub mod alternatives;
pub mod jump_tables;
pub mod patchable;
pub mod paths;

use crate::arch::{Decoder, Insn, Kind, decoder};
use crate::elf::{Object, Place, STB_GLOBAL, STB_WEAK};
use crate::rules::{NameSet, Rules};
use alternatives::Alternatives;
use rayon::prelude::*;
use std::collections::HashMap;

/// Where a branch goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dest {
    None,
    /// A place in this object.
    Local {
        section: usize,
        offset: u64,
    },
    /// An undefined symbol (resolved at link time).
    External {
        sym: usize,
    },
}

/// A function: an `STT_FUNC` symbol over a range of an executable section.
#[derive(Debug, Clone)]
pub struct Function {
    pub sym: usize,
    pub name: String,
    pub section: usize,
    pub start: u64,
    pub end: u64,
    /// A preamble symbol (`__cfi_`, `__pfx_`): falls through by design.
    pub prefix: bool,
    pub weak: bool,
    pub global: bool,
}

/// The decoded instructions of one executable section, in offset order,
/// with branch destinations resolved through relocations.
#[derive(Debug, Default)]
pub struct SectionCode {
    pub insns: Vec<Insn>,
    pub dests: Vec<Dest>,
}

impl SectionCode {
    /// Index of the instruction starting exactly at `offset`.
    pub fn index_at(&self, offset: u64) -> Option<usize> {
        self.insns.binary_search_by_key(&offset, |i| i.offset).ok()
    }
    /// Index of the first instruction at or after `offset`.
    pub fn lower_bound(&self, offset: u64) -> usize {
        self.insns.partition_point(|i| i.offset < offset)
    }
}

/// What follows an instruction within its function.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Flow {
    /// The next instruction (index), when execution continues there.
    pub next: Option<usize>,
    /// The branch target inside the function (index).
    pub jump: Option<usize>,
    /// A jump that leaves the function (tail call).
    pub leaves: Option<Dest>,
    /// Execution continues past the function's end.
    pub off_end: bool,
    /// Execution continues into bytes of the function that are not decoded
    /// code (arm64 `$d` data such as a literal pool).
    pub into_data: bool,
}

pub struct Model<'a> {
    pub obj: &'a Object<'a>,
    pub dec: &'static dyn Decoder,
    pub code: Vec<Option<SectionCode>>,
    /// Sorted by (section, start).
    pub functions: Vec<Function>,
    starts: HashMap<(usize, u64), usize>,
    /// Per function: the largest `end` of it and the functions before it in
    /// its section, so a lookup can step back over nested symbols.
    reach: Vec<u64>,
    pub noreturn_names: NameSet,
    /// Per symbol: named in the noreturn list (undefined symbols and global
    /// or weak functions only), looked up once instead of at every call.
    listed_noreturn: Vec<bool>,
    /// Per function: proven never to return (within this object).
    pub noreturn: Vec<bool>,
    /// Address-taken facts, built on first use ([`Model::address_taken`]).
    landing: std::sync::OnceLock<address_taken::AddressTaken>,
    /// Patch sites and kCFI hashes, built on first use ([`Model::patchable`]):
    /// three rules read them.
    patchable: std::sync::OnceLock<patchable::Patchable>,
    /// Switch tables without relocations, built on first use ([`Model::jump_tables`]).
    jump_tables: std::sync::OnceLock<jump_tables::JumpTables>,
    /// `.altinstructions` sites.
    pub alts: Alternatives,
}

fn listed_noreturn(obj: &Object, names: &NameSet) -> Vec<bool> {
    obj.symbols
        .iter()
        .map(|s| {
            let candidate = match s.section {
                crate::elf::SymSection::Undef => s.index != 0,
                crate::elf::SymSection::Section(_) => s.is_func() && s.is_global(),
                _ => false,
            };
            candidate && names.contains(&s.name)
        })
        .collect()
}

fn build_functions(obj: &Object, rules: &Rules) -> Vec<Function> {
    let mut by_start: HashMap<(usize, u64), Function> = HashMap::new();
    for s in &obj.symbols {
        if !s.is_func() {
            continue;
        }
        let Some(sec) = s.section_index() else {
            continue;
        };
        let section = &obj.sections[sec];
        if !section.is_exec() || s.value > section.size {
            continue;
        }
        let end = s.value.saturating_add(s.size).min(section.size);
        let f = Function {
            sym: s.index,
            name: s.name.clone(),
            section: sec,
            start: s.value,
            end,
            prefix: rules.is_prefix_symbol(&s.name),
            weak: s.bind == STB_WEAK,
            global: s.bind == STB_GLOBAL,
        };
        match by_start.get_mut(&(sec, s.value)) {
            // Aliases: keep the strongest name, the largest extent.
            // A preamble name never hides the function it shares a start with.
            Some(g) => {
                let rank = |f: &Function| (!f.prefix, f.global, !f.weak);
                let end = g.end.max(f.end);
                if rank(&f) > rank(g) {
                    *g = f;
                }
                g.end = end;
            }
            None => {
                by_start.insert((sec, s.value), f);
            }
        }
    }
    let mut funcs: Vec<Function> = by_start.into_values().collect();
    funcs.sort_by_key(|f| (f.section, f.start));
    // Functions without a size (hand-written assembly without .size) run to
    // the next function or the end of the section.
    for i in 0..funcs.len() {
        if funcs[i].end == funcs[i].start {
            let sec = funcs[i].section;
            let next = funcs
                .get(i + 1)
                .filter(|n| n.section == sec)
                .map(|n| n.start)
                .unwrap_or(obj.sections[sec].size);
            funcs[i].end = next;
        }
    }
    funcs
}

fn decode_section(obj: &Object, dec: &dyn Decoder, sec: usize, cuts: &[u64]) -> SectionCode {
    let data = obj.section_data(sec);
    let mut insns = Vec::with_capacity(data.len() / 4);
    for (lo, hi) in obj.code_ranges(sec) {
        // Restart decoding at every function boundary so each function (and
        // the padding between functions) is decoded from its own start.
        let mut starts: Vec<u64> = cuts.iter().copied().filter(|&c| c > lo && c < hi).collect();
        starts.push(hi);
        let mut from = lo;
        for to in starts {
            if to > from {
                dec.decode(&data[from as usize..to as usize], from, &mut insns);
            }
            from = to;
        }
    }
    let mut dests = Vec::with_capacity(insns.len());
    for ins in &insns {
        let mut dest = Dest::None;
        if ins.kind.is_branch() {
            let mut relocated = false;
            for r in obj.relocs_in(sec, ins.offset, ins.end()) {
                if let Some(bias) = dec.branch_reloc_bias(ins, r.offset, r.r_type) {
                    relocated = true;
                    dest = match obj.resolve(r.sym, r.addend.wrapping_add(bias)) {
                        Place::Local { section, offset } => Dest::Local { section, offset },
                        Place::External { sym, .. } => Dest::External { sym },
                        Place::Other => Dest::None,
                    };
                }
            }
            if let (false, Some(t)) = (relocated, ins.imm_target) {
                dest = Dest::Local {
                    section: sec,
                    offset: t,
                };
            }
        }
        dests.push(dest);
    }
    SectionCode { insns, dests }
}

impl<'a> Model<'a> {
    pub fn build(obj: &'a Object<'a>, rules: &Rules) -> Model<'a> {
        let dec = decoder(obj.machine);
        let functions = build_functions(obj, rules);
        let mut cuts: Vec<Vec<u64>> = vec![Vec::new(); obj.sections.len()];
        for f in &functions {
            cuts[f.section].push(f.start);
            cuts[f.section].push(f.end);
        }
        let alt_table = obj.alt_instructions(rules.alt_layouts(obj.machine));
        let mut alts = Alternatives::build(
            obj,
            &alt_table.entries,
            rules.alt_replacement_only(obj.machine),
        );
        alts.error = alt_table.error;
        for (sec, start, end) in alts.replacement_starts() {
            cuts[sec].extend([start, end]);
        }
        for c in cuts.iter_mut() {
            c.sort_unstable();
            c.dedup();
        }
        let code: Vec<Option<SectionCode>> = obj
            .sections
            .par_iter()
            .map(|s| {
                s.is_exec()
                    .then(|| decode_section(obj, dec, s.index, &cuts[s.index]))
            })
            .collect();
        alts.mark_uaccess_exclusive(&code);
        let starts = functions
            .iter()
            .enumerate()
            .map(|(i, f)| ((f.section, f.start), i))
            .collect();
        let noreturn_names = rules.noreturn(obj.machine);
        let mut reach = Vec::with_capacity(functions.len());
        for (i, f) in functions.iter().enumerate() {
            let before = match i.checked_sub(1).map(|p| &functions[p]) {
                Some(p) if p.section == f.section => reach[i - 1],
                _ => 0,
            };
            reach.push(f.end.max(before));
        }
        let mut m = Model {
            obj,
            dec,
            code,
            reach,
            noreturn: vec![false; functions.len()],
            functions,
            starts,
            listed_noreturn: listed_noreturn(obj, &noreturn_names),
            noreturn_names,
            landing: std::sync::OnceLock::new(),
            patchable: std::sync::OnceLock::new(),
            jump_tables: std::sync::OnceLock::new(),
            alts,
        };
        m.infer_noreturn();
        m
    }

    pub fn section_code(&self, sec: usize) -> Option<&SectionCode> {
        self.code.get(sec).and_then(Option::as_ref)
    }

    /// The instruction index range of a function.
    pub fn insn_range(&self, f: &Function) -> std::ops::Range<usize> {
        match self.section_code(f.section) {
            Some(c) => c.lower_bound(f.start)..c.lower_bound(f.end),
            None => 0..0,
        }
    }

    /// The function starting exactly at a place.
    pub fn function_at_start(&self, section: usize, offset: u64) -> Option<usize> {
        self.starts.get(&(section, offset)).copied()
    }

    /// The function containing a place: the one starting last at or before
    /// it whose range covers it (a symbol nested in a larger function does
    /// not hide the outer one past its own end).
    pub fn function_containing(&self, section: usize, offset: u64) -> Option<usize> {
        let mut i = self
            .functions
            .partition_point(|f| (f.section, f.start) <= (section, offset));
        while i > 0 {
            i -= 1;
            let f = &self.functions[i];
            if f.section != section || self.reach[i] <= offset && f.start != offset {
                return None;
            }
            if offset < f.end || f.start == offset {
                return Some(i);
            }
        }
        None
    }

    /// The first non-prefix function that starts at or after a place, in the same section.
    pub fn next_function(&self, section: usize, offset: u64) -> Option<usize> {
        let i = self
            .functions
            .partition_point(|f| (f.section, f.start) < (section, offset));
        self.functions[i..]
            .iter()
            .position(|f| !f.prefix || f.section != section)
            .map(|k| i + k)
            .filter(|&k| self.functions[k].section == section)
    }

    /// Whether a call to `dest` never returns.
    pub fn is_noreturn(&self, dest: Dest) -> bool {
        match dest {
            Dest::External { sym } => self.listed_noreturn[sym],
            Dest::Local { section, offset } => match self.function_at_start(section, offset) {
                Some(i) => {
                    let f = &self.functions[i];
                    self.noreturn[i] || ((f.global || f.weak) && self.listed_noreturn[f.sym])
                }
                None => false,
            },
            Dest::None => false,
        }
    }

    /// Control flow after instruction `i` of function `f`.
    pub fn flow(&self, f: &Function, code: &SectionCode, i: usize) -> Flow {
        let ins = &code.insns[i];
        let dest = code.dests[i];
        let mut flow = Flow::default();
        let falls = match ins.kind {
            Kind::Call => !self.is_noreturn(dest),
            Kind::Jump | Kind::CondJump => {
                match dest {
                    Dest::Local { section, offset }
                        if section == f.section && offset >= f.start && offset < f.end =>
                    {
                        flow.jump = code.index_at(offset);
                    }
                    Dest::None => {}
                    d => flow.leaves = Some(d),
                }
                ins.kind == Kind::CondJump
            }
            k => !k.ends_flow(),
        };
        if falls {
            if ins.end() >= f.end {
                flow.off_end = true;
            } else if code.insns.get(i + 1).is_some_and(|n| n.offset == ins.end()) {
                flow.next = Some(i + 1);
            } else {
                flow.into_data = true;
            }
        }
        flow
    }

    /// Instructions reachable from the entry of `f`, as a mask over its
    /// instruction range (index 0 = first instruction of the function).
    pub fn reachable(&self, f: &Function) -> Vec<bool> {
        let range = self.insn_range(f);
        let Some(code) = self.section_code(f.section) else {
            return Vec::new();
        };
        let mut seen = vec![false; range.len()];
        let Some(entry) = code.index_at(f.start) else {
            return seen;
        };
        let mut work = vec![entry];
        while let Some(i) = work.pop() {
            if i < range.start || i >= range.end || seen[i - range.start] {
                continue;
            }
            seen[i - range.start] = true;
            let fl = self.flow(f, code, i);
            work.extend(fl.next);
            work.extend(fl.jump);
        }
        seen
    }

    /// Whether some path through `f` may return to its caller.
    fn may_return(&self, f: &Function) -> bool {
        let range = self.insn_range(f);
        let Some(code) = self.section_code(f.section) else {
            return true;
        };
        let seen = self.reachable(f);
        if !seen.iter().any(|&s| s) {
            return true;
        }
        for (k, &s) in seen.iter().enumerate() {
            if !s {
                continue;
            }
            let i = range.start + k;
            let ins = &code.insns[i];
            // Undecodable bytes say nothing about returning: assume it may.
            if matches!(ins.kind, Kind::Return | Kind::IndirectJump | Kind::Invalid) {
                return true;
            }
            let fl = self.flow(f, code, i);
            if fl.off_end || fl.into_data {
                return true;
            }
            if fl.leaves.is_some_and(|d| !self.is_noreturn(d)) {
                return true;
            }
        }
        false
    }

    /// Least fixed point: a function is noreturn once none of its paths can
    /// return given the noreturn functions known so far.
    fn infer_noreturn(&mut self) {
        let eligible =
            |m: &Self, i: usize| !m.noreturn[i] && !m.functions[i].weak && !m.functions[i].prefix;
        // Only callers (and tail-callers) of a function found noreturn can
        // change their answer, so later rounds re-walk just those.
        let callers = self.local_callers();
        let mut cand: Vec<usize> = (0..self.functions.len())
            .filter(|&i| eligible(self, i))
            .collect();
        while !cand.is_empty() {
            let found: Vec<usize> = cand
                .par_iter()
                .copied()
                .filter(|&i| !self.may_return(&self.functions[i]))
                .collect();
            for &i in &found {
                self.noreturn[i] = true;
            }
            let mut next: Vec<usize> = found
                .iter()
                .flat_map(|&f| {
                    let lo = callers.partition_point(|&(c, _)| c < f);
                    callers[lo..]
                        .iter()
                        .take_while(move |&&(c, _)| c == f)
                        .map(|&(_, by)| by)
                })
                .filter(|&i| eligible(self, i))
                .collect();
            next.sort_unstable();
            next.dedup();
            cand = next;
        }
    }

    /// (callee, caller) pairs of direct calls and jumps between functions of
    /// this object, sorted by callee.
    fn local_callers(&self) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for (fi, f) in self.functions.iter().enumerate() {
            let Some(code) = self.section_code(f.section) else {
                continue;
            };
            for i in self.insn_range(f) {
                if let Dest::Local { section, offset } = code.dests[i]
                    && let Some(callee) = self.function_at_start(section, offset)
                    && callee != fi
                {
                    out.push((callee, fi));
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// A readable name for a branch destination.
    pub fn dest_name(&self, dest: Dest) -> String {
        match dest {
            Dest::External { sym } => self.obj.symbols[sym].name.clone(),
            Dest::Local { section, offset } => self.place_name(section, offset),
            Dest::None => "?".to_string(),
        }
    }

    /// `sym+0xoff` for a place, or `section+0xoff` outside functions.
    pub fn place_name(&self, section: usize, offset: u64) -> String {
        match self.function_containing(section, offset) {
            Some(i) if self.functions[i].start == offset => self.functions[i].name.clone(),
            Some(i) => format!(
                "{}+{:#x}",
                self.functions[i].name,
                offset - self.functions[i].start
            ),
            None => format!("{}+{:#x}", self.obj.section_name(section), offset),
        }
    }

    /// Disassembly of one instruction.
    pub fn disasm(&self, section: usize, ins: &Insn) -> String {
        let data = self.obj.section_data(section);
        let lo = ins.offset as usize;
        let hi = (lo + usize::from(ins.len).max(16)).min(data.len());
        let mut text = self.dec.disasm(&data[lo..hi], ins.offset);
        let dest = self
            .section_code(section)
            .and_then(|c| c.index_at(ins.offset).map(|i| c.dests[i]))
            .filter(|d| *d != Dest::None && ins.kind.is_branch());
        if let Some(d) = dest {
            text = format!("{text}  <{}>", self.dest_name(d));
        }
        text
    }
}
