//! Instruction decoding behind one model. Only this layer knows opcodes.

pub mod arm64;
pub mod ops;
pub mod x86;

use crate::elf::Machine;
pub use ops::{Dst, Modifier, Op, OpTable, Pac, PacKey, Reg, Src};

/// Landing pads for indirect branches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub enum Pad {
    Endbr64,
    /// `BTI` with no target: not a landing pad for anything.
    Bti,
    BtiC,
    BtiJ,
    BtiJc,
    /// `PACIASP`/`PACIBSP`: implicit `BTI c` (and `BTI jc` for x16/x17 jumps).
    Paciasp,
    Pacibsp,
}

impl Pad {
    pub fn name(self) -> &'static str {
        match self {
            Pad::Endbr64 => "endbr64",
            Pad::Bti => "bti",
            Pad::BtiC => "bti c",
            Pad::BtiJ => "bti j",
            Pad::BtiJc => "bti jc",
            Pad::Paciasp => "paciasp",
            Pad::Pacibsp => "pacibsp",
        }
    }
    /// A valid target of an indirect call.
    pub fn accepts_call(self) -> bool {
        matches!(
            self,
            Pad::Endbr64 | Pad::BtiC | Pad::BtiJc | Pad::Paciasp | Pad::Pacibsp
        )
    }
    /// A valid target of an indirect jump (BR).
    pub fn accepts_jump(self) -> bool {
        matches!(self, Pad::Endbr64 | Pad::BtiJ | Pad::BtiJc)
    }
    /// A landing pad of some kind (a bare `BTI` is none).
    pub fn is_landing_pad(self) -> bool {
        self != Pad::Bti
    }
    /// Can be overwritten with a NOP when nothing branches to it indirectly:
    /// PACIASP/PACIBSP also sign the return address and must stay.
    pub fn sealable(self) -> bool {
        matches!(self, Pad::Endbr64 | Pad::BtiC | Pad::BtiJ | Pad::BtiJc)
    }
}

/// How a relocation uses the address it names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RelocUse {
    /// The operand of a direct branch; the target is `S + A + bias`.
    Branch(i64),
    /// The full address `S + A + bias` is materialised (a pointer in data,
    /// `lea`, `mov $sym`, `adr`, `adrp`+`add`): an indirect branch may land there.
    Address(i64),
    /// Not a code pointer by itself: a page (`adrp`), a load offset, a memory
    /// operand of an indirect branch, a size.
    Partial,
}

/// What an instruction does to control flow and to the state the checks track.
///
/// The discriminant is the kind's [`Kind::bit`] number: a set of kinds is
/// built by shifting the tag, not by a branch per kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Kind {
    /// Direct call (`call rel32`, `bl`).
    Call = 0,
    /// Direct unconditional jump (`jmp`, `b`).
    Jump = 1,
    /// Direct conditional jump (`jcc`, `b.cond`, `cbz`, `tbz`, ...).
    CondJump = 2,
    IndirectCall = 3,
    IndirectJump = 4,
    /// `ret`, `retaa`, `iret`, `eret`, ...
    Return = 5,
    /// Ends the path: `ud2`, `brk`, `udf`, `hlt` (arm64).
    Trap = 6,
    /// x86 `int3`: a debugger or kprobe trap the kernel resumes after, so
    /// the path goes on (objtool's INSN_TRAP, unlike `ud2`'s INSN_BUG).
    /// Compilers place it after returns and jumps, where no path reaches.
    Breakpoint = 16,
    Nop = 7,
    Pad(Pad) = 8,
    /// Opens user access (x86 `stac`, arm64 `msr pan, #0`).
    UaccessOpen = 9,
    /// Closes user access (x86 `clac`, arm64 `msr pan, #1`).
    UaccessClose = 10,
    /// Saves flags (x86 `pushf`).
    PushFlags = 11,
    /// Restores flags (x86 `popf`).
    PopFlags = 12,
    /// Leaves for another privilege level or context and does not come back
    /// to the next instruction (x86 `sysret`, `iret`, far `ret`/`jmp`):
    /// ends the path, except where its stack operations describe a return
    /// to itself (`iretq` in `sync_core()`).
    ContextSwitch = 15,
    /// A system call (x86 `syscall`, arm64 `svc`): execution comes back
    /// after it, except from the calls that never return (`exit`,
    /// `rt_sigreturn`: the model tells them by their number, see
    /// [`Decoder::syscall_number`], and makes them [`Kind::ContextSwitch`]).
    Syscall = 17,
    Other = 13,
    /// Bytes that do not decode; ends the path.
    Invalid = 14,
}

impl Kind {
    /// No fall-through to the next instruction.
    #[inline]
    pub fn ends_flow(self) -> bool {
        const ENDS: u32 = Kind::Jump.bit()
            | Kind::IndirectJump.bit()
            | Kind::Return.bit()
            | Kind::Trap.bit()
            | Kind::ContextSwitch.bit()
            | Kind::Invalid.bit();
        self.bit() & ENDS != 0
    }
    #[inline]
    pub fn is_branch(self) -> bool {
        const BRANCHES: u32 = Kind::Call.bit() | Kind::Jump.bit() | Kind::CondJump.bit();
        self.bit() & BRANCHES != 0
    }
    /// No control flow of its own ([`Insn::straight`]'s kinds).
    #[inline]
    pub fn is_straight(self) -> bool {
        const STRAIGHT: u32 = Kind::Other.bit() | Kind::Nop.bit() | Kind::Pad(Pad::Endbr64).bit();
        self.bit() & STRAIGHT != 0
    }
    /// The [`Kind::bit`]s of the branches, direct or indirect, and returns:
    /// what [`SectionCode::transfers`](crate::model::SectionCode::transfers)
    /// lists.
    pub const TRANSFERS: u32 = Kind::Call.bit()
        | Kind::Jump.bit()
        | Kind::CondJump.bit()
        | Kind::IndirectCall.bit()
        | Kind::IndirectJump.bit()
        | Kind::Return.bit();
    /// One bit per kind (all pads share one), for sets of kinds.
    #[inline]
    pub const fn bit(self) -> u32 {
        // SAFETY: `Kind` is `repr(u8)`, so its first byte is the tag, whose
        // values are the bit numbers (the discriminants above).
        let tag = unsafe { *(&self as *const Kind as *const u8) };
        1 << tag
    }
}

/// One decoded instruction. Offsets are section offsets.
///
/// Stored compactly (12 bytes): a large module has millions of instructions,
/// and these arrays are most of objlint's memory. Sections are at most 4 GiB
/// (the reader refuses larger executable sections).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Insn {
    offset: u32,
    /// Branch target encoded in the instruction, or [`Insn::NO_TARGET`].
    target: u32,
    pub len: u8,
    pub kind: Kind,
    /// [`Insn::HAS_OPS`].
    flags: u8,
}

const _: () = assert!(std::mem::size_of::<Insn>() == 12 && std::mem::size_of::<Kind>() == 2);

impl Insn {
    const NO_TARGET: u32 = u32::MAX;
    /// Stands for an encoded target outside every section (it cannot be
    /// stored in 32 bits, so it lies past the largest section allowed).
    const FAR_TARGET: u32 = u32::MAX - 1;

    /// The instruction has entries in its section's [`OpTable`].
    const HAS_OPS: u8 = 1;
    /// `target` holds the index of its first [`OpTable`] entry.
    const OPS_AT: u8 = 2;
    /// Straight-line code for the walks: no control flow of its own and
    /// its operations (if any) stack operations only (set by the decoder,
    /// [`Insn::straight`]), the next instruction follows it without a gap
    /// and no table or annotation names it (taken back by the model where
    /// not).
    const PLAIN: u8 = 4;
    /// The trap a kCFI check jumps over ([`Decoder::kcfi_trap`]), told at
    /// decode: asked later from the bytes, every WARN's `ud2` in vmlinux.o
    /// would map all of `.text` back in once it was given back.
    const KCFI_TRAP: u8 = 8;
    /// A load of a kCFI type hash ([`Decoder::kcfi_hash_load`]), told at
    /// decode for the same reason.
    const KCFI_HASH_LOAD: u8 = 16;
    /// A table or annotation names it (the model's special marks, set by
    /// `Special::mark_insns`).
    const MARKED: u8 = 32;

    pub fn new(offset: u64, len: u8, kind: Kind, imm_target: Option<u64>) -> Insn {
        Insn {
            offset: u32::try_from(offset).expect("section offsets fit in 32 bits"),
            target: imm_target.map_or(Self::NO_TARGET, Self::target_field),
            len,
            kind,
            flags: 0,
        }
    }
    /// An encoded target as stored: [`Insn::FAR_TARGET`] past 32 bits.
    #[inline(always)]
    fn target_field(t: u64) -> u32 {
        u32::try_from(t)
            .ok()
            .filter(|&t| t < Self::FAR_TARGET)
            .unwrap_or(Self::FAR_TARGET)
    }
    /// An instruction a decoder told from its bytes alone, at a section
    /// offset known to fit, its branch target (or RIP-relative address)
    /// `rel` from its end if any, its operations (if any) stack operations
    /// only: [`Insn::new`] and [`Insn::straight`] at once, without their
    /// checks (the decoders' hot loop).
    #[inline(always)]
    pub(crate) fn told(offset: u32, len: u8, kind: Kind, rel: Option<i32>) -> Insn {
        let end = u64::from(offset) + u64::from(len);
        let target = rel.map_or(Self::NO_TARGET, |d| {
            Self::target_field(end.wrapping_add(d as i64 as u64))
        });
        let flags = if kind.is_straight() { Self::PLAIN } else { 0 };
        Insn {
            offset,
            target,
            len,
            kind,
            flags,
        }
    }
    /// Marks the instruction as having entries in its section's
    /// [`OpTable`], from entry `index` on ([`Insn::ops_index`]).
    pub fn with_ops_at(mut self, index: usize) -> Insn {
        self.flags |= Self::HAS_OPS;
        self.set_ops_index(index);
        self
    }
    /// Marks the instruction straight-line code ([`Insn::is_plain`]) if
    /// its kind has no control flow of its own; for a decoder, once it
    /// knows the instruction's operations are stack operations only.
    #[inline]
    pub fn straight(mut self) -> Insn {
        if self.kind.is_straight() {
            self.flags |= Self::PLAIN;
        }
        self
    }
    pub fn with_kcfi_trap(mut self) -> Insn {
        self.flags |= Self::KCFI_TRAP;
        self
    }
    /// See [`Insn::KCFI_TRAP`].
    #[inline]
    pub fn is_kcfi_trap(&self) -> bool {
        self.flags & Self::KCFI_TRAP != 0
    }
    pub fn with_kcfi_hash_load(mut self) -> Insn {
        self.flags |= Self::KCFI_HASH_LOAD;
        self
    }
    /// See [`Insn::KCFI_HASH_LOAD`].
    #[inline]
    pub fn is_kcfi_hash_load(&self) -> bool {
        self.flags & Self::KCFI_HASH_LOAD != 0
    }
    /// `(kcfi trap, kcfi hash load)` of each instruction, as decoded.
    #[cfg(test)]
    pub fn kcfi_flags(insns: &[Insn]) -> Vec<(bool, bool)> {
        insns
            .iter()
            .map(|i| (i.is_kcfi_trap(), i.is_kcfi_hash_load()))
            .collect()
    }
    /// Whether the instruction has state operations ([`Op`]) recorded.
    #[inline]
    pub fn has_ops(&self) -> bool {
        self.flags & Self::HAS_OPS != 0
    }
    /// See [`Insn::PLAIN`].
    #[inline]
    pub fn is_plain(&self) -> bool {
        self.flags & Self::PLAIN != 0
    }
    /// Plain, and without operations: it changes no state.
    #[inline]
    pub fn is_inert(&self) -> bool {
        self.flags & (Self::PLAIN | Self::HAS_OPS) == Self::PLAIN
    }
    /// A table or annotation names it: not plain.
    pub fn set_marked(&mut self) {
        self.flags = (self.flags & !Self::PLAIN) | Self::MARKED;
    }
    #[inline]
    pub fn is_marked(&self) -> bool {
        self.flags & Self::MARKED != 0
    }
    pub fn set_plain(&mut self, plain: bool) {
        if plain {
            self.flags |= Self::PLAIN;
        } else {
            self.flags &= !Self::PLAIN;
        }
    }
    /// Where its operations start in its section's [`OpTable`], when that
    /// was recorded (the instruction encodes no target to keep instead).
    pub fn ops_index(&self) -> Option<usize> {
        (self.flags & Self::OPS_AT != 0).then_some(self.target as usize)
    }
    /// Forgets its operations (a decoder that learns, instructions later,
    /// what they amount to).
    pub fn clear_ops(&mut self) {
        if self.flags & Self::OPS_AT != 0 {
            self.target = Self::NO_TARGET;
        }
        self.flags &= !(Self::HAS_OPS | Self::OPS_AT);
    }
    /// Records where its operations start (see [`Insn::ops_index`]); only
    /// for instructions without an encoded target.
    pub fn set_ops_index(&mut self, index: usize) {
        if self.target == Self::NO_TARGET
            && let Ok(i) = u32::try_from(index)
            && i < Self::FAR_TARGET
        {
            self.target = i;
            self.flags |= Self::OPS_AT;
        }
    }
    /// Forgets what the decoder said beyond the instruction itself (where
    /// its operations start, straight-line code): for tests of the passes
    /// that used to tell.
    #[cfg(test)]
    pub fn forget_index(&mut self) {
        if self.flags & Self::OPS_AT != 0 {
            self.target = Self::NO_TARGET;
        }
        self.flags &= !(Self::OPS_AT | Self::PLAIN);
    }
    /// Moves the recorded [`Insn::ops_index`] `base` entries on (its table
    /// was appended after `base` others); forgets it if it no longer fits.
    pub fn rebase_ops_index(&mut self, base: usize) {
        if self.flags & Self::OPS_AT == 0 {
            return;
        }
        match u32::try_from(self.target as usize + base) {
            Ok(i) if i < Self::FAR_TARGET => self.target = i,
            _ => {
                self.target = Self::NO_TARGET;
                self.flags &= !Self::OPS_AT;
            }
        }
    }
    pub fn offset(&self) -> u64 {
        u64::from(self.offset)
    }
    pub fn end(&self) -> u64 {
        self.offset() + u64::from(self.len)
    }
    /// The address encoded in the instruction (section offset), before
    /// relocations are applied: a direct branch's target, or the address a
    /// PC-relative `lea disp(%rip)` / `adr` computes.
    pub fn imm_target(&self) -> Option<u64> {
        (self.target != Self::NO_TARGET && self.flags & Self::OPS_AT == 0)
            .then_some(u64::from(self.target))
    }
}

/// The conditional branches of a function by the offset they go to, built
/// once for all its dispatches (a function may have thousands), and the
/// calls the model knows never return (listed or declared noreturn: code
/// after one is not reached from it), and the cases of the function's
/// switch tables read so far (the edges into code only a table reaches).
#[derive(Debug, Default)]
pub struct CondTargets {
    to: rustc_hash::FxHashMap<u64, Vec<usize>>,
    dead_calls: Vec<usize>,
    cases: Vec<(u64, usize)>,
    /// Traps execution resumes after (WARN), sorted.
    resuming: Vec<usize>,
}

impl CondTargets {
    /// `dead_calls`: the indexes of `insns` that are calls that never return.
    pub fn new(insns: &[Insn], mut dead_calls: Vec<usize>) -> CondTargets {
        let mut m: rustc_hash::FxHashMap<u64, Vec<usize>> = Default::default();
        for (k, i) in insns.iter().enumerate() {
            if i.kind == Kind::CondJump
                && let Some(t) = i.imm_target()
            {
                m.entry(t).or_default().push(k);
            }
        }
        dead_calls.sort_unstable();
        CondTargets {
            to: m,
            dead_calls,
            cases: Vec::new(),
            resuming: Vec::new(),
        }
    }
    /// The traps (indexes) execution resumes after: the searches back go
    /// through them (a reload after a WARN's `brk`).
    pub fn set_resuming(&mut self, mut r: Vec<usize>) {
        r.sort_unstable();
        self.resuming = r;
    }
    /// Whether `insns[k]` is a trap execution resumes after.
    pub fn resuming(&self, k: usize) -> bool {
        self.resuming.binary_search(&k).is_ok()
    }
    /// Records the cases (offsets) of the table dispatched by the indirect
    /// jump `insns[jump]`, for the searches back from later dispatches.
    pub fn add_cases(&mut self, jump: usize, cases: impl IntoIterator<Item = u64>) {
        self.cases.extend(cases.into_iter().map(|t| (t, jump)));
    }
    /// The (case offset, indirect jump index) edges of the tables read.
    pub fn cases(&self) -> &[(u64, usize)] {
        &self.cases
    }
    /// Indexes of the conditional branches to `offset`, in order.
    pub fn to(&self, offset: u64) -> &[usize] {
        self.to.get(&offset).map_or(&[], Vec::as_slice)
    }
    /// Whether `insns[k]` is a call that never returns.
    pub fn dead_call(&self, k: usize) -> bool {
        self.dead_calls.binary_search(&k).is_ok()
    }
}

/// Branch sources by target offset, for walking back from an instruction.
pub(crate) struct Preds<'a> {
    insns: &'a [Insn],
    into: Vec<(u64, usize)>,
    to: &'a CondTargets,
}

impl<'a> Preds<'a> {
    fn new(insns: &'a [Insn], to: &'a CondTargets) -> Self {
        let mut into: Vec<(u64, usize)> = insns
            .iter()
            .enumerate()
            .filter(|(_, i)| matches!(i.kind, Kind::Jump | Kind::CondJump))
            .filter_map(|(k, i)| i.imm_target().map(|t| (t, k)))
            .chain(to.cases().iter().copied())
            .collect();
        into.sort_unstable();
        Preds { insns, into, to }
    }

    /// Pushes the instructions control can come to `j` from; false when
    /// `j` is the function's entry.
    fn of(&self, j: usize, work: &mut Vec<usize>) -> bool {
        let at = self.insns[j].offset();
        let from = self.into.partition_point(|&(t, _)| t < at);
        work.extend(
            self.into[from..]
                .iter()
                .take_while(|&&(t, _)| t == at)
                .map(|&(_, s)| s),
        );
        let Some(p) = j.checked_sub(1) else {
            return false;
        };
        // A call that never returns (`bl __stack_chk_fail`) is no way into
        // what follows it: often a switch case, reached through the table
        // being looked for.
        if (!matches!(
            self.insns[p].kind,
            Kind::Jump | Kind::IndirectJump | Kind::Return | Kind::Trap
        ) || (self.insns[p].kind == Kind::Trap && self.to.resuming(p)))
            && !self.to.dead_call(p)
        {
            work.push(p);
        }
        true
    }
}

/// What a search back from an instruction does at one it meets.
pub(crate) enum Back {
    /// The path ends here (what was looked for is here).
    Stop,
    /// The search fails.
    Fail,
    /// On to the instructions before.
    On,
    /// The value followed was copied here from this register: on to the
    /// instructions before, following that one.
    Copy(u32),
}

/// Walks back over every path to `hi`, asking `visit` of each instruction
/// met (once each). False when `visit` failed or a path reached the
/// function's entry.
pub(crate) fn walk_back(
    insns: &[Insn],
    to: &CondTargets,
    hi: usize,
    mut visit: impl FnMut(usize) -> Back,
) -> bool {
    walk_back_value(insns, to, hi, 0, |j, _| visit(j))
}

/// [`walk_back`] following a register's value: `visit` sees each
/// instruction once per register the value is in there, and may say the
/// value was copied from another ([`Back::Copy`]), which the paths back
/// from that instruction follow instead.
pub(crate) fn walk_back_value(
    insns: &[Insn],
    to: &CondTargets,
    hi: usize,
    reg: u32,
    mut visit: impl FnMut(usize, u32) -> Back,
) -> bool {
    let preds = Preds::new(insns, to);
    let mut before = Vec::new();
    if hi >= insns.len() || !preds.of(hi, &mut before) {
        return false;
    }
    let mut work: Vec<(usize, u32)> = before.drain(..).map(|j| (j, reg)).collect();
    let mut seen = vec![0u64; insns.len()];
    while let Some((j, r)) = work.pop() {
        let bit = 1u64 << (r & 63);
        if seen[j] & bit != 0 {
            continue;
        }
        seen[j] |= bit;
        let r = match visit(j, r) {
            Back::Stop => continue,
            Back::Fail => return false,
            Back::On => r,
            Back::Copy(from) => from,
        };
        if !preds.of(j, &mut before) {
            return false;
        }
        // Code with no way in known (a case of the table being looked
        // for) is entered with the values of the dispatch: the register
        // followed from the start has there what the other paths give it,
        // but another register (or a stack slot) copied into it has
        // nothing known.
        if before.is_empty() && r != reg {
            return false;
        }
        work.extend(before.drain(..).map(|p| (p, r)));
    }
    true
}

/// A stack-probe loop of a decoded section (see the decoders'
/// `settle_ops`): indexes of the loop's `sub` of the stack pointer, of the
/// instruction before it that set `reg` to the stack pointer less `below`,
/// and of the instruction after the loop.
pub(crate) struct ProbeLoop {
    pub sub: usize,
    pub set: usize,
    pub exit: usize,
    pub reg: Reg,
    pub below: i32,
}

/// The smallest `sub` of the stack pointer a probe loop takes: a page.
pub(crate) const PROBE_MIN: i32 = 4096;

/// The shape every probe loop has around its `sub` at `insns[k]`: set up
/// by the instruction right before it, closed by a conditional jump back to
/// it three instructions on, followed by the instruction after that. The
/// index of the setting.
pub(crate) fn probe_shape(insns: &[Insn], k: usize) -> Option<usize> {
    let set = k.checked_sub(1)?;
    let (jump, after) = (insns.get(k + 3)?, insns.get(k + 4)?);
    (jump.kind == Kind::CondJump
        && jump.imm_target() == Some(insns[k].offset())
        && after.offset() == jump.end()
        && insns[set].end() == insns[k].offset())
    .then_some(set)
}

/// Settles a section's stack-probe loops: each `sub` of the stack pointer
/// by a page or more (at `subs`, from [`OpTable::stack_subs_from`]) that
/// `find` (given the instructions and its index) says is a probe loop's
/// moves nothing; the instruction that set the loop's register makes it
/// the frame address's register ([`Op::CfaFrom`]), and the instruction
/// after the loop first ends it ([`Op::ProbeEnd`]). The operation table is
/// rebuilt in instruction order, and only when a loop is found.
pub(crate) fn settle_probe_loops(
    insns: &mut [Insn],
    ops: &mut OpTable,
    subs: &[u64],
    find: impl Fn(&[Insn], usize) -> Option<ProbeLoop>,
) {
    let loops: Vec<ProbeLoop> = subs
        .iter()
        .filter_map(|&at| insns.binary_search_by_key(&at, |i| i.offset()).ok())
        .filter_map(|k| find(insns, k))
        .collect();
    if loops.is_empty() {
        return;
    }
    let old = std::mem::take(ops);
    let offs = old.offsets();
    let mut cursor = 0;
    for (k, ins) in insns.iter_mut().enumerate() {
        let o = ins.offset();
        while cursor < offs.len() && u64::from(offs[cursor]) < o {
            cursor += 1;
        }
        let first = ops.len();
        if let Some(l) = loops.iter().find(|l| l.exit == k) {
            ops.push(
                o,
                Op::ProbeEnd {
                    reg: l.reg,
                    below: l.below,
                },
            );
        }
        if !loops.iter().any(|l| l.sub == k) {
            for op in old.from_index(cursor, o) {
                ops.push(o, op);
            }
        }
        if let Some(l) = loops.iter().find(|l| l.set == k) {
            ops.push(
                o,
                Op::CfaFrom {
                    reg: l.reg,
                    below: l.below,
                },
            );
        }
        ins.clear_ops();
        if ops.len() > first {
            *ins = ins.with_ops_at(first);
        }
    }
}

/// Instructions a search for a system call's number looks back over.
pub const SYSCALL_LOOKBACK: usize = 16;

/// The instructions before `insns[at]` in straight-line code, nearest
/// first, at most [`SYSCALL_LOOKBACK`]: the search stops at a branch, call
/// or other control flow, at a gap between instructions, and at an
/// instruction `entered` says is reached from elsewhere.
pub fn straight_line_before<'a>(
    insns: &'a [Insn],
    at: usize,
    entered: &'a dyn Fn(usize) -> bool,
) -> impl Iterator<Item = usize> + 'a {
    (at.saturating_sub(SYSCALL_LOOKBACK)..at)
        .rev()
        .take_while(move |&k| {
            !entered(k + 1)
                && insns[k].end() == insns[k + 1].offset()
                && insns[k].kind.is_straight()
        })
}

pub use crate::elf::MAX_CODE_SECTION;

/// How a kCFI indirect-call check reads the callee's type hash.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HashLoad {
    /// Displacement from the target address (negative).
    pub disp: i64,
}

/// How an indirect jump reads its target from a table of offsets that no
/// relocation names (arm64 switch tables: `.byte (.Lcase - .Lbase) >> 2` in
/// `.rodata`, resolved by the assembler). The target of entry `k` is
/// `base + (entry_k << shift)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableJump {
    /// The instruction that completes the table's address: its relocation
    /// (`add xT, xT, :lo12:table`) names the table.
    pub table_insn: u64,
    /// Other instructions that compute the table's address on other paths
    /// the same way (clang rematerialises it after reusing the register):
    /// their relocations must agree.
    pub same_as: Vec<u64>,
    /// The table's section offset when the instruction computes it without a
    /// relocation (`adr xT, table` in the same section).
    pub table_pc: Option<u64>,
    /// Section offset of the label the scaled entries are added to.
    pub base: u64,
    /// Bytes per entry (1, 2 or 4).
    pub entry_size: u8,
    /// Entries are sign-extended.
    pub signed: bool,
    pub shift: u8,
    /// Number of entries, from the bounds check on the index (`cmp wI, #n`
    /// with `b.hi`/`b.hs` away from the dispatch, or `b.ls`/`b.lo` to it).
    /// `None` when the check was not found: the table's extent is unknown.
    pub entries: Option<u64>,
}

/// What an instruction does to straight-line speculation past a return or
/// an indirect branch (the `sls` rule).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Barrier {
    /// Stops it by itself (x86 `int3`, arm64 `sb`).
    Complete,
    /// Stops it when an instruction-synchronisation barrier follows (arm64
    /// `dsb sy` / `dsb nsh`, then `isb`).
    NeedsIsb,
    /// arm64 `isb`.
    Isb,
}

/// Where a function finds its return address when it is entered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RaHome {
    /// On the stack, at CFA - 8 (x86 `call` pushed it).
    Stack,
    /// In a register (arm64 `bl` writes x30); a call overwrites it.
    Reg(Reg),
}

/// The calling convention as far as the stack model needs it.
#[derive(Debug)]
pub struct FrameAbi {
    pub sp: Reg,
    /// The frame pointer (x86 %rbp, arm64 x29).
    pub fp: Reg,
    pub ra: RaHome,
    /// CFA = sp + this at a function's entry.
    pub entry_cfa_offset: i32,
    /// Registers a function must give back as it found them (besides sp).
    pub callee_saved: &'static [Reg],
    /// DWARF register numbers of the model's registers, by model number.
    pub dwarf: &'static [u16],
    /// The DWARF column of the return address.
    pub dwarf_ra: u16,
}

/// An architecture's decoder.
pub trait Decoder: Sync {
    fn machine(&self) -> Machine;
    /// The calling convention of this architecture's kernel code.
    fn frame(&self) -> &'static FrameAbi;
    /// Decode `bytes` (section bytes from `base`) linearly, appending to `out`.
    /// An instruction that would run past the end is appended as `Invalid`
    /// with the remaining length.
    fn decode(&self, bytes: &[u8], base: u64, out: &mut Vec<Insn>) {
        self.decode_with_ops(bytes, base, out, None)
    }
    /// [`Decoder::decode`], also recording each instruction's [`Op`]s in
    /// `ops` (and marking the instruction [`Insn::has_ops`], with where they
    /// start, [`Insn::with_ops_at`]). Each instruction whose operations are
    /// stack operations only is marked [`Insn::straight`]. The instructions
    /// follow one another without gaps.
    fn decode_with_ops(
        &self,
        bytes: &[u8],
        base: u64,
        out: &mut Vec<Insn>,
        ops: Option<&mut OpTable>,
    );
    /// Text of the instruction at the start of `bytes` (at section offset `offset`).
    fn disasm(&self, bytes: &[u8], offset: u64) -> String;
    /// For a relocation of type `r_type` at `reloc_offset` inside branch
    /// instruction `insn`: the value to add to `symbol + addend` to get the
    /// branch target. `None` if this relocation is not the branch operand.
    fn branch_reloc_bias(&self, insn: &Insn, reloc_offset: u64, r_type: u32) -> Option<i64>;
    /// For a relocation of type `r_type` at `reloc_offset` inside indirect
    /// call or jump `insn` that reads the slot a global offset table keeps
    /// for a symbol (x86 `call *sym@GOTPCREL(%rip)`, the calls of `-fno-plt`
    /// code and of Rust's): the value to add to `symbol + addend` to get the
    /// symbol, the call's callee. `None` for any other relocation.
    fn got_call_bias(&self, _insn: &Insn, _reloc_offset: u64, _r_type: u32) -> Option<i64> {
        None
    }
    /// How a relocation of type `r_type` at `reloc_offset` uses its target:
    /// inside instruction `insn`, or in data when `insn` is `None`.
    fn reloc_use(&self, insn: Option<&Insn>, reloc_offset: u64, r_type: u32) -> RelocUse;
    /// Whether a relocation of type `r_type` in data stores `S + A - P`, a
    /// word relative to its own place (`.long sym - .`).
    fn pc_relative_word(&self, r_type: u32) -> bool;
    /// For a return at the start of `bytes` through another register than
    /// the one the return address arrives in (arm64 `ret xN`, N not 30):
    /// that register.
    fn return_register(&self, _bytes: &[u8]) -> Option<u32> {
        None
    }
    /// Whether the instruction at the start of `bytes` is an indirect jump
    /// exempt from branch tracking (x86 `notrack jmp`, used for jump tables).
    fn untracked_jump(&self, _bytes: &[u8]) -> bool {
        false
    }
    /// If the indirect jump `insns[jump]` dispatches through a table of
    /// offsets (see [`TableJump`]), how. `insns` are the instructions of the
    /// function holding it, `data` the bytes of its section, `to` where its
    /// conditional branches go.
    fn table_jump(
        &self,
        _insns: &[Insn],
        _data: &[u8],
        _jump: usize,
        _to: &CondTargets,
    ) -> Option<TableJump> {
        None
    }
    /// Whether the indirect jump `insns[jump]` has the form of a switch
    /// dispatch (its target computed from a label plus a scaled entry),
    /// whether or not [`Decoder::table_jump`] could find its table.
    fn dispatch_form(&self, _insns: &[Insn], _data: &[u8], _jump: usize) -> bool {
        false
    }
    /// For an indirect jump through a loaded address (arm64 `ldr xN, [xT,
    /// xI, lsl #3]; br xN`; x86 position-independent code's `movslq
    /// (%rT,%rI,4),%rA; add %rT,%rA; jmp *%rA`): the table register, and
    /// the instruction that last set it, however far back (see
    /// `address_adjust`): the one such on every path to the load (x86: or,
    /// when paths disagree or end in code only switch tables reach, the
    /// last write before the load in address order that does not run into
    /// a return; the table read there must still lead into the function).
    /// Code reached only through the table itself has no path that sets it.
    fn table_base_def(
        &self,
        _insns: &[Insn],
        _data: &[u8],
        _jump: usize,
        _to: &CondTargets,
    ) -> Option<(u32, Option<usize>)> {
        None
    }
    /// What the code adds to the address `insns[def]` computes before the
    /// jump at `insns[jump]` uses it from register `reg` (arm64 `add xT,
    /// xT, #imm` after the `adrp`/`add :lo12:` pair: a table inside a
    /// larger object; or `add xR, xT, #imm` into `reg`, the pair's register
    /// kept for other addresses).
    fn address_adjust(
        &self,
        _insns: &[Insn],
        _data: &[u8],
        _def: usize,
        _jump: usize,
        _reg: Option<u32>,
    ) -> i64 {
        0
    }
    /// The number of the system call `insns[at]` makes (a [`Kind::Syscall`]),
    /// when the straight-line code before it moves an immediate into the
    /// number register (x86 `%eax`/`%rax`, arm64 `x8`/`w8`) and nothing after
    /// that writes the register. `entered(k)` says whether `insns[k]` can be
    /// reached other than by running on from `insns[k - 1]` (a branch
    /// target, a function's entry): the search does not go back past it.
    fn syscall_number(
        &self,
        _insns: &[Insn],
        _data: &[u8],
        _at: usize,
        _entered: &dyn Fn(usize) -> bool,
    ) -> Option<u64> {
        None
    }
    /// Settles a decoded section's operations where instructions together
    /// mean something other than each alone (x86 stack-probe loops).
    /// `data`: the section's bytes.
    /// `unsettled`: every place [`Decoder::unsettled`] named, in order.
    fn settle_ops(
        &self,
        _data: &[u8],
        _insns: &mut [Insn],
        _ops: &mut OpTable,
        _unsettled: &[u64],
    ) {
    }
    /// Where [`Decoder::settle_ops`] has to look, from the operations of
    /// some of a section's instructions: asked of each piece decoded, on
    /// its thread while its operations are fresh (a scan of a whole
    /// section's afterwards was vmlinux.o's .text 2.5 ms on one thread).
    fn unsettled(&self, _ops: &OpTable) -> Vec<u64> {
        Vec::new()
    }
    /// Minimal size of a landing pad / the instruction size unit.
    fn min_insn_len(&self) -> u64;
    /// A little less than the average instruction size in real code, to
    /// reserve instruction arrays once instead of growing them.
    fn typical_insn_len(&self) -> usize;
    /// If the instruction reads a kCFI type hash relative to a call target,
    /// the displacement it reads at.
    fn kcfi_hash_load(&self, bytes: &[u8]) -> Option<HashLoad>;
    /// Whether the instruction is the trap a kCFI check jumps over when the
    /// hashes match (x86 `ud2`; arm64 `brk` in the kCFI immediate range).
    fn kcfi_trap(&self, bytes: &[u8]) -> bool;
    /// If the instruction loads a 32-bit immediate that could be a kCFI
    /// type hash (x86 `mov $imm32, %eax` of a `__cfi_` preamble), its value.
    fn kcfi_hash_mov(&self, bytes: &[u8]) -> Option<u32>;
    /// Whether the instruction at the start of `bytes` is a speculation
    /// barrier, and of which kind.
    fn speculation_barrier(&self, bytes: &[u8]) -> Option<Barrier>;
    /// The bytes that replace a sealed landing pad: a NOP of the pad's size,
    /// or `None` when this pad cannot be sealed (it does more than land).
    fn sealed_pad(&self, pad: Pad) -> Option<&'static [u8]>;
}

pub fn decoder(machine: Machine) -> &'static dyn Decoder {
    match machine {
        Machine::X86_64 => &x86::X86,
        Machine::Aarch64 => &arm64::Arm64,
    }
}

#[cfg(test)]
mod kind_tests {
    use super::*;

    /// Every kind has a bit of its own, all pads share one, and the
    /// predicates built from the bits say what their names say (the bit is
    /// read from the enum's tag, so a reordered discriminant would move it).
    #[test]
    fn kind_bits_and_predicates() {
        let pads = [
            Pad::Endbr64,
            Pad::Bti,
            Pad::BtiC,
            Pad::BtiJ,
            Pad::BtiJc,
            Pad::Paciasp,
            Pad::Pacibsp,
        ];
        let kinds = [
            (Kind::Call, 0),
            (Kind::Jump, 1),
            (Kind::CondJump, 2),
            (Kind::IndirectCall, 3),
            (Kind::IndirectJump, 4),
            (Kind::Return, 5),
            (Kind::Trap, 6),
            (Kind::Nop, 7),
            (Kind::UaccessOpen, 9),
            (Kind::UaccessClose, 10),
            (Kind::PushFlags, 11),
            (Kind::PopFlags, 12),
            (Kind::Other, 13),
            (Kind::Invalid, 14),
            (Kind::ContextSwitch, 15),
            (Kind::Breakpoint, 16),
            (Kind::Syscall, 17),
        ];
        let all: Vec<(Kind, u32)> = kinds
            .iter()
            .copied()
            .chain(pads.iter().map(|&p| (Kind::Pad(p), 8)))
            .collect();
        for &(k, n) in &all {
            assert_eq!(k.bit(), 1 << n, "{k:?}");
            let ends = matches!(
                k,
                Kind::Jump
                    | Kind::IndirectJump
                    | Kind::Return
                    | Kind::Trap
                    | Kind::ContextSwitch
                    | Kind::Invalid
            );
            assert_eq!(k.ends_flow(), ends, "{k:?}");
            let branch = matches!(k, Kind::Call | Kind::Jump | Kind::CondJump);
            assert_eq!(k.is_branch(), branch, "{k:?}");
            let straight = matches!(k, Kind::Other | Kind::Nop | Kind::Pad(_));
            assert_eq!(k.is_straight(), straight, "{k:?}");
        }
        // Pads keep their kind of pad beside the shared bit.
        assert_ne!(Kind::Pad(Pad::Bti), Kind::Pad(Pad::BtiC));
    }
}
