//! Switch tables the relocations do not show: arm64 compilers emit the
//! entries as offsets between two labels of the same code section
//! (`.byte (.Lcase - .Lbase) >> 2`), which the assembler resolves, so the
//! case targets are reached by `br` through data that names no symbol. The
//! decoder recognises the dispatch ([`Decoder::table_jump`](crate::arch::Decoder::table_jump));
//! here the table is located through the dispatch's relocation and read.
//!
//! A table is taken only when it is fully known: its size from the bounds
//! check on the index, no relocation inside it (relocated entries are
//! references of their own, seen by the address-taken analysis anyway), and
//! every entry landing on an instruction of the function that jumps. Anything
//! else is counted, not guessed: a wrong table would invent landing-pad
//! findings.

use super::{Dest, Model, SectionCode};
use crate::arch::{Kind, RelocUse};
use crate::elf::{Machine, Place};
use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::Arc;

/// One recovered table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JumpTable {
    /// Index into [`Model::functions`] of the function holding the jump.
    pub func: usize,
    /// The code section and offset of the indirect jump.
    pub section: usize,
    pub jump: u64,
    /// Where the table is.
    pub table_section: usize,
    pub table_offset: u64,
    pub entry_size: u8,
    /// The dispatch's cases: the table's values, shared by every dispatch
    /// that reads the table (a duplicated dispatch block; thousands in a
    /// crafted object), each with its own base.
    cases: Cases,
}

impl JumpTable {
    /// Per entry: (its offset in `table_section`, its target in `section`).
    pub fn entries(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        let size = u64::from(self.entry_size);
        self.cases
            .iter()
            .enumerate()
            .map(move |(k, t)| (self.table_offset + k as u64 * size, t))
    }
}

/// The case targets of a dispatch: `base + (value << shift)` for the first
/// `len` values (x86 tables of addresses: base 0, shift 0).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cases {
    values: Arc<[u64]>,
    len: usize,
    base: u64,
    shift: u8,
    /// Cases in a `.cold` part of the function, another section (gcc moves
    /// a computed goto's default label there: ___bpf_prog_run's, Linux 6.1).
    elsewhere: Arc<[(usize, u64)]>,
}

impl Cases {
    fn targets(targets: Vec<u64>, elsewhere: Vec<(usize, u64)>) -> Cases {
        Cases {
            len: targets.len(),
            values: targets.into(),
            base: 0,
            shift: 0,
            elsewhere: elsewhere.into(),
        }
    }
    /// The cases in other sections than the jump's: (section, offset).
    pub fn elsewhere(&self) -> &[(usize, u64)] {
        &self.elsewhere
    }
    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    pub fn iter(&self) -> impl Iterator<Item = u64> + '_ {
        self.values[..self.len]
            .iter()
            .map(|&v| self.base.wrapping_add(v << self.shift))
    }
}

/// The switch tables of one object.
#[derive(Debug, Default)]
pub struct JumpTables {
    /// Tables without relocations (arm64), whose cases no relocation names.
    pub tables: Vec<JumpTable>,
    /// Dispatches through a table whose size was not found.
    pub unbounded: usize,
    /// Dispatches whose table could not be located or read consistently.
    pub rejected: usize,
    /// Tables without a bounds check objlint could follow, read up to the
    /// next referenced address of their section.
    pub sized_by_next: usize,
    /// Every table's cases (both kinds: also x86 tables of relocated
    /// addresses), by (section, offset) of the indirect jump.
    cases: FxHashMap<(usize, u64), Cases>,
    /// Dispatches recognised as switch tables whose cases are unknown.
    unread: FxHashSet<(usize, u64)>,
}

impl JumpTables {
    /// The case targets (offsets in the jump's section) of the switch
    /// dispatched by the indirect jump at a place.
    pub fn cases(&self, section: usize, jump: u64) -> Option<&Cases> {
        self.cases.get(&(section, jump))
    }
    /// Whether the indirect jump at a place dispatches through a table that
    /// could not be read.
    pub fn unread(&self, section: usize, jump: u64) -> bool {
        self.unread.contains(&(section, jump))
    }
    /// Number of x86 tables of relocated addresses.
    pub fn relocated(&self) -> usize {
        self.cases.len() - self.tables.len()
    }
}

impl Model<'_> {
    /// The switch tables of this object, built on first use.
    pub fn jump_tables(&self) -> &JumpTables {
        self.jump_tables.get_or_init(|| {
            crate::timing::time(crate::timing::Phase::Model, || JumpTables::build(self))
        })
    }
}

impl JumpTables {
    pub fn build(m: &Model) -> JumpTables {
        let mut out = JumpTables::default();
        let mut refs = References::default();
        let mut shared = SharedValues::default();
        if m.obj.machine == Machine::X86_64 {
            relocated_tables(m, &mut out);
            return out;
        }
        for (fi, f) in m.functions.iter().enumerate() {
            let Some(code) = m
                .section_code(f.section)
                .filter(|c| c.has_any(Kind::IndirectJump.bit()))
            else {
                continue;
            };
            let range = m.insn_range(f);
            if !code
                .transfers_in(range.clone())
                .iter()
                .any(|&k| code.insns[k as usize].kind == Kind::IndirectJump)
            {
                continue;
            }
            let insns = &code.insns[range.clone()];
            let data = m.obj.section_data(f.section);
            let mut to = m.cond_targets(code, range.clone());
            let mut attempt = |k: usize, to: &crate::arch::CondTargets| {
                let Some(tj) = m.dec.table_jump(insns, data, k, to) else {
                    return match m.dec.dispatch_form(insns, data, k) {
                        true => Attempt::Rejected,
                        false => Attempt::NoTable,
                    };
                };
                // Without a bounds check objlint can tie to the index (it
                // was spilled and reloaded, say), the table ends where the
                // next thing its section is referenced at begins.
                let state = (&mut shared, &mut refs);
                match read_table(m, state, fi, &tj, tj.entries) {
                    Some(read) => Attempt::Read(tj.entry_size, read, tj.entries.is_none()),
                    None if tj.entries.is_none() => Attempt::Unbounded,
                    None => Attempt::Rejected,
                }
            };
            let mut read: Vec<(usize, u8, Read, bool)> = Vec::new();
            let mut failed: Vec<(usize, Attempt)> = Vec::new();
            for (k, ins) in insns.iter().enumerate() {
                if ins.kind != Kind::IndirectJump {
                    continue;
                }
                match attempt(k, &to) {
                    Attempt::Read(size, r, by_next) => read.push((k, size, r, by_next)),
                    Attempt::NoTable => {}
                    a => failed.push((k, a)),
                }
            }
            // Code only a table reaches (its cases) is no way back to a
            // later dispatch until that table is read: with the cases of
            // those read, the others are tried again (msm.ko's two switches
            // in one loop, the second's table address set before the loop).
            let mut known = 0;
            while known < read.len() && !failed.is_empty() {
                for (k, _, (_, _, cases), _) in &read[known..] {
                    to.add_cases(*k, cases.iter());
                }
                known = read.len();
                failed.retain_mut(|(k, a)| match attempt(*k, &to) {
                    Attempt::Read(size, r, by_next) => {
                        read.push((*k, size, r, by_next));
                        false
                    }
                    again => {
                        *a = again;
                        true
                    }
                });
            }
            read.sort_unstable_by_key(|r| r.0);
            for (k, entry_size, (table_section, table_offset, cases), by_next) in read {
                let jump = insns[k].offset();
                out.sized_by_next += usize::from(by_next);
                out.cases.insert((f.section, jump), cases.clone());
                out.tables.push(JumpTable {
                    func: fi,
                    section: f.section,
                    jump,
                    table_section,
                    table_offset,
                    entry_size,
                    cases,
                });
            }
            for (k, a) in failed {
                match a {
                    Attempt::Unbounded => out.unbounded += 1,
                    _ => out.rejected += 1,
                }
                out.unread.insert((f.section, insns[k].offset()));
            }
        }
        // Computed gotos (`goto *jumptable[i]`, ___bpf_prog_run): tables of
        // absolute addresses, as on x86.
        relocated_tables(m, &mut out);
        out
    }
}

/// A table read for one dispatch: its section, offset and cases.
type Read = (usize, u64, Cases);

/// What one try at a dispatch's table came to.
enum Attempt {
    /// Read: its entry size, the table, whether sized by the next reference.
    Read(u8, Read, bool),
    /// Not a switch dispatch objlint knows.
    NoTable,
    /// A dispatch whose table was not found or not read consistently.
    Rejected,
    /// A table found, but not its size.
    Unbounded,
}

/// A table's values, by its place, entry size, sign and count: read once
/// however many dispatches read it.
type SharedValues = FxHashMap<(usize, u64, u8, bool, u64), Option<Arc<[u64]>>>;

/// The offsets of section `sec` that a relocation of the object refers to
/// or a symbol names (where a table, string or object begins; a constant
/// only other objects use has its symbol), sorted: found once per section.
fn references(m: &Model, sec: usize) -> Vec<u64> {
    let obj = m.obj;
    let mut out: Vec<u64> = obj
        .symbols
        .iter()
        .filter(|s| s.section == crate::elf::SymSection::Section(sec))
        .map(|s| s.value)
        .collect();
    // A debugger's reference (DWARF) says nothing of where data begins.
    for s in (0..obj.sections.len()).filter(|&s| !obj.relocs_deferred(s)) {
        for r in obj.relocs(s) {
            let addend = match m.dec.reloc_use(None, r.offset(), r.r_type()) {
                RelocUse::Address(bias) => obj.addend(r) + bias,
                _ => obj.addend(r),
            };
            if let Place::Local { section, offset } = obj.resolve(r.sym(), addend)
                && section == sec
            {
                out.push(offset);
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// The next referenced offset after `at` in section `sec` (see [`references`]).
fn next_reference(m: &Model, refs: &mut References, sec: usize, at: u64) -> Option<u64> {
    let r = refs.entry(sec).or_insert_with(|| references(m, sec));
    r.get(r.partition_point(|&o| o <= at)).copied()
}

/// [`references`] of the sections tables were read from.
type References = FxHashMap<usize, Vec<u64>>;

/// The table a dispatch reads: where its address computation points.
fn locate(m: &Model, fi: usize, tj: &crate::arch::TableJump) -> Option<(usize, u64)> {
    let f = &m.functions[fi];
    let obj = m.obj;
    match tj.table_pc {
        Some(pc) => Some((f.section, pc)),
        None => {
            let code = m.section_code(f.section)?;
            let names = |at: u64| -> Option<(usize, u64)> {
                let insn = code.insns.get(code.index_at(at)?)?;
                obj.relocs_in(f.section, insn.offset(), insn.end())
                    .iter()
                    .find_map(
                        |r| match m.dec.reloc_use(Some(insn), r.offset(), r.r_type()) {
                            RelocUse::Address(bias) => {
                                obj.resolve(r.sym(), obj.addend(r) + bias).local()
                            }
                            _ => None,
                        },
                    )
            };
            let place = names(tj.table_insn)?;
            let others = &tj.same_as;
            if others.iter().any(|&at| names(at) != Some(place)) {
                return None;
            }
            Some(place)
        }
    }
}

/// The table's entries: `n` of them, or when `n` is unknown, those up to
/// the section's next referenced address (each must land in the function;
/// reading stops at the first that does not).
fn read_table(
    m: &Model,
    (shared, refs): (&mut SharedValues, &mut References),
    fi: usize,
    tj: &crate::arch::TableJump,
    n: Option<u64>,
) -> Option<Read> {
    let f = &m.functions[fi];
    let obj = m.obj;
    let (ts, to) = locate(m, fi, tj)?;
    let size = u64::from(tj.entry_size);
    let sized = n.is_some();
    let n = match n {
        Some(n) => n,
        None => {
            let end = next_reference(m, refs, ts, to)
                .unwrap_or(obj.sections.get(ts)?.size)
                .min(obj.section_data(ts).len() as u64);
            (end.checked_sub(to)? / size).min(4096)
        }
    };
    // A switch has at most a few thousand cases; a larger bound is not a table.
    if n == 0 || n > 4096 {
        return None;
    }
    let values = shared
        .entry((ts, to, tj.entry_size, tj.signed, n))
        .or_insert_with(|| table_values(m, ts, to, size, tj.signed, n))
        .clone()?;
    let code = m.section_code(f.section)?;
    let mut len = 0;
    for &v in values.iter() {
        let target = tj.base.wrapping_add(v << tj.shift);
        if target < f.start || target >= f.end || code.index_at(target).is_none() {
            if !sized && len > 0 {
                break;
            }
            return None;
        }
        len += 1;
    }
    // Read up to the next referenced address, zero entries at the end are
    // the alignment padding before it as much as cases at the base label;
    // taking them as cases would walk the base with the dispatch's state.
    if !sized {
        while len > 0 && values[len - 1] == 0 {
            len -= 1;
        }
        if len == 0 {
            return None;
        }
    }
    let cases = Cases {
        values,
        len,
        base: tj.base,
        shift: tj.shift,
        elsewhere: Arc::new([]),
    };
    Some((ts, to, cases))
}

/// `n` entries of `size` bytes at `to` of section `ts`, as numbers; none
/// when they run past the section or a relocation applies to them.
fn table_values(
    m: &Model,
    ts: usize,
    to: u64,
    size: u64,
    signed: bool,
    n: u64,
) -> Option<Arc<[u64]>> {
    let obj = m.obj;
    let data = obj.section_data(ts);
    let end = to.checked_add(n * size)?;
    if end as usize > data.len() || !obj.relocs_in(ts, to, end).is_empty() {
        return None;
    }
    let bits = 8 * size as u32;
    Some(
        (0..n)
            .map(|k| {
                let at = (to + k * size) as usize;
                let mut raw = [0u8; 8];
                raw[..size as usize].copy_from_slice(&data[at..at + size as usize]);
                let v = u64::from_le_bytes(raw);
                if signed {
                    (((v << (64 - bits)) as i64) >> (64 - bits)) as u64
                } else {
                    v
                }
            })
            .collect(),
    )
}

const STT_SECTION: u8 = 3;
const R_X86_64_64: u32 = 1;
const R_X86_64_PC32: u32 = 2;
const R_X86_64_32S: u32 = 11;
const R_AARCH64_ABS64: u32 = 257;

/// Sections compilers put switch tables in (objtool's `mark_rodata`).
fn is_rodata(name: &str) -> bool {
    (name.starts_with(".rodata") && !name.contains(".str1.")) || name.starts_with(".data.rel.ro")
}

/// x86 switch tables: arrays of 8-byte absolute addresses in `.rodata`, one
/// relocation each, reached by `jmp *table(,%reg,8)` or through a register
/// loaded with the table's address. As objtool finds them
/// (`find_jump_table`, `add_jump_table`): the nearest instruction before the
/// jump that refers to an anonymous place in a read-only data section whose
/// first entry lands in the function; entries run while consecutive, inside
/// the function, and not at another table's start.
fn relocated_tables(m: &Model, out: &mut JumpTables) {
    let obj = m.obj;
    let x86 = obj.machine == Machine::X86_64;
    // (function, jump section, jump offset, table section, table offset)
    let mut found: Vec<(usize, usize, u64, usize, u64)> = Vec::new();
    // arm64: the table each function's register was found to hold, and the
    // dispatches through a register no path sets (reached only through a
    // table: the interpreter's handlers of ___bpf_prog_run).
    let mut by_reg: FxHashMap<(usize, u32), (usize, u64)> = FxHashMap::default();
    let mut later: Vec<(usize, usize, u32)> = Vec::new();
    // Indirect jumps, and jumps through a retpoline thunk (objtool turns
    // those into indirect jumps before looking for tables).
    // `dest` is asked only of a jump (a caller with the transfer's place
    // reads it there).
    let dispatch_to =
        |code: &SectionCode, k: usize, dest: &dyn Fn() -> Dest| match code.insns[k].kind {
            Kind::IndirectJump => true,
            Kind::Jump => m.is_indirect_thunk(dest()),
            _ => false,
        };
    let dispatch = |code: &SectionCode, k: usize| dispatch_to(code, k, &|| code.dest(k));
    // Every function's dispatches, found in parallel (on vmlinux.o, 60,000
    // functions' transfers took one thread 9 ms), then each in order.
    let dispatches: Vec<(usize, usize)> = m
        .functions
        .par_iter()
        .enumerate()
        .filter_map(|(fi, f)| Some((fi, f, m.section_code(f.section)?)))
        .flat_map_iter(|(fi, f, code)| {
            // By place among the transfers: their destinations are read
            // there without finding each instruction's place again.
            code.transfer_places(m.insn_range(f))
                .map(move |p| (p, code.transfers()[p] as usize))
                .filter(move |&(p, k)| dispatch_to(code, k, &|| code.dest_at(p)))
                .map(move |(_, k)| (fi, k))
        })
        .collect();
    // Each dispatch's table looked for in parallel (on vmlinux.o, thousands
    // of jumps through retpoline thunks, each searched back through the
    // relocations, took one thread 10 ms), then taken in order.
    // `known`: the cases of the function's tables read in an earlier round
    // (jump index in the function, case offsets): ways back to a dispatch
    // through code only those tables reach.
    let look = |fi: usize, k: usize, known: &[(usize, Vec<u64>)]| {
        let f = &m.functions[fi];
        let Some(code) = m.section_code(f.section) else {
            return Looked::Nothing;
        };
        let range = m.insn_range(f);
        let dispatch = |k: usize| dispatch(code, k);
        let fi_insns = &code.insns[range.clone()];
        let data = obj.section_data(f.section);
        // x86 position-independent code (`movslq (%rB,%rI,4),%rA; add
        // %rB,%rA; jmp *%rA`): the table is where %rB was set on every path
        // to the dispatch (gcc hoists that `lea .Ltable(%rip),%rB` to the
        // entry, past other switches; rustc sets several table registers
        // at once), not the nearest table address before the jump.
        let pie = x86 && m.dec.dispatch_form(fi_insns, data, k - range.start);
        let (from, reg) = if pie {
            let mut to = m.cond_targets(code, range.clone());
            for (j, cases) in known {
                to.add_cases(*j, cases.iter().copied());
            }
            match m.dec.table_base_def(fi_insns, data, k - range.start, &to) {
                Some((_, Some(d))) => (range.start + d, None),
                _ => return Looked::Nothing,
            }
        } else if x86 {
            (k, None)
        } else {
            // arm64 keeps the table's address in a register, often set once
            // at the function's entry for every dispatch (computed gotos):
            // look back from where it was last set. The register found
            // names the table for the function's other dispatches through
            // it that find no setting (`later` below).
            let to = m.cond_targets(code, range.clone());
            match m.dec.table_base_def(fi_insns, data, k - range.start, &to) {
                Some((reg, Some(d))) => (range.start + d, Some(reg)),
                Some((reg, None)) => return Looked::Later(fi, k, reg),
                None => return Looked::Nothing,
            }
        };
        // From a PIE table register's setting, only that instruction.
        let lo = if pie {
            from
        } else {
            from.saturating_sub(128).max(range.start)
        };
        // The relocations of the instructions looked at, found once
        // and walked back with them (a search per instruction was
        // 0.8% of the instructions of a run over the x86 modules).
        let span = obj.relocs_in(f.section, code.insns[lo].offset(), code.insns[from].end());
        let mut below = span.len();
        for j in (lo..=from).rev() {
            let ins = &code.insns[j];
            if j != k && dispatch(j) {
                break;
            }
            // This instruction's relocations: span[r_lo..r_hi].
            let mut r_lo = below;
            while r_lo > 0 && span[r_lo - 1].offset() >= ins.offset() {
                r_lo -= 1;
            }
            let mut r_hi = r_lo;
            while r_hi < below && span[r_hi].offset() < ins.end() {
                r_hi += 1;
            }
            below = r_lo;
            let table = span[r_lo..r_hi].iter().find_map(|r| {
                let sym = obj.symbols.get(r.sym())?;
                let ts = sym.section_index()?;
                if sym.st_type != STT_SECTION || !is_rodata(obj.section_name(ts)) {
                    return None;
                }
                let mut off = sym.value.wrapping_add(obj.addend(r) as u64);
                if x86 && r.r_type() == R_X86_64_PC32 {
                    off = off.wrapping_add(4);
                }
                off = off.wrapping_add(m.dec.address_adjust(
                    fi_insns,
                    data,
                    j - range.start,
                    k - range.start,
                    reg,
                ) as u64);
                let first = obj.relocs_in(ts, off, off + 1).first()?;
                match obj.resolve(first.sym(), obj.addend(first)) {
                    Place::Local { section, offset }
                        if m.in_function_or_cold_part(f, section, offset) =>
                    {
                        Some((ts, off))
                    }
                    _ => None,
                }
            });
            if let Some((ts, off)) = table {
                return Looked::Found((fi, f.section, code.insns[k].offset(), ts, off), reg);
            }
        }
        Looked::Nothing
    };
    let looked: Vec<Looked> = dispatches
        .par_iter()
        .map(|&(fi, k)| {
            let f = &m.functions[fi];
            let read = m.section_code(f.section).is_some_and(|code| {
                let at = (f.section, code.insns[k].offset());
                out.cases.contains_key(&at) || out.unread.contains(&at)
            });
            match read {
                true => Looked::Nothing,
                false => look(fi, k, &[]),
            }
        })
        .collect();
    for l in looked {
        match l {
            Looked::Found(t, reg) => {
                found.push(t);
                if let Some(reg) = reg {
                    by_reg.insert((t.0, reg), (t.3, t.4));
                }
            }
            Looked::Later(fi, k, reg) => later.push((fi, k, reg)),
            Looked::Nothing => {}
        }
    }
    for (fi, k, reg) in later {
        let f = &m.functions[fi];
        if let (Some(&(ts, off)), Some(code)) = (by_reg.get(&(fi, reg)), m.section_code(f.section))
        {
            found.push((fi, f.section, code.insns[k].offset(), ts, off));
        }
    }
    let mut starts: FxHashSet<(usize, u64)> = found.iter().map(|t| (t.3, t.4)).collect();
    read_relocated(m, &found, &starts, out);
    // x86 position-independent code: a dispatch whose table register is
    // set only on the way through another table's cases (rustc's second
    // dispatch of one table, in a loop) is looked for again with the cases
    // of the function's tables read.
    if !x86 {
        return;
    }
    'again: {
        let mut known: FxHashMap<usize, Vec<(usize, Vec<u64>)>> = FxHashMap::default();
        let mut again = Vec::new();
        for &(fi, k) in &dispatches {
            let f = &m.functions[fi];
            let Some(code) = m.section_code(f.section) else {
                continue;
            };
            let at = (f.section, code.insns[k].offset());
            if let Some(cases) = out.cases.get(&at) {
                let start = m.insn_range(f).start;
                known
                    .entry(fi)
                    .or_default()
                    .push((k - start, cases.iter().collect()));
            } else if !out.unread.contains(&at) {
                again.push((fi, k));
            }
        }
        again.retain(|(fi, _)| known.contains_key(fi));
        let more: Vec<_> = again
            .par_iter()
            .filter_map(|&(fi, k)| match look(fi, k, &known[&fi]) {
                Looked::Found(t, _) => Some(t),
                _ => None,
            })
            .collect();
        if more.is_empty() {
            break 'again;
        }
        // All again: a table read before may have run on into one found now.
        starts.extend(more.iter().map(|t| (t.3, t.4)));
        found.extend(more);
        read_relocated(m, &found, &starts, out);
    }
    // A dispatch of the position-independent form whose table was not found
    // is said to be unread (its jump cannot be followed), not taken for a
    // tail call.
    for &(fi, k) in &dispatches {
        let f = &m.functions[fi];
        let Some(code) = m.section_code(f.section) else {
            continue;
        };
        let at = (f.section, code.insns[k].offset());
        let range = m.insn_range(f);
        if !out.cases.contains_key(&at)
            && !out.unread.contains(&at)
            && m.dec.dispatch_form(
                &code.insns[range.clone()],
                obj.section_data(f.section),
                k - range.start,
            )
        {
            out.unread.insert(at);
        }
    }
}

/// Reads the tables `found` (function, jump section, jump offset, table
/// section, table offset) into `out`; a table ends at another's start.
fn read_relocated(
    m: &Model,
    found: &[(usize, usize, u64, usize, u64)],
    starts: &FxHashSet<(usize, u64)>,
    out: &mut JumpTables,
) {
    let obj = m.obj;
    let x86 = obj.machine == Machine::X86_64;
    // Each table read in parallel, taken in order (a later read of one
    // dispatch replaces an earlier one, as before).
    type Read = (usize, u64, Vec<u64>, Vec<(usize, u64)>);
    let read: Vec<Read> = found
        .par_iter()
        .map(|&(fi, sec, jump, ts, off)| {
            let f = &m.functions[fi];
            let mut cases = Vec::new();
            let mut elsewhere = Vec::new();
            let mut at = off;
            // Position-independent code (user space) keeps `.long case - table`:
            // PC-relative entries of 4 bytes, the table's start their base.
            let relative = x86
                && obj
                    .relocs_in(ts, off, off + 1)
                    .first()
                    .is_some_and(|r| r.r_type() == R_X86_64_PC32);
            for r in obj.relocs_in(ts, off, obj.sections[ts].size) {
                if r.offset() != at || (at != off && starts.contains(&(ts, at))) {
                    break;
                }
                let kind_ok = if relative {
                    r.r_type() == R_X86_64_PC32
                } else if x86 {
                    matches!(r.r_type(), R_X86_64_64 | R_X86_64_32S)
                } else {
                    r.r_type() == R_AARCH64_ABS64
                };
                if !kind_ok {
                    break;
                }
                let addend = if relative {
                    obj.addend(r).wrapping_sub((at - off) as i64)
                } else {
                    obj.addend(r)
                };
                match obj.resolve(r.sym(), addend) {
                    // A function pointer in an adjacent object.
                    Place::Local { section, offset } if section == sec && offset == f.start => {
                        break;
                    }
                    // Clang leaves unused entries pointing at the function's end.
                    Place::Local { section, offset } if section == sec && offset == f.end => {}
                    Place::Local { section, offset }
                        if section == sec && offset > f.start && offset < f.end =>
                    {
                        cases.push(offset)
                    }
                    Place::Local { section, offset }
                        if section != sec && m.in_function_or_cold_part(f, section, offset) =>
                    {
                        elsewhere.push((section, offset))
                    }
                    _ => break,
                }
                at += if relative { 4 } else { 8 };
            }
            (sec, jump, cases, elsewhere)
        })
        .collect();
    for (sec, jump, cases, elsewhere) in read {
        if cases.is_empty() && elsewhere.is_empty() {
            out.unread.insert((sec, jump));
        } else {
            out.cases
                .insert((sec, jump), Cases::targets(cases, elsewhere));
        }
    }
}

/// What the search for one dispatch's table found.
enum Looked {
    Nothing,
    /// (function, jump section, jump offset, table section, table offset),
    /// and the register that holds the table's address (arm64).
    Found((usize, usize, u64, usize, u64), Option<u32>),
    /// arm64: a dispatch through a register no path sets (function, index, register).
    Later(usize, usize, u32),
}
