//! x86-64 through iced-x86.

use super::ops::{Dst, Op, OpTable, Src};
use super::{
    Back, Barrier, Decoder, FrameAbi, HashLoad, Insn, Kind, Pad, ProbeLoop, RaHome, RelocUse,
};
use crate::elf::Machine;
use iced_x86::{
    Code, Decoder as IcedDecoder, DecoderOptions, FlowControl, Formatter, GasFormatter,
    Instruction, InstructionInfoFactory, Mnemonic, OpAccess, OpKind, Register,
};
use std::sync::atomic::{AtomicU8, Ordering};

pub struct X86;

const R_X86_64_64: u32 = 1;
const R_X86_64_PC32: u32 = 2;
const R_X86_64_PLT32: u32 = 4;
const R_X86_64_GOTPCREL: u32 = 9;
const R_X86_64_32: u32 = 10;
const R_X86_64_32S: u32 = 11;
const R_X86_64_PC64: u32 = 24;
const R_X86_64_GOTPCRELX: u32 = 41;
const R_X86_64_REX_GOTPCRELX: u32 = 42;

fn classify(i: &Instruction) -> Kind {
    match i.code() {
        // Leave for user space, another stack or another code segment
        // (objtool's INSN_CONTEXT_SWITCH; `syscall` comes back and is not one).
        Code::Iretw
        | Code::Iretd
        | Code::Iretq
        | Code::Sysretd
        | Code::Sysretq
        | Code::Sysenter
        | Code::Sysexitd
        | Code::Sysexitq
        | Code::Retfw
        | Code::Retfd
        | Code::Retfq
        | Code::Retfw_imm16
        | Code::Retfd_imm16
        | Code::Retfq_imm16
        | Code::Jmp_m1616
        | Code::Jmp_m1632
        | Code::Jmp_m1664
        | Code::Jmp_ptr1632
        | Code::Eretu
        | Code::Erets
        | Code::Uiret => return Kind::ContextSwitch,
        _ => {}
    }
    match i.mnemonic() {
        Mnemonic::Endbr64 => return Kind::Pad(Pad::Endbr64),
        Mnemonic::Stac => return Kind::UaccessOpen,
        Mnemonic::Clac => return Kind::UaccessClose,
        Mnemonic::Pushfq | Mnemonic::Pushf => return Kind::PushFlags,
        Mnemonic::Popfq | Mnemonic::Popf => return Kind::PopFlags,
        Mnemonic::Nop => return Kind::Nop,
        Mnemonic::Ud0 | Mnemonic::Ud1 | Mnemonic::Ud2 => return Kind::Trap,
        Mnemonic::Int3 => return Kind::Breakpoint,
        Mnemonic::Syscall => return Kind::Syscall,
        // VM entries and hypercalls leave for the guest or the hypervisor and
        // come back after the instruction (or at a VM-exit address); they do
        // not call code of the kernel image.
        Mnemonic::Vmlaunch
        | Mnemonic::Vmresume
        | Mnemonic::Vmrun
        | Mnemonic::Vmcall
        | Mnemonic::Vmmcall
        | Mnemonic::Vmgexit => return Kind::Other,
        _ => {}
    }
    match i.flow_control() {
        FlowControl::Next => Kind::Other,
        FlowControl::UnconditionalBranch => {
            if i.op0_kind() == OpKind::NearBranch64 {
                Kind::Jump
            } else {
                Kind::IndirectJump
            }
        }
        FlowControl::IndirectBranch => Kind::IndirectJump,
        FlowControl::ConditionalBranch => Kind::CondJump,
        FlowControl::Return => Kind::Return,
        FlowControl::Call => {
            if i.op0_kind() == OpKind::NearBranch64 {
                Kind::Call
            } else {
                Kind::IndirectCall
            }
        }
        FlowControl::IndirectCall => Kind::IndirectCall,
        FlowControl::Interrupt => Kind::Other,
        FlowControl::XbeginXabortXend => Kind::Other,
        FlowControl::Exception => Kind::Trap,
    }
}

/// What [`classify`] and [`stack_ops`] need of an instruction that depends
/// on its opcode alone (`Code`), worked out once per opcode and kept: the
/// kind, whether it may have stack operations, whether it is a `lea`,
/// whether it may be part of a kCFI check (`ud2`, [`hash_load`]'s opcodes).
/// Decoding asks for each instruction, and most opcodes recur millions of times.
struct CodeInfo {
    cache: [AtomicU8; CODES],
}

const CODES: usize = 1 << 13;
const MAY_STACK: u8 = 0x80;
const LEA: u8 = 0x40;
const KCFI: u8 = 0x20;
const KIND_MASK: u8 = 0x1f;

static CODE_INFO: CodeInfo = CodeInfo {
    cache: [const { AtomicU8::new(0) }; CODES],
};

impl CodeInfo {
    /// `(kind, may have stack operations, is a lea, may be part of a kCFI
    /// check)` of a decoded instruction.
    #[inline]
    fn of(&self, i: &Instruction) -> (Kind, bool, bool, bool) {
        let code = i.code() as usize;
        let Some(slot) = self.cache.get(code) else {
            return (
                classify(i),
                may_stack(i.code()),
                i.mnemonic() == Mnemonic::Lea,
                may_be_kcfi(i.code()),
            );
        };
        let mut v = slot.load(Ordering::Relaxed);
        if v == 0 {
            let flag = |b: bool, f: u8| if b { f } else { 0 };
            v = kind_code(classify(i))
                | flag(may_stack(i.code()), MAY_STACK)
                | flag(i.mnemonic() == Mnemonic::Lea, LEA)
                | flag(may_be_kcfi(i.code()), KCFI);
            slot.store(v, Ordering::Relaxed);
        }
        (
            kind_of_code(v & KIND_MASK),
            v & MAY_STACK != 0,
            v & LEA != 0,
            v & KCFI != 0,
        )
    }
}

/// A kind as a small nonzero number (x86 has one landing pad, ENDBR64).
fn kind_code(k: Kind) -> u8 {
    match k {
        Kind::Call => 1,
        Kind::Jump => 2,
        Kind::CondJump => 3,
        Kind::IndirectCall => 4,
        Kind::IndirectJump => 5,
        Kind::Return => 6,
        Kind::Trap => 7,
        Kind::Breakpoint => 8,
        Kind::Nop => 9,
        Kind::Pad(_) => 10,
        Kind::UaccessOpen => 11,
        Kind::UaccessClose => 12,
        Kind::PushFlags => 13,
        Kind::PopFlags => 14,
        Kind::ContextSwitch => 15,
        Kind::Other => 16,
        Kind::Invalid => 17,
        Kind::Syscall => 18,
    }
}

#[inline]
fn kind_of_code(c: u8) -> Kind {
    match c {
        1 => Kind::Call,
        2 => Kind::Jump,
        3 => Kind::CondJump,
        4 => Kind::IndirectCall,
        5 => Kind::IndirectJump,
        6 => Kind::Return,
        7 => Kind::Trap,
        8 => Kind::Breakpoint,
        9 => Kind::Nop,
        10 => Kind::Pad(Pad::Endbr64),
        11 => Kind::UaccessOpen,
        12 => Kind::UaccessClose,
        13 => Kind::PushFlags,
        14 => Kind::PopFlags,
        15 => Kind::ContextSwitch,
        16 => Kind::Other,
        18 => Kind::Syscall,
        _ => Kind::Invalid,
    }
}

/// The opcodes [`stack_ops`] looks at.
fn may_stack(code: Code) -> bool {
    matches!(
        code,
        Code::Add_rm64_r64
            | Code::Sub_rm64_r64
            | Code::Push_r64
            | Code::Pop_r64
            | Code::Pushq_imm32
            | Code::Pushq_imm8
            | Code::Push_rm64
            | Code::Pushq_FS
            | Code::Pushq_GS
            | Code::Add_rm64_imm8
            | Code::Add_rm64_imm32
            | Code::Sub_rm64_imm8
            | Code::Sub_rm64_imm32
            | Code::And_rm64_imm8
            | Code::And_rm64_imm32
            | Code::Mov_rm64_r64
            | Code::Mov_r64_rm64
            | Code::Lea_r64_m
            | Code::Pop_rm64
            | Code::Popq_FS
            | Code::Popq_GS
            | Code::Pushfq
            | Code::Popfq
            | Code::Leaveq
            | Code::Iretq
            | Code::Std
            | Code::Cld
    )
}

const RSP: u8 = 4;
const RBP: u8 = 5;

/// What an instruction does to the system-call number register (%rax):
/// `None` nothing, `Some(Some(n))` moves the immediate `n` into it,
/// `Some(None)` writes it otherwise.
fn sets_rax(i: &Instruction) -> Option<Option<u64>> {
    let is_rax = |r: Register| r.full_register() == Register::RAX;
    if matches!(
        i.code(),
        Code::Mov_r32_imm32 | Code::Mov_rm32_imm32 | Code::Mov_rm64_imm32 | Code::Mov_r64_imm64
    ) && i.op0_kind() == OpKind::Register
        && is_rax(i.op0_register())
    {
        // A 32-bit move zero-extends; mov $imm32 to a 64-bit register
        // sign-extends, which `immediate` already did.
        let v = i.immediate(1);
        let v = if i.op0_register() == Register::EAX {
            v & 0xffff_ffff
        } else {
            v
        };
        return Some(Some(v));
    }
    writes_reg(&mut InstructionInfoFactory::new(), i, Register::RAX).then_some(None)
}

/// Whether `i` writes (any part of) the general register `full`.
fn writes_reg(info: &mut InstructionInfoFactory, i: &Instruction, full: Register) -> bool {
    info.info(i).used_registers().iter().any(|u| {
        u.register().full_register() == full
            && matches!(
                u.access(),
                OpAccess::Write
                    | OpAccess::CondWrite
                    | OpAccess::ReadWrite
                    | OpAccess::ReadCondWrite
            )
    })
}

/// `insns[k]` decoded by iced-x86, when it decodes.
fn iced_at(insns: &[Insn], data: &[u8], k: usize) -> Option<Instruction> {
    let i = insns.get(k)?;
    let bytes = data.get(i.offset() as usize..i.end() as usize)?;
    let ins = IcedDecoder::with_ip(64, bytes, i.offset(), DecoderOptions::NONE).decode();
    (!ins.is_invalid()).then_some(ins)
}

/// Position-independent code's switch dispatch, `movslq (%rB,%rI,4),%rA;
/// add %rB,%rA; jmp *%rA` (`.long case - table` entries): the table
/// register %rB and the load's index. The compiler may schedule a few
/// instructions that write neither register in between (rustc: `mov
/// $0x2,%al` before the `jmp`).
fn pie_dispatch(insns: &[Insn], data: &[u8], jump: usize) -> Option<(Register, usize)> {
    if insns.get(jump)?.kind != Kind::IndirectJump {
        return None;
    }
    let j = iced_at(insns, data, jump)?;
    if j.code() != Code::Jmp_rm64 || j.op0_kind() != OpKind::Register {
        return None;
    }
    let target = j.op0_register();
    let mut info = InstructionInfoFactory::new();
    // `insns[k]` before `from`, over at most `PIE_SCHEDULED` plain
    // instructions that write none of `kept`, that `is` accepts.
    let mut back = |from: usize, kept: &[Register], is: &dyn Fn(&Instruction) -> bool| {
        let lo = from.saturating_sub(PIE_SCHEDULED + 1);
        for k in (lo..from).rev() {
            let ins = iced_at(insns, data, k)?;
            if is(&ins) {
                return Some((k, ins));
            }
            if insns[k].kind != Kind::Other || kept.iter().any(|&r| writes_reg(&mut info, &ins, r))
            {
                return None;
            }
        }
        None
    };
    let (k_add, add) = back(jump, &[target], &|add| {
        (add.code() == Code::Add_r64_rm64 || add.code() == Code::Add_rm64_r64)
            && add.op0_kind() == OpKind::Register
            && add.op1_kind() == OpKind::Register
            && add.op0_register() == target
    })?;
    let base = add.op1_register();
    let (k_load, _) = back(k_add, &[target, base], &|load| {
        load.code() == Code::Movsxd_r64_rm32
            && load.op0_register() == target
            && load.op1_kind() == OpKind::Memory
            && load.memory_base() == base
            && load.memory_index_scale() == 4
    })?;
    Some((base, k_load))
}

/// Instructions [`pie_dispatch`] lets stand between its three.
const PIE_SCHEDULED: usize = 6;

/// The stack model's number of a 64-bit general register.
fn gpr(r: Register) -> Option<u8> {
    let n = r.number();
    (r.is_gpr64() && n < 16).then_some(n as u8)
}

/// `disp(%base)` with no index and not RIP-relative: (base, disp).
fn simple_mem(i: &Instruction, op: u32) -> Option<(u8, i32)> {
    if i.op_kind(op) != OpKind::Memory || i.memory_index() != Register::None {
        return None;
    }
    let base = gpr(i.memory_base())?;
    Some((base, i.memory_displacement64() as i64 as i32))
}

/// The stack operations of an instruction, as objtool's x86 decoder
/// (`arch_decode_instruction`) describes them: by opcode, 64-bit operand
/// size only, VEX-encoded instructions never. Calls are left out: a call's
/// push is undone by the callee's return, and the walker adds it for calls
/// that stay inside their function.
fn stack_ops(i: &Instruction, mut op: impl FnMut(Op)) {
    let mut stack = |src: Src, dst: Dst| op(Op::Stack { src, dst });
    let reg0 = || (i.op0_kind() == OpKind::Register).then(|| gpr(i.op0_register()));
    match i.code() {
        // add/sub %reg, %rsp
        Code::Add_rm64_r64 | Code::Sub_rm64_r64 => {
            if let (Some(Some(RSP)), Some(r)) = (reg0(), gpr(i.op1_register())) {
                stack(Src::Add(r, 0), Dst::Reg(RSP));
            }
        }
        Code::Push_r64 => {
            if let Some(r) = gpr(i.op0_register()) {
                stack(Src::Reg(r), Dst::Push);
            }
        }
        Code::Pop_r64 => {
            if let Some(r) = gpr(i.op0_register()) {
                stack(Src::Pop, Dst::Reg(r));
            }
        }
        Code::Pushq_imm32
        | Code::Pushq_imm8
        | Code::Push_rm64
        | Code::Pushq_FS
        | Code::Pushq_GS => stack(Src::Const, Dst::Push),
        Code::Add_rm64_imm8 | Code::Add_rm64_imm32 | Code::Sub_rm64_imm8 | Code::Sub_rm64_imm32
            if reg0() == Some(Some(RSP)) =>
        {
            let imm = i.immediate(1) as i64 as i32;
            let imm = match i.mnemonic() {
                Mnemonic::Sub => imm.wrapping_neg(),
                _ => imm,
            };
            stack(Src::Add(RSP, imm), Dst::Reg(RSP));
        }
        Code::And_rm64_imm8 | Code::And_rm64_imm32 if reg0() == Some(Some(RSP)) => {
            stack(Src::And(RSP, i.immediate(1) as i64 as i32), Dst::Reg(RSP));
        }
        Code::Mov_rm64_r64 => {
            let Some(src) = gpr(i.op1_register()) else {
                return;
            };
            if let Some(Some(dst)) = reg0() {
                stack(Src::Reg(src), Dst::Reg(dst));
            } else if let Some((base, disp)) = simple_mem(i, 0) {
                // mov %rsp, disp(%reg); mov %reg, disp(%rbp|%rsp)
                if src == RSP || base == RBP || base == RSP {
                    stack(Src::Reg(src), Dst::Store(base, disp));
                }
            }
        }
        Code::Mov_r64_rm64 => {
            if let (Some((base @ (RBP | RSP), disp)), Some(dst)) =
                (simple_mem(i, 1), gpr(i.op0_register()))
            {
                stack(Src::Load(base, disp), Dst::Reg(dst));
            }
        }
        Code::Lea_r64_m => {
            if let (Some((base, disp)), Some(dst)) = (simple_mem(i, 1), gpr(i.op0_register())) {
                let src = if disp == 0 {
                    Src::Reg(base)
                } else {
                    Src::Add(base, disp)
                };
                stack(src, Dst::Reg(dst));
            }
        }
        Code::Pop_rm64 | Code::Popq_FS | Code::Popq_GS => stack(Src::Pop, Dst::Mem),
        Code::Pushfq => stack(Src::Const, Dst::PushFlags),
        Code::Popfq => stack(Src::PopFlags, Dst::Mem),
        Code::Leaveq => {
            stack(Src::Reg(RBP), Dst::Reg(RSP));
            stack(Src::Pop, Dst::Reg(RBP));
        }
        // sync_core()'s IRET to self pops its five-word frame.
        Code::Iretq => stack(Src::Add(RSP, 40), Dst::Reg(RSP)),
        Code::Std => op(Op::Direction(true)),
        Code::Cld => op(Op::Direction(false)),
        _ => {}
    }
}

/// CFA = %rsp + 8 at entry, the return address at CFA - 8; callee-saved
/// registers of the SysV ABI (objtool's `arch_callee_saved_reg`).
static FRAME: FrameAbi = FrameAbi {
    sp: RSP,
    fp: RBP,
    ra: RaHome::Stack,
    entry_cfa_offset: 8,
    callee_saved: &[3, RBP, 12, 13, 14, 15],
    // rax rcx rdx rbx rsp rbp rsi rdi r8..r15 (DWARF: rax rdx rcx rbx rsi rdi rbp rsp)
    dwarf: &[0, 2, 1, 3, 7, 6, 4, 5, 8, 9, 10, 11, 12, 13, 14, 15],
    dwarf_ra: 16,
};

/// An instruction told from its bytes alone (see [`quick`]).
#[derive(Debug, Clone, Copy)]
struct Quick {
    len: u8,
    kind: Kind,
    /// Branch displacement, or a RIP-relative `lea`'s, from the end.
    rel: Option<i32>,
    /// Its stack operation ([`stack_ops`]'s for the same instruction).
    op: Option<Op>,
}

/// The r/m operand of a ModRM byte.
#[derive(Debug, Clone, Copy)]
enum QuickRm {
    Reg(u8),
    /// `base` is `None` when RIP-relative (`rip`) or absent.
    Mem {
        base: Option<u8>,
        index: bool,
        rip: bool,
        disp: i32,
    },
}

/// The ModRM operand at `b[i]`: its end, the `reg` field (with REX.R) and
/// the r/m operand.
#[inline(always)]
fn quick_rm(b: &[u8; 16], i: usize, rex: u8) -> (usize, u8, QuickRm) {
    let m = b[i];
    let (md, rm) = (m >> 6, m & 7);
    let reg = (m >> 3) & 7 | (rex & 4) << 1;
    let disp = |n: usize, at: usize| match n {
        0 => 0,
        1 => b[at] as i8 as i32,
        _ => i32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]]),
    };
    let mem = |base, index, rip, disp| QuickRm::Mem {
        base,
        index,
        rip,
        disp,
    };
    let j = i + 1;
    if md == 3 {
        return (j, reg, QuickRm::Reg(rm | (rex & 1) << 3));
    }
    let n = [0, 1, 4][md as usize];
    if rm == 4 {
        let s = b[j];
        let (base, index) = (s & 7, (s >> 3) & 7 | (rex & 2) << 2 != 4);
        if base == 5 && md == 0 {
            return (j + 5, reg, mem(None, index, false, disp(4, j + 1)));
        }
        let base = Some(base | (rex & 1) << 3);
        return (j + 1 + n, reg, mem(base, index, false, disp(n, j + 1)));
    }
    if rm == 5 && md == 0 {
        return (j + 4, reg, mem(None, false, true, disp(4, j)));
    }
    let base = Some(rm | (rex & 1) << 3);
    (j + n, reg, mem(base, false, false, disp(n, j)))
}

/// Where the ModRM operand at `b[i]` ends: [`quick_rm`]'s end, without a
/// branch (most instructions need only their length, and the forms of
/// ModRM and SIB vary from one instruction to the next).
#[inline(always)]
fn rm_end(b: &[u8; 16], i: usize) -> usize {
    const DISP: [u8; 4] = [0, 1, 4, 0];
    let m = b[i];
    let (md, rm) = (m >> 6, m & 7);
    let sib = md != 3 && rm == 4;
    // A SIB byte with no base takes a 32-bit displacement, as `disp32` does
    // (mod 00, r/m 101: RIP-relative).
    let disp32 = md == 0 && (rm == 5 || sib && b[i + 1] & 7 == 5);
    i + 1 + usize::from(sib) + usize::from(DISP[usize::from(md)]) + 4 * usize::from(disp32)
}

/// The common instructions, told without iced-x86 (which costs most of
/// decoding) with their length, kind, branch target and stack operation:
/// after operand-size, segment and REX prefixes, the ALU, `mov`, `lea`,
/// `test`, shift, `movzx`, `cmov`, `setcc`, `imul`, push and pop forms,
/// NOPs, ENDBR64, direct branches, `ret` and `int3` (most of a kernel
/// object's instructions). All else and kCFI's checks return `None` and go
/// through iced-x86. `b` is 16 bytes or more (`None` if fewer); an instruction is told from
/// its own bytes only (the last of a range is told from them zero-padded,
/// and kept if it ends in the range). The stack operations
/// are [`stack_ops`]' for the same instruction: tests hold this to
/// iced-x86 and `stack_ops` on every fixture and on generated encodings
/// (and, ignored, on the module corpus).
#[cfg(test)]
fn quick(b: &[u8]) -> Option<Quick> {
    quick16(b.first_chunk()?)
}

/// What a first byte is to [`quick16`]: an operand-size or segment prefix
/// it takes, a REX prefix, or neither.
const LEAD: [u8; 256] = {
    let mut t = [PLAIN_LEAD; 256];
    let mut r = 0x40;
    while r < 0x50 {
        t[r] = REX_LEAD;
        r += 1;
    }
    t[0x66] = PREFIX_LEAD;
    t[0x26] = PREFIX_LEAD;
    t[0x2e] = PREFIX_LEAD;
    t[0x36] = PREFIX_LEAD;
    t[0x3e] = PREFIX_LEAD;
    t[0x64] = PREFIX_LEAD;
    t[0x65] = PREFIX_LEAD;
    t
};
const PLAIN_LEAD: u8 = 0;
const PREFIX_LEAD: u8 = 1;
const REX_LEAD: u8 = 2;

/// [`quick`] of the 16 bytes at an instruction's start.
#[inline(always)]
fn quick16(b: &[u8; 16]) -> Option<Quick> {
    // Operand-size and segment prefixes (the kernel's per-CPU `%gs:`,
    // NOPs padded with `66` and `cs`), at most four, then REX.
    // Most instructions have none: one lookup tells.
    let (mut i, mut p66, mut rex) = (0, false, 0);
    match LEAD[usize::from(b[0])] {
        PLAIN_LEAD => {}
        REX_LEAD => (i, rex) = (1, b[0]),
        _ => {
            while i < 4 && LEAD[usize::from(b[i])] & PREFIX_LEAD != 0 {
                p66 |= b[i] == 0x66;
                i += 1;
            }
            if LEAD[usize::from(b[i])] == REX_LEAD {
                rex = b[i];
                i += 1;
            }
        }
    }
    let op = b[i];
    i += 1;
    let prefixed = i > 1;
    let w = rex & 8 != 0;
    let iz = if w || !p66 { 4 } else { 2 };
    // The ModRM byte, if any, is at `b[i]`.
    let ext = (b[i] >> 3) & 7;
    let modrm = |imm: usize| rm_end(b, i) + imm;
    let rel32 = |at: usize| i32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]]);
    let stack = |src, dst| Some(Op::Stack { src, dst });
    let (len, kind, rel, op) = match op {
        0x0f => {
            let at = i + 1;
            let ext = (b[at] >> 3) & 7;
            let modrm = || rm_end(b, at);
            match b[i] {
                0x80..=0x8f if !prefixed => (at + 4, Kind::CondJump, Some(rel32(at)), None),
                0x1f if ext == 0 => (modrm(), Kind::Nop, None, None),
                0x40..=0x4f | 0xaf | 0xb6 | 0xb7 | 0xbe | 0xbf => {
                    (modrm(), Kind::Other, None, None)
                }
                0x90..=0x9f if ext == 0 => (modrm(), Kind::Other, None, None),
                _ => return None,
            }
        }
        // add/sub %reg, %rsp.
        0x01 | 0x29 if w => {
            let (end, reg, rm) = quick_rm(b, i, rex);
            let op = match rm {
                QuickRm::Reg(RSP) => stack(Src::Add(reg, 0), Dst::Reg(RSP)),
                _ => None,
            };
            (end, Kind::Other, None, op)
        }
        // kCFI's `add -K(%reg), %r10d`.
        0x03 if !w && !p66 => return None,
        0x00..=0x3f => match op & 7 {
            0..=3 => (modrm(0), Kind::Other, None, None),
            4 => (i + 1, Kind::Other, None, None),
            5 => (i + iz, Kind::Other, None, None),
            _ => return None,
        },
        0x50..=0x5f if !p66 => {
            let r = op & 7 | (rex & 1) << 3;
            let op = match op < 0x58 {
                true => stack(Src::Reg(r), Dst::Push),
                false => stack(Src::Pop, Dst::Reg(r)),
            };
            (i, Kind::Other, None, op)
        }
        // mov %reg, %reg (copies of the stack pointer are followed); mov
        // %rsp, disp(%reg); mov %reg, disp(%rbp|%rsp).
        0x89 if w => {
            let (end, src, rm) = quick_rm(b, i, rex);
            let op = match rm {
                QuickRm::Reg(dst) => stack(Src::Reg(src), Dst::Reg(dst)),
                QuickRm::Mem {
                    base: Some(base),
                    index: false,
                    disp,
                    ..
                } if src == RSP || base == RBP || base == RSP => {
                    stack(Src::Reg(src), Dst::Store(base, disp))
                }
                _ => None,
            };
            (end, Kind::Other, None, op)
        }
        // mov disp(%rbp|%rsp), %reg.
        0x8b if w => {
            let (end, dst, rm) = quick_rm(b, i, rex);
            let op = match rm {
                QuickRm::Mem {
                    base: Some(base @ (RBP | RSP)),
                    index: false,
                    disp,
                    ..
                } => stack(Src::Load(base, disp), Dst::Reg(dst)),
                _ => None,
            };
            (end, Kind::Other, None, op)
        }
        0x63 | 0x84 | 0x85 | 0x88..=0x8b => (modrm(0), Kind::Other, None, None),
        0x69 => (modrm(iz), Kind::Other, None, None),
        0x6b => (modrm(1), Kind::Other, None, None),
        // lea: a 64-bit one of `disp(%base)` computes from a register; one
        // of `disp(%rip)` an address in this section.
        0x8d => {
            let (end, dst, rm) = quick_rm(b, i, rex);
            let QuickRm::Mem {
                base,
                index,
                rip,
                disp,
            } = rm
            else {
                return None;
            };
            let op = match base {
                Some(base) if w && !index => match disp {
                    0 => stack(Src::Reg(base), Dst::Reg(dst)),
                    _ => stack(Src::Add(base, disp), Dst::Reg(dst)),
                },
                _ => None,
            };
            (end, Kind::Other, rip.then_some(disp), op)
        }
        // cmpl $hash, -K(%reg): kCFI's check.
        0x81 if !w && !p66 && ext == 7 => return None,
        // add/sub/and $imm, %rsp.
        0x80 | 0x81 | 0x83 => {
            let (end, _, rm) = quick_rm(b, i, rex);
            let (imm, n) = match op {
                0x81 if iz == 2 => (i16::from_le_bytes([b[end], b[end + 1]]) as i32, 2),
                0x81 => (rel32(end), 4),
                _ => (b[end] as i8 as i32, 1),
            };
            let op = match (w && op != 0x80, rm, ext) {
                (true, QuickRm::Reg(RSP), 0) => stack(Src::Add(RSP, imm), Dst::Reg(RSP)),
                (true, QuickRm::Reg(RSP), 5) => {
                    stack(Src::Add(RSP, imm.wrapping_neg()), Dst::Reg(RSP))
                }
                (true, QuickRm::Reg(RSP), 4) => stack(Src::And(RSP, imm), Dst::Reg(RSP)),
                _ => None,
            };
            (end + n, Kind::Other, None, op)
        }
        0x98 | 0x99 => (i, Kind::Other, None, None),
        0xa8 => (i + 1, Kind::Other, None, None),
        0xa9 => (i + iz, Kind::Other, None, None),
        0xb0..=0xb7 => (i + 1, Kind::Other, None, None),
        0xb8..=0xbf => (i + if w { 8 } else { iz }, Kind::Other, None, None),
        // Shifts but the `sal` alias; `mov $imm` (/0: not xabort, xbegin);
        // test $imm (/0), not, neg, mul, div; inc and dec (not the indirect
        // branches and push of 0xff).
        0xc0 | 0xc1 if ext != 6 => (modrm(1), Kind::Other, None, None),
        0xd0..=0xd3 if ext != 6 => (modrm(0), Kind::Other, None, None),
        0xc6 if ext == 0 => (modrm(1), Kind::Other, None, None),
        0xc7 if ext == 0 => (modrm(iz), Kind::Other, None, None),
        0xf6 | 0xf7 if ext == 1 => return None,
        0xf6 if ext == 0 => (modrm(1), Kind::Other, None, None),
        0xf7 if ext == 0 => (modrm(iz), Kind::Other, None, None),
        0xf6 | 0xf7 => (modrm(0), Kind::Other, None, None),
        0xfe | 0xff if ext <= 1 => (modrm(0), Kind::Other, None, None),
        _ if prefixed => return None,
        0x70..=0x7f => (i + 1, Kind::CondJump, Some(b[i] as i8 as i32), None),
        0xeb => (i + 1, Kind::Jump, Some(b[i] as i8 as i32), None),
        0xe8 => (i + 4, Kind::Call, Some(rel32(i)), None),
        0xe9 => (i + 4, Kind::Jump, Some(rel32(i)), None),
        0xf3 if b[1..4] == [0x0f, 0x1e, 0xfa] => (4, Kind::Pad(Pad::Endbr64), None, None),
        0x90 => (i, Kind::Nop, None, None),
        0xc3 => (i, Kind::Return, None, None),
        0xcc => (i, Kind::Breakpoint, None, None),
        _ => return None,
    };
    // Longer is not an instruction (four prefixes, REX, an immediate).
    (len <= 15).then_some(Quick {
        len: len as u8,
        kind,
        rel,
        op,
    })
}

impl X86 {
    /// [`Decoder::decode_with_ops`], with [`quick`] (`QUICK`) or iced-x86
    /// alone (the reference the tests hold the quick way to).
    #[inline(always)]
    fn decode_impl<const QUICK: bool>(
        &self,
        bytes: &[u8],
        base: u64,
        out: &mut Vec<Insn>,
        mut ops: Option<&mut OpTable>,
    ) {
        // Section offsets fit in 32 bits (the reader refuses larger
        // executable sections): checked once, not per instruction.
        assert!(
            base.checked_add(bytes.len() as u64)
                .is_some_and(|end| end <= u64::from(u32::MAX)),
            "section offsets fit in 32 bits"
        );
        // Made when first needed: most ranges (a function each) need none.
        let mut iced: Option<IcedDecoder> = None;
        let mut ins = Instruction::default();
        let mut pos = 0;
        while pos < bytes.len() {
            let offset = base + pos as u64;
            let rest = &bytes[pos..];
            let q = match (QUICK, rest.first_chunk()) {
                (false, _) => None,
                (true, Some(b)) => quick16(b),
                (true, None) => {
                    let mut padded = [0u8; 16];
                    padded[..rest.len()].copy_from_slice(rest);
                    quick16(&padded).filter(|q| usize::from(q.len) <= rest.len())
                }
            };
            if let Some(q) = q {
                // Its operation, if any, is a stack operation.
                let mut insn = Insn::told(offset as u32, q.len, q.kind, q.rel);
                if let (Some(op), Some(t)) = (q.op, ops.as_deref_mut()) {
                    insn = insn.with_ops_at(t.len());
                    t.push(offset, op);
                }
                out.push(insn);
                pos += usize::from(q.len);
                continue;
            }
            let dec = iced
                .get_or_insert_with(|| IcedDecoder::with_ip(64, bytes, base, DecoderOptions::NONE));
            if dec.position() != pos {
                // Always in range: `pos` is below the length.
                let _ = dec.set_position(pos);
                dec.set_ip(offset);
            }
            dec.decode_out(&mut ins);
            if ins.is_invalid() {
                let rest = bytes.len() - pos;
                // Undecodable byte: one-byte Invalid, resynchronise after it.
                let cut = dec.last_error() == iced_x86::DecoderError::NoMoreBytes;
                let len = if cut { rest } else { 1 };
                // But UDB (0xd6, SALC before 64-bit mode) is a one-byte #UD
                // Linux 7.x traps with as with `ud2` (the paranoid indirect
                // thunks' `1: UDB; jne 1b`), objtool's INSN_BUG.
                let kind = if !cut && bytes[pos] == 0xd6 {
                    Kind::Trap
                } else {
                    Kind::Invalid
                };
                out.push(Insn::new(offset, len.min(15) as u8, kind, None));
                if len > 1 {
                    break;
                }
                pos += 1;
                let _ = dec.set_position(pos);
                dec.set_ip(offset + 1);
                continue;
            }
            pos = dec.position();
            let (kind, may_stack, lea, kcfi) = CODE_INFO.of(&ins);
            let imm_target = match kind {
                Kind::Call | Kind::Jump | Kind::CondJump => Some(ins.near_branch_target()),
                // lea disp(%rip), reg: computes an address in this section
                // (the assembler resolved the label, so no relocation says so).
                Kind::Other if lea && ins.is_ip_rel_memory_operand() => {
                    Some(ins.ip_rel_memory_address())
                }
                _ => None,
            };
            let mut insn = Insn::new(offset, ins.len() as u8, kind, imm_target);
            if kcfi {
                let at = &bytes[pos - ins.len()..];
                if kind == Kind::Trap && self.kcfi_trap(at) {
                    insn = insn.with_kcfi_trap();
                } else if hash_load_opcode(at).is_some() && hash_load(&ins).is_some() {
                    insn = insn.with_kcfi_hash_load();
                }
            }
            let mut straight = true;
            if may_stack && let Some(t) = ops.as_deref_mut() {
                let before = t.len();
                stack_ops(&ins, |op| {
                    straight &= matches!(op, Op::Stack { .. });
                    t.push(offset, op);
                });
                if t.len() > before {
                    insn = insn.with_ops_at(before);
                }
            }
            if straight {
                insn = insn.straight();
            }
            out.push(insn);
        }
    }
}

/// Stack-probe loops, as gcc (`-fstack-clash-protection`) and LLVM (also
/// rustc's inline probes for frames over a page) emit them:
///
/// ```text
///     lea -N(%rsp),%r11          (gcc)  |  mov %rsp,%r11; sub $N,%r11  (LLVM)
/// 1:  sub $P,%rsp
///     orq $0,(%rsp)              (gcc)  |  movq $0,(%rsp)              (LLVM)
///     cmp %r11,%rsp
///     jne 1b
/// ```
///
/// A walk would find the stack a page lower at each turn. The loop's own
/// move of the stack pointer goes; the instruction setting %r11 also makes
/// it the frame address's register (`Op::CfaFrom`, as the compilers' CFI
/// does); and the instruction after the loop first sets the stack pointer
/// from it. Found after a section is decoded, from its operations: only a
/// section with a page-sized `sub` of the stack pointer is looked at.
fn settle_probe_loops(data: &[u8], insns: &mut [Insn], ops: &mut OpTable, subs: &[u64]) {
    super::settle_probe_loops(insns, ops, subs, |insns, k| probe_loop_at(data, insns, k));
}

/// The probe loop whose `sub $P,%rsp` is `insns[k]`, if it is one (see
/// [`settle_probe_loops`]).
fn probe_loop_at(data: &[u8], insns: &[Insn], k: usize) -> Option<ProbeLoop> {
    let set_k = super::probe_shape(insns, k)?;
    let (set, touch, cmp) = (insns[set_k], insns[k + 1], insns[k + 2]);
    let at = |i: &Insn| iced_at(std::slice::from_ref(i), data, 0);
    // 0 stored to the new top of stack.
    let t_ins = at(&touch)?;
    let zero_top = matches!(
        t_ins.code(),
        Code::Mov_rm64_imm32 | Code::Or_rm64_imm8 | Code::Or_rm64_imm32
    ) && t_ins.op0_kind() == OpKind::Memory
        && t_ins.memory_base() == Register::RSP
        && t_ins.memory_index() == Register::None
        && t_ins.memory_displacement64() == 0
        && t_ins.immediate(1) == 0;
    if !zero_top {
        return None;
    }
    // cmp %rX,%rsp (either order)
    let c_ins = at(&cmp)?;
    if !matches!(c_ins.code(), Code::Cmp_rm64_r64 | Code::Cmp_r64_rm64)
        || c_ins.op0_kind() != OpKind::Register
        || c_ins.op1_kind() != OpKind::Register
    {
        return None;
    }
    let probe = match (c_ins.op0_register(), c_ins.op1_register()) {
        (Register::RSP, r) | (r, Register::RSP) => r,
        _ => return None,
    };
    let reg = gpr(probe).filter(|&r| r != RSP && r != RBP)?;
    // Where %rX was set to sp - N: `lea -N(%rsp),%rX`, or `sub $N,%rX`
    // right after `mov %rsp,%rX`.
    let s_ins = at(&set)?;
    let below = if s_ins.code() == Code::Lea_r64_m
        && s_ins.op0_register() == probe
        && s_ins.memory_base() == Register::RSP
        && s_ins.memory_index() == Register::None
    {
        (s_ins.memory_displacement64() as i64).checked_neg()?
    } else if matches!(s_ins.code(), Code::Sub_rm64_imm32 | Code::Sub_rm64_imm8)
        && s_ins.op0_kind() == OpKind::Register
        && s_ins.op0_register() == probe
    {
        let m_ins = at(insns.get(set_k.checked_sub(1)?)?)?;
        let copies_sp = matches!(m_ins.code(), Code::Mov_rm64_r64 | Code::Mov_r64_rm64)
            && m_ins.op0_kind() == OpKind::Register
            && m_ins.op1_kind() == OpKind::Register
            && m_ins.op0_register() == probe
            && m_ins.op1_register() == Register::RSP;
        if !copies_sp {
            return None;
        }
        s_ins.immediate(1) as i64
    } else {
        return None;
    };
    let below = i32::try_from(below).ok().filter(|&b| b > 0)?;
    Some(ProbeLoop {
        sub: k,
        set: set_k,
        exit: k + 4,
        reg,
        below,
    })
}

/// Where decoding `bytes` (section bytes from `base`) the quick way and
/// with iced-x86 alone differ: the first instruction or stack operation
/// that does, described; `None` when they agree. For the tests and the
/// `x86_decode` fuzz target.
#[doc(hidden)]
pub fn quick_differs(bytes: &[u8], base: u64) -> Option<String> {
    quick_vs_iced(bytes, base).0
}

/// [`quick_differs`], and iced-x86's instructions.
fn quick_vs_iced(bytes: &[u8], base: u64) -> (Option<String>, Vec<Insn>) {
    let run = |quick: bool| {
        let (mut out, mut ops) = (Vec::new(), OpTable::default());
        if quick {
            X86.decode_impl::<true>(bytes, base, &mut out, Some(&mut ops));
        } else {
            X86.decode_impl::<false>(bytes, base, &mut out, Some(&mut ops));
        }
        (out, ops)
    };
    let ((q, qo), (r, ro)) = (run(true), run(false));
    let differs = if let Some(k) = (0..q.len().min(r.len())).find(|&k| q[k] != r[k]) {
        let at = (r[k].offset() - base) as usize;
        Some(format!(
            "quick {:?} but iced-x86 {:?} at {at:#x}: {:02x?}",
            q[k],
            r[k],
            &bytes[at..(at + 15).min(bytes.len())]
        ))
    } else if q.len() != r.len() {
        Some(format!(
            "{} instructions quick, {} with iced-x86",
            q.len(),
            r.len()
        ))
    } else {
        (qo != ro).then(|| format!("stack operations differ: quick {qo:?}, iced-x86 {ro:?}"))
    };
    (differs, r)
}

impl Decoder for X86 {
    fn machine(&self) -> Machine {
        Machine::X86_64
    }

    fn frame(&self) -> &'static FrameAbi {
        &FRAME
    }

    fn decode_with_ops(
        &self,
        bytes: &[u8],
        base: u64,
        out: &mut Vec<Insn>,
        ops: Option<&mut OpTable>,
    ) {
        self.decode_impl::<true>(bytes, base, out, ops)
    }

    fn disasm(&self, bytes: &[u8], offset: u64) -> String {
        let mut dec = IcedDecoder::with_ip(64, bytes, offset, DecoderOptions::NONE);
        let ins = dec.decode();
        if ins.is_invalid() {
            return "(bad)".to_string();
        }
        let mut f = GasFormatter::new();
        f.options_mut()
            .set_gas_space_after_memory_operand_comma(false);
        f.options_mut().set_first_operand_char_index(8);
        f.options_mut().set_uppercase_hex(false);
        f.options_mut().set_branch_leading_zeros(false);
        let mut s = String::new();
        f.format(&ins, &mut s);
        s
    }

    fn syscall_number(
        &self,
        insns: &[Insn],
        data: &[u8],
        at: usize,
        entered: &dyn Fn(usize) -> bool,
    ) -> Option<u64> {
        for k in super::straight_line_before(insns, at, entered) {
            let ins = &insns[k];
            let bytes = data.get(ins.offset() as usize..ins.end() as usize)?;
            let i = IcedDecoder::with_ip(64, bytes, ins.offset(), DecoderOptions::NONE).decode();
            if let Some(set) = sets_rax(&i) {
                return set;
            }
        }
        None
    }

    fn branch_reloc_bias(&self, insn: &Insn, reloc_offset: u64, r_type: u32) -> Option<i64> {
        if !insn.kind.is_branch() || !matches!(r_type, R_X86_64_PC32 | R_X86_64_PLT32) {
            return None;
        }
        // rel32 is the last four bytes; target = S + A - P + end.
        if reloc_offset + 4 != insn.end() {
            return None;
        }
        Some((insn.end() - reloc_offset) as i64)
    }

    fn got_call_bias(&self, insn: &Insn, reloc_offset: u64, r_type: u32) -> Option<i64> {
        // `ff 15`/`ff 25` disp32: the slot's displacement is the last four
        // bytes, and only a RIP-relative operand takes a GOTPCREL relocation.
        if !matches!(insn.kind, Kind::IndirectCall | Kind::IndirectJump)
            || !matches!(
                r_type,
                R_X86_64_GOTPCREL | R_X86_64_GOTPCRELX | R_X86_64_REX_GOTPCRELX
            )
            || reloc_offset + 4 != insn.end()
        {
            return None;
        }
        Some((insn.end() - reloc_offset) as i64)
    }

    fn pc_relative_word(&self, r_type: u32) -> bool {
        matches!(r_type, R_X86_64_PC32 | R_X86_64_PC64)
    }

    fn reloc_use(&self, insn: Option<&Insn>, reloc_offset: u64, r_type: u32) -> RelocUse {
        let Some(insn) = insn else {
            return match r_type {
                R_X86_64_64 | R_X86_64_PC32 | R_X86_64_PLT32 | R_X86_64_32 | R_X86_64_32S
                | R_X86_64_PC64 => RelocUse::Address(0),
                _ => RelocUse::Partial,
            };
        };
        if let Some(bias) = self.branch_reloc_bias(insn, reloc_offset, r_type) {
            return RelocUse::Branch(bias);
        }
        // Memory operands of indirect branches read a pointer; objtool skips
        // these instructions too.
        if matches!(
            insn.kind,
            Kind::IndirectCall | Kind::IndirectJump | Kind::Return | Kind::Nop
        ) {
            return RelocUse::Partial;
        }
        match r_type {
            // RIP-relative: the CPU adds the end of the instruction.
            R_X86_64_PC32
            | R_X86_64_PLT32
            | R_X86_64_GOTPCREL
            | R_X86_64_GOTPCRELX
            | R_X86_64_REX_GOTPCRELX => {
                RelocUse::Address(insn.end().wrapping_sub(reloc_offset) as i64)
            }
            R_X86_64_64 | R_X86_64_32 | R_X86_64_32S => RelocUse::Address(0),
            _ => RelocUse::Partial,
        }
    }

    fn untracked_jump(&self, bytes: &[u8]) -> bool {
        // A 0x3e (DS segment) prefix on an indirect jmp/call is NOTRACK.
        let mut p = 0;
        let mut notrack = false;
        while let Some(&b) = bytes.get(p) {
            match b {
                0x3e => notrack = true,
                0x26 | 0x2e | 0x36 | 0x64 | 0x65 | 0x66 | 0x67 | 0xf2 | 0xf3 | 0x40..=0x4f => {}
                _ => break,
            }
            p += 1;
        }
        notrack
            && bytes.get(p) == Some(&0xff)
            && bytes
                .get(p + 1)
                .is_some_and(|m| matches!((m >> 3) & 7, 2 | 4))
    }

    fn dispatch_form(&self, insns: &[Insn], data: &[u8], jump: usize) -> bool {
        pie_dispatch(insns, data, jump).is_some()
    }

    /// Position-independent code's dispatch ([`pie_dispatch`]): the table
    /// register %rB, and the instruction that set it, searched back over
    /// the function's code however far (gcc hoists the `lea
    /// table(%rip),%rB` of a switch in a loop to the function's entry, past
    /// the loop's other switches): the one write every path back meets
    /// first, else the last in code order. A register a call may clobber
    /// is searched back to the last call only.
    fn table_base_def(
        &self,
        insns: &[Insn],
        data: &[u8],
        jump: usize,
        to: &super::CondTargets,
    ) -> Option<(u32, Option<usize>)> {
        let (base, k_load) = pie_dispatch(insns, data, jump)?;
        let preserved = matches!(
            base,
            Register::RBX
                | Register::RBP
                | Register::R12
                | Register::R13
                | Register::R14
                | Register::R15
        );
        // Back over every path into the load, to the write of %rB each
        // meets first: one instruction, or the table is not read.
        let mut info = InstructionInfoFactory::new();
        let mut def = None;
        let whole = super::walk_back(insns, to, k_load, |k| {
            if insns[k].kind == Kind::Call && !preserved {
                return Back::Fail;
            }
            let Some(ins) = iced_at(insns, data, k) else {
                return Back::Fail;
            };
            if !writes_reg(&mut info, &ins, base) {
                return Back::On;
            }
            match def {
                Some(d) if d != k => Back::Fail,
                _ => {
                    def = Some(k);
                    Back::Stop
                }
            }
        });
        if whole && def.is_some() {
            return Some((base.number() as u32, def));
        }
        // Paths that disagree (clang and rustc set a table register again
        // after calls), or that end in code only switch tables reach (read
        // later): the last write before the load in the code's order,
        // skipping code that runs into a return (an epilogue's `pop %rB`).
        let mut returns = false;
        for k in (0..k_load).rev() {
            match insns[k].kind {
                Kind::Return | Kind::Trap => returns = true,
                Kind::Call if !preserved => return None,
                Kind::Jump | Kind::CondJump | Kind::IndirectJump => returns = false,
                _ => {}
            }
            if returns {
                continue;
            }
            let ins = iced_at(insns, data, k)?;
            if writes_reg(&mut info, &ins, base) {
                return Some((base.number() as u32, Some(k)));
            }
        }
        None
    }

    fn settle_ops(&self, data: &[u8], insns: &mut [Insn], ops: &mut OpTable, unsettled: &[u64]) {
        settle_probe_loops(data, insns, ops, unsettled);
    }

    fn unsettled(&self, ops: &OpTable) -> Vec<u64> {
        ops.stack_subs_from(RSP, super::PROBE_MIN)
    }

    fn min_insn_len(&self) -> u64 {
        1
    }

    fn typical_insn_len(&self) -> usize {
        // Debian's x86-64 modules average 3.7 bytes.
        3
    }

    fn kcfi_hash_load(&self, bytes: &[u8]) -> Option<HashLoad> {
        hash_load_opcode(bytes)?;
        let mut dec = IcedDecoder::new(64, bytes, DecoderOptions::NONE);
        let ins = dec.decode();
        if ins.is_invalid() {
            return None;
        }
        hash_load(&ins)
    }

    fn sealed_pad(&self, pad: Pad) -> Option<&'static [u8]> {
        // `osp nopl (%rax)`: the kernel's own ENDBR poison (gen_endbr_poison),
        // a 4-byte NOP unique to former ENDBR sites.
        (pad == Pad::Endbr64).then_some(&[0x66, 0x0f, 0x1f, 0x00])
    }

    fn speculation_barrier(&self, bytes: &[u8]) -> Option<Barrier> {
        // `int3`, what -mharden-sls puts after returns and indirect jumps
        // (objtool's validate_sls accepts nothing else).
        (bytes.first() == Some(&0xcc)).then_some(Barrier::Complete)
    }

    fn kcfi_trap(&self, bytes: &[u8]) -> bool {
        bytes.starts_with(&[0x0f, 0x0b])
    }

    fn kcfi_hash_mov(&self, bytes: &[u8]) -> Option<u32> {
        let mut dec = IcedDecoder::new(64, bytes, DecoderOptions::NONE);
        let ins = dec.decode();
        (ins.mnemonic() == Mnemonic::Mov
            && ins.op0_kind() == OpKind::Register
            && ins.op0_register() == Register::EAX
            && ins.op1_kind() == OpKind::Immediate32)
            .then(|| ins.immediate32())
    }
}

/// The opcodes of a kCFI check: the trap, and the hash loads
/// ([`hash_load`]; `add` and `cmp` of 32 bits from memory).
fn may_be_kcfi(c: Code) -> bool {
    matches!(c, Code::Ud2 | Code::Add_r32_rm32 | Code::Cmp_rm32_imm32)
}

/// kCFI checks read the type hash with `add -K(%reg),%r10d` or `cmp
/// $hash,-K(%reg)` / `cmpl $hash,-K(%reg)`: opcode 03 or 81 after at most a
/// REX prefix, told before decoding.
fn hash_load_opcode(bytes: &[u8]) -> Option<()> {
    let op = match bytes {
        [rex, op, ..] if rex & 0xf0 == 0x40 => *op,
        [op, ..] => *op,
        [] => return None,
    };
    (op == 0x03 || op == 0x81).then_some(())
}

/// The hash load of a decoded instruction with [`hash_load_opcode`]: 32
/// bits read from just before the call target.
fn hash_load(ins: &Instruction) -> Option<HashLoad> {
    // Asked of every `add` at decode: the displacement first (0 without a
    // memory operand).
    let d = ins.memory_displacement64() as i64;
    if !(-64..0).contains(&d) {
        return None;
    }
    let mem_op = (0..ins.op_count()).position(|k| ins.op_kind(k) == OpKind::Memory)?;
    let reads32 = ins.memory_size().size() == 4;
    let base_ok = ins.memory_base() != Register::None
        && ins.memory_base() != Register::RIP
        && ins.memory_index() == Register::None;
    let ok = match ins.mnemonic() {
        Mnemonic::Add => mem_op == 1 && ins.op0_register() == Register::R10D,
        Mnemonic::Cmp => mem_op == 0 && ins.op1_kind() == OpKind::Immediate32,
        _ => false,
    };
    (ok && reads32 && base_ok).then_some(HashLoad { disp: d })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Asserts both ways agree: (instructions, told quickly).
    fn assert_same(bytes: &[u8], base: u64, what: &str) -> (usize, usize) {
        let (differs, r) = quick_vs_iced(bytes, base);
        if let Some(d) = differs {
            panic!("{what}: {d}");
        }
        let told = r
            .iter()
            .filter(|i| quick(&bytes[(i.offset() - base) as usize..]).is_some())
            .count();
        (r.len(), told)
    }

    /// Every x86-64 object under `dir`, both ways: (objects, instructions,
    /// instructions told quickly).
    fn agree_under(dir: &std::path::Path) -> (usize, usize, usize) {
        let (inputs, _) = crate::input::expand(&[dir.to_path_buf()]);
        let mut n = (0, 0, 0);
        for input in inputs.iter() {
            let Ok(l) = crate::input::load(&input.path) else {
                continue;
            };
            for (_, r) in &l.members {
                let Ok(o) = crate::elf::Object::parse(&l.bytes[r.clone()]) else {
                    continue;
                };
                if o.machine != Machine::X86_64 {
                    continue;
                }
                n.0 += 1;
                for s in o.sections.iter().filter(|s| s.is_exec()) {
                    let d = o.section_data(s.index);
                    for (lo, hi) in o.code_ranges(s.index) {
                        let b = &d[lo as usize..hi as usize];
                        let (all, told) = assert_same(b, lo, &input.path.display().to_string());
                        n.1 += all;
                        n.2 += told;
                    }
                }
            }
        }
        n
    }

    /// The quick decoder against iced-x86 on every x86-64 object the tests
    /// have (compiler output and the kernel objects among them).
    #[test]
    fn quick_decoding_agrees_with_iced_on_every_fixture() {
        let dir = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata"));
        let (objects, _, told) = agree_under(dir);
        assert!(
            objects > 100 && told > 5_000,
            "{objects} objects, {told} told quickly"
        );
    }

    /// ... and on the Debian modules (`OBJCORPUS`, see scripts/bench.sh):
    /// `cargo test --release -- --ignored quick_decoding --nocapture`.
    #[test]
    #[ignore = "needs the module corpus"]
    fn quick_decoding_agrees_with_iced_on_the_corpus() {
        let home = std::env::var("HOME").unwrap_or_default();
        let c = std::env::var("OBJCORPUS").unwrap_or(format!("{home}/.cache/objcorpus"));
        let (objects, insns, told) = agree_under(&std::path::Path::new(&c).join("x86_64"));
        println!("{objects} objects, {insns} instructions, {told} told quickly");
        assert!(objects > 0);
    }

    /// ... and on generated encodings: every one-byte opcode and every
    /// `0f` opcode after prefixes, with ModRM bytes (every eighth for the
    /// `0f` opcodes [`quick`] leaves to iced-x86), SIB bytes, displacements
    /// and immediates from a fixed seed.
    #[test]
    fn quick_decoding_agrees_with_iced_on_generated_encodings() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut told = 0;
        let opcodes = (0..=255u8)
            .filter(|&op| op != 0x0f)
            .map(|op| vec![op])
            .chain((0..=255u8).map(|op2| vec![0x0f, op2]));
        let opcodes: Vec<Vec<u8>> = opcodes.collect();
        // Operand-size and REX prefixes with every ModRM byte; segment,
        // repeated, misplaced and other prefixes with every fifth.
        let mut prefixes: Vec<(Vec<u8>, usize)> = vec![(vec![], 1), (vec![0x66], 1)];
        for rex in 0x40..=0x4f {
            prefixes.push((vec![rex], 1));
            prefixes.push((vec![0x66, rex], 1));
        }
        for pre in [
            &[0x65][..],
            &[0x65, 0x48],
            &[0x64, 0x41],
            &[0x2e],
            &[0x3e],
            &[0x26],
            &[0x36, 0x4c],
            &[0x66, 0x2e],
            &[0x66, 0x66, 0x2e],
            &[0x2e, 0x66, 0x48],
            &[0x65, 0x65, 0x65, 0x65],
            &[0x65, 0x65, 0x65, 0x65, 0x48],
            &[0x48, 0x66],
            &[0xf3],
            &[0xf2, 0x48],
            &[0xf0],
        ] {
            prefixes.push((pre.to_vec(), 5));
        }
        for (pre, every) in &prefixes {
            for op in &opcodes {
                let probe = [&pre[..], op, &[0; 16]].concat();
                let step = if op.len() == 2 && quick(&probe).is_none() {
                    8
                } else {
                    *every
                };
                let what = format!("prefix {pre:02x?} opcode {op:02x?}");
                let mut buf = Vec::new();
                for modrm in (0..=255u8).step_by(step) {
                    let start = buf.len();
                    buf.extend(pre);
                    buf.extend(op);
                    buf.push(modrm);
                    buf.extend(next().to_le_bytes());
                    // Cut short, alone, as the last bytes of a range: the
                    // quick way reads them zero-padded (RIP-relative, SIB
                    // with 8- and 32-bit displacements, a register).
                    if *every == 1 && matches!(modrm, 0x05 | 0x44 | 0x84 | 0xe4) {
                        for cut in start + 1..buf.len() {
                            let what = format!("{what} modrm {modrm:02x} cut to {}", cut - start);
                            assert_same(&buf[start..cut], 0x1000, &what);
                        }
                    }
                    // Each case starts where the last one is sure to end.
                    buf.extend([0xcc; 16]);
                }
                told += assert_same(&buf, 0x1000, &what).1;
            }
        }
        assert!(told > 500_000, "{told} told quickly");
    }

    /// The branchless length of a ModRM operand is [`quick_rm`]'s, for
    /// every ModRM and SIB byte.
    #[test]
    fn modrm_lengths_without_branches() {
        for m in 0..=255u8 {
            for sib in 0..=255u8 {
                let mut b = [0u8; 16];
                (b[3], b[4]) = (m, sib);
                assert_eq!(rm_end(&b, 3), quick_rm(&b, 3, 0).0, "{m:02x} {sib:02x}");
            }
        }
    }

    fn kinds(bytes: &[u8]) -> Vec<Kind> {
        let mut v = Vec::new();
        X86.decode(bytes, 0, &mut v);
        v.into_iter().map(|i| i.kind).collect()
    }

    #[test]
    fn kcfi_traps_and_hash_loads_are_told_at_decode() {
        // ud2; int3; add -0x4(%r11),%r10d; cmpl $0x12345678,-0x4(%rax);
        // add 0x4(%r11),%r10d (reads after the target: no hash)
        let bytes = [
            0x0f, 0x0b, 0xcc, 0x45, 0x03, 0x53, 0xfc, 0x81, 0x78, 0xfc, 0x78, 0x56, 0x34, 0x12,
            0x45, 0x03, 0x53, 0x04,
        ];
        let mut v = Vec::new();
        X86.decode(&bytes, 0, &mut v);
        assert_eq!(
            Insn::kcfi_flags(&v),
            [
                (true, false),
                (false, false),
                (false, true),
                (false, true),
                (false, false)
            ]
        );
        // The flag agrees with the reader of the bytes.
        for i in &v {
            let b = &bytes[i.offset() as usize..i.end() as usize];
            assert_eq!(X86.kcfi_hash_load(b).is_some(), i.is_kcfi_hash_load());
            assert_eq!(X86.kcfi_trap(b), i.is_kcfi_trap());
        }
    }

    #[test]
    fn classifies_uaccess_and_virtualisation() {
        assert_eq!(kinds(&[0x0f, 0x01, 0xcb]), [Kind::UaccessOpen]); // stac
        assert_eq!(kinds(&[0x0f, 0x01, 0xca]), [Kind::UaccessClose]); // clac
        assert_eq!(kinds(&[0x9c, 0x9d]), [Kind::PushFlags, Kind::PopFlags]);
        // vmlaunch, vmresume, vmrun, vmcall, vmmcall
        for b in [
            [0x0f, 0x01, 0xc2],
            [0x0f, 0x01, 0xc3],
            [0x0f, 0x01, 0xd8],
            [0x0f, 0x01, 0xc1],
            [0x0f, 0x01, 0xd9],
        ] {
            assert_eq!(kinds(&b), [Kind::Other], "{b:x?}");
        }
    }

    fn insn(bytes: &[u8]) -> Insn {
        let mut v = Vec::new();
        X86.decode(bytes, 0x100, &mut v);
        v[0]
    }

    #[test]
    fn reloc_uses() {
        // call rel32: the operand is a branch.
        let call = insn(&[0xe8, 0, 0, 0, 0]);
        assert_eq!(
            X86.reloc_use(Some(&call), 0x101, R_X86_64_PLT32),
            RelocUse::Branch(4)
        );
        // lea 0(%rip),%rdi: the address, relative to the instruction's end.
        let lea = insn(&[0x48, 0x8d, 0x3d, 0, 0, 0, 0]);
        assert_eq!(
            X86.reloc_use(Some(&lea), 0x103, R_X86_64_PC32),
            RelocUse::Address(4)
        );
        // call *0(%rip): reads a pointer.
        let icall = insn(&[0xff, 0x15, 0, 0, 0, 0]);
        assert_eq!(
            X86.reloc_use(Some(&icall), 0x102, R_X86_64_PC32),
            RelocUse::Partial
        );
        assert_eq!(X86.reloc_use(None, 0, R_X86_64_64), RelocUse::Address(0));
    }

    #[test]
    fn notrack_and_rip_relative() {
        assert!(X86.untracked_jump(&[0x3e, 0xff, 0xe0])); // notrack jmp *%rax
        assert!(!X86.untracked_jump(&[0xff, 0xe0])); // jmp *%rax
        assert!(!X86.untracked_jump(&[0x3e, 0x90]));
        let lea = [0x48, 0x8d, 0x3d, 0xf0, 0xff, 0xff, 0xff]; // lea -0x10(%rip),%rdi
        assert_eq!(insn(&lea).imm_target(), Some(0xf7));
        let mov = [0x48, 0x8b, 0x05, 0, 0, 0, 0]; // mov 0(%rip),%rax: a load
        assert_eq!(insn(&mov).imm_target(), None);
    }

    fn x86_ops(bytes: &[u8]) -> Vec<Op> {
        let mut insns = Vec::new();
        let mut t = OpTable::default();
        X86.decode_with_ops(bytes, 0, &mut insns, Some(&mut t));
        assert_eq!(insns.len(), 1, "{bytes:x?}");
        assert_eq!(insns[0].has_ops(), !t.is_empty());
        t.at(0).collect()
    }

    #[test]
    fn decodes_stack_operations_as_objtool_does() {
        use Dst::{Mem, Push, PushFlags, Reg as R, Store};
        use Src::{Add, And, Const, Load, Pop, PopFlags, Reg};
        let st = |src, dst| Op::Stack { src, dst };
        let cases: &[(&[u8], &str, Vec<Op>)] = &[
            (&[0x55], "push %rbp", vec![st(Reg(RBP), Push)]),
            (&[0x41, 0x54], "push %r12", vec![st(Reg(12), Push)]),
            (&[0x5b], "pop %rbx", vec![st(Pop, R(3))]),
            (&[0x41, 0x5f], "pop %r15", vec![st(Pop, R(15))]),
            (
                &[0x48, 0x89, 0xe5],
                "mov %rsp,%rbp",
                vec![st(Reg(RSP), R(RBP))],
            ),
            (
                &[0x48, 0x89, 0xec],
                "mov %rbp,%rsp",
                vec![st(Reg(RBP), R(RSP))],
            ),
            (
                &[0x48, 0x83, 0xec, 0x28],
                "sub $0x28,%rsp",
                vec![st(Add(RSP, -0x28), R(RSP))],
            ),
            (
                &[0x48, 0x81, 0xc4, 0, 0x10, 0, 0],
                "add $0x1000,%rsp",
                vec![st(Add(RSP, 0x1000), R(RSP))],
            ),
            (
                &[0x48, 0x83, 0xe4, 0xf0],
                "and $-16,%rsp",
                vec![st(And(RSP, -16), R(RSP))],
            ),
            (
                &[0x4c, 0x8d, 0x54, 0x24, 0x08],
                "lea 0x8(%rsp),%r10",
                vec![st(Add(RSP, 8), R(10))],
            ),
            (
                &[0x49, 0x8d, 0x62, 0xf8],
                "lea -0x8(%r10),%rsp",
                vec![st(Add(10, -8), R(RSP))],
            ),
            (
                &[0x48, 0x8d, 0x04, 0x24],
                "lea (%rsp),%rax",
                vec![st(Reg(RSP), R(0))],
            ),
            (
                &[0x48, 0x89, 0x5c, 0x24, 0x10],
                "mov %rbx,0x10(%rsp)",
                vec![st(Reg(3), Store(RSP, 0x10))],
            ),
            (
                &[0x48, 0x8b, 0x5c, 0x24, 0x10],
                "mov 0x10(%rsp),%rbx",
                vec![st(Load(RSP, 0x10), R(3))],
            ),
            (
                &[0x4c, 0x89, 0x65, 0xf8],
                "mov %r12,-0x8(%rbp)",
                vec![st(Reg(12), Store(RBP, -8))],
            ),
            (
                &[0x4c, 0x8b, 0x65, 0xf8],
                "mov -0x8(%rbp),%r12",
                vec![st(Load(RBP, -8), R(12))],
            ),
            (
                &[0x48, 0x89, 0x27],
                "mov %rsp,(%rdi)",
                vec![st(Reg(RSP), Store(7, 0))],
            ),
            (&[0x48, 0x89, 0xfb], "mov %rdi,%rbx", vec![st(Reg(7), R(3))]),
            (
                &[0xc9],
                "leave",
                vec![st(Reg(RBP), R(RSP)), st(Pop, R(RBP))],
            ),
            (&[0x9c], "pushf", vec![st(Const, PushFlags)]),
            (&[0x9d], "popf", vec![st(PopFlags, Mem)]),
            (&[0x6a, 0x01], "push $1", vec![st(Const, Push)]),
            (
                &[0x41, 0xff, 0x72, 0x08],
                "push 0x8(%r10)",
                vec![st(Const, Push)],
            ),
            (&[0x8f, 0x00], "pop (%rax)", vec![st(Pop, Mem)]),
            (&[0xfd], "std", vec![Op::Direction(true)]),
            (&[0xfc], "cld", vec![Op::Direction(false)]),
            (
                &[0x48, 0x01, 0xc4],
                "add %rax,%rsp",
                vec![st(Add(0, 0), R(RSP))],
            ),
            (&[0x48, 0xcf], "iretq", vec![st(Add(RSP, 40), R(RSP))]),
            // Not stack operations for objtool: 32-bit moves, indexed and
            // RIP-relative memory, calls, the register form of 0x8b.
            (&[0x89, 0xc3], "mov %eax,%ebx", vec![]),
            (
                &[0x48, 0x8b, 0x5c, 0xc4, 0x10],
                "mov 0x10(%rsp,%rax,8),%rbx",
                vec![],
            ),
            (
                &[0x48, 0x8b, 0x1d, 0x10, 0, 0, 0],
                "mov 0x10(%rip),%rbx",
                vec![],
            ),
            (&[0x48, 0x8b, 0xec], "mov %rsp,%rbp (8b /r)", vec![]),
            (&[0xe8, 0, 0, 0, 0], "call", vec![]),
            (&[0x48, 0x0f, 0x07], "sysretq", vec![]),
        ];
        for (bytes, text, want) in cases {
            assert_eq!(&x86_ops(bytes), want, "{text}");
        }
        assert_eq!(kinds(&[0x48, 0xcf]), [Kind::ContextSwitch]);
        assert_eq!(kinds(&[0x48, 0x0f, 0x07]), [Kind::ContextSwitch]);
    }
}
