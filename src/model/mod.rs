//! Functions, decoded code and control flow of one object.

pub mod address_taken;
pub mod alternatives;
pub mod cfi;
pub mod jump_tables;
pub mod orc;
pub mod patchable;
pub mod special;
pub mod walk;

use crate::arch::{Decoder, Insn, Kind, OpTable, decoder};
use crate::elf::{Object, Place, STB_GLOBAL, STB_WEAK};
use crate::rules::{NameSet, Rules};
use alternatives::Alternatives;
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use std::borrow::Cow;

/// Where a branch goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
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
pub struct Function<'a> {
    pub sym: usize,
    pub name: &'a str,
    pub section: usize,
    pub start: u64,
    pub end: u64,
    /// A preamble symbol (`__cfi_`, `__pfx_`): falls through by design.
    pub prefix: bool,
    pub weak: bool,
    pub global: bool,
    /// Its instructions: an index range into its section's
    /// [`SectionCode::insns`], set once the section is decoded.
    insns: std::ops::Range<usize>,
}

/// A [`Dest`] in 4 bytes: two tag bits, then a symbol index, an offset in
/// the instruction's own section, or an index into [`SectionCode::far`] (a
/// place in another section, or a number too large for 30 bits).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct PackedDest(u32);

impl PackedDest {
    const EXTERNAL: u32 = 1 << 30;
    const NEAR: u32 = 2 << 30;
    const FAR: u32 = 3 << 30;
    const TAG: u32 = 3 << 30;
    const LOW: u32 = (1 << 30) - 1;

    /// `d` for an instruction of section `sec`; what does not fit goes to
    /// `far` (dropped past 2^30 such entries: never for an object that parsed).
    fn pack(d: Dest, sec: usize, far: &mut Vec<Dest>) -> PackedDest {
        let small = |v: u64| u32::try_from(v).ok().filter(|&v| v <= Self::LOW);
        let inline = match d {
            Dest::None => Some(0),
            Dest::External { sym } => small(sym as u64).map(|s| Self::EXTERNAL | s),
            Dest::Local { section, offset } if section == sec => {
                small(offset).map(|o| Self::NEAR | o)
            }
            Dest::Local { .. } => None,
        };
        PackedDest(inline.unwrap_or_else(|| match small(far.len() as u64) {
            Some(k) => {
                far.push(d);
                Self::FAR | k
            }
            None => 0,
        }))
    }
    /// Whether it may be a [`Dest::Local`] (a cheap test before unpacking).
    fn may_be_local(self) -> bool {
        self.0 & Self::NEAR != 0
    }
    fn unpack(self, sec: usize, far: &[Dest]) -> Dest {
        let low = self.0 & Self::LOW;
        match self.0 & Self::TAG {
            Self::EXTERNAL => Dest::External { sym: low as usize },
            Self::NEAR => Dest::Local {
                section: sec,
                offset: u64::from(low),
            },
            Self::FAR => far.get(low as usize).copied().unwrap_or(Dest::None),
            _ => Dest::None,
        }
    }
}

/// No link: see [`SectionCode::link`].
const NO_LINK: u32 = u32::MAX;

/// The decoded instructions of one executable section, in offset order,
/// with branch destinations resolved through relocations.
#[derive(Debug, Default)]
pub struct SectionCode {
    /// The section's index.
    section: usize,
    pub insns: Vec<Insn>,
    dests: Vec<PackedDest>,
    /// Branch destinations [`PackedDest`] does not hold inline.
    far: Vec<Dest>,
    /// Per instruction, resolved once so control-flow walks need no lookups:
    /// for a direct jump, the index of the instruction at its target in this
    /// section; for a direct call, the index of the function it calls.
    links: Vec<u32>,
    /// Per [`PAGE`] bytes of the section: the index of the first instruction
    /// at or after the page's start. Lookups by offset step through the few
    /// instructions of one page, not a binary search over the whole array (a
    /// large module's `.text` has millions of entries, and such a search
    /// misses the cache at every step). A quarter of the code's size.
    pages: Vec<u32>,
    /// [`Kind::bit`]s of the kinds present, so a check can skip a section
    /// without the instructions it looks for.
    kinds: u32,
    /// The indexes of the branches and returns ([`Kind::TRANSFERS`]), in
    /// order: scans that only look at those step through a fifth of the
    /// instructions.
    transfers: Vec<u32>,
    /// The state operations of the instructions that have any.
    ops: OpTable,
}

const PAGE: u64 = 16;

/// See [`SectionCode::pages`].
fn page_index(insns: &[Insn]) -> Vec<u32> {
    let end = insns.last().map_or(0, |i| i.offset());
    let mut pages = vec![0u32; (end / PAGE) as usize + 2];
    // Runs of pages in parallel, each starting from a search.
    pages
        .par_chunks_mut(INDEX_CHUNK)
        .with_min_len(4)
        .enumerate()
        .for_each(|(c, run)| {
            let first = (c * INDEX_CHUNK) as u64;
            let mut k = insns.partition_point(|i| i.offset() < first * PAGE);
            for (j, slot) in run.iter_mut().enumerate() {
                let p = first + j as u64;
                while k < insns.len() && insns[k].offset() < p * PAGE {
                    k += 1;
                }
                *slot = k as u32;
            }
        });
    pages
}

/// Pages or instructions per unit of parallel work in the per-section
/// indexes (units of fewer run on one thread).
const INDEX_CHUNK: usize = 1 << 14;

impl SectionCode {
    /// The section's index.
    pub fn section(&self) -> usize {
        self.section
    }
    /// Where the branch at index `i` goes (`Dest::None` for other instructions).
    pub fn dest(&self, i: usize) -> Dest {
        self.dests[i].unpack(self.section, &self.far)
    }
    /// See [`SectionCode::links`].
    fn link(&self, i: usize) -> Option<usize> {
        let l = self.links[i];
        (l != NO_LINK).then_some(l as usize)
    }
    /// The state operations of the instruction at index `i`, in order.
    pub fn ops(&self, i: usize) -> crate::arch::ops::OpIter<'_> {
        let ins = &self.insns[i];
        if !ins.has_ops() {
            return crate::arch::ops::OpIter::empty();
        }
        let from = ins.ops_index().unwrap_or_else(|| {
            self.ops
                .offsets()
                .partition_point(|&o| u64::from(o) < ins.offset())
        });
        self.ops.from_index(from, ins.offset())
    }
    /// The end of the run of plain instructions ([`Insn::is_plain`]) from
    /// `from`, at most `limit`.
    #[inline]
    pub fn plain_end(&self, from: usize, limit: usize) -> usize {
        let limit = limit.min(self.insns.len());
        let mut j = from;
        while j < limit && self.insns[j].is_plain() {
            j += 1;
        }
        j
    }
    /// Whether any instruction is of one of `kinds` ([`Kind::bit`]s).
    pub fn has_any(&self, kinds: u32) -> bool {
        self.kinds & kinds != 0
    }
    /// The indexes of the section's branches and returns
    /// ([`Kind::TRANSFERS`]), in order.
    pub fn transfers(&self) -> &[u32] {
        &self.transfers
    }
    /// [`SectionCode::transfers`] among the instructions `range`.
    pub fn transfers_in(&self, range: std::ops::Range<usize>) -> &[u32] {
        let t = &self.transfers;
        let lo = t.partition_point(|&k| (k as usize) < range.start);
        let hi = lo + t[lo..].partition_point(|&k| (k as usize) < range.end);
        &t[lo..hi]
    }
    /// Index of the instruction starting exactly at `offset`.
    pub fn index_at(&self, offset: u64) -> Option<usize> {
        let i = self.lower_bound(offset);
        (self.insns.get(i)?.offset() == offset).then_some(i)
    }
    /// Index of the first instruction at or after `offset`.
    pub fn lower_bound(&self, offset: u64) -> usize {
        let p = (offset / PAGE) as usize;
        let (lo, hi) = match (self.pages.get(p), self.pages.get(p + 1)) {
            (Some(&lo), Some(&hi)) => (lo as usize, hi as usize),
            (Some(&lo), None) => (lo as usize, self.insns.len()),
            _ => return self.insns.len(),
        };
        let mut k = lo;
        while k < hi && self.insns[k].offset() < offset {
            k += 1;
        }
        k
    }
}

pub struct Model<'a> {
    pub obj: &'a Object<'a>,
    pub dec: &'static dyn Decoder,
    pub code: Vec<Option<SectionCode>>,
    /// Sorted by (section, start).
    pub functions: Vec<Function<'a>>,
    starts: FxHashMap<(usize, u64), usize>,
    /// Per function: the largest `end` of it and the functions before it in
    /// its section, so a lookup can step back over nested symbols.
    reach: Vec<u64>,
    /// Per symbol: named in the noreturn list (undefined symbols and global
    /// or weak functions only), looked up once instead of at every call.
    listed_noreturn: Vec<bool>,
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
    /// `.altinstructions` sites.
    pub alts: Alternatives,
    /// Exception fixups, jump labels, WARN traps, objtool's annotations.
    special: special::Special,
    /// Per symbol: [`SYM_RETURN_THUNK`], [`SYM_INDIRECT_THUNK`].
    sym_flags: Vec<u8>,
    /// Defined symbols with flags by place: a linked whole defines its
    /// thunks as `STT_NOTYPE` labels (SYM_CODE_START, SYM_INNER_LABEL), which
    /// are not functions, and its branches to them resolve to that place.
    flagged_at: FxHashMap<(usize, u64), usize>,
    indirect_jumps_leave: bool,
    /// Places where a symbol of code starts (functions, and `STT_NOTYPE`
    /// labels of hand-written code), for telling calls from intra-function calls.
    symbol_starts: rustc_hash::FxHashSet<(usize, u64)>,
}

/// A jump to this symbol is a return.
const SYM_RETURN_THUNK: u8 = 1;
/// A call or jump to this symbol is an indirect one (a retpoline).
const SYM_INDIRECT_THUNK: u8 = 2;
/// A call to this symbol is made before the frame is set up by design.
const SYM_FRAME_EXEMPT: u8 = 4;

/// Per symbol: named noreturn by the rules, or by the object's own DWARF
/// (`declared`, sorted: `DW_AT_noreturn` on a declaration or definition).
fn listed_noreturn(obj: &Object, names: &NameSet, declared: &[String]) -> Vec<bool> {
    obj.symbols
        .iter()
        .map(|s| {
            let candidate = match s.section {
                crate::elf::SymSection::Undef => s.index != 0,
                crate::elf::SymSection::Section(_) => s.is_func() && s.is_global(),
                _ => false,
            };
            candidate
                && (names.contains(&s.name)
                    || declared
                        .binary_search_by(|d| d.as_str().cmp(&s.name))
                        .is_ok())
        })
        .collect()
}

fn symbol_flags(obj: &Object, rules: &Rules) -> Vec<u8> {
    let ret = rules.return_thunks(obj.machine);
    let ind = rules.indirect_thunks(obj.machine);
    let exempt = rules.frame_exempt_calls(obj.machine);
    obj.symbols
        .iter()
        .map(|s| {
            if s.index == 0 || s.name.is_empty() {
                return 0;
            }
            let mut f = 0;
            if ret.contains(&s.name) {
                f |= SYM_RETURN_THUNK;
            }
            if ind.contains(&s.name) {
                f |= SYM_INDIRECT_THUNK;
            }
            if exempt.contains(&s.name) {
                f |= SYM_FRAME_EXEMPT;
            }
            f
        })
        .collect()
}

fn build_functions<'a>(obj: &'a Object, rules: &Rules) -> Vec<Function<'a>> {
    let mut by_start: FxHashMap<(usize, u64), Function<'a>> = FxHashMap::default();
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
            name: &s.name,
            section: sec,
            start: s.value,
            end,
            prefix: rules.is_prefix_symbol(&s.name),
            weak: s.bind == STB_WEAK,
            global: s.bind == STB_GLOBAL,
            insns: 0..0,
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
    let mut funcs: Vec<Function<'a>> = by_start.into_values().collect();
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

/// Sections with more code than this are decoded in pieces on several
/// threads (a module or vmlinux.o without -ffunction-sections has one .text).
const PARALLEL_DECODE: u64 = 1 << 20;
/// Bytes of code per piece; pieces end at function boundaries.
const PIECE: u64 = 256 << 10;
/// Instructions per parallel chunk when resolving branch destinations.
const RESOLVE_CHUNK: usize = 1 << 14;

/// The code ranges of a section cut at every function boundary (`cuts`,
/// sorted): decoding restarts at each, so every function (and the padding
/// between functions) is decoded from its own start.
fn segments(obj: &Object, sec: usize, cuts: &[u64]) -> Vec<(u64, u64)> {
    let mut out = Vec::new();
    for (lo, hi) in obj.code_ranges(sec) {
        let mut from = lo;
        for to in cuts
            .iter()
            .copied()
            .filter(|&c| c > lo && c < hi)
            .chain([hi])
        {
            if to > from {
                out.push((from, to));
            }
            from = to;
        }
    }
    out
}

/// Decode `segments` of `data` in order, with their state operations; with
/// `piece`, on several threads in pieces of about that many bytes (each a
/// run of whole segments), with the same result.
fn decode_segments(
    dec: &dyn Decoder,
    data: &[u8],
    segments: &[(u64, u64)],
    piece: Option<u64>,
) -> (Vec<Insn>, OpTable) {
    let decode = |segments: &[(u64, u64)]| {
        let bytes: u64 = segments.iter().map(|(a, b)| b - a).sum();
        let mut out = Vec::with_capacity(bytes as usize / dec.typical_insn_len() + 16);
        let mut ops = OpTable::default();
        for &(from, to) in segments {
            dec.decode_with_ops(
                &data[from as usize..to as usize],
                from,
                &mut out,
                Some(&mut ops),
            );
        }
        (out, ops)
    };
    let Some(piece) = piece else {
        return decode(segments);
    };
    let mut pieces = Vec::new();
    let (mut first, mut bytes) = (0, 0);
    for (k, (a, b)) in segments.iter().enumerate() {
        bytes += b - a;
        if bytes >= piece {
            pieces.push(first..k + 1);
            (first, bytes) = (k + 1, 0);
        }
    }
    pieces.push(first..segments.len());
    let parts: Vec<(Vec<Insn>, OpTable)> = pieces
        .into_par_iter()
        .map(|r| decode(&segments[r]))
        .collect();
    // Each piece is freed once copied, so the peak stays near one copy.
    let mut all = Vec::with_capacity(parts.iter().map(|p| p.0.len()).sum());
    let mut ops = OpTable::default();
    for (p, mut o) in parts {
        all.extend_from_slice(&p);
        ops.append(&mut o);
    }
    (all, ops)
}

/// Each instruction with operations learns where they start in `ops`, so
/// the walks find them without a search, and whether it is straight-line
/// code ([`Insn::is_plain`]; the special tables may still take that back).
fn index_ops(insns: &mut [Insn], ops: &OpTable) {
    let offs = ops.offsets();
    // Where the instruction after each run starts (none after the last).
    let after: Vec<u64> = insns
        .chunks(INDEX_CHUNK)
        .skip(1)
        .map(|c| c[0].offset())
        .chain([u64::MAX])
        .collect();
    insns
        .par_chunks_mut(INDEX_CHUNK)
        .with_min_len(4)
        .zip(after)
        .for_each(|(run, after)| {
            let mut next = after;
            for ins in run.iter_mut().rev() {
                let plain =
                    matches!(ins.kind, Kind::Other | Kind::Nop | Kind::Pad(_)) && next == ins.end();
                next = ins.offset();
                ins.set_plain(plain);
            }
            let mut k = offs.partition_point(|&o| u64::from(o) < run[0].offset());
            for ins in run.iter_mut().filter(|i| i.has_ops()) {
                while k < offs.len() && u64::from(offs[k]) < ins.offset() {
                    k += 1;
                }
                ins.set_ops_index(k);
                if ins.is_plain()
                    && !ops
                        .from_index(k, ins.offset())
                        .all(|op| matches!(op, crate::arch::Op::Stack { .. }))
                {
                    ins.set_plain(false);
                }
            }
        });
}

/// System calls that never return (`exit`, `exit_group`, `rt_sigreturn`:
/// `syscalls` in rules/noreturn.toml, by number): a [`Kind::Syscall`] whose
/// number the straight-line code before it sets to one of them ends its
/// path, as other context switches do. Where a branch in the section (or a
/// reference the assembler resolved), or a function, starts is where
/// straight-line code may be entered from elsewhere.
fn mark_noreturn_syscalls(
    dec: &dyn Decoder,
    data: &[u8],
    insns: &mut [Insn],
    cuts: &[u64],
    numbers: &[u64],
) {
    if numbers.is_empty() || !insns.iter().any(|i| i.kind == Kind::Syscall) {
        return;
    }
    let mut entries: rustc_hash::FxHashSet<u64> =
        insns.iter().filter_map(|i| i.imm_target()).collect();
    entries.extend(cuts.iter().copied());
    let found: Vec<usize> = {
        let insns = &*insns;
        let entered = |k: usize| insns.get(k).is_some_and(|i| entries.contains(&i.offset()));
        (0..insns.len())
            .filter(|&k| insns[k].kind == Kind::Syscall)
            .filter(|&k| {
                dec.syscall_number(insns, data, k, &entered)
                    .is_some_and(|n| numbers.contains(&n))
            })
            .collect()
    };
    for k in found {
        insns[k].kind = Kind::ContextSwitch;
    }
}

fn decode_section(
    obj: &Object,
    dec: &dyn Decoder,
    sec: usize,
    cuts: &[u64],
    starts: &FxHashMap<(usize, u64), usize>,
    noreturn_syscalls: &[u64],
) -> SectionCode {
    let data = obj.section_data(sec);
    let segments = segments(obj, sec, cuts);
    let total: u64 = segments.iter().map(|(a, b)| b - a).sum();
    let piece = (total >= PARALLEL_DECODE).then_some(PIECE);
    let (mut insns, ops) = decode_segments(dec, data, &segments, piece);
    mark_noreturn_syscalls(dec, data, &mut insns, cuts, noreturn_syscalls);
    index_ops(&mut insns, &ops);
    let mut code = SectionCode {
        section: sec,
        pages: page_index(&insns),
        kinds: 0,
        transfers: Vec::new(),
        ops,
        insns,
        dests: Vec::new(),
        far: Vec::new(),
        links: Vec::new(),
    };
    resolve_branches(obj, dec, starts, &mut code, RESOLVE_CHUNK);
    code
}

/// Branch destinations through the relocations, jump links and the kinds
/// present, in parallel chunks of `chunk` instructions (same result for any
/// chunk size).
fn resolve_branches(
    obj: &Object,
    dec: &dyn Decoder,
    starts: &FxHashMap<(usize, u64), usize>,
    code: &mut SectionCode,
    chunk: usize,
) {
    let sec = code.section;
    let insns = &code.insns;
    let mut dests = vec![PackedDest::default(); insns.len()];
    let mut links = vec![NO_LINK; insns.len()];
    let relocs = obj.relocs(sec);
    let chunks: Vec<(u32, Vec<Dest>, Vec<u32>)> = dests
        .par_chunks_mut(chunk)
        .zip(links.par_chunks_mut(chunk))
        .enumerate()
        .map(|(c, (dests, links))| {
            let part = &insns[c * chunk..c * chunk + dests.len()];
            // Relocations and instructions are both in offset order: one cursor.
            let mut r0 = relocs.partition_point(|r| r.offset < part[0].offset());
            let mut kinds = 0;
            let mut far = Vec::new();
            let mut transfers = Vec::with_capacity(part.len() / 4);
            for (k, ins) in part.iter().enumerate() {
                let bit = ins.kind.bit();
                kinds |= bit;
                if bit & Kind::TRANSFERS != 0 {
                    transfers.push((c * chunk + k) as u32);
                }
                if !ins.kind.is_branch() {
                    continue;
                }
                while r0 < relocs.len() && relocs[r0].offset < ins.offset() {
                    r0 += 1;
                }
                let mut dest = Dest::None;
                let mut relocated = false;
                for r in relocs[r0..].iter().take_while(|r| r.offset < ins.end()) {
                    if let Some(bias) = dec.branch_reloc_bias(ins, r.offset, r.r_type) {
                        relocated = true;
                        dest = match obj.resolve(r.sym, r.addend.wrapping_add(bias)) {
                            Place::Local { section, offset } => Dest::Local { section, offset },
                            Place::External { sym, .. } => Dest::External { sym },
                            Place::Other => Dest::None,
                        };
                    }
                }
                if let (false, Some(t)) = (relocated, ins.imm_target()) {
                    dest = Dest::Local {
                        section: sec,
                        offset: t,
                    };
                }
                dests[k] = PackedDest::pack(dest, sec, &mut far);
                let link = match (ins.kind, dest) {
                    (Kind::Call, Dest::Local { section, offset }) => {
                        starts.get(&(section, offset)).copied()
                    }
                    (Kind::Jump | Kind::CondJump, Dest::Local { section, offset })
                        if section == sec =>
                    {
                        code.index_at(offset)
                    }
                    _ => None,
                };
                links[k] = link.and_then(|l| u32::try_from(l).ok()).unwrap_or(NO_LINK);
            }
            (kinds, far, transfers)
        })
        .collect();
    // Each chunk numbered its far destinations from 0: renumber into one table.
    let mut far = Vec::new();
    let mut kinds = 0;
    let mut transfers = Vec::with_capacity(chunks.iter().map(|c| c.2.len()).sum());
    for (c, (k, part, t)) in chunks.into_iter().enumerate() {
        kinds |= k;
        transfers.extend_from_slice(&t);
        if part.is_empty() {
            continue;
        }
        let base = far.len();
        let end = (c * chunk + chunk).min(dests.len());
        for d in &mut dests[c * chunk..end] {
            if d.0 & PackedDest::TAG == PackedDest::FAR {
                *d = PackedDest::pack(d.unpack(sec, &part), sec, &mut far);
            }
        }
        debug_assert_eq!(far.len(), base + part.len());
    }
    code.far = far;
    code.dests = dests;
    code.links = links;
    code.kinds = kinds;
    code.transfers = transfers;
}

/// Functions per parallel chunk when collecting callers.
const CALLER_CHUNK: usize = 512;

/// Per function, the functions of the object that branch to its start
/// (compressed rows: `by[start[f]..start[f + 1]]`, in caller order; a caller
/// branching twice is listed twice).
struct Callers {
    start: Vec<u32>,
    by: Vec<u32>,
}

impl Callers {
    fn of(&self, f: usize) -> &[u32] {
        &self.by[self.start[f] as usize..self.start[f + 1] as usize]
    }
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
            rules.alt_nop_callbacks(obj.machine),
            rules.alt_direct_call_flag(obj.machine),
            &functions,
        );
        alts.error = alt_table.error;
        for (sec, start, end) in alts.replacement_starts() {
            cuts[sec].extend([start, end]);
        }
        for c in cuts.iter_mut() {
            c.sort_unstable();
            c.dedup();
        }
        let starts: FxHashMap<(usize, u64), usize> = functions
            .iter()
            .enumerate()
            .map(|(i, f)| ((f.section, f.start), i))
            .collect();
        let code: Vec<Option<SectionCode>> = obj
            .sections
            .par_iter()
            .map(|s| {
                s.is_exec().then(|| {
                    crate::timing::time(crate::timing::Phase::Decode, || {
                        decode_section(
                            obj,
                            dec,
                            s.index,
                            &cuts[s.index],
                            &starts,
                            rules.noreturn_syscalls(obj.machine),
                        )
                    })
                })
            })
            .collect();
        alts.mark_uaccess_exclusive(&code);
        let mut functions = functions;
        for f in functions.iter_mut() {
            if let Some(c) = &code[f.section] {
                f.insns = c.lower_bound(f.start)..c.lower_bound(f.end);
            }
        }
        let mut reach = Vec::with_capacity(functions.len());
        for (i, f) in functions.iter().enumerate() {
            let before = match i.checked_sub(1).map(|p| &functions[p]) {
                Some(p) if p.section == f.section => reach[i - 1],
                _ => 0,
            };
            reach.push(f.end.max(before));
        }
        let special = special::Special::build(obj, &code, &alts, &rules.special);
        let mut code = code;
        special.unmark_plain(&mut code);
        let sym_flags = symbol_flags(obj, rules);
        let flagged_at = obj
            .symbols
            .iter()
            .filter(|s| sym_flags.get(s.index).is_some_and(|&f| f != 0))
            .filter_map(|s| Some(((s.section_index()?, s.value), s.index)))
            .collect();
        let mut m = Model {
            obj,
            dec,
            code,
            reach,
            noreturn: vec![false; functions.len()],
            exports_asked: false,
            functions,
            starts,
            listed_noreturn: listed_noreturn(
                obj,
                rules.noreturn(obj.machine),
                &crate::elf::dwarf::noreturn_names(obj),
            ),
            landing: std::sync::OnceLock::new(),
            patchable: std::sync::OnceLock::new(),
            jump_tables: std::sync::OnceLock::new(),
            special,
            sym_flags,
            flagged_at,
            indirect_jumps_leave: rules.indirect_jumps_leave(obj.machine),
            symbol_starts: obj
                .symbols
                .iter()
                .filter(|s| {
                    s.index != 0
                        && matches!(s.st_type, 0 | 2)
                        && !s.name.is_empty()
                        && !s.name.starts_with(".L")
                        && !s.name.starts_with('$')
                })
                .filter_map(|s| Some((s.section_index()?, s.value)))
                .collect(),
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
            Dest::Local { section, offset } => self
                .function_at_start(section, offset)
                .is_some_and(|i| self.function_noreturn(i)),
            Dest::None => false,
        }
    }

    /// Whether the direct call at index `i` never returns.
    pub fn call_is_noreturn(&self, code: &SectionCode, i: usize) -> bool {
        match code.dest(i) {
            Dest::External { sym } => self.listed_noreturn[sym],
            Dest::Local { .. } => code.link(i).is_some_and(|c| self.function_noreturn(c)),
            Dest::None => false,
        }
    }

    fn function_noreturn(&self, i: usize) -> bool {
        let f = &self.functions[i];
        self.noreturn[i] || ((f.global || f.weak) && self.listed_noreturn[f.sym])
    }

    /// Whether a symbol of code (a function or a label of hand-written
    /// code) starts at a place.
    pub fn symbol_starts_at(&self, section: usize, offset: u64) -> bool {
        self.symbol_starts.contains(&(section, offset))
    }

    /// A stand-in function of no extent at a place, to walk code outside
    /// every function from (entry code reached through unwind hints).
    pub fn pseudo_function(&self, section: usize, offset: u64) -> Function<'a> {
        Function {
            sym: 0,
            name: "",
            section,
            start: offset,
            end: offset,
            prefix: false,
            weak: false,
            global: false,
            insns: 0..0,
        }
    }

    /// The kernel tables and annotations of this object.
    pub fn special(&self) -> &special::Special {
        &self.special
    }

    /// Whether a jump to `dest` is a return (a return thunk, undefined or
    /// defined in this object).
    pub fn is_return_thunk(&self, dest: Dest) -> bool {
        self.dest_sym(dest)
            .is_some_and(|s| self.is_return_thunk_sym(s))
    }

    /// Whether a jump to this symbol is a return (a return thunk).
    pub fn is_return_thunk_sym(&self, sym: usize) -> bool {
        self.sym_flags
            .get(sym)
            .is_some_and(|f| f & SYM_RETURN_THUNK != 0)
    }

    /// Whether a call to this symbol is an indirect call (a retpoline thunk).
    pub fn is_indirect_thunk_sym(&self, sym: usize) -> bool {
        self.sym_flags
            .get(sym)
            .is_some_and(|f| f & SYM_INDIRECT_THUNK != 0)
    }

    /// Whether a call to this symbol is made before a frame is set up by
    /// design (`__fentry__`).
    pub fn is_frame_exempt_sym(&self, sym: usize) -> bool {
        self.sym_flags
            .get(sym)
            .is_some_and(|f| f & SYM_FRAME_EXEMPT != 0)
    }

    /// Whether a speculation barrier follows instruction `i` of section
    /// `sec` (x86 `int3`; arm64 `sb`, or `dsb sy`/`dsb nsh` then `isb`).
    pub fn barrier_after(&self, sec: usize, i: usize) -> bool {
        use crate::arch::Barrier;
        let Some(code) = self.section_code(sec) else {
            return false;
        };
        let data = self.obj.section_data(sec);
        let at = |k: usize| -> Option<Barrier> {
            let ins = code.insns.get(k)?;
            self.dec
                .speculation_barrier(data.get(ins.offset() as usize..)?)
        };
        match at(i + 1) {
            Some(Barrier::Complete) => true,
            Some(Barrier::NeedsIsb) => at(i + 2) == Some(Barrier::Isb),
            _ => false,
        }
    }

    /// Whether the code at a place is an indirect-call thunk of
    /// straight-line-speculation hardening (arm64 `-mharden-sls=blr`: `mov
    /// x16, xN; br x16` and a barrier, which GCC places inside the calling
    /// function and LLVM in `__llvm_slsblr_thunk_xN`): a call to it is an
    /// indirect call. Where calls leave the return address in a register
    /// (arm64), one inside a function (no symbol of its own: GCC's) is one
    /// by its shape alone, so a missing barrier after it is an `sls` finding
    /// and not a call into the function's body. (x86 keeps such a call an
    /// intra-function call, as objtool does.)
    pub fn is_call_thunk(&self, section: usize, offset: u64) -> bool {
        let Some(code) = self.section_code(section) else {
            return false;
        };
        code.index_at(offset)
            .and_then(|k| thunk_jump(code, k))
            .is_some_and(|jump| {
                self.sls_hardened(section, jump)
                    || (matches!(self.dec.frame().ra, crate::arch::RaHome::Reg(_))
                        && self.function_at_start(section, offset).is_none()
                        && self.function_containing(section, offset).is_some())
            })
    }

    /// Whether straight-line speculation past the return or indirect jump
    /// at `i` stops at a barrier: one follows it, or (GCC's stubs of
    /// `-mharden-sls=blr`, one per register, emitted together after a
    /// function with one barrier after the last) it runs only through
    /// further `mov x16, xN; br x16` stubs to one.
    pub fn sls_hardened(&self, sec: usize, i: usize) -> bool {
        let Some(code) = self.section_code(sec) else {
            return false;
        };
        let mut jump = i;
        // At most one stub per register.
        for _ in 0..32 {
            if self.barrier_after(sec, jump) {
                return true;
            }
            match thunk_jump(code, jump + 1) {
                Some(next)
                    if next == jump + 2 && jump > 0 && thunk_jump(code, jump - 1) == Some(jump) =>
                {
                    jump = next
                }
                _ => return false,
            }
        }
        false
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

    /// Whether some path through `f` may return to its caller. A return
    /// instruction anywhere in its own range counts, reached or not (as
    /// objtool's `dead_end_function`): one no path reaches is entered some way
    /// the walk does not see (vmlinux.o's `__efi64_thunk` comes back from
    /// 32-bit code by a far jump to its `ret`).
    fn may_return(&self, f: &Function) -> bool {
        if let Some(code) = self.section_code(f.section)
            && code.transfers_in(self.insn_range(f)).iter().any(|&i| {
                let i = i as usize;
                let ins = &code.insns[i];
                ins.kind == Kind::Return
                    || (ins.kind == Kind::Jump && self.is_return_thunk(code.dest(i)))
            })
        {
            return true;
        }
        let mut v = walk::MayReturn::new(self, f);
        walk::Walker::new(self).walk(f, (), &mut v);
        // Nothing reached: no instruction at the entry.
        v.returns || !v.entered
    }

    /// Every global, non-weak function symbol this object defines (aliases
    /// included), and whether the function never returns (listed, declared
    /// or proven here): what other members of its archive may rely on.
    pub fn strong_definitions(&self) -> Vec<(&'a str, bool)> {
        self.obj
            .symbols
            .iter()
            .filter(|s| s.is_func() && s.bind == STB_GLOBAL && !s.name.is_empty())
            .filter_map(|s| {
                let i = self.function_at_start(s.section_index()?, s.value)?;
                Some((&*s.name, self.function_noreturn(i)))
            })
            .collect()
    }

    /// Proves which global functions never return, also those nothing in
    /// this object calls (by default only functions some branch here goes
    /// to are asked): other members of its archive call them.
    pub fn prove_exports(&mut self) {
        if !self.exports_asked {
            self.exports_asked = true;
            self.infer_noreturn();
        }
    }

    /// Takes the functions named in `names` as noreturn where this object
    /// calls them undefined: the other members of its archive define them and
    /// none of their paths returns, as a link of the archive would show.
    /// Inference runs again from the new facts. Whether any call changed.
    pub fn link_noreturn(&mut self, names: &rustc_hash::FxHashSet<String>) -> bool {
        let mut changed = false;
        for s in &self.obj.symbols {
            if s.index != 0
                && s.section == crate::elf::SymSection::Undef
                && !self.listed_noreturn[s.index]
                && names.contains(&*s.name)
            {
                self.listed_noreturn[s.index] = true;
                changed = true;
            }
        }
        if changed {
            self.infer_noreturn();
        }
        changed
    }

    /// Least fixed point: a function is noreturn once none of its paths can
    /// return given the noreturn functions known so far.
    fn infer_noreturn(&mut self) {
        let eligible =
            |m: &Self, i: usize| !m.noreturn[i] && !m.functions[i].weak && !m.functions[i].prefix;
        // Only callers (and tail-callers) of a function found noreturn can
        // change their answer, so later rounds re-walk just those.
        let callers = self.local_callers();
        // A function's own answer is only ever asked through a branch to its
        // start, so functions nothing in this object branches to are skipped.
        let mut consulted = self.branched_to(&callers);
        // In an archive, other members ask about global functions too.
        if self.exports_asked {
            for (i, f) in self.functions.iter().enumerate() {
                consulted[i] |= f.global;
            }
        }
        let mut cand: Vec<usize> = (0..self.functions.len())
            .filter(|&i| consulted[i] && eligible(self, i))
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
                .flat_map(|&f| callers.of(f).iter().map(|&by| by as usize))
                .filter(|&i| eligible(self, i))
                .collect();
            next.sort_unstable();
            next.dedup();
            cand = next;
        }
    }

    /// The callers (and tail-callers) of each function: its direct calls and
    /// jumps to function starts from within functions of this object
    /// (recursion included). Functions are scanned in parallel chunks and
    /// bucketed by callee, so each caller list is sorted without a sort.
    fn local_callers(&self) -> Callers {
        let chunks: Vec<Vec<(u32, u32)>> = self
            .functions
            .par_chunks(CALLER_CHUNK)
            .enumerate()
            .map(|(k, fs)| {
                let mut out = Vec::new();
                for (j, f) in fs.iter().enumerate() {
                    let Some(code) = self.section_code(f.section) else {
                        continue;
                    };
                    let fi = (k * CALLER_CHUNK + j) as u32;
                    for &i in code.transfers_in(self.insn_range(f)) {
                        if let Some(callee) = self.branch_callee(code, i as usize) {
                            out.push((callee as u32, fi));
                        }
                    }
                }
                out
            })
            .collect();
        let mut start = vec![0u32; self.functions.len() + 1];
        for &(callee, _) in chunks.iter().flatten() {
            start[callee as usize + 1] += 1;
        }
        for i in 1..start.len() {
            start[i] += start[i - 1];
        }
        let mut fill = start.clone();
        let mut by = vec![0u32; *start.last().unwrap_or(&0) as usize];
        // Chunks and their pairs in function order: each bucket fills in
        // caller order, repeats adjacent.
        for &(callee, caller) in chunks.iter().flatten() {
            let at = &mut fill[callee as usize];
            by[*at as usize] = caller;
            *at += 1;
        }
        Callers { start, by }
    }

    /// The function a branch at index `i` goes to the start of.
    fn branch_callee(&self, code: &SectionCode, i: usize) -> Option<usize> {
        if !code.dests[i].may_be_local() {
            return None;
        }
        match code.dest(i) {
            Dest::Local { .. } if code.insns[i].kind == Kind::Call => code.link(i),
            Dest::Local { section, offset } => self.function_at_start(section, offset),
            _ => None,
        }
    }

    /// Functions some branch in this object goes to: the callees in
    /// `callers`, and the targets of branches outside every function
    /// (alternative replacements, code between functions).
    fn branched_to(&self, callers: &Callers) -> Vec<bool> {
        let mut out: Vec<bool> = (0..self.functions.len())
            .map(|f| !callers.of(f).is_empty())
            .collect();
        for (sec, code) in self.code.iter().enumerate() {
            let Some(code) = code else { continue };
            let mut inside = vec![false; code.insns.len()];
            let lo = self.functions.partition_point(|f| f.section < sec);
            let hi = self.functions.partition_point(|f| f.section <= sec);
            for f in &self.functions[lo..hi] {
                inside[f.insns.clone()].fill(true);
            }
            for &i in code.transfers() {
                let i = i as usize;
                if !inside[i]
                    && let Some(callee) = self.branch_callee(code, i)
                {
                    out[callee] = true;
                }
            }
        }
        out
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

/// The indirect jump of a thunk-shaped stub at `k`: a bare indirect jump, or
/// one instruction and then the jump (`mov x16, xN; br x16`).
fn thunk_jump(code: &SectionCode, k: usize) -> Option<usize> {
    match code.insns.get(k)?.kind {
        Kind::IndirectJump => Some(k),
        Kind::Other
            if code
                .insns
                .get(k + 1)
                .is_some_and(|n| n.kind == Kind::IndirectJump) =>
        {
            Some(k + 1)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Branch destinations and links come out the same whatever the chunk
    /// size, destinations in other sections (kept apart) included.
    #[test]
    fn resolving_in_chunks_matches_one_chunk() {
        let rules = Rules::builtin();
        // The most destinations in other sections one section has: two or
        // more, or a wrong renumbering of chunks could go unseen.
        let mut far = 0;
        let (inputs, _) = crate::input::expand(&["testdata/real".into(), "testdata/core".into()]);
        for input in inputs {
            let path = input.path.display().to_string();
            let Ok(bytes) = std::fs::read(&input.path) else {
                continue;
            };
            let Ok(obj) = Object::parse(&bytes) else {
                continue;
            };
            let m = Model::build(&obj, &rules);
            for code in m.code.iter().flatten() {
                let fresh = |chunk: usize| {
                    let mut c = SectionCode {
                        section: code.section,
                        insns: code.insns.clone(),
                        pages: code.pages.clone(),
                        ..Default::default()
                    };
                    resolve_branches(&obj, m.dec, &m.starts, &mut c, chunk);
                    c
                };
                let one = fresh(usize::MAX);
                far = far.max(one.far.len());
                for chunk in [1, 7, 100] {
                    let c = fresh(chunk);
                    assert_eq!(c.links, one.links, "{path} chunk {chunk}");
                    assert_eq!(c.kinds, one.kinds);
                    assert_eq!(c.transfers, one.transfers);
                    for i in 0..one.insns.len() {
                        assert_eq!(c.dest(i), one.dest(i), "{path} #{i} chunk {chunk}");
                        assert_eq!(code.dest(i), one.dest(i));
                    }
                }
            }
        }
        assert!(
            far > 0,
            "no destination in another section: the case is untested"
        );
    }

    #[test]
    fn packed_destinations_round_trip() {
        let mut far = Vec::new();
        for d in [
            Dest::None,
            Dest::External { sym: 5 },
            Dest::External { sym: 1 << 31 },
            Dest::Local {
                section: 3,
                offset: 0x10,
            },
            Dest::Local {
                section: 3,
                offset: 1 << 40,
            },
            Dest::Local {
                section: 4,
                offset: 0x10,
            },
        ] {
            assert_eq!(PackedDest::pack(d, 3, &mut far).unpack(3, &far), d);
        }
        assert_eq!(far.len(), 3);
    }

    /// Pieces decoded on several threads give what one pass gives, on real
    /// modules of both arches cut at their function boundaries.
    #[test]
    fn pieced_decoding_matches_one_pass() {
        let rules = Rules::builtin();
        for path in [
            "testdata/real/x86_64/evdev.ko",
            "testdata/real/arm64/nf_conntrack_tftp.ko",
        ] {
            let bytes = std::fs::read(path).unwrap();
            let obj = Object::parse(&bytes).unwrap();
            let m = Model::build(&obj, &rules);
            let dec = decoder(obj.machine);
            for s in obj.sections.iter().filter(|s| s.is_exec()) {
                let mut cuts: Vec<u64> = m
                    .functions
                    .iter()
                    .filter(|f| f.section == s.index)
                    .flat_map(|f| [f.start, f.end])
                    .collect();
                cuts.sort_unstable();
                let segments = segments(&obj, s.index, &cuts);
                let data = obj.section_data(s.index);
                let (mut one, one_ops) = decode_segments(dec, data, &segments, None);
                assert!(!one.is_empty() || s.size == 0);
                let one_ops: Vec<_> = one_ops.iter().collect();
                for piece in [1, 64, 1000] {
                    let (pieced, ops) = decode_segments(dec, data, &segments, Some(piece));
                    assert!(one == pieced, "{path} {} piece {piece}", s.name);
                    assert!(one_ops == ops.iter().collect::<Vec<_>>());
                }
                // The model's own instructions are the same ones.
                if let Some(code) = m.section_code(s.index) {
                    let ops = decode_segments(dec, data, &segments, None).1;
                    index_ops(&mut one, &ops);
                    // Marked instructions are not plain (Special::unmark_plain).
                    for (k, ins) in one.iter_mut().enumerate() {
                        if m.special().at(s.index, k, ins.offset()).is_some() {
                            ins.set_plain(false);
                        }
                    }
                    assert!(code.insns == one, "{path} {}", s.name);
                }
            }
        }
    }
}
