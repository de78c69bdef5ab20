//! Functions, decoded code and control flow of one object.
//!
//! This file holds the [`Model`] and its build; the rest by concern:
//! `functions.rs` (function symbols and lookups by place), `code.rs` (a
//! section's decoded instructions and branch destinations), `decode.rs`
//! (decoding and resolving them), `noreturn.rs` (which calls never return),
//! `thunks.rs` (thunk symbols and stubs, speculation barriers), `walk.rs`
//! (control-flow walks); the other files each build one table or fact on
//! top (alternatives, special sections, CFI, ORC, address-taken, ...).

pub mod address_taken;
pub mod alternatives;
pub mod cfi;
mod code;
mod decode;
mod functions;
pub mod jump_tables;
mod noreturn;
pub mod orc;
pub mod patchable;
pub mod special;
mod thunks;
pub mod walk;

pub use code::{Dest, SectionCode};
pub use functions::Function;

use crate::arch::{Decoder, Insn, Kind, decoder};
use crate::elf::Object;
use crate::rules::Rules;
use alternatives::Alternatives;
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use std::borrow::Cow;

/// One object: its functions, decoded code and the facts the checks read.
pub struct Model<'a> {
    pub obj: &'a Object<'a>,
    pub dec: &'static dyn Decoder,
    pub code: Vec<Option<Box<SectionCode>>>,
    /// Sorted by (section, start).
    pub functions: Vec<Function<'a>>,
    /// Where each function starts, in the order of `functions` (aliases
    /// are merged, so starts are unique).
    starts: functions::FunctionStarts,
    /// Per function: the largest `end` of it and the functions before it in
    /// its section, so a lookup can step back over nested symbols.
    reach: Vec<u64>,
    /// Per symbol: named in the noreturn list (undefined symbols and global
    /// or weak functions only), looked up once instead of at every call.
    listed_noreturn: Vec<bool>,
    /// Listed noreturn labels of code that are no function (see
    /// [`noreturn::listed_labels`]).
    noreturn_labels: Vec<(usize, u64)>,
    /// Undefined symbols a compiler calls right before a call that never
    /// returns (rules/noreturn.toml `markers`), sorted.
    noreturn_markers: Vec<usize>,
    /// Per function: proven never to return (within this object).
    pub noreturn: Vec<bool>,
    /// Global functions are asked about too ([`Model::prove_exports`]).
    exports_asked: bool,
    /// Address-taken facts, built on first use ([`Model::address_taken`]).
    landing: std::sync::OnceLock<address_taken::AddressTaken>,
    /// Patch sites and kCFI hashes, built on first use ([`Model::patchable`]):
    /// three rules read them.
    patchable: std::sync::OnceLock<patchable::Patchable>,
    /// Switch tables without relocations, built on first use ([`Model::jump_tables`]).
    jump_tables: std::sync::OnceLock<jump_tables::JumpTables>,
    /// Sized code routines ([`Model::code_symbols`]).
    code_symbols: std::sync::OnceLock<Vec<(usize, u64, u64, usize)>>,
    /// `.altinstructions` sites.
    pub alts: Alternatives,
    /// Exception fixups, jump labels, WARN traps, objtool's annotations.
    special: special::Special,
    /// Per symbol: its flags ([`thunks::symbol_flags`]).
    sym_flags: Vec<u8>,
    /// Per function: its symbol's flags and more ([`thunks::function_flags`]).
    fn_flags: Vec<u8>,
    /// Defined symbols with flags by place: a linked whole defines its
    /// thunks as `STT_NOTYPE` labels (SYM_CODE_START, SYM_INNER_LABEL), which
    /// are not functions, and its branches to them resolve to that place.
    flagged_at: FxHashMap<(usize, u64), usize>,
    indirect_jumps_leave: bool,
    /// Places where a symbol of code starts (functions, and `STT_NOTYPE`
    /// labels of hand-written code), for telling calls from intra-function calls.
    symbol_starts: functions::Places,
    /// The kernel version whose objtool lists apply (`--kernel`, the
    /// config, a module's vermagic, or a vmlinux.o's banner), when known.
    pub kernel: Option<crate::rules::KernelVersion>,
    /// How the object numbers ORC registers (its rows, its unwind hints),
    /// or why that is not known.
    pub orc_numbering: Result<crate::elf::orc::OrcNumbering, String>,
    /// The first kernel known to number them so: all the object tells of
    /// its kernel where `kernel` is unknown (a kbuild object of Linux 7.x).
    pub orc_since: Option<crate::rules::KernelVersion>,
}

/// Bytes of code per decoding job: a larger section is a job of its own,
/// smaller ones are decoded together.
const DECODE_JOB: u64 = 64 << 10;

/// Drop a model's code on every thread, each section's instructions apart
/// from the rest of it.
pub fn free_code(code: Vec<Option<Box<SectionCode>>>) {
    code.into_par_iter().flatten().for_each(|mut c| {
        let insns = std::mem::take(&mut c.insns);
        rayon::join(|| drop(insns), || drop(c));
    });
}

impl<'a> Model<'a> {
    pub fn build(obj: &'a Object<'a>, rules: &Rules) -> Model<'a> {
        Model::build_then(obj, rules, None, &|| {})
    }

    /// [`Model::build`], calling `decoded` once every executable section is
    /// decoded: from then on the code's bytes are read only here and there
    /// (a finding's bytes, a patch site), so a caller holding the file's
    /// mapping may give those pages back. `kernel`, the version whose lists
    /// apply, defaults to a module's vermagic or a vmlinux.o's banner.
    pub fn build_then(
        obj: &'a Object<'a>,
        rules: &Rules,
        kernel: Option<crate::rules::KernelVersion>,
        decoded: &(dyn Fn() + Sync),
    ) -> Model<'a> {
        let dec = decoder(obj.machine);
        let kernel = kernel
            .or_else(|| crate::rules::KernelVersion::parse(obj.modinfo("vermagic")?))
            .or_else(|| crate::rules::KernelVersion::parse(obj.banner_release()?));
        let (orc_numbering, orc_since) = match orc::numbering(obj, &rules.special, kernel) {
            Ok((n, since)) => (Ok(n), since),
            Err(e) => (Err(e), None),
        };
        // Work that needs only the object runs beside the rest (vmlinux.o's
        // serial parts bound how far one object scales).
        let (functions, alt_table) = rayon::join(
            || functions::build_functions(obj, rules),
            || obj.alt_instructions(rules.alt_layouts(obj.machine)),
        );
        // The map of function starts beside the alternatives and the decode
        // cuts (on vmlinux.o each took milliseconds with the other thread idle).
        let (starts, (mut alts, cuts, replacements)) = rayon::join(
            || functions::FunctionStarts::new(&functions),
            || {
                let mut cuts: Vec<Vec<u64>> = vec![Vec::new(); obj.sections.len()];
                for f in &functions {
                    cuts[f.section].push(f.start);
                    cuts[f.section].push(f.end);
                }
                let mut alts = Alternatives::build(
                    obj,
                    &alt_table.entries,
                    rules.alt_replacement_only(obj.machine),
                    rules.alt_nop_callbacks(obj.machine),
                    rules.alt_direct_call_flag(obj.machine),
                    &functions,
                );
                alts.error = alt_table.error;
                let mut replacements: Vec<Vec<(u64, u64)>> = vec![Vec::new(); obj.sections.len()];
                for (sec, start, end) in alts.replacement_starts() {
                    cuts[sec].extend([start, end]);
                    replacements[sec].push((start, end));
                }
                for c in cuts.iter_mut() {
                    c.sort_unstable();
                    c.dedup();
                }
                for r in replacements.iter_mut() {
                    r.sort_unstable();
                }
                (alts, cuts, replacements)
            },
        );
        let decode_all = || -> Vec<Option<Box<SectionCode>>> {
            // Largest first, each large section a job of its own: a thread
            // left over while another starts the largest (which runs in
            // pieces on every thread) takes the rest (on vmlinux.o one
            // thread decoded .init.text and the others alone after .text).
            let mut exec: Vec<usize> = obj
                .sections
                .iter()
                .filter(|s| s.is_exec())
                .map(|s| s.index)
                .collect();
            exec.sort_by_key(|&i| std::cmp::Reverse(obj.sections[i].size));
            // Small sections go in jobs of several (an LTO vmlinux.o has a
            // section per function: 61,245 jobs of one).
            let mut jobs: Vec<&[usize]> = Vec::new();
            let mut rest = &exec[..];
            while !rest.is_empty() {
                let (mut n, mut bytes) = (0, 0);
                while n < rest.len() && (n == 0 || bytes < DECODE_JOB) {
                    bytes += obj.sections[rest[n]].size;
                    n += 1;
                }
                let (job, later) = rest.split_at(n);
                jobs.push(job);
                rest = later;
            }
            let decoded: Vec<(usize, Box<SectionCode>)> = jobs
                .par_iter()
                .with_max_len(1)
                .flat_map_iter(|job| {
                    job.iter().map(|&i| {
                        let c = crate::timing::time(crate::timing::Phase::Decode, || {
                            decode::decode_section(
                                obj,
                                dec,
                                i,
                                &cuts[i],
                                &replacements[i],
                                &starts,
                                rules.noreturn_syscalls(obj.machine),
                            )
                        });
                        (i, Box::new(c))
                    })
                })
                .collect();
            let mut code: Vec<Option<Box<SectionCode>>> =
                (0..obj.sections.len()).map(|_| None).collect();
            for (i, c) in decoded {
                code[i] = Some(c);
            }
            code
        };
        let of_symbols = || {
            let (sym_flags, compiler_thunks) = thunks::symbol_flags(obj, rules);
            let flagged_at: FxHashMap<(usize, u64), usize> = obj
                .symbols
                .iter()
                .filter(|s| sym_flags.get(s.index).is_some_and(|&f| f != 0))
                .filter_map(|s| Some(((s.section_index()?, s.value), s.index)))
                .collect();
            let symbol_starts = functions::Places::new(
                obj.symbols
                    .iter()
                    .filter(|s| {
                        s.index != 0
                            && matches!(s.st_type, 0 | 2)
                            && !s.name.is_empty()
                            && !s.is_assembler_local()
                    })
                    .filter_map(|s| Some((s.section_index()?, s.value))),
            );
            let listed_noreturn = noreturn::listed_noreturn(
                obj,
                rules.noreturn(obj.machine, kernel),
                &crate::elf::dwarf::noreturn_names(obj),
                rules.noreturn_renamed(obj.machine),
            );
            (
                sym_flags,
                compiler_thunks,
                flagged_at,
                symbol_starts,
                listed_noreturn,
            )
        };
        let (code, (sym_flags, compiler_thunks, flagged_at, symbol_starts, listed_noreturn)) =
            rayon::join(decode_all, of_symbols);
        decoded();
        // The special tables' marks beside what else needs the code, and
        // the noreturn labels and markers, which need only the object (on
        // vmlinux.o the marks alone took 11 ms with the other thread idle).
        let (special, (exclusive, functions, fn_flags, reach, noreturn_labels, noreturn_markers)) =
            rayon::join(
                || {
                    special::Special::build(
                        obj,
                        &code,
                        &alts,
                        &compiler_thunks,
                        &rules.special,
                        kernel,
                        &orc_numbering,
                    )
                },
                || {
                    let exclusive = alts.uaccess_exclusive(&code);
                    let mut functions = functions;
                    for f in functions.iter_mut() {
                        if let Some(c) = &code[f.section] {
                            f.insns = c.lower_bound(f.start)..c.lower_bound(f.end);
                        }
                    }
                    let fn_flags = thunks::function_flags(&functions, &sym_flags, &code);
                    let mut reach: Vec<u64> = Vec::with_capacity(functions.len());
                    for (i, f) in functions.iter().enumerate() {
                        let before = match i.checked_sub(1).map(|p| &functions[p]) {
                            Some(p) if p.section == f.section => reach[i - 1],
                            _ => 0,
                        };
                        reach.push(f.end.max(before));
                    }
                    (
                        exclusive,
                        functions,
                        fn_flags,
                        reach,
                        noreturn::listed_labels(obj, &listed_noreturn),
                        noreturn::markers(obj, rules.noreturn_markers()),
                    )
                },
            );
        alts.mark_exclusive(&exclusive);
        let mut code = code;
        special.mark_insns(&mut code);
        let mut m = Model {
            obj,
            dec,
            code,
            reach,
            noreturn: vec![false; functions.len()],
            exports_asked: false,
            functions,
            starts,
            noreturn_labels,
            listed_noreturn,
            noreturn_markers,
            landing: std::sync::OnceLock::new(),
            patchable: std::sync::OnceLock::new(),
            jump_tables: std::sync::OnceLock::new(),
            code_symbols: std::sync::OnceLock::new(),
            special,
            sym_flags,
            fn_flags,
            flagged_at,
            indirect_jumps_leave: rules.indirect_jumps_leave(obj.machine),
            symbol_starts,
            alts,
            kernel,
            orc_numbering,
            orc_since,
        };
        // Walks read the switch tables at their first dispatch, in parallel
        // (noreturn inference, the flow walk): built here, before them, as a
        // worker blocked on the lock another builds them behind takes none of
        // that build's work (on vmlinux.o, 10 ms with one thread idle), and a
        // worker waiting inside the build could take a walk that asks for the
        // same lock again.
        if m.code
            .iter()
            .flatten()
            .any(|c| c.has_any(Kind::IndirectJump.bit()))
            || m.has_indirect_thunks()
        {
            m.jump_tables();
        }
        m.infer_noreturn();
        m
    }

    pub fn section_code(&self, sec: usize) -> Option<&SectionCode> {
        self.code.get(sec).and_then(Option::as_deref)
    }

    /// The instruction index range of a function.
    pub fn insn_range(&self, f: &Function) -> std::ops::Range<usize> {
        f.insns.clone()
    }

    /// The instructions from `from` up to `to` in a section: the model's own
    /// when one starts at `from` (no decoding), else decoded afresh from there.
    /// The last one may run past `to`, or be `Invalid` where the bytes stop.
    pub fn insns_in(&self, section: usize, from: u64, to: u64) -> Cow<'_, [Insn]> {
        if let Some(code) = self.section_code(section)
            && let Some(i) = code.index_at(from)
        {
            // Every instruction is at least a byte long.
            let most = (i + to.saturating_sub(from) as usize).min(code.insns.len());
            let n = code.insns[i..most].partition_point(|x| x.offset() < to);
            return Cow::Borrowed(&code.insns[i..i + n]);
        }
        let data = self.obj.section_data(section);
        let mut v = Vec::new();
        let to = to.min(data.len() as u64);
        if from < to {
            self.dec
                .decode(&data[from as usize..to as usize], from, &mut v);
        }
        Cow::Owned(v)
    }

    /// The symbol a branch goes to: undefined, or a function of this object.
    pub fn dest_sym(&self, dest: Dest) -> Option<usize> {
        match dest {
            Dest::External { sym } => Some(sym),
            Dest::Local { section, offset } => {
                if !self.flagged_at.is_empty()
                    && let Some(&s) = self.flagged_at.get(&(section, offset))
                {
                    return Some(s);
                }
                self.function_at_start(section, offset)
                    .map(|i| self.functions[i].sym)
            }
            Dest::None => None,
        }
    }

    /// The kernel tables and annotations of this object.
    pub fn special(&self) -> &special::Special {
        &self.special
    }

    /// Whether an indirect jump that is no switch dispatch leaves its
    /// function (a tail call through a register).
    pub fn indirect_jumps_leave(&self) -> bool {
        self.indirect_jumps_leave
    }

    /// Instructions reachable from the entry of `f` within its own range,
    /// as a mask over its instruction range (index 0 = its first instruction).
    pub fn reachable(&self, f: &Function) -> Vec<bool> {
        let range = f.insns.clone();
        let mut r = walk::Reach::new(self, f);
        walk::Walker::new(self).walk(f, (), &mut r);
        let mut seen = vec![false; range.len()];
        for (sec, i) in r.seen() {
            if sec == f.section && range.contains(&i) {
                seen[i - range.start] = true;
            }
        }
        seen
    }

    /// A readable name for a branch destination.
    pub fn dest_name(&self, dest: Dest) -> String {
        match dest {
            Dest::External { sym } => self.obj.symbols[sym].name.to_string(),
            Dest::Local { section, offset } => self.place_name(section, offset),
            Dest::None => "?".to_string(),
        }
    }

    /// `sym+0xoff` for a place, or `section+0xoff` outside functions.
    pub fn place_name(&self, section: usize, offset: u64) -> String {
        match self.function_containing(section, offset) {
            Some(i) if self.functions[i].start == offset => self.functions[i].name.to_string(),
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
        let lo = ins.offset() as usize;
        let hi = (lo + usize::from(ins.len).max(16)).min(data.len());
        let mut text = self.dec.disasm(&data[lo..hi], ins.offset());
        let dest = self
            .section_code(section)
            .and_then(|c| c.index_at(ins.offset()).map(|i| c.dest(i)))
            .filter(|d| *d != Dest::None && ins.kind.is_branch());
        if let Some(d) = dest {
            text = format!("{text}  <{}>", self.dest_name(d));
        }
        text
    }
}

/// Each fixture object under `dirs` that reads, with its path and model:
/// what the model's own tests hold their fast paths to.
#[cfg(test)]
pub(crate) fn each_fixture_model(dirs: &[&str], mut f: impl FnMut(&str, &Object, &Model)) {
    let rules = Rules::builtin();
    let dirs: Vec<std::path::PathBuf> = dirs.iter().map(Into::into).collect();
    let (inputs, _) = crate::input::expand(&dirs);
    for input in inputs.iter() {
        let Ok(bytes) = std::fs::read(&input.path) else {
            continue;
        };
        let Ok(obj) = Object::parse(&bytes) else {
            continue;
        };
        let m = Model::build(&obj, &rules);
        f(&input.path.display().to_string(), &obj, &m);
    }
}
