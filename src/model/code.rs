//! A section's decoded instructions, with branch destinations and the
//! indexes that make lookups by offset and scans over branches cheap.

use crate::arch::{Insn, Kind, OpTable};

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

/// A [`Dest`] in 4 bytes: two tag bits, then a symbol index, an offset in
/// the instruction's own section, or an index into [`SectionCode::far`] (a
/// place in another section, or a number too large for 30 bits).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) struct PackedDest(pub(super) u32);

impl PackedDest {
    const EXTERNAL: u32 = 1 << 30;
    const NEAR: u32 = 2 << 30;
    pub(super) const FAR: u32 = 3 << 30;
    pub(super) const TAG: u32 = 3 << 30;
    const LOW: u32 = (1 << 30) - 1;

    /// `d` for an instruction of section `sec`; what does not fit goes to
    /// `far` (dropped past 2^30 such entries: never for an object that parsed).
    pub(super) fn pack(d: Dest, sec: usize, far: &mut Vec<Dest>) -> PackedDest {
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
    /// The same destination once `base` entries come before the ones its
    /// far index counts among ([`Dest::None`] past 2^30 such entries, as
    /// [`PackedDest::pack`] gives).
    pub(super) fn rebase(self, base: usize) -> PackedDest {
        if self.0 & Self::TAG != Self::FAR {
            return self;
        }
        match base
            .checked_add((self.0 & Self::LOW) as usize)
            .and_then(|k| u32::try_from(k).ok())
            .filter(|&k| k <= Self::LOW)
        {
            Some(k) => PackedDest(Self::FAR | k),
            None => PackedDest(0),
        }
    }
    /// Whether it may be a [`Dest::Local`] (a cheap test before unpacking).
    pub(super) fn may_be_local(self) -> bool {
        self.0 & Self::NEAR != 0
    }
    pub(super) fn unpack(self, sec: usize, far: &[Dest]) -> Dest {
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
pub(super) const NO_LINK: u32 = u32::MAX;

/// The decoded instructions of one executable section, in offset order,
/// with branch destinations resolved through relocations.
#[derive(Debug, Default)]
pub struct SectionCode {
    /// The section's index.
    pub(super) section: usize,
    pub insns: Vec<Insn>,
    /// Per transfer ([`SectionCode::transfers`], same order): where it goes.
    /// Per transfer, not per instruction: branches are a fifth of the code,
    /// and vmlinux.o's 4.8 M instructions held 38 MB of these per instruction.
    pub(super) dests: Vec<PackedDest>,
    /// Branch destinations [`PackedDest`] does not hold inline.
    pub(super) far: Vec<Dest>,
    /// Per transfer, resolved once so control-flow walks need no lookups:
    /// for a direct jump, the index of the instruction at its target in this
    /// section; for a direct call, the index of the function it calls.
    pub(super) links: Vec<u32>,
    /// Per [`TRANSFER_BLOCK`] instructions: the place in
    /// [`SectionCode::transfers`] of the first transfer at or after the
    /// block's first instruction, so an instruction finds its transfer
    /// entry in a few steps.
    pub(super) transfer_blocks: Vec<u32>,
    /// Per [`BLOCK`] bytes of the section: which bytes start an
    /// instruction and how many instructions start before the block. A
    /// lookup by offset counts the bits below it: one read, no loop and no
    /// read of the instructions (the index by 16-byte pages it replaced
    /// stepped through them from a page's first). A fifth of the code's
    /// size (that index took a quarter).
    pub(super) starts: Vec<StartBlock>,
    /// [`Kind::bit`](crate::arch::Kind::bit)s of the kinds present, so a
    /// check can skip a section without the instructions it looks for.
    pub(super) kinds: u32,
    /// The indexes of the kCFI checks' hash loads
    /// ([`Insn::is_kcfi_hash_load`](crate::arch::Insn::is_kcfi_hash_load)),
    /// in order: a trap is a check's only a few instructions after one.
    pub(super) kcfi_hash_loads: Vec<u32>,
    /// The indexes of the branches and returns
    /// ([`Kind::TRANSFERS`](crate::arch::Kind::TRANSFERS)), in order: scans
    /// that only look at those step through a fifth of the instructions.
    pub(super) transfers: Vec<u32>,
    /// The indexes of the other instructions with an encoded target, in
    /// order: PC-relative address computations (x86 `lea label(%rip)`,
    /// arm64 `adr`), a few in a thousand instructions.
    pub(super) computed: Vec<u32>,
    /// The state operations of the instructions that have any.
    pub(super) ops: OpTable,
    /// A bit per instruction, set where a function of the model starts:
    /// a jump whose target is none (most jumps) needs no lookup in the map
    /// of every function's start to say it calls no function.
    pub(super) function_starts: Vec<u64>,
}

/// Bytes of code per entry of [`SectionCode::starts`].
pub(super) const BLOCK: u64 = 64;

/// [`SectionCode::starts`]' entry: the instructions starting before the
/// block, and a bit per byte of it that starts one (in 12 bytes: two
/// `u32` halves, so that entries pack without padding).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct StartBlock {
    pub(super) before: u32,
    pub(super) lo: u32,
    pub(super) hi: u32,
}

impl StartBlock {
    #[inline(always)]
    pub(super) fn bits(&self) -> u64 {
        u64::from(self.hi) << 32 | u64::from(self.lo)
    }
    #[inline(always)]
    pub(super) fn set_bits(&mut self, bits: u64) {
        self.lo = bits as u32;
        self.hi = (bits >> 32) as u32;
    }
    /// The instructions starting before byte `bit` of the block.
    #[inline(always)]
    fn count_below(&self, bit: u64) -> usize {
        self.before as usize + (self.bits() & ((1 << bit) - 1)).count_ones() as usize
    }
}

/// Instructions per entry of [`SectionCode::transfer_blocks`] (a power of two).
pub(super) const TRANSFER_BLOCK: usize = 16;

impl SectionCode {
    /// The section's index.
    pub fn section(&self) -> usize {
        self.section
    }
    /// The place of instruction `i` in [`SectionCode::transfers`], if it is one.
    #[inline]
    pub(super) fn transfer(&self, i: usize) -> Option<usize> {
        let k = self.first_transfer_from(i);
        (self.transfers.get(k).copied()? as usize == i).then_some(k)
    }
    /// Whether instruction `i` calls a known symbol or place: a direct
    /// call, or one through a symbol's GOT slot (`call *sym@GOTPCREL(%rip)`).
    pub fn calls_named(&self, i: usize) -> bool {
        match self.insns[i].kind {
            Kind::Call => true,
            Kind::IndirectCall => self.dest(i) != Dest::None,
            _ => false,
        }
    }
    /// Where the branch at index `i` goes (`Dest::None` for other
    /// instructions; an indirect call or jump through a symbol's GOT slot
    /// goes to the symbol).
    pub fn dest(&self, i: usize) -> Dest {
        self.transfer(i).map_or(Dest::None, |k| {
            self.dests[k].unpack(self.section, &self.far)
        })
    }
    /// Whether the transfer at place `k` of [`SectionCode::transfers`] may
    /// go to a place in this object (a cheap test before unpacking).
    pub(super) fn may_go_local(&self, k: usize) -> bool {
        self.dests[k].may_be_local()
    }
    /// [`SectionCode::dest`] and [`SectionCode::link`] of instruction `i` at once.
    pub(super) fn dest_link(&self, i: usize) -> (Dest, Option<usize>) {
        match self.transfer(i) {
            Some(k) => (self.dest_at(k), self.link_at(k)),
            None => (Dest::None, None),
        }
    }
    /// [`SectionCode::dest`] of the transfer at place `k` of [`SectionCode::transfers`].
    pub(super) fn dest_at(&self, k: usize) -> Dest {
        self.dests[k].unpack(self.section, &self.far)
    }
    /// [`SectionCode::link`] of the transfer at place `k` of [`SectionCode::transfers`].
    pub(super) fn link_at(&self, k: usize) -> Option<usize> {
        let l = self.links[k];
        (l != NO_LINK).then_some(l as usize)
    }
    /// Whether a function may start at instruction `i`: false only where
    /// [`SectionCode::function_starts`] says none does.
    #[inline]
    pub(super) fn may_start_function(&self, i: usize) -> bool {
        (self.function_starts.get(i / 64)).is_none_or(|&w| w >> (i % 64) & 1 != 0)
    }
    /// See [`SectionCode::links`].
    pub(super) fn link(&self, i: usize) -> Option<usize> {
        let l = self.links[self.transfer(i)?];
        (l != NO_LINK).then_some(l as usize)
    }
    /// The state operations of the instruction at index `i`, in order.
    #[inline]
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
    /// Whether any instruction is of one of `kinds` ([`Kind::bit`](crate::arch::Kind::bit)s).
    pub fn has_any(&self, kinds: u32) -> bool {
        self.kinds & kinds != 0
    }
    /// The indexes of the section's branches and returns
    /// ([`Kind::TRANSFERS`](crate::arch::Kind::TRANSFERS)), in order.
    pub fn transfers(&self) -> &[u32] {
        &self.transfers
    }
    /// [`SectionCode::transfers`] among the instructions `range`.
    pub fn transfers_in(&self, range: std::ops::Range<usize>) -> &[u32] {
        &self.transfers[self.transfer_places(range)]
    }
    /// The transfers among the instructions `range`, each with where it
    /// goes and its link: (instruction index, [`SectionCode::dest`],
    /// [`SectionCode::link`]: for a call, the function starting at its
    /// destination).
    pub fn dests_in(
        &self,
        range: std::ops::Range<usize>,
    ) -> impl Iterator<Item = (usize, Dest, Option<usize>)> + '_ {
        self.transfer_places(range)
            .map(|k| (self.transfers[k] as usize, self.dest_at(k), self.link_at(k)))
    }
    /// The places in [`SectionCode::transfers`] of the transfers among the
    /// instructions `range`.
    pub(super) fn transfer_places(&self, range: std::ops::Range<usize>) -> std::ops::Range<usize> {
        let lo = self.first_transfer_from(range.start);
        lo..self.first_transfer_from(range.end).max(lo)
    }
    /// The place in [`SectionCode::transfers`] of the first transfer at or
    /// after instruction `i`: from its block's, a few steps (two binary
    /// searches over a million transfers per function cost vmlinux.o more
    /// than reading every instruction).
    #[inline]
    fn first_transfer_from(&self, i: usize) -> usize {
        let t = &self.transfers;
        let mut k = self
            .transfer_blocks
            .get(i / TRANSFER_BLOCK)
            .map_or(t.len(), |&k| k as usize);
        while k < t.len() && (t[k] as usize) < i {
            k += 1;
        }
        k
    }
    /// The [`SectionCode::starts`] entry holding `offset`, and its byte
    /// there (none past the last instruction's block).
    #[inline]
    fn start_block(&self, offset: u64) -> Option<(&StartBlock, u64)> {
        let b = self.starts.get(usize::try_from(offset / BLOCK).ok()?)?;
        Some((b, offset % BLOCK))
    }
    /// Index of the instruction starting exactly at `offset`.
    #[inline]
    pub fn index_at(&self, offset: u64) -> Option<usize> {
        let (b, bit) = self.start_block(offset)?;
        (b.bits() >> bit & 1 != 0).then(|| b.count_below(bit))
    }
    /// Index of the first instruction at or after `offset`.
    #[inline]
    pub fn lower_bound(&self, offset: u64) -> usize {
        self.start_block(offset)
            .map_or(self.insns.len(), |(b, bit)| b.count_below(bit))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
