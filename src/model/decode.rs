//! Decoding an executable section into its [`SectionCode`]: cut at function
//! boundaries, in pieces on several threads, branches resolved through the
//! relocations.

use super::code::{BLOCK, Dest, NO_LINK, PackedDest, SectionCode, StartBlock, TRANSFER_BLOCK};
use crate::arch::{Decoder, Insn, Kind, OpTable};
use crate::elf::{Object, Place};
use rayon::prelude::*;

/// Sections with more code than this are decoded in pieces on several
/// threads (a module or vmlinux.o without -ffunction-sections has one .text).
const PARALLEL_DECODE: u64 = 1 << 20;
/// Bytes of code per piece; pieces end at function boundaries.
const PIECE: u64 = 256 << 10;
/// Instructions per parallel chunk when resolving branch destinations.
const RESOLVE_CHUNK: usize = 1 << 14;

/// The code of executable section `sec`, decoded from each of `cuts`
/// (function boundaries, alternative replacements). `replacements` (sorted
/// ranges of alternative replacements) are code whatever the mapping
/// symbols say: clang marks code it assembles into a subsection after data
/// (`alternative_else` in arm64 assembly) as data.
pub(super) fn decode_section(
    obj: &Object,
    dec: &dyn Decoder,
    sec: usize,
    cuts: &[u64],
    replacements: &[(u64, u64)],
    starts: &super::functions::FunctionStarts,
    noreturn_syscalls: &[u64],
) -> SectionCode {
    let data = obj.section_data(sec);
    let segments = segments(obj, sec, cuts, replacements);
    let total: u64 = segments.iter().map(|(a, b)| b - a).sum();
    let piece = (total >= PARALLEL_DECODE).then_some(PIECE);
    let (mut insns, mut ops, seen, unsettled) = decode_segments(dec, data, &segments, piece);
    dec.settle_ops(data, &mut insns, &mut ops, &unsettled);
    if seen.syscall {
        mark_noreturn_syscalls(dec, data, &mut insns, cuts, noreturn_syscalls);
    }
    let mut code = SectionCode {
        section: sec,
        starts: start_index(&insns),
        kinds: 0,
        kcfi_hash_loads: seen.kcfi_hash_loads,
        transfers: Vec::new(),
        ops,
        insns,
        dests: Vec::new(),
        far: Vec::new(),
        links: Vec::new(),
        transfer_blocks: Vec::new(),
        computed: Vec::new(),
        function_starts: Vec::new(),
    };
    code.function_starts = starts.bits_for(&code);
    resolve_branches(obj, dec, starts, &mut code, RESOLVE_CHUNK);
    code
}

/// The code ranges of a section cut at every function boundary (`cuts`,
/// sorted): decoding restarts at each, so every function (and the padding
/// between functions) is decoded from its own start.
fn segments(
    obj: &Object,
    sec: usize,
    cuts: &[u64],
    replacements: &[(u64, u64)],
) -> Vec<(u64, u64)> {
    let mut out = Vec::new();
    let mut ranges = obj.code_ranges(sec);
    if !replacements.is_empty() && obj.has_mapping_symbols(sec) {
        ranges = union(&ranges, replacements, obj.sections[sec].size);
    }
    for (lo, hi) in ranges {
        let mut from = lo;
        // arm64 data-in-code (each kCFI hash is a `$d` range) makes tens of
        // thousands of ranges: look up each one's cuts, never scan them all.
        let first = cuts.partition_point(|&c| c <= lo);
        for to in cuts[first..]
            .iter()
            .copied()
            .take_while(|&c| c < hi)
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

/// The union of two sorted lists of ranges, within `0..size`.
fn union(a: &[(u64, u64)], b: &[(u64, u64)], size: u64) -> Vec<(u64, u64)> {
    let mut all: Vec<(u64, u64)> = a
        .iter()
        .chain(b)
        .map(|&(lo, hi)| (lo.min(size), hi.min(size)))
        .filter(|&(lo, hi)| lo < hi)
        .collect();
    all.sort_unstable();
    let mut out: Vec<(u64, u64)> = Vec::with_capacity(all.len());
    for (lo, hi) in all {
        match out.last_mut() {
            Some(last) if lo <= last.1 => last.1 = last.1.max(hi),
            _ => out.push((lo, hi)),
        }
    }
    out
}

/// Decode `segments` of `data` in order, with their state operations
/// (instructions straight-line code only if the next follows without a
/// gap, [`settle_last`]); with `piece`, on several
/// threads in pieces of about that many bytes (each a run of whole
/// segments), with the same result. Whether any is a [`Kind::Syscall`];
/// the places [`Decoder::settle_ops`] is to look at.
fn decode_segments(
    dec: &dyn Decoder,
    data: &[u8],
    segments: &[(u64, u64)],
    piece: Option<u64>,
) -> Piece {
    // A piece's buffers, reused: a fresh one per piece faulted in 60 MB
    // on vmlinux.o (one copy of its instructions again), each page costing
    // a fault and each unmap an interrupt of the other threads.
    let spare: std::sync::Mutex<Vec<(Vec<Insn>, OpTable)>> = Default::default();
    let decode = |segments: &[(u64, u64)]| {
        let bytes: u64 = segments.iter().map(|(a, b)| b - a).sum();
        let (mut out, mut ops) = crate::lock(&spare).pop().unwrap_or_default();
        out.reserve(bytes as usize / dec.typical_insn_len() + 16);
        // About one instruction in five has a state operation.
        ops.reserve(bytes as usize / (4 * dec.typical_insn_len()) + 16);
        let mut seen = Seen::default();
        for &(from, to) in segments {
            let first = out.len();
            dec.decode_with_ops(
                &data[from as usize..to as usize],
                from,
                &mut out,
                Some(&mut ops),
            );
            seen.add(&out[first..], first);
            if let (Some(k), Some(next)) = (first.checked_sub(1), out.get(first)) {
                let next = next.offset();
                settle_last(&mut out[k], Some(next));
            }
        }
        let unsettled = dec.unsettled(&ops);
        (out, ops, seen, unsettled)
    };
    let Some(piece) = piece else {
        let (mut out, ops, seen, unsettled) = decode(segments);
        if let Some(last) = out.last_mut() {
            settle_last(last, None);
        }
        return (out, ops, seen, unsettled);
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
    // Pieces are taken in order, one at a time, by every thread, and each is
    // appended as soon as it and every piece before it are done, by the
    // thread that finished it: at most about one piece per thread waits, so
    // the peak stays near one copy of the section's instructions (amdgpu.ko's
    // 1.7 M instructions are 21 MB), and no thread waits for a wave of
    // pieces to end (waves cost vmlinux.o's .text a tenth of its decode).
    let bytes: u64 = segments.iter().map(|(a, b)| b - a).sum();
    let all = Vec::with_capacity(bytes as usize / dec.typical_insn_len() + 16);
    let out = std::sync::Mutex::new((all, OpTable::default(), Seen::default(), Vec::new()));
    let commit = std::sync::Mutex::new(Commit {
        next: 0,
        ready: (0..pieces.len()).map(|_| None).collect(),
        busy: false,
    });
    let taken = std::sync::atomic::AtomicUsize::new(0);
    let work = || loop {
        let k = taken.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let Some(r) = pieces.get(k) else {
            break;
        };
        let part = decode(&segments[r.clone()]);
        let mut c = crate::lock(&commit);
        c.ready[k] = Some(part);
        if c.busy {
            continue;
        }
        c.busy = true;
        loop {
            let mut run = Vec::new();
            let Commit { next, ready, .. } = &mut *c;
            while let Some(p) = ready.get_mut(*next).and_then(Option::take) {
                run.push(p);
                *next += 1;
            }
            if run.is_empty() {
                c.busy = false;
                break;
            }
            drop(c);
            {
                let mut out = crate::lock(&out);
                let (all, ops, seen, unsettled) = &mut *out;
                for (mut p, mut o, s, u) in run {
                    // The piece's operations were numbered from 0.
                    let (from, base) = (all.len(), ops.len());
                    if let (Some(k), Some(next)) = (from.checked_sub(1), p.first()) {
                        settle_last(&mut all[k], Some(next.offset()));
                    }
                    all.extend_from_slice(&p);
                    if base > 0 {
                        for ins in &mut all[from..] {
                            ins.rebase_ops_index(base);
                        }
                    }
                    ops.append(&mut o);
                    seen.append(s, from);
                    unsettled.extend(u);
                    p.clear();
                    crate::lock(&spare).push((p, o));
                }
            }
            c = crate::lock(&commit);
        }
    };
    rayon::scope(|s| {
        for _ in 1..rayon::current_num_threads().min(pieces.len()) {
            s.spawn(|_| work());
        }
        work();
    });
    let (mut all, ops, seen, unsettled) = out
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(last) = all.last_mut() {
        settle_last(last, None);
    }
    all.shrink_to_fit();
    (all, ops, seen, unsettled)
}

/// What decoding a section saw, for passes that need only look if so.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
struct Seen {
    /// A [`Kind::Syscall`].
    syscall: bool,
    /// The indexes of kCFI checks' hash loads ([`Insn::is_kcfi_hash_load`];
    /// x86 flags every `ud2` a trap, the loads only where a check may be):
    /// the checks are found from them, not from a pass over every
    /// instruction for its traps (1.4% of a gcc vmlinux.o's instructions).
    kcfi_hash_loads: Vec<u32>,
}

impl Seen {
    /// One pass over freshly decoded instructions, the first at index `base`.
    fn add(&mut self, insns: &[Insn], base: usize) {
        for (k, i) in insns.iter().enumerate() {
            self.syscall |= i.kind == Kind::Syscall;
            if i.is_kcfi_hash_load() {
                self.kcfi_hash_loads.push((base + k) as u32);
            }
        }
    }
    /// What a piece whose instructions were appended at index `base` saw.
    fn append(&mut self, o: Seen, base: usize) {
        self.syscall |= o.syscall;
        (self.kcfi_hash_loads).extend(o.kcfi_hash_loads.iter().map(|&k| k + base as u32));
    }
    #[cfg(test)]
    fn of(insns: &[Insn]) -> Seen {
        let mut s = Seen::default();
        s.add(insns, 0);
        s
    }
}

/// A decoded piece: its instructions, their operations (numbered from 0),
/// what it saw, where its operations may need settling.
type Piece = (Vec<Insn>, OpTable, Seen, Vec<u64>);

/// Decoded pieces waiting to be appended in order.
struct Commit {
    /// The first piece not yet appended.
    next: usize,
    ready: Vec<Option<Piece>>,
    /// A thread is appending.
    busy: bool,
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
    if numbers.is_empty() {
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

/// The last instruction of a decoder's run, once the instruction after it
/// (`next`, its offset) is known: straight-line code ([`Insn::straight`])
/// only if that follows without a gap.
fn settle_last(last: &mut Insn, next: Option<u64>) {
    if next != Some(last.end()) {
        last.set_plain(false);
    }
}

/// See [`SectionCode::starts`]. Instruction offsets increase strictly.
fn start_index(insns: &[Insn]) -> Vec<StartBlock> {
    debug_assert!(insns.windows(2).all(|w| w[0].offset() < w[1].offset()));
    let end = insns.last().map_or(0, |i| i.offset());
    let mut blocks = crate::filled_with((end / BLOCK) as usize + 1, StartBlock::default);
    // Runs of blocks in parallel, each starting from a search.
    let index = |(c, run): (usize, &mut [StartBlock])| {
        let first = (c * INDEX_CHUNK) as u64;
        let end = first + run.len() as u64;
        let k0 = insns.partition_point(|i| i.offset() < first * BLOCK);
        let k1 = k0 + insns[k0..].partition_point(|i| i.offset() < end * BLOCK);
        // A block's bits are gathered while its instructions come (in
        // order) and stored when one of a later block comes; `blocks`
        // starts zeroed.
        let (mut at, mut bits) = (0, 0u64);
        for ins in &insns[k0..k1] {
            let o = ins.offset() - first * BLOCK;
            let b = (o / BLOCK) as usize;
            if b != at {
                run[at].set_bits(bits);
                (at, bits) = (b, 0);
            }
            bits |= 1 << (o % BLOCK);
        }
        run[at].set_bits(bits);
        let mut before = k0 as u32;
        for b in run.iter_mut() {
            b.before = before;
            before += b.bits().count_ones();
        }
    };
    if blocks.len() <= INDEX_CHUNK {
        // One run (most sections): without the threads' bookkeeping.
        index((0, &mut blocks[..]));
    } else {
        blocks
            .par_chunks_mut(INDEX_CHUNK)
            .with_min_len(4)
            .enumerate()
            .for_each(index);
    }
    blocks
}

/// Pages or instructions per unit of parallel work in the per-section
/// indexes (units of fewer run on one thread).
const INDEX_CHUNK: usize = 1 << 14;

/// What [`resolve_branches`] finds in one chunk of instructions (far
/// destinations numbered from 0 in the chunk, transfers and blocks counted
/// from the chunk's first).
struct Resolved {
    kinds: u32,
    far: Vec<Dest>,
    transfers: Vec<u32>,
    dests: Vec<PackedDest>,
    links: Vec<u32>,
    computed: Vec<u32>,
    /// Per [`TRANSFER_BLOCK`] of the chunk: its transfers before the block.
    blocks: Vec<u32>,
}

/// Branch destinations through the relocations, jump links and the kinds
/// present, in parallel chunks of about `chunk` instructions (a whole number
/// of transfer blocks; same result for any chunk size).
fn resolve_branches(
    obj: &Object,
    dec: &dyn Decoder,
    starts: &super::functions::FunctionStarts,
    code: &mut SectionCode,
    chunk: usize,
) {
    let chunk = chunk
        .div_ceil(TRANSFER_BLOCK)
        .saturating_mul(TRANSFER_BLOCK);
    let sec = code.section;
    let insns = &code.insns;
    let relocs = obj.relocs(sec);
    let resolve = |c: usize, part: &[Insn]| {
        // Relocations and instructions are both in offset order: one cursor.
        let mut r0 = relocs.partition_point(|r| r.offset() < part[0].offset());
        let mut kinds = 0;
        let mut far = Vec::new();
        let mut transfers = Vec::with_capacity(part.len() / 4);
        let mut dests = Vec::with_capacity(part.len() / 4);
        let mut links = Vec::with_capacity(part.len() / 4);
        let mut computed = Vec::new();
        let mut blocks = Vec::with_capacity(part.len().div_ceil(TRANSFER_BLOCK));
        for (k, ins) in part.iter().enumerate() {
            if k % TRANSFER_BLOCK == 0 {
                blocks.push(transfers.len() as u32);
            }
            let bit = ins.kind.bit();
            kinds |= bit;
            if bit & Kind::TRANSFERS == 0 {
                if ins.kind == Kind::Other && ins.imm_target().is_some() {
                    computed.push((c * chunk + k) as u32);
                }
                continue;
            }
            transfers.push((c * chunk + k) as u32);
            // Branches go where their operand's relocation (or their
            // bytes) say; an indirect call or jump through a symbol's GOT
            // slot goes to the symbol; other transfers nowhere.
            let branch = ins.kind.is_branch();
            if !branch && !matches!(ins.kind, Kind::IndirectCall | Kind::IndirectJump) {
                dests.push(PackedDest::default());
                links.push(NO_LINK);
                continue;
            }
            while r0 < relocs.len() && relocs[r0].offset() < ins.offset() {
                r0 += 1;
            }
            let mut dest = Dest::None;
            let mut relocated = false;
            for r in relocs[r0..].iter().take_while(|r| r.offset() < ins.end()) {
                // A relocation of the branch that is not understood
                // leaves its destination unknown, not the bytes' own.
                relocated = true;
                let bias = if branch {
                    dec.branch_reloc_bias(ins, r.offset(), r.r_type())
                } else {
                    dec.got_call_bias(ins, r.offset(), r.r_type())
                };
                if let Some(bias) = bias {
                    dest = match obj.resolve(r.sym(), obj.addend(r).wrapping_add(bias)) {
                        Place::Local { section, offset } => Dest::Local { section, offset },
                        Place::External { sym, .. } => Dest::External { sym },
                        Place::Other => Dest::None,
                    };
                }
            }
            if let (true, false, Some(t)) = (branch, relocated, ins.imm_target()) {
                dest = Dest::Local {
                    section: sec,
                    offset: t,
                };
            }
            dests.push(PackedDest::pack(dest, sec, &mut far));
            let link = match (ins.kind, dest) {
                // A call through the GOT slot of a function defined here
                // (rustc's calls of generic instances) calls it.
                (Kind::Call | Kind::IndirectCall, Dest::Local { section, offset }) => {
                    starts.get(section, offset)
                }
                (Kind::Jump | Kind::CondJump, Dest::Local { section, offset })
                    if section == sec =>
                {
                    code.index_at(offset)
                }
                _ => None,
            };
            links.push(link.and_then(|l| u32::try_from(l).ok()).unwrap_or(NO_LINK));
        }
        Resolved {
            kinds,
            far,
            transfers,
            dests,
            links,
            computed,
            blocks,
        }
    };
    let r = if !insns.is_empty() && insns.len() <= chunk {
        // One chunk (most sections; an LTO vmlinux.o has one per function):
        // its parts are the section's, without the threads' bookkeeping.
        resolve(0, insns)
    } else {
        // A chunk a job: a piece of several, resolved alone at the end,
        // held the other thread idle (vmlinux.o's .text: about 20 ms).
        let chunks = (insns.par_chunks(chunk).with_max_len(1).enumerate())
            .map(|(c, part)| resolve(c, part))
            .collect();
        merge_resolved(chunks, insns.len())
    };
    code.kinds = r.kinds;
    code.far = r.far;
    code.dests = r.dests;
    code.links = r.links;
    code.transfers = r.transfers;
    code.transfer_blocks = r.blocks;
    code.computed = r.computed;
}

/// One section's parts from its chunks' (`n_insns` instructions in all).
fn merge_resolved(chunks: Vec<Resolved>, n_insns: usize) -> Resolved {
    // Where each chunk's parts start in the section's; then every chunk's
    // parts are copied into place in parallel, its far destinations and
    // transfer counts renumbered (on vmlinux.o's .text one thread merging a
    // million transfers, or collecting the rest, kept the other idle).
    let mut bases = Vec::with_capacity(chunks.len());
    let (mut n, mut n_far, mut n_computed) = (0, 0, 0);
    for c in &chunks {
        bases.push((n as u32, n_far));
        n += c.transfers.len();
        n_far += c.far.len();
        n_computed += c.computed.len();
    }
    let mut transfers = vec![0u32; n];
    let mut dests = crate::filled_with(n, PackedDest::default);
    let mut links = vec![0u32; n];
    let mut far = vec![Dest::None; n_far];
    let mut computed = vec![0u32; n_computed];
    let mut transfer_blocks = vec![0u32; n_insns.div_ceil(TRANSFER_BLOCK)];
    let mut places = Vec::with_capacity(chunks.len());
    {
        let mut rest = (
            &mut transfers[..],
            &mut dests[..],
            &mut links[..],
            &mut far[..],
            &mut computed[..],
            &mut transfer_blocks[..],
        );
        for c in &chunks {
            let k = c.transfers.len();
            let (t, tr) = std::mem::take(&mut rest.0).split_at_mut(k);
            let (d, dr) = std::mem::take(&mut rest.1).split_at_mut(k);
            let (l, lr) = std::mem::take(&mut rest.2).split_at_mut(k);
            let (f, fr) = std::mem::take(&mut rest.3).split_at_mut(c.far.len());
            let (p, pr) = std::mem::take(&mut rest.4).split_at_mut(c.computed.len());
            let (b, br) = std::mem::take(&mut rest.5).split_at_mut(c.blocks.len());
            rest = (tr, dr, lr, fr, pr, br);
            places.push((t, d, l, f, p, b));
        }
    }
    chunks
        .par_iter()
        .with_max_len(4)
        .zip(bases)
        .zip(places)
        .for_each(|((c, (base, far_base)), (t, d, l, f, p, b))| {
            t.copy_from_slice(&c.transfers);
            l.copy_from_slice(&c.links);
            f.copy_from_slice(&c.far);
            p.copy_from_slice(&c.computed);
            for (to, &from) in d.iter_mut().zip(&c.dests) {
                *to = from.rebase(far_base);
            }
            for (to, &from) in b.iter_mut().zip(&c.blocks) {
                *to = base + from;
            }
        });
    Resolved {
        kinds: chunks.iter().fold(0, |k, c| k | c.kinds),
        far,
        transfers,
        dests,
        links,
        computed,
        blocks: transfer_blocks,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arch::decoder;
    use crate::model::Model;
    use crate::rules::Rules;

    /// Branch destinations and links come out the same whatever the chunk
    /// size, destinations in other sections (kept apart) included.
    #[test]
    fn resolving_in_chunks_matches_one_chunk() {
        // The most destinations in other sections one section has: two or
        // more, or a wrong renumbering of chunks could go unseen.
        let mut far = 0;
        crate::model::each_fixture_model(&["testdata/real", "testdata/core"], |path, obj, m| {
            for code in m.code.iter().flatten() {
                let fresh = |chunk: usize| {
                    let mut c = SectionCode {
                        section: code.section,
                        insns: code.insns.clone(),
                        starts: code.starts.clone(),
                        ..Default::default()
                    };
                    resolve_branches(obj, m.dec, &m.starts, &mut c, chunk);
                    c
                };
                let one = fresh(usize::MAX);
                far = far.max(one.far.len());
                // Every instruction finds its own transfer entry through the
                // blocks, and no other instruction finds one.
                for i in 0..one.insns.len() {
                    let k = one.transfers.iter().position(|&t| t as usize == i);
                    assert_eq!(one.transfer(i), k, "{path} #{i}");
                    if k.is_none() {
                        assert_eq!((one.dest(i), one.link(i)), (Dest::None, None));
                    }
                }
                // The transfers of any run of instructions, found through the
                // blocks, are those a search finds.
                let n = one.insns.len();
                for (a, b) in (0..=n)
                    .step_by(5)
                    .flat_map(|a| [(a, a), (a, (a + 3).min(n)), (a, (a + 40).min(n)), (a, n)])
                {
                    let t = &one.transfers;
                    let lo = t.partition_point(|&k| (k as usize) < a);
                    let hi = t.partition_point(|&k| (k as usize) < b);
                    assert_eq!(one.transfer_places(a..b), lo..hi, "{path} {a}..{b}");
                }
                for chunk in [1, 7, 100] {
                    let c = fresh(chunk);
                    assert_eq!(c.links, one.links, "{path} chunk {chunk}");
                    assert_eq!(c.kinds, one.kinds);
                    assert_eq!(c.transfers, one.transfers);
                    assert_eq!(c.computed, one.computed);
                    assert_eq!(c.far, one.far);
                    assert_eq!(c.transfer_blocks, one.transfer_blocks);
                    for i in 0..one.insns.len() {
                        assert_eq!(c.dest(i), one.dest(i), "{path} #{i} chunk {chunk}");
                        assert_eq!(code.dest(i), one.dest(i));
                    }
                }
            }
        });
        assert!(
            far > 0,
            "no destination in another section: the case is untested"
        );
    }

    /// Lookups by offset through the start index find what a search of
    /// the instructions finds (the first at or after the offset; the one
    /// exactly there), across runs of blocks built apart (`INDEX_CHUNK`),
    /// over gaps longer than a run, at blocks' first and last bytes, and
    /// past the last instruction (the search in `lower_bound` is the
    /// oracle: a `<=` for its `<` fails this, as does a count of the bit
    /// at the offset itself).
    #[test]
    fn start_index_answers_as_a_search() {
        let run = INDEX_CHUNK as u64 * BLOCK;
        let mut layouts: Vec<Vec<u64>> = vec![
            vec![],
            vec![0],
            vec![5],
            vec![63, 64],
            (0..4000).map(|k| k * 3).collect(),
            (0..300).collect(),
            // Dense, then a gap of several runs, then instructions on both
            // sides of a run's boundary and one at its last byte.
            (0..1000)
                .map(|k| k * 7)
                .chain([
                    3 * run - 1,
                    3 * run,
                    3 * run + 15,
                    4 * run - 16,
                    4 * run + 1,
                ])
                .collect(),
        ];
        // Irregular lengths from a fixed seed.
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut off = 0;
        let mut irregular = Vec::new();
        for _ in 0..200_000 {
            irregular.push(off);
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            off += 1 + x % 15 + if x.is_multiple_of(997) { 40_000 } else { 0 };
        }
        layouts.push(irregular);
        for offsets in layouts {
            let insns: Vec<Insn> = offsets
                .iter()
                .map(|&o| Insn::new(o, 1, Kind::Other, None))
                .collect();
            let code = SectionCode {
                starts: start_index(&insns),
                insns,
                ..Default::default()
            };
            let end = code.insns.last().map_or(0, |i| i.end());
            // Every offset near an instruction, a block's edge or the end;
            // a sample of the rest.
            let mut probes: Vec<u64> = offsets
                .iter()
                .flat_map(|&o| [o.saturating_sub(1), o, o + 1])
                .chain(
                    (0..=end / BLOCK + 2).flat_map(|b| [b * BLOCK, (b * BLOCK).saturating_sub(1)]),
                )
                .chain((0..end + 2 * BLOCK).step_by(97))
                .chain([u64::MAX, u64::MAX / 2, 1 << 40])
                .collect();
            probes.sort_unstable();
            probes.dedup();
            for o in probes {
                let want = code.insns.partition_point(|i| i.offset() < o);
                assert_eq!(
                    code.lower_bound(o),
                    want,
                    "offset {o}, {} instructions",
                    code.insns.len()
                );
                let exact = code
                    .insns
                    .get(want)
                    .filter(|i| i.offset() == o)
                    .map(|_| want);
                assert_eq!(code.index_at(o), exact, "offset {o}");
            }
        }
    }

    /// The former pass over a whole section after decoding (the one the
    /// indexing during decoding replaced): the oracle for it.
    fn index_ops(insns: &mut [Insn], ops: &OpTable) -> bool {
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
            .map(|(run, after)| {
                let mut next = after;
                let mut syscall = false;
                for ins in run.iter_mut().rev() {
                    syscall |= ins.kind == Kind::Syscall;
                    let plain = ins.kind.is_straight() && next == ins.end();
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
                syscall
            })
            .reduce(|| false, |a, b| a || b)
    }

    /// Pieces decoded on several threads give what one pass gives, on real
    /// modules of both arches cut at their function boundaries.
    #[test]
    fn pieced_decoding_matches_one_pass() {
        let rules = Rules::builtin();
        let mut probe_subs = 0;
        let pools: Vec<_> = [5, 2, 1]
            .map(|n| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(n)
                    .build()
                    .unwrap()
            })
            .into();
        for path in [
            "testdata/real/x86_64/evdev.ko",
            "testdata/real/arm64/nf_conntrack_tftp.ko",
            // kCFI: a type hash (`$d`) before every function, between code.
            "testdata/landing/real/kbuild-arm64/cgroup.o",
            // Stack-probe loops: their `sub`s found piece by piece.
            "testdata/probe/probe-gcc-x86_64.o",
            "testdata/probe/probe-clang-aarch64.o",
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
                let segments = segments(&obj, s.index, &cuts, &[]);
                let data = obj.section_data(s.index);
                let (one, one_ops, _, one_unsettled) = decode_segments(dec, data, &segments, None);
                assert_eq!(one_unsettled, dec.unsettled(&one_ops));
                probe_subs += one_unsettled.len();
                assert!(!one.is_empty() || s.size == 0);
                // Indexed as the former pass over the whole section did,
                // also with gaps between the segments (every other one left
                // out), whole or in pieces.
                let gapped: Vec<_> = segments.iter().copied().step_by(2).collect();
                for segs in [&segments, &gapped] {
                    let (mut raw, mut raw_ops) = (Vec::new(), OpTable::default());
                    for &(from, to) in segs.iter() {
                        let bytes = &data[from as usize..to as usize];
                        dec.decode_with_ops(bytes, from, &mut raw, Some(&mut raw_ops));
                    }
                    raw.iter_mut().for_each(Insn::forget_index);
                    let syscall = index_ops(&mut raw, &raw_ops);
                    for piece in [None, Some(1), Some(64)] {
                        let got = decode_segments(dec, data, segs, piece);
                        assert_eq!(got.2.syscall, syscall);
                        assert_eq!(got.2, Seen::of(&raw));
                        assert!(raw == got.0, "{path} {} {piece:?}", s.name);
                    }
                }
                let one_table = one_ops.clone();
                let one_ops: Vec<_> = one_ops.iter().collect();
                // Pieces finish out of order on more threads than cores.
                for (piece, pool) in [1, 64, 1000]
                    .into_iter()
                    .zip(&pools)
                    .chain([(1, &pools[0])])
                {
                    let (pieced, ops, _, unsettled) =
                        pool.install(|| decode_segments(dec, data, &segments, Some(piece)));
                    assert!(one == pieced, "{path} {} piece {piece}", s.name);
                    assert!(one_ops == ops.iter().collect::<Vec<_>>());
                    assert_eq!(one_unsettled, unsettled, "{path} {} piece {piece}", s.name);
                }
                // The model's own instructions are the same ones.
                if let Some(code) = m.section_code(s.index) {
                    let mut one = one.clone();
                    // Settled as the model does (stack-probe loops).
                    let mut table = one_table.clone();
                    dec.settle_ops(data, &mut one, &mut table, &one_unsettled);
                    // Marked as the model marks (Special::mark_insns).
                    for ins in one.iter_mut() {
                        if m.special().get((s.index, ins.offset())).is_some() {
                            ins.set_marked();
                        }
                    }
                    assert!(code.insns == one, "{path} {}", s.name);
                }
            }
        }
        // The probe fixtures' page-sized `sub`s (gcc x86, clang arm64).
        assert!(probe_subs >= 2, "{probe_subs}");
    }
}
