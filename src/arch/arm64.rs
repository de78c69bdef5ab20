//! AArch64: classification from the fixed 32-bit encodings, text through
//! yaxpeax-arm (which prints BTI as `hint #0x22` and `msr pan` as a raw
//! PSTATE field, so the names that matter here are decoded from the bits).

use super::ops::{Dst, Modifier, Op as StateOp, OpTable, Pac, PacKey, Src};
use super::{
    Back, Barrier, CondTargets, Decoder, FrameAbi, HashLoad, Insn, Kind, Pad, ProbeLoop, RaHome,
    RelocUse, TableJump, walk_back, walk_back_value,
};
use crate::elf::Machine;
use yaxpeax_arch::{Decoder as _, U8Reader};
use yaxpeax_arm::armv8::a64::InstDecoder;

pub struct Arm64;

const R_AARCH64_ABS64: u32 = 257;
const R_AARCH64_ABS32: u32 = 258;
const R_AARCH64_PREL64: u32 = 260;
const R_AARCH64_PREL32: u32 = 261;
const R_AARCH64_ADR_PREL_LO21: u32 = 274;
const R_AARCH64_ADD_ABS_LO12_NC: u32 = 277;
const R_AARCH64_LD64_GOT_LO12_NC: u32 = 312;
const R_AARCH64_TSTBR14: u32 = 279;
const R_AARCH64_CONDBR19: u32 = 280;
const R_AARCH64_JUMP26: u32 = 282;
const R_AARCH64_CALL26: u32 = 283;

fn sext(v: u32, bits: u32) -> i64 {
    let shift = 64 - bits;
    ((u64::from(v) << shift) as i64) >> shift
}

/// Classify one instruction word; returns the kind and, for direct branches,
/// the byte displacement from the instruction.
pub fn classify(w: u32) -> (Kind, Option<i64>) {
    // B / BL
    if w & 0x7c00_0000 == 0x1400_0000 {
        let d = sext(w & 0x03ff_ffff, 26) * 4;
        let k = if w & 0x8000_0000 != 0 {
            Kind::Call
        } else {
            Kind::Jump
        };
        return (k, Some(d));
    }
    // B.cond / BC.cond
    if w & 0xff00_0000 == 0x5400_0000 {
        return (Kind::CondJump, Some(sext((w >> 5) & 0x7ffff, 19) * 4));
    }
    // CBZ / CBNZ
    if w & 0x7e00_0000 == 0x3400_0000 {
        return (Kind::CondJump, Some(sext((w >> 5) & 0x7ffff, 19) * 4));
    }
    // TBZ / TBNZ
    if w & 0x7e00_0000 == 0x3600_0000 {
        return (Kind::CondJump, Some(sext((w >> 5) & 0x3fff, 14) * 4));
    }
    // Unconditional branch (register): BR, BLR, RET, ERET, and the PAuth forms.
    if w & 0xfe1f_0000 == 0xd61f_0000 {
        let opc = (w >> 21) & 0xf;
        let k = match opc {
            0 | 8 => Kind::IndirectJump,
            1 | 9 => Kind::IndirectCall,
            2 | 4 => Kind::Return,
            _ => Kind::Other,
        };
        return (k, None);
    }
    // SVC #imm: a system call.
    if w & 0xffe0_001f == 0xd400_0001 {
        return (Kind::Syscall, None);
    }
    // BRK, HLT
    if w & 0xffe0_001f == 0xd420_0000 || w & 0xffe0_001f == 0xd440_0000 {
        return (Kind::Trap, None);
    }
    // UDF
    if w & 0xffff_0000 == 0 {
        return (Kind::Trap, None);
    }
    // HINT space
    if w & 0xffff_f01f == 0xd503_201f {
        let k = match (w >> 5) & 0x7f {
            0 => Kind::Nop,
            25 => Kind::Pad(Pad::Paciasp),
            27 => Kind::Pad(Pad::Pacibsp),
            32 => Kind::Pad(Pad::Bti),
            34 => Kind::Pad(Pad::BtiC),
            36 => Kind::Pad(Pad::BtiJ),
            38 => Kind::Pad(Pad::BtiJc),
            _ => Kind::Other,
        };
        return (k, None);
    }
    // MSR PAN, #imm (op1=0, op2=4)
    if w & 0xffff_f0ff == 0xd500_409f {
        let k = if (w >> 8) & 0xf == 0 {
            Kind::UaccessOpen
        } else {
            Kind::UaccessClose
        };
        return (k, None);
    }
    (Kind::Other, None)
}

const SP: u8 = 31;
const FP: u8 = 29;
const LR: u8 = 30;

/// Pointer-authentication hints (HINT #imm): the register they work on and what they do.
fn pac_hint(imm: u32) -> Option<(u8, Pac)> {
    use Modifier::{Reg, Sp, Zero};
    use PacKey::{A, B};
    Some(match imm {
        7 => (LR, Pac::Strip),
        8 => (17, Pac::Sign(A, Reg(16))),
        10 => (17, Pac::Sign(B, Reg(16))),
        12 => (17, Pac::Auth(A, Reg(16))),
        14 => (17, Pac::Auth(B, Reg(16))),
        24 => (LR, Pac::Sign(A, Zero)),
        25 => (LR, Pac::Sign(A, Sp)),
        26 => (LR, Pac::Sign(B, Zero)),
        27 => (LR, Pac::Sign(B, Sp)),
        28 => (LR, Pac::Auth(A, Zero)),
        29 => (LR, Pac::Auth(A, Sp)),
        30 => (LR, Pac::Auth(B, Zero)),
        31 => (LR, Pac::Auth(B, Sp)),
        _ => return None,
    })
}

/// The state operations of one instruction word (see [`StateOp`]): writes to sp
/// and x29, saves and restores of 64-bit registers at sp or x29, pointer
/// authentication. Pair and pre/post-index forms are split into their
/// parts in the order the hardware performs them.
fn ops(w: u32, mut op: impl FnMut(StateOp)) {
    let rd = (w & 31) as u8;
    let rn = ((w >> 5) & 31) as u8;
    let mut stack = |src: Src, dst: Dst| op(StateOp::Stack { src, dst });
    // Load/store pair: opc 101 V 0 mode L imm7 Rt2 Rn Rt.
    if (w >> 27) & 7 == 0b101 && (w >> 25) & 1 == 0 {
        let opc = w >> 30;
        let simd = (w >> 26) & 1 != 0;
        let load = (w >> 22) & 1 != 0;
        let mode = (w >> 23) & 3; // 0 no-allocate, 1 post, 2 offset, 3 pre
        let scale: i32 = match (simd, opc) {
            (false, 0) | (true, 0) => 4,
            (false, 1) => {
                if load {
                    4 // ldpsw
                } else {
                    16 // stgp
                }
            }
            (false, 2) | (true, 1) => 8,
            (true, 2) => 16,
            _ => return,
        };
        let imm = sext((w >> 15) & 0x7f, 7) as i32 * scale;
        let rt2 = ((w >> 10) & 31) as u8;
        let gpr64 = !simd && opc == 2;
        let at = if mode == 2 || mode == 0 { imm } else { 0 };
        if mode == 3 {
            writeback(rn, imm, &mut stack);
        }
        if gpr64 && (rn == SP || rn == FP) {
            for (k, r) in [rd, rt2].into_iter().enumerate() {
                let off = at + 8 * k as i32;
                match (load, r) {
                    // Register 31 is xzr here, not sp: a load into it
                    // discards the value, a store of it saves nothing.
                    (_, 31) => {}
                    (true, r) => stack(Src::Load(rn, off), Dst::Reg(r)),
                    (false, r) => stack(Src::Reg(r), Dst::Store(rn, off)),
                }
            }
        } else if load && !simd && rd != 31 && (rd == FP || rd == LR || rt2 == FP || rt2 == LR) {
            for r in [rd, rt2] {
                stack(Src::Unknown, Dst::Reg(r));
            }
        }
        if mode == 1 {
            writeback(rn, imm, &mut stack);
        }
        return;
    }
    // Load/store register, immediate: size 111 V 0 {00 imm9 mode | 01 imm12}.
    if (w >> 27) & 7 == 0b111 && (w >> 25) & 1 == 0 {
        let size = w >> 30;
        let simd = (w >> 26) & 1 != 0;
        let opc = (w >> 22) & 3;
        let unsigned_offset = (w >> 24) & 1 != 0;
        let (at, wb_pre, wb_post) = if unsigned_offset {
            let scale = if simd && opc >= 2 { 16 } else { 1 << size };
            (((w >> 10) & 0xfff) as i32 * scale, None, None)
        } else {
            if (w >> 21) & 1 != 0 {
                return; // register offset, atomics, PAC loads
            }
            let imm = sext((w >> 12) & 0x1ff, 9) as i32;
            match (w >> 10) & 3 {
                0 | 2 => (imm, None, None),
                1 => (0, None, Some(imm)),
                _ => (0, Some(imm), None),
            }
        };
        if let Some(imm) = wb_pre {
            writeback(rn, imm, &mut stack);
        }
        if !simd && size == 3 && opc <= 1 && (rn == SP || rn == FP) {
            match (opc == 1, rd) {
                (_, 31) => {}
                (true, r) => stack(Src::Load(rn, at), Dst::Reg(r)),
                (false, r) => stack(Src::Reg(r), Dst::Store(rn, at)),
            }
        } else if !simd && opc >= 1 && (rd == FP || rd == LR) && !(size == 3 && opc == 2) {
            stack(Src::Unknown, Dst::Reg(rd));
        }
        if let Some(imm) = wb_post {
            writeback(rn, imm, &mut stack);
        }
        return;
    }
    // Add/subtract (immediate), 64-bit, not setting flags: sf op 0 100010 sh imm12 Rn Rd.
    if w & 0xa000_0000 == 0x8000_0000 && (w >> 23) & 0x3f == 0b100010 {
        let mut imm = (((w >> 10) & 0xfff) << (12 * ((w >> 22) & 1))) as i32;
        if (w >> 30) & 1 != 0 {
            imm = -imm;
        }
        if rd == SP || rd == FP || rn == SP {
            let src = if imm == 0 {
                Src::Reg(rn)
            } else {
                Src::Add(rn, imm)
            };
            stack(src, Dst::Reg(rd));
        }
        return;
    }
    // Add/subtract (extended register), 64-bit, not setting flags: sp by a register.
    if w & 0xbfe0_0000 == 0x8b20_0000 && (rd == SP || rd == FP) {
        stack(Src::Unknown, Dst::Reg(rd));
        return;
    }
    // Logical (immediate), 64-bit, AND/ORR/EOR: Rd 31 is sp.
    if w & 0x9f80_0000 == 0x9200_0000 && (w >> 29) & 3 != 3 && rd == SP {
        let src = if (w >> 29) & 3 == 0 {
            Src::And(rn, 0)
        } else {
            Src::Unknown
        };
        stack(src, Dst::Reg(SP));
        return;
    }
    // PACIA/PACIB/AUTIA/AUTIB Xd, Xn|SP and the Z forms, XPACI.
    if w & 0xffff_c000 == 0xdac1_0000 {
        let opcode = (w >> 10) & 0x3f;
        let z = opcode & 8 != 0;
        let m = if z {
            if rn != 31 {
                return;
            }
            Modifier::Zero
        } else if rn == 31 {
            Modifier::Sp
        } else {
            Modifier::Reg(rn)
        };
        let pac = match opcode & 0x17 {
            0 => Pac::Sign(PacKey::A, m),
            1 => Pac::Sign(PacKey::B, m),
            4 => Pac::Auth(PacKey::A, m),
            5 => Pac::Auth(PacKey::B, m),
            0x10 if z => Pac::Strip,
            _ => return,
        };
        op(StateOp::Pac { reg: rd, pac });
        return;
    }
    // Other writes to x29 and x30: data processing (register forms, move
    // wide, bitfield, logical immediate), adr/adrp. Add/sub immediate and
    // extended forms were handled above.
    if rd == FP || rd == LR {
        let adr = w & 0x1f00_0000 == 0x1000_0000;
        let dp_imm64 = (w >> 26) & 7 == 0b100 && w >> 31 == 1;
        let dp_reg64 = (w >> 25) & 7 == 0b101 && w >> 31 == 1;
        if adr || dp_imm64 || dp_reg64 {
            stack(Src::Unknown, Dst::Reg(rd));
            return;
        }
    }
    // Hints: pointer authentication of x30 or x17.
    if w & 0xffff_f01f == 0xd503_201f {
        if let Some((reg, pac)) = pac_hint((w >> 5) & 0x7f) {
            op(StateOp::Pac { reg, pac });
        }
        return;
    }
    // RETAA / RETAB, ERETAA / ERETAB: authenticate x30 with sp, then return.
    if matches!(w, 0xd65f_0bff | 0xd69f_0bff) {
        op(StateOp::Pac {
            reg: LR,
            pac: Pac::Auth(PacKey::A, Modifier::Sp),
        });
        return;
    }
    if matches!(w, 0xd65f_0fff | 0xd69f_0fff) {
        op(StateOp::Pac {
            reg: LR,
            pac: Pac::Auth(PacKey::B, Modifier::Sp),
        });
    }
}

/// A base register update by `imm` (pre/post-index addressing).
fn writeback(rn: u8, imm: i32, stack: &mut impl FnMut(Src, Dst)) {
    if rn == SP || rn == FP {
        stack(Src::Add(rn, imm), Dst::Reg(rn));
    }
}

/// CFA = sp at entry, the return address in x30; callee-saved registers
/// x19..x29 of the AAPCS64 (x29 the frame pointer).
static FRAME: FrameAbi = FrameAbi {
    sp: SP,
    fp: FP,
    ra: RaHome::Reg(LR),
    entry_cfa_offset: 0,
    callee_saved: &[19, 20, 21, 22, 23, 24, 25, 26, 27, 28, FP],
    dwarf: &[
        0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24,
        25, 26, 27, 28, 29, 30, 31,
    ],
    dwarf_ra: 30,
};

/// ADR Xd, label (op=0, immlo in 30:29, immhi in 23:5): the offset it adds to
/// its own address. The assembler resolved the label, so no relocation says so.
fn adr_offset(w: u32) -> Option<i64> {
    if w & 0x9f00_0000 != 0x1000_0000 {
        return None;
    }
    let imm = ((w >> 5) & 0x7ffff) << 2 | ((w >> 29) & 3);
    Some(sext(imm, 21))
}

/// The instruction forms a switch-table dispatch is made of. Registers are
/// numbers (W and X views alike); 31 is the zero register or SP.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    /// `adr xd, label`: the label's section offset.
    Adr {
        rd: u32,
        to: u64,
    },
    /// `add xd, xn, #imm` (64-bit): `:lo12:` of a table with a relocation.
    AddImm {
        rd: u32,
        rn: u32,
        /// The immediate, with its `lsl #12` applied.
        imm: u32,
    },
    /// `add xd, xn, {w,x}m, ext #shift` or `add xd, xn, xm, lsl #shift`.
    AddReg {
        rd: u32,
        rn: u32,
        rm: u32,
        /// Sign-extend the low `8 << n` bits (sxtb/sxth/sxtw), when set.
        sext: Option<u8>,
        shift: u8,
    },
    /// `ldr{b,h,sb,sh,sw,}` `rt, [xn, {w,x}m{, ext #s}]`.
    Load {
        rt: u32,
        rn: u32,
        rm: u32,
        size: u8,
        signed: bool,
    },
    /// `mov {w,x}d, {w,x}m` (`orr d, zr, m`).
    Mov {
        rd: u32,
        rm: u32,
    },
    /// `cmp {w,x}n, #imm` (`subs zr, n, #imm`).
    CmpImm {
        rn: u32,
        imm: u64,
    },
    /// `b.cond`: the condition code.
    BCond {
        cond: u32,
    },
    /// `ldr xt, [sp, #imm]`: a reload from a stack slot.
    SpLoad {
        imm: u32,
    },
    /// `str xt, [sp, #imm]`: a spill to a stack slot.
    SpStore {
        rt: u32,
        imm: u32,
    },
    /// `stp`/`ldp` of 64-bit registers at `sp` (offset or pre-index): the
    /// two slots from `imm` (for pre-index, relative to the new sp), `rt`'s
    /// and `rt2`'s.
    SpPair {
        imm: i32,
        rt: u32,
        rt2: u32,
        load: bool,
    },
    Other,
}

const COND_HS: u32 = 2;
const COND_LO: u32 = 3;
const COND_HI: u32 = 8;
const COND_LS: u32 = 9;

fn op(w: u32, at: u64) -> Op {
    let rd = w & 31;
    let rn = (w >> 5) & 31;
    let rm = (w >> 16) & 31;
    if let Some(d) = adr_offset(w) {
        return Op::Adr {
            rd,
            to: at.wrapping_add(d as u64),
        };
    }
    if w & 0xff80_0000 == 0x9100_0000 {
        let imm = ((w >> 10) & 0xfff) << (12 * ((w >> 22) & 1));
        return Op::AddImm { rd, rn, imm };
    }
    if w & 0xffe0_0000 == 0x8b20_0000 {
        let option = (w >> 13) & 7;
        let shift = ((w >> 10) & 7) as u8;
        // uxtb/uxth/uxtw need no note: the loads zero-extend already.
        let sext = match option {
            4 => Some(0),
            5 => Some(1),
            6 => Some(2),
            _ => None,
        };
        return Op::AddReg {
            rd,
            rn,
            rm,
            sext,
            shift,
        };
    }
    if w & 0xff20_0000 == 0x8b00_0000 && (w >> 22) & 3 == 0 {
        return Op::AddReg {
            rd,
            rn,
            rm,
            sext: None,
            shift: ((w >> 10) & 0x3f) as u8,
        };
    }
    // 64-bit loads and stores at sp with an unsigned offset: spills.
    if w & 0xffc0_03e0 == 0xf940_03e0 {
        return Op::SpLoad {
            imm: ((w >> 10) & 0xfff) * 8,
        };
    }
    if w & 0xffc0_03e0 == 0xf900_03e0 {
        return Op::SpStore {
            rt: rd,
            imm: ((w >> 10) & 0xfff) * 8,
        };
    }
    // stp/ldp x, signed offset (0xa9..) or pre-index (0xa9 with bit 23).
    if w & 0xfe00_03e0 == 0xa800_03e0 && (w >> 23) & 3 != 1 {
        let imm7 = (((w >> 15) & 0x7f) as i32) << 25 >> 25;
        let imm = if (w >> 23) & 3 == 3 { 0 } else { imm7 * 8 };
        return Op::SpPair {
            imm,
            rt: rd,
            rt2: (w >> 10) & 31,
            load: (w >> 22) & 1 == 1,
        };
    }
    // Load/store register (register offset), general registers.
    if w & 0x3f20_0c00 == 0x3820_0800 {
        let size = 1u8 << (w >> 30);
        let (load, signed) = match (w >> 22) & 3 {
            1 => (true, false),
            2 => (size < 8, true),
            3 => (size < 4, true),
            _ => (false, false),
        };
        if load {
            return Op::Load {
                rt: rd,
                rn,
                rm,
                size,
                signed,
            };
        }
    }
    if w & 0x7fe0_ffe0 == 0x2a00_03e0 {
        return Op::Mov { rd, rm };
    }
    if w & 0x7f80_001f == 0x7100_001f {
        let imm = u64::from((w >> 10) & 0xfff) << (12 * ((w >> 22) & 1));
        return Op::CmpImm { rn, imm };
    }
    if w & 0xff00_0010 == 0x5400_0000 {
        return Op::BCond { cond: w & 0xf };
    }
    Op::Other
}

fn word(data: &[u8], i: &Insn) -> Option<u32> {
    let b = data.get(i.offset() as usize..i.offset() as usize + 4)?;
    Some(u32::from_le_bytes(b.try_into().ok()?))
}

/// The form of `insns[k]`, at its own address.
fn op_at(insns: &[Insn], data: &[u8], k: usize) -> Option<Op> {
    Some(op(word(data, &insns[k])?, insns[k].offset()))
}

/// The register an instruction may write, for the searches below: `Rd`/`Rt`
/// of everything but branches, hints, compares and prefetches.
/// Over-approximated (a store's `Rt` counts): a search that meets an
/// unexpected writer gives up.
fn writes(w: u32, kind: Kind) -> Option<u32> {
    if prefetch(w) {
        return None;
    }
    may_write(w, kind)
}

/// [`writes`] without the prefetches, for the decoder's own bookkeeping
/// (where a prefetch taken for a write costs nothing but a forgotten
/// constant, and a test per instruction would).
fn may_write(w: u32, kind: Kind) -> Option<u32> {
    if kind != Kind::Other {
        return None;
    }
    // CCMP/CCMN (register or immediate) set flags only: their `nzcv` sits
    // where `Rd` would (ice.ko's `ccmp w2, #0x0, #0x4, ne` was taken for a
    // write of x4, a switch table's register, and the table went unread).
    if w & 0x3fe0_0410 == 0x3a40_0000 {
        return None;
    }
    match op(w, 0) {
        Op::CmpImm { .. } | Op::BCond { .. } => None,
        _ => Some(w & 31),
    }
}

/// `prfm`/`prfum`, whose `Rt` field names the kind of prefetch (`pstl1strm`
/// is 17: ice.ko's table in x17 was once taken as overwritten by one).
fn prefetch(w: u32) -> bool {
    w & 0xffc0_0000 == 0xf980_0000 // prfm [xn, #imm]
        || w & 0xff00_0000 == 0xd800_0000 // prfm label
        || w & 0xffe0_0c00 == 0xf8a0_0800 // prfm [xn, xm]
        || w & 0xffe0_0c00 == 0xf880_0000 // prfum [xn, #simm]
}

/// The system-call number register (x8).
const SYSCALL_NR: u32 = 8;

/// What an instruction word does to x8: `None` nothing, `Some(Some(n))`
/// `movz {w,x}8, #n` (`mov x8, #n`), `Some(None)` a possible other write.
fn sets_x8(w: u32, kind: Kind) -> Option<Option<u64>> {
    // MOVZ: sf 10 100101 hw imm16 Rd.
    if w & 0x7f80_0000 == 0x5280_0000 && w & 31 == SYSCALL_NR {
        let imm = u64::from((w >> 5) & 0xffff);
        return Some(Some(imm << (16 * ((w >> 21) & 3))));
    }
    // Load pairs write Rt2 too.
    let pair_load = (w >> 27) & 7 == 0b101 && (w >> 22) & 1 == 1;
    let writes_nr =
        may_write(w, kind) == Some(SYSCALL_NR) || (pair_load && (w >> 10) & 31 == SYSCALL_NR);
    writes_nr.then_some(None)
}

/// Registers holding a constant the straight-line code before moved into
/// them (`mov x13, #0x1020`), for the stack adjustments GCC makes through a
/// register when a frame is too large for an immediate (`sub sp, sp, x13`,
/// and `add sp, sp, x13` in the epilogue; Debian builds with
/// -fstack-clash-protection, which keeps 4 KiB-plus frames in one step).
/// Forgotten at every branch, call or return, and when the register is
/// written otherwise.
#[derive(Default)]
struct Constants {
    value: [Option<u64>; 31],
}

impl Constants {
    /// Track the instruction word `w` (after its own operations were taken).
    fn step(&mut self, w: u32, kind: Kind) {
        if !kind.is_straight() {
            self.value = [None; 31];
            return;
        }
        // MOVZ, 64-bit or 32-bit (which zero-extends).
        if w & 0x7f80_0000 == 0x5280_0000 {
            let rd = (w & 31) as usize;
            if rd < 31 {
                let imm = u64::from((w >> 5) & 0xffff) << (16 * ((w >> 21) & 3));
                self.value[rd] = Some(imm);
            }
            return;
        }
        let pair_load = (w >> 27) & 7 == 0b101 && (w >> 22) & 1 == 1;
        for r in [may_write(w, kind), pair_load.then_some((w >> 10) & 31)]
            .into_iter()
            .flatten()
        {
            if let Some(v) = self.value.get_mut(r as usize) {
                *v = None;
            }
        }
    }

    /// `add`/`sub sp, sp, xM` (extended register, UXTX) with a known xM:
    /// the stack operation it is.
    fn sp_adjust(&self, w: u32) -> Option<StateOp> {
        // Add/subtract (extended register), 64-bit, not setting flags.
        if w & 0xbfe0_0000 != 0x8b20_0000 || w & 31 != u32::from(SP) {
            return None;
        }
        let (rn, rm) = ((w >> 5) & 31, (w >> 16) & 31);
        let (option, shift) = ((w >> 13) & 7, (w >> 10) & 7);
        if rn != u32::from(SP) || option != 3 || shift > 4 {
            return None;
        }
        let v = i32::try_from((*self.value.get(rm as usize)?)? << shift).ok()?;
        let v = if (w >> 30) & 1 != 0 {
            v.checked_neg()?
        } else {
            v
        };
        Some(StateOp::Stack {
            src: Src::Add(SP, v),
            dst: Dst::Reg(SP),
        })
    }
}

/// The stack-probe loop whose `sub sp, sp, #P` is `insns[k]`, as gcc and
/// clang (`-fstack-clash-protection`) emit it:
///
/// ```text
///     sub xR, sp, #N
/// 1:  sub sp, sp, #P
///     cmp sp, xR          (these two in either order)
///     str xzr, [sp, #off]
///     b.ne 1b
/// ```
fn probe_loop_at(data: &[u8], insns: &[Insn], k: usize) -> Option<ProbeLoop> {
    let set_k = super::probe_shape(insns, k)?;
    // sub xR, sp, #imm{, lsl #12}
    let s = word(data, &insns[set_k])?;
    if s & 0xff80_03e0 != 0xd100_03e0 {
        return None;
    }
    let reg = (s & 31) as u8;
    if reg == SP || reg == 29 {
        return None;
    }
    let imm = i64::from((s >> 10) & 0xfff);
    let below = if (s >> 22) & 1 == 1 { imm << 12 } else { imm };
    // cmp sp, xR (subs xzr, sp, xR, uxtx) and str xzr, [sp, #off]
    let body = [word(data, &insns[k + 1])?, word(data, &insns[k + 2])?];
    let cmp = 0xeb20_63ff | u32::from(reg) << 16;
    let zero_top = |w: u32| w & 0xffc0_03ff == 0xf900_03ff;
    // b.ne
    let b_ne = word(data, &insns[k + 3])? & 0xff00_001f == 0x5400_0001;
    if !b_ne || !body.contains(&cmp) || !body.iter().any(|&w| zero_top(w)) {
        return None;
    }
    Some(ProbeLoop {
        sub: k,
        set: set_k,
        exit: k + 4,
        reg,
        below: i32::try_from(below).ok().filter(|&b| b > 0)?,
    })
}

/// Index of the last instruction in `lo..hi` that writes `reg`.
fn last_def(insns: &[Insn], data: &[u8], lo: usize, hi: usize, reg: u32) -> Option<usize> {
    (lo..hi)
        .rev()
        .find(|&k| word(data, &insns[k]).is_some_and(|w| writes(w, insns[k].kind) == Some(reg)))
}

/// Whether `reg` holds at `at` the value it had at `from`: no instruction
/// (or call) writes it on any path back from `at` before `from`, and every
/// path meets `from` before the function's entry.
fn unchanged_since(
    insns: &[Insn],
    data: &[u8],
    to: &CondTargets,
    from: usize,
    at: usize,
    reg: u32,
) -> bool {
    walk_back(insns, to, at, |j| {
        if j == from {
            return Back::Stop;
        }
        let ins = &insns[j];
        let written = word(data, ins).is_some_and(|w| writes(w, ins.kind) == Some(reg));
        let call = matches!(ins.kind, Kind::Call | Kind::IndirectCall) && !(19..=28).contains(&reg);
        if written || call {
            Back::Fail
        } else {
            Back::On
        }
    })
}

/// The instruction that last wrote `reg` before `hi` on every path into it:
/// back through fall-throughs and the branches that target each block (and
/// past calls when `reg` is one a call preserves, x19..x28). A table's
/// address is often set up before a loop or a bounds check, outside the
/// dispatch block. Compilers rematerialise the address on several paths:
/// defs with the same encoding (or, with `lo12_adds`, any `add reg, xP,
/// #lo12`) are all returned, the first one first (the caller checks that
/// their relocations agree). `None` when paths disagree
/// otherwise or one reaches the function's entry first. Each instruction
/// is looked at once.
fn last_def_far(
    insns: &[Insn],
    data: &[u8],
    to: &CondTargets,
    hi: usize,
    reg: u32,
    lo12_adds: bool,
) -> Option<Vec<usize>> {
    let mut defs: Vec<usize> = Vec::new();
    // With `lo12_adds`, a value reloaded from a stack slot is followed back
    // to the stores of that slot (gcc 16 spills a table's address around a
    // call in one case and reloads it before going round the loop again:
    // Linux 7.2's nfp.ko `nfp_net_tlv_caps_parse`; xe.ko's `rule_match_and`
    // reloads it from two slots, each holding another register on other
    // paths). Up to 32 slots per search.
    let mut slots: Vec<i32> = Vec::new();
    let whole = walk_back_value(insns, to, hi, reg, |j, r| {
        let ins = &insns[j];
        if r >= IN_SLOT {
            let slot = slots.get((r - IN_SLOT) as usize).copied();
            return match (word(data, ins), slot) {
                (Some(w), Some(s)) if ins.kind == Kind::Other => slot_back(w, s),
                (_, Some(_)) if ins.kind != Kind::Other && ins.kind != Kind::Invalid => Back::On,
                _ => Back::Fail,
            };
        }
        let written = word(data, ins).filter(|&w| overwrites(w, ins.kind, r));
        if lo12_adds
            && let Some(w) = written
            && let Some(s) = reload_slot(w, r)
        {
            let k = match slots.iter().position(|&t| t == s) {
                Some(k) => k,
                None if slots.len() < 32 => {
                    slots.push(s);
                    slots.len() - 1
                }
                None => return Back::Fail,
            };
            return Back::Copy(IN_SLOT + k as u32);
        }
        if let Some(w) = written {
            // With `lo12_adds`, a 64-bit `mov r, xS`: the address was kept
            // in xS across code that needed r (clang's bstr_printf moves
            // a table's address from x24 to x23 and back).
            if lo12_adds
                && w >> 31 == 1
                && let Op::Mov { rd, rm } = op(w, 0)
                && rd == r
                && rm != 31
            {
                return Back::Copy(rm);
            }
            // The same instruction, or with `lo12_adds` any `add r, xP,
            // #lo12` (clang and gcc rematerialise a table's address from
            // whichever register holds its page; the caller checks that the
            // relocations name one table).
            let add = |d: u32| matches!(op(d, 0), Op::AddImm { .. });
            let alike = |d: u32| d == w || (lo12_adds && add(d) && add(w));
            if writes(w, ins.kind) != Some(r)
                || defs
                    .first()
                    .is_some_and(|&d| !word(data, &insns[d]).is_some_and(alike))
            {
                return Back::Fail;
            }
            defs.push(j);
            return Back::Stop;
        }
        if matches!(ins.kind, Kind::Call | Kind::IndirectCall) && !(19..=28).contains(&r) {
            return Back::Fail;
        }
        Back::On
    });
    (whole && !defs.is_empty()).then_some(defs)
}

/// What [`last_def_far`] follows, in place of a register, once the value
/// was reloaded from a stack slot: `IN_SLOT + k` for the search's k-th slot.
const IN_SLOT: u32 = 32;

/// The stack slot (`[sp, #slot]`) an instruction word reloads `reg` from:
/// `ldr reg, [sp, #imm]`, or one register of an `ldp` at sp.
fn reload_slot(w: u32, reg: u32) -> Option<i32> {
    match op(w, 0) {
        Op::SpLoad { imm } if w & 31 == reg => Some(imm as i32),
        Op::SpPair {
            imm,
            rt,
            rt2,
            load: true,
        } if rt == reg || rt2 == reg => Some(if rt == reg { imm } else { imm + 8 }),
        _ => None,
    }
}

/// Going back from a reload of `[sp, #slot]`: at a store of the slot, on
/// following the register stored; a store over part of it, or a move of
/// the stack pointer (the slot's offset would change), fails.
fn slot_back(w: u32, slot: i32) -> Back {
    match op(w, 0) {
        Op::SpStore { rt, imm } if imm as i32 == slot => Back::Copy(rt),
        Op::SpPair {
            imm,
            rt,
            rt2,
            load: false,
        } if imm == slot || imm + 8 == slot => Back::Copy(if imm == slot { rt } else { rt2 }),
        _ if moves_sp(w) => Back::Fail,
        _ => match sp_store_bytes(w) {
            Some(Some((lo, n))) if lo < slot + 8 && slot < lo + n => Back::Fail,
            Some(None) => Back::Fail,
            _ => Back::On,
        },
    }
}

/// The bytes `[sp, #lo]` .. `lo + n` an instruction word stores to, when it
/// is a store at sp (any size, pairs too; pre-indexed ones counted from
/// the old sp): `Some(None)` when it stores at sp somewhere not told here
/// (a register offset, a vector register), `None` when it stores nothing
/// at sp.
fn sp_store_bytes(w: u32) -> Option<Option<(i32, i32)>> {
    if (w >> 5) & 31 != 31 {
        return None;
    }
    let vector = (w >> 26) & 1 == 1;
    let size = (w >> 30) as i32;
    // Load/store register, unsigned offset: size 111 V 01 opc imm12 Rn Rt
    // (a store: opc 00).
    if w & 0x3b00_0000 == 0x3900_0000 {
        if (w >> 22) & 3 != 0 {
            return None;
        }
        if vector {
            return Some(None);
        }
        let off = (((w >> 10) & 0xfff) as i32) << size;
        return Some(Some((off, 1 << size)));
    }
    // Load/store register, unscaled (stur) or register offset: size 111 V
    // 00 opc ...; a store: opc 00.
    if w & 0x3b00_0000 == 0x3800_0000 {
        if (w >> 22) & 3 != 0 {
            return None;
        }
        if vector || (w >> 10) & 3 != 0 || (w >> 21) & 1 == 1 {
            // Vector, register offset, unprivileged, atomic, or pre/post-
            // index (the latter a move of sp, failed before).
            return Some(None);
        }
        let imm9 = (((w >> 12) & 0x1ff) as i32) << 23 >> 23;
        return Some(Some((imm9, 1 << size)));
    }
    // Load/store pair (offset or pre-index), a store: opc 101 V mode 0.
    if w & 0x3a40_0000 == 0x2800_0000 {
        let width = match w >> 30 {
            0 => 4,
            2 => 8,
            _ => return Some(None),
        };
        if vector {
            return Some(None);
        }
        let imm7 = (((w >> 15) & 0x7f) as i32) << 25 >> 25;
        return Some(Some((imm7 * width, 2 * width)));
    }
    None
}

/// Whether an instruction word changes the stack pointer: `add`/`sub` (of
/// an immediate or an extended register) into sp, or a load or store that
/// writes its base register back to sp.
fn moves_sp(w: u32) -> bool {
    let rd_sp = w & 31 == 31;
    let rn_sp = (w >> 5) & 31 == 31;
    // ADD/SUB (immediate), not setting flags: sf op 0 100010 sh imm12 Rn Rd.
    let add_imm = w & 0x3f80_0000 == 0x1100_0000;
    // ADD/SUB (extended register), not setting flags: sf op 0 01011 00 1 Rm ...
    let add_ext = w & 0x3fe0_0000 == 0x0b20_0000;
    // Load/store pair, post- or pre-indexed (mode 01 or 11).
    let pair_wb = w & 0x3a00_0000 == 0x2800_0000 && (w >> 23) & 1 == 1;
    // Load/store register, immediate post- or pre-indexed.
    let single_wb = w & 0x3b20_0400 == 0x3800_0400;
    ((add_imm || add_ext) && rd_sp) || ((pair_wb || single_wb) && rn_sp)
}

/// Whether an instruction word may write `reg`: [`writes`], and the second
/// register of a load pair and the base register a pre- or post-indexed
/// load or store writes back.
fn overwrites(w: u32, kind: Kind, reg: u32) -> bool {
    if writes(w, kind) == Some(reg) {
        return true;
    }
    if kind != Kind::Other {
        return false;
    }
    let rn = (w >> 5) & 31;
    // Load/store pair: opc 101 V 0 mode L imm7 Rt2 Rn Rt (V: of vector
    // registers, whose base register is still a general one).
    if w & 0x3a00_0000 == 0x2800_0000 {
        let mode = (w >> 23) & 3;
        let general_load = w & 0x0440_0000 == 0x0040_0000;
        return (general_load && (w >> 10) & 31 == reg) || ((mode == 1 || mode == 3) && rn == reg);
    }
    // Store exclusive (status in Rs), compare and swap (old value in Rs).
    let rs = (w >> 16) & 31;
    if (w & 0x3fc0_0000 == 0x0800_0000 || w & 0x3fa0_0000 == 0x08a0_0000) && rs == reg {
        return true;
    }
    // Load/store register, immediate pre- or post-indexed: size 111 V 00
    // opc 0 imm9 {01,11} Rn Rt.
    w & 0x3b20_0400 == 0x3800_0400 && rn == reg
}

/// The first instruction of the straight-line code `at` is in: after the
/// last branch or call before it (a call clobbers the registers followed).
fn block_start(insns: &[Insn], at: usize) -> usize {
    (0..at)
        .rev()
        .find(|&k| !insns[k].kind.is_straight())
        .map_or(0, |k| k + 1)
}

/// The speculation barriers of `-mharden-sls`.
fn barrier(w: u32) -> Option<Barrier> {
    match w {
        0xd503_30ff => Some(Barrier::Complete),               // sb
        0xd503_3f9f | 0xd503_379f => Some(Barrier::NeedsIsb), // dsb sy, dsb nsh
        0xd503_3fdf => Some(Barrier::Isb),
        _ => None,
    }
}

/// For a `br xT` at `jump`: where its dispatch block starts (at most 32
/// instructions back) and `T`.
fn dispatch_block(insns: &[Insn], data: &[u8], jump: usize) -> Option<(usize, u32)> {
    let w = word(data, insns.get(jump)?)?;
    if w & 0xffff_fc1f != 0xd61f_0000 {
        return None;
    }
    let mut lo = block_start(insns, jump).max(jump.saturating_sub(32));
    // The barrier -mharden-sls puts after the return or jump before the
    // block (or padding there) belongs to that path, not to the dispatch
    // block: branches go to the block's first real instruction.
    while lo < jump
        && (insns[lo].kind == Kind::Nop || word(data, &insns[lo]).and_then(barrier).is_some())
    {
        lo += 1;
    }
    Some((lo, (w >> 5) & 31))
}

/// The spills of a 64-bit register to `[sp, #imm]` the reload at `hi` can
/// read: the last store to that slot on every path back to it (`str`, or
/// one register of an `stp`), with the register stored. `None` when a path
/// meets a store that covers the slot otherwise, or the function's entry,
/// first.
fn spills_reaching(
    insns: &[Insn],
    data: &[u8],
    to: &CondTargets,
    hi: usize,
    imm: u32,
) -> Option<Vec<(usize, u32)>> {
    let slot = imm as i32;
    let mut stores = Vec::new();
    let whole = walk_back(insns, to, hi, |j| {
        match word(data, &insns[j]).map(|w| op(w, insns[j].offset())) {
            Some(Op::SpStore { imm: i, rt }) if i == imm => {
                stores.push((j, rt));
                Back::Stop
            }
            // gcc spills two registers at once (`stp x0, x1, [sp, #8]`).
            Some(Op::SpPair {
                imm: i,
                rt,
                rt2,
                load: false,
            }) if i == slot || i + 8 == slot => {
                stores.push((j, if i == slot { rt } else { rt2 }));
                Back::Stop
            }
            Some(Op::SpPair {
                imm: i,
                load: false,
                ..
            }) if (i - 7..i + 16).contains(&slot) => Back::Fail,
            _ => Back::On,
        }
    });
    (whole && !stores.is_empty()).then_some(stores)
}

/// The function's one `str` to `[sp, #imm]` and its register, when no
/// other store writes that slot: taken when the paths back from the reload
/// cannot be followed to it (the compiler does not reload a slot it did
/// not store on the way).
fn only_spill(insns: &[Insn], data: &[u8], imm: u32) -> Option<(usize, u32)> {
    let slot = imm as i32;
    let mut stores = Vec::new();
    for (k, insn) in insns.iter().enumerate() {
        match word(data, insn).map(|w| op(w, insn.offset())) {
            Some(Op::SpStore { imm: i, rt }) if i == imm => stores.push((k, rt)),
            Some(Op::SpPair {
                imm: i,
                load: false,
                ..
            }) if (i - 7..i + 16).contains(&slot) => return None,
            _ => {}
        }
    }
    match stores[..] {
        [s] => Some(s),
        _ => None,
    }
}

/// Entries of a table whose index is in `regs`, from a bounds check
/// `cmp rI, #n` that branches away from the dispatch (`b.hi`/`b.hs`) just
/// before `block` (the dispatch block's first instruction) or inside it
/// before the table load at `load`, or that branches to `block`
/// (`b.ls`/`b.lo`) from elsewhere in the function.
fn bound(
    insns: &[Insn],
    data: &[u8],
    block: usize,
    load: usize,
    regs: &[u32],
    to: &CondTargets,
) -> Option<u64> {
    // The compare that sets the flags branch `k` reads: back over a few
    // instructions that leave the flags alone (compilers schedule moves,
    // spills and address computations in between). Its register is the
    // index, one of its copies, or the register the index was copied from
    // on every path to the compare (`mov w2, w1` at the entry, `cmp w1, #14;
    // b.ls dispatch` later, the table read through w2).
    let index = regs[0];
    let copied_from = |j: usize, rn: u32| -> bool {
        let Some(&[d]) = last_def_far(insns, data, to, j, index, false).as_deref() else {
            return false;
        };
        matches!(op_at(insns, data, d), Some(Op::Mov { rd, rm }) if rd == index && rm == rn)
            && unchanged_since(insns, data, to, d, j, rn)
    };
    let cmp_before = |k: usize| -> Option<u64> {
        for j in (k.saturating_sub(4)..k).rev() {
            let w = word(data, &insns[j])?;
            match op(w, 0) {
                Op::CmpImm { rn, imm } => {
                    let between = last_def(insns, data, j, k, index).is_none()
                        && last_def(insns, data, block, load, index).is_none();
                    return (regs.contains(&rn) || (between && copied_from(j, rn))).then_some(imm);
                }
                Op::Mov { .. } | Op::AddImm { .. } | Op::AddReg { .. } | Op::Adr { .. } => {}
                // movz/movn/movk, adrp, loads and stores.
                _ if w & 0x1f80_0000 == 0x1280_0000
                    || w & 0x9f00_0000 == 0x9000_0000
                    || w & 0x0a00_0000 == 0x0800_0000 => {}
                _ => return None,
            }
        }
        None
    };
    // A check that branches away: just before the block, or in it before
    // the table load (clang moves it into the dispatch block).
    let first = block.saturating_sub(1);
    for (k, ins) in insns.iter().enumerate().take(load).skip(first) {
        if let Some(Op::BCond { cond }) = word(data, ins).map(|w| op(w, 0))
            && let Some(imm) = cmp_before(k)
        {
            match cond {
                COND_HI => return Some(imm + 1),
                COND_HS => return Some(imm),
                _ => {}
            }
        }
    }
    let start = insns.get(block)?.offset();
    for &k in to.to(start) {
        let i = &insns[k];
        let Some(Op::BCond { cond }) = word(data, i).map(|w| op(w, 0)) else {
            continue;
        };
        let Some(imm) = cmp_before(k) else { continue };
        match cond {
            COND_LS => return Some(imm + 1),
            COND_LO => return Some(imm),
            _ => {}
        }
    }
    None
}

impl Decoder for Arm64 {
    fn machine(&self) -> Machine {
        Machine::Aarch64
    }

    fn frame(&self) -> &'static FrameAbi {
        &FRAME
    }

    fn decode_with_ops(
        &self,
        bytes: &[u8],
        base: u64,
        out: &mut Vec<Insn>,
        mut table: Option<&mut OpTable>,
    ) {
        let mut chunks = bytes.chunks_exact(4);
        let mut off = base;
        let mut consts = Constants::default();
        for c in &mut chunks {
            let w = u32::from_le_bytes(c.try_into().unwrap());
            let (kind, disp) = classify(w);
            let imm_target = disp
                .or_else(|| adr_offset(w))
                .map(|d| off.wrapping_add(d as u64));
            let mut insn = Insn::new(off, 4, kind, imm_target);
            if kind == Kind::Trap && self.kcfi_trap(c) {
                insn = insn.with_kcfi_trap();
            } else if self.kcfi_hash_load(c).is_some() {
                insn = insn.with_kcfi_hash_load();
            }
            let mut straight = true;
            if let Some(t) = table.as_deref_mut() {
                let before = t.len();
                let mut push = |op| {
                    straight &= matches!(op, StateOp::Stack { .. });
                    t.push(off, op);
                };
                match consts.sp_adjust(w) {
                    Some(op) => push(op),
                    None => ops(w, push),
                }
                if t.len() > before {
                    insn = insn.with_ops_at(before);
                }
            }
            if straight {
                insn = insn.straight();
            }
            consts.step(w, kind);
            out.push(insn);
            off += 4;
        }
        let rest = chunks.remainder().len();
        if rest > 0 {
            out.push(Insn::new(off, rest as u8, Kind::Invalid, None));
        }
    }

    fn disasm(&self, bytes: &[u8], _offset: u64) -> String {
        if bytes.len() < 4 {
            return "(bad)".to_string();
        }
        let w = u32::from_le_bytes(bytes[..4].try_into().unwrap());
        match classify(w).0 {
            Kind::Pad(p) => return p.name().to_string(),
            Kind::UaccessOpen => return "msr pan, #0".to_string(),
            Kind::UaccessClose => return format!("msr pan, #{}", (w >> 8) & 0xf),
            _ => {}
        }
        let mut r = U8Reader::new(&bytes[..4]);
        match InstDecoder::default().decode(&mut r) {
            Ok(i) => i.to_string(),
            Err(_) => format!(".inst {w:#010x}"),
        }
    }

    fn branch_reloc_bias(&self, insn: &Insn, reloc_offset: u64, r_type: u32) -> Option<i64> {
        (insn.kind.is_branch()
            && reloc_offset == insn.offset()
            && matches!(
                r_type,
                R_AARCH64_JUMP26 | R_AARCH64_CALL26 | R_AARCH64_CONDBR19 | R_AARCH64_TSTBR14
            ))
        .then_some(0)
    }

    fn reloc_use(&self, insn: Option<&Insn>, reloc_offset: u64, r_type: u32) -> RelocUse {
        if let Some(bias) = insn.and_then(|i| self.branch_reloc_bias(i, reloc_offset, r_type)) {
            return RelocUse::Branch(bias);
        }
        match r_type {
            // `adrp` alone names a page; the `add :lo12:` completes the
            // address (`adrp`+`ldr :lo12:` loads from it instead).
            R_AARCH64_ABS64
            | R_AARCH64_ABS32
            | R_AARCH64_PREL64
            | R_AARCH64_PREL32
            | R_AARCH64_ADR_PREL_LO21
            | R_AARCH64_ADD_ABS_LO12_NC
            | R_AARCH64_LD64_GOT_LO12_NC => RelocUse::Address(0),
            _ => RelocUse::Partial,
        }
    }

    fn pc_relative_word(&self, r_type: u32) -> bool {
        matches!(r_type, R_AARCH64_PREL32 | R_AARCH64_PREL64)
    }

    fn table_base_def(
        &self,
        insns: &[Insn],
        data: &[u8],
        jump: usize,
        to: &CondTargets,
    ) -> Option<(u32, Option<usize>)> {
        let (lo, target) = dispatch_block(insns, data, jump)?;
        let k_load = last_def(insns, data, lo, jump, target)?;
        let def_of = |k: usize, reg: u32| match last_def(insns, data, lo.min(k), k, reg) {
            Some(k) => Some(k),
            None => last_def_far(insns, data, to, k, reg, false).map(|d| d[0]),
        };
        let (rn, k_use) = match op_at(insns, data, k_load)? {
            Op::Load { rn, size: 8, .. } => (rn, k_load),
            // `add xA, xT, wI, uxtw #3; ldr x8, [xA]`: the slot's address
            // computed apart, as KASAN wants it checked before the load
            // (clang-19, ___bpf_prog_run's computed goto).
            _ => {
                let w = word(data, &insns[k_load])?;
                if w & 0xffff_fc00 != 0xf940_0000 {
                    return None;
                }
                let k_add = def_of(k_load, (w >> 5) & 31)?;
                let Op::AddReg { rn, shift: 3, .. } = op_at(insns, data, k_add)? else {
                    return None;
                };
                (rn, k_add)
            }
        };
        Some((rn, def_of(k_use, rn)))
    }

    fn address_adjust(
        &self,
        insns: &[Insn],
        data: &[u8],
        def: usize,
        jump: usize,
        reg: Option<u32>,
    ) -> i64 {
        let Some(Op::AddImm { rd, .. }) = op_at(insns, data, def) else {
            return 0;
        };
        // The register holding the address: the pair's, then `reg` once an
        // `add reg, xT, #imm` derives it (gcc 12 keeps `.rodata`'s page in
        // one register for several tables: Linux 7.3's ___bpf_prog_run).
        let mut cur = rd;
        let mut sum = 0i64;
        for insn in insns.iter().take(jump).skip(def + 1) {
            let Some(w) = word(data, insn) else {
                break;
            };
            match op(w, 0) {
                Op::AddImm { rd: d, rn, imm } if rn == cur && (d == cur || Some(d) == reg) => {
                    sum += i64::from(imm);
                    cur = d;
                }
                _ if writes(w, insn.kind) == Some(cur) => break,
                _ => {}
            }
        }
        sum
    }

    fn settle_ops(&self, data: &[u8], insns: &mut [Insn], ops: &mut OpTable, unsettled: &[u64]) {
        super::settle_probe_loops(insns, ops, unsettled, |insns, k| {
            probe_loop_at(data, insns, k)
        });
    }

    fn unsettled(&self, ops: &OpTable) -> Vec<u64> {
        ops.stack_subs_from(SP, super::PROBE_MIN)
    }

    fn min_insn_len(&self) -> u64 {
        4
    }

    fn typical_insn_len(&self) -> usize {
        4
    }

    /// The dispatch compilers emit for switch tables (clang-19, gcc 12):
    /// ```text
    /// adrp xT, table ; add xT, xT, :lo12:table
    /// adr  xB, base
    /// ldrb/ldrh/ldrsw wE, [xT, xI{, lsl #s}]
    /// add  xB, xB, xE{, lsl #2 | sxtb #2 | sxth #2}
    /// br   xB
    /// ```
    /// in one block, found by following the registers back from the `br`.
    fn syscall_number(
        &self,
        insns: &[Insn],
        data: &[u8],
        at: usize,
        entered: &dyn Fn(usize) -> bool,
    ) -> Option<u64> {
        for k in super::straight_line_before(insns, at, entered) {
            if let Some(set) = sets_x8(word(data, &insns[k])?, insns[k].kind) {
                return set;
            }
        }
        None
    }

    fn table_jump(
        &self,
        insns: &[Insn],
        data: &[u8],
        jump: usize,
        to: &CondTargets,
    ) -> Option<TableJump> {
        let (lo, target) = dispatch_block(insns, data, jump)?;
        let k_add = last_def(insns, data, lo, jump, target)?;
        let Op::AddReg {
            rn: base_reg,
            rm: entry_reg,
            sext,
            shift,
            ..
        } = op_at(insns, data, k_add)?
        else {
            return None;
        };
        let k_base = last_def(insns, data, lo, k_add, base_reg)?;
        let Op::Adr { to: base, .. } = op_at(insns, data, k_base)? else {
            return None;
        };
        let k_load = last_def(insns, data, lo, k_add, entry_reg)?;
        let Op::Load {
            rn: table_reg,
            rm: index_reg,
            size,
            signed,
            ..
        } = op_at(insns, data, k_load)?
        else {
            return None;
        };
        // `add ..., sxtb #2` over `ldrb`: gcc's signed byte entries.
        let signed = signed || sext.is_some_and(|n| (1u8 << n) == size);
        let (mut k_table, mut same) = match last_def(insns, data, lo, k_load, table_reg) {
            Some(k) => (k, Vec::new()),
            None => {
                let defs = last_def_far(insns, data, to, k_load, table_reg, true)?;
                (defs[0], defs[1..].to_vec())
            }
        };
        // gcc spills the address when registers run short (`str x0, [sp,
        // #104]`, on one path or several) and reloads it before the
        // dispatch: the spills that reach the reload, and where each took
        // the address from.
        if let Some(Op::SpLoad { imm }) = op_at(insns, data, k_table) {
            if !same.is_empty() {
                return None;
            }
            let mut defs = Vec::new();
            let spills = spills_reaching(insns, data, to, k_table, imm)
                .or_else(|| only_spill(insns, data, imm).map(|s| vec![s]))?;
            for (store, rt) in spills {
                match last_def(insns, data, block_start(insns, store), store, rt) {
                    Some(k) => defs.push(k),
                    None => defs.extend(last_def_far(insns, data, to, store, rt, true)?),
                }
            }
            defs.sort_unstable();
            defs.dedup();
            k_table = defs[0];
            same = defs[1..].to_vec();
            // Several computations of the address are tied together by
            // their relocations (below); `adr`s have none.
            if !same.is_empty() && !matches!(op_at(insns, data, k_table), Some(Op::AddImm { .. })) {
                return None;
            }
        }
        let same_as = same.iter().map(|&k| insns[k].offset()).collect();
        let table_pc = match op_at(insns, data, k_table)? {
            // `add xT, xP, :lo12:table`: its relocation names the table (xP
            // is the page's adrp, often shared with other addresses).
            Op::AddImm { .. } => None,
            Op::Adr { to, .. } => Some(to),
            _ => return None,
        };
        // The index, and the registers it was copied from in the block or
        // in the straight-line code just before it (`mov w1, w2; cmp w2, #n;
        // b.hi default` ahead of the dispatch).
        let mut regs = vec![index_reg];
        for k in (lo.saturating_sub(8)..k_load).rev() {
            if k + 1 < lo
                && !matches!(
                    insns[k].kind,
                    Kind::Other | Kind::Nop | Kind::Pad(_) | Kind::CondJump
                )
            {
                break;
            }
            if let Some(Op::Mov { rd, rm }) = word(data, &insns[k]).map(|w| op(w, 0))
                && regs.contains(&rd)
            {
                regs.push(rm);
            }
        }
        Some(TableJump {
            table_insn: insns[k_table].offset(),
            same_as,
            table_pc,
            base,
            entry_size: size,
            signed,
            shift,
            entries: bound(insns, data, lo, k_load, &regs, to),
        })
    }

    /// `br xT` with `xT = xB + entry` and `xB` from `adr` in its block: a
    /// switch dispatch, even when the table itself cannot be found.
    fn dispatch_form(&self, insns: &[Insn], data: &[u8], jump: usize) -> bool {
        let Some(w) = insns.get(jump).and_then(|i| word(data, i)) else {
            return false;
        };
        if w & 0xffff_fc1f != 0xd61f_0000 {
            return false;
        }
        let lo = jump.saturating_sub(32);
        let target = (w >> 5) & 31;
        let Some(k_add) = last_def(insns, data, lo, jump, target) else {
            return false;
        };
        let Some(Op::AddReg { rn, .. }) = op_at(insns, data, k_add) else {
            return false;
        };
        last_def(insns, data, lo, k_add, rn)
            .and_then(|k| op_at(insns, data, k))
            .is_some_and(|o| matches!(o, Op::Adr { .. }))
    }

    fn kcfi_hash_load(&self, bytes: &[u8]) -> Option<HashLoad> {
        // LDUR Wt, [Xn, #simm9]: size=10, opc=01, bits 31..21 = 0xb84, bits 11..10 = 00.
        let w = u32::from_le_bytes(bytes.get(..4)?.try_into().ok()?);
        if w & 0xffe0_0c00 != 0xb840_0000 {
            return None;
        }
        let imm = sext((w >> 12) & 0x1ff, 9);
        (imm < 0).then_some(HashLoad { disp: imm })
    }

    fn sealed_pad(&self, pad: Pad) -> Option<&'static [u8]> {
        // `BTI c` becomes `NOP` (0xd503201f). PACIASP/PACIBSP sign the return
        // address and are not sealable.
        (pad == Pad::BtiC).then_some(&[0x1f, 0x20, 0x03, 0xd5])
    }

    fn return_register(&self, bytes: &[u8]) -> Option<u32> {
        // RET Xn: 1101011 0010 11111 000000 Rn 00000.
        let w = u32::from_le_bytes(bytes.get(..4)?.try_into().ok()?);
        let n = (w >> 5) & 31;
        (w & 0xffff_fc1f == 0xd65f_0000 && n != 30).then_some(n)
    }

    fn speculation_barrier(&self, bytes: &[u8]) -> Option<Barrier> {
        barrier(u32::from_le_bytes(bytes.get(..4)?.try_into().unwrap()))
    }

    fn kcfi_trap(&self, bytes: &[u8]) -> bool {
        // BRK #imm16 with imm = 0x8000 | type register << 5 | target register
        // (CFI_BRK_IMM_BASE in arch/arm64/include/asm/brk-imm.h).
        let Some(w) = bytes
            .get(..4)
            .map(|b| u32::from_le_bytes(b.try_into().unwrap()))
        else {
            return false;
        };
        w & 0xffe0_001f == 0xd420_0000 && (w >> 5) & 0xfc00 == 0x8000
    }

    fn kcfi_hash_mov(&self, _bytes: &[u8]) -> Option<u32> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the searches for a register's value take as writing it, on
    /// words from binutils 2.40 (`-march=armv8.1-a`).
    #[test]
    fn registers_written() {
        let o = Kind::Other;
        // Prefetches write nothing (their Rt field is the prefetch kind).
        for w in [
            0xf980_00d1,
            0xf980_0400,
            0xf8a1_6800,
            0xf89f_8000,
            0xd800_0000,
        ] {
            assert_eq!(writes(w, o), None, "{w:#x}");
            assert!((0..31).all(|r| !overwrites(w, o, r)), "{w:#x}");
        }
        let written = |w: u32| (0..31).filter(|&r| overwrites(w, o, r)).collect::<Vec<_>>();
        // stxr w4, x3, [x6]; stlxr w5, w3, [x6]; stxp w5, x1, x2, [x0]; cas x1, x2, [x0]
        // (Rt, a store's source, is over-approximated as written).
        assert_eq!(written(0xc804_7cc3), [3, 4]);
        assert_eq!(written(0x8805_fcc3), [3, 5]);
        assert_eq!(written(0xc825_0801), [1, 5]);
        assert_eq!(written(0xc8a1_7c02), [1, 2]);
        // ldp x1, x2, [x0]; ldp x1, x2, [x0], #16; ldnp x1, x2, [x0];
        // ldpsw x1, x2, [x0, #8]!
        assert_eq!(written(0xa940_0801), [1, 2]);
        assert_eq!(written(0xa8c1_0801), [0, 1, 2]);
        assert_eq!(written(0xa840_0801), [1, 2]);
        assert_eq!(written(0x69c1_0801), [0, 1, 2]);
        // ldp q0, q1, [x3, #32]!: x3 written back, not x1 (q1).
        assert!(written(0xadc1_0460).contains(&3) && !written(0xadc1_0460).contains(&1));
        // ldr x0, [x1], #8; str x0, [x1, #8]!; ldr q0, [x2], #16: the base
        // written back.
        assert_eq!(written(0xf840_8420), [0, 1]);
        assert_eq!(written(0xf800_8c20), [0, 1]);
        assert!(written(0x3cc1_0440).contains(&2));
        // ldr x0, [x1, #8]; ldur x0, [x1, #-8]; ldtr x0, [x1, #8]; ldxr x3,
        // [x6]; stlr x3, [x6]: no write-back, no status.
        assert_eq!(written(0xf940_0420), [0]);
        assert_eq!(written(0xf85f_8020), [0]);
        assert_eq!(written(0xf840_8820), [0]);
        assert_eq!(written(0xc85f_7cc3), [3]);
        assert_eq!(written(0xc89f_fcc3), [3]);
    }

    #[test]
    fn decodes_switch_dispatch_forms() {
        // clang-19 and gcc 12 (testdata/landing/switch-table-*.o).
        assert_eq!(op(0x1000008a, 0x24), Op::Adr { rd: 10, to: 0x34 });
        assert_eq!(
            op(0x3868692b, 0),
            Op::Load {
                rt: 11,
                rn: 9,
                rm: 8,
                size: 1,
                signed: false
            }
        );
        assert_eq!(
            op(0x38604821, 0),
            Op::Load {
                rt: 1,
                rn: 1,
                rm: 0,
                size: 1,
                signed: false
            }
        );
        assert_eq!(
            op(0xb8a8792b, 0),
            Op::Load {
                rt: 11,
                rn: 9,
                rm: 8,
                size: 4,
                signed: true
            }
        );
        assert_eq!(
            op(0x8b0b094a, 0),
            Op::AddReg {
                rd: 10,
                rn: 10,
                rm: 11,
                sext: None,
                shift: 2
            }
        );
        assert_eq!(
            op(0x8b218801, 0),
            Op::AddReg {
                rd: 1,
                rn: 0,
                rm: 1,
                sext: Some(0),
                shift: 2
            }
        );
        assert_eq!(op(0x71003c1f, 0), Op::CmpImm { rn: 0, imm: 15 });
        assert_eq!(op(0x54000b48, 0), Op::BCond { cond: COND_HI });
        assert_eq!(op(0x54000069, 0), Op::BCond { cond: COND_LS });
        // str w1, [x2, x3] is a store, not a load.
        assert_eq!(op(0xb8236841, 0), Op::Other);
        // Spills and pairs at sp (spilled switch-table addresses).
        assert_eq!(op(0xf94037e0, 0), Op::SpLoad { imm: 104 }); // ldr x0, [sp, #104]
        assert_eq!(op(0xf90037e0, 0), Op::SpStore { rt: 0, imm: 104 }); // str x0, [sp, #104]
        let pair = |imm, rt, rt2, load| Op::SpPair { imm, rt, rt2, load };
        assert_eq!(op(0xa9bd7bfd, 0), pair(0, 29, 30, false)); // stp x29, x30, [sp, #-48]!
        assert_eq!(op(0xa90653f3, 0), pair(96, 19, 20, false)); // stp x19, x20, [sp, #96]
        assert_eq!(op(0xa94653f3, 0), pair(96, 19, 20, true)); // ldp x19, x20, [sp, #96]
        assert_eq!(op(0xa90087e0, 0), pair(8, 0, 1, false)); // stp x0, x1, [sp, #8]
        assert_eq!(op(0xa8c37bfd, 0), Op::Other); // ldp x29, x30, [sp], #48
    }

    #[test]
    fn classifies_kernel_instructions() {
        assert_eq!(classify(0xd503233f).0, Kind::Pad(Pad::Paciasp));
        assert_eq!(classify(0xd503245f).0, Kind::Pad(Pad::BtiC));
        assert_eq!(classify(0xd503249f).0, Kind::Pad(Pad::BtiJ));
        assert_eq!(classify(0xd50324df).0, Kind::Pad(Pad::BtiJc));
        assert_eq!(classify(0xd503201f).0, Kind::Nop);
        assert_eq!(classify(0xd65f03c0).0, Kind::Return);
        assert_eq!(classify(0xd65f0bff).0, Kind::Return); // retaa
        assert_eq!(classify(0xd63f0200).0, Kind::IndirectCall); // blr x16
        assert_eq!(classify(0xd61f0200).0, Kind::IndirectJump); // br x16
        assert_eq!(classify(0xd4210000).0, Kind::Trap); // brk #0x800
        assert_eq!(classify(0xd500409f).0, Kind::UaccessOpen);
        assert_eq!(classify(0xd500419f).0, Kind::UaccessClose);
        assert_eq!(classify(0x94000000), (Kind::Call, Some(0)));
        assert_eq!(classify(0x17ffffff), (Kind::Jump, Some(-4)));
        assert_eq!(classify(0x54000040), (Kind::CondJump, Some(8)));
        // adr x0, #-8 and adr x0, #+12
        let adr = |w: u32| {
            let mut v = Vec::new();
            Arm64.decode(&w.to_le_bytes(), 0x40, &mut v);
            v[0].imm_target()
        };
        assert_eq!(adr(0x10ffffc0), Some(0x38));
        assert_eq!(adr(0x70000000), Some(0x43));
        assert_eq!(adr(0x90000000), None); // adrp
        // brk #0x8228 (kCFI, target x8, type w17) vs brk #0x800 (BUG)
        assert!(Arm64.kcfi_trap(&0xd4304500u32.to_le_bytes()));
        assert!(!Arm64.kcfi_trap(&0xd4210000u32.to_le_bytes()));
        // Told at decode: the trap and the hash load, not a BUG's brk.
        let mut v = Vec::new();
        let words = [0xd4304500u32, 0xd4210000, 0xb85f4110, 0xd503201f];
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        Arm64.decode(&bytes, 0, &mut v);
        assert_eq!(
            Insn::kcfi_flags(&v),
            [(true, false), (false, false), (false, true), (false, false)]
        );
        // ldur w16, [x8, #-0xc] (clang-19 kCFI check with 4,2 prefix)
        assert_eq!(
            Arm64.kcfi_hash_load(&0xb85f4110u32.to_le_bytes()),
            Some(HashLoad { disp: -12 })
        );
        // ldur w16, [x1, #-4]
        assert_eq!(
            Arm64.kcfi_hash_load(&0xb85fc030u32.to_le_bytes()),
            Some(HashLoad { disp: -4 })
        );
    }

    fn state_ops(w: u32) -> Vec<StateOp> {
        let mut v = Vec::new();
        ops(w, |o| v.push(o));
        v
    }

    #[test]
    fn decodes_stack_and_pac_operations() {
        use Dst::{Reg as R, Store};
        use Src::{Add, Load, Reg, Unknown};
        let st = |src, dst| StateOp::Stack { src, dst };
        let pac = |reg, pac| StateOp::Pac { reg, pac };
        let cases: &[(u32, &str, Vec<StateOp>)] = &[
            (
                0xa9be7bfd,
                "stp x29, x30, [sp, #-32]!",
                vec![
                    st(Add(SP, -32), R(SP)),
                    st(Reg(FP), Store(SP, 0)),
                    st(Reg(LR), Store(SP, 8)),
                ],
            ),
            (0x910003fd, "mov x29, sp", vec![st(Reg(SP), R(FP))]),
            (0x910043fd, "add x29, sp, #16", vec![st(Add(SP, 16), R(FP))]),
            (
                0xa90153f3,
                "stp x19, x20, [sp, #16]",
                vec![st(Reg(19), Store(SP, 16)), st(Reg(20), Store(SP, 24))],
            ),
            (
                0xf9000ff5,
                "str x21, [sp, #24]",
                vec![st(Reg(21), Store(SP, 24))],
            ),
            (
                0xf81f0ff6,
                "str x22, [sp, #-16]!",
                vec![st(Add(SP, -16), R(SP)), st(Reg(22), Store(SP, 0))],
            ),
            (
                0xf84107f6,
                "ldr x22, [sp], #16",
                vec![st(Load(SP, 0), R(22)), st(Add(SP, 16), R(SP))],
            ),
            (
                0xa8c27bfd,
                "ldp x29, x30, [sp], #32",
                vec![
                    st(Load(SP, 0), R(FP)),
                    st(Load(SP, 8), R(LR)),
                    st(Add(SP, 32), R(SP)),
                ],
            ),
            (
                0xd10103ff,
                "sub sp, sp, #0x40",
                vec![st(Add(SP, -64), R(SP))],
            ),
            (
                0x910103ff,
                "add sp, sp, #0x40",
                vec![st(Add(SP, 64), R(SP))],
            ),
            (
                0xd14007ff,
                "sub sp, sp, #1, lsl #12",
                vec![st(Add(SP, -4096), R(SP))],
            ),
            (0x910003bf, "mov sp, x29", vec![st(Reg(FP), R(SP))]),
            (
                0xd10043bf,
                "sub sp, x29, #16",
                vec![st(Add(FP, -16), R(SP))],
            ),
            (
                0x6dbf27e8,
                "stp d8, d9, [sp, #-16]!",
                vec![st(Add(SP, -16), R(SP))],
            ),
            (
                0x6cc127e8,
                "ldp d8, d9, [sp], #16",
                vec![st(Add(SP, 16), R(SP))],
            ),
            (0xcb2963ff, "sub sp, sp, x9", vec![st(Unknown, R(SP))]),
            (
                0x927ced3f,
                "and sp, x9, #-16",
                vec![st(Src::And(9, 0), R(SP))],
            ),
            (0x910003e9, "mov x9, sp", vec![st(Reg(SP), R(9))]),
            (
                0xd503233f,
                "paciasp",
                vec![pac(LR, Pac::Sign(PacKey::A, Modifier::Sp))],
            ),
            (
                0xd50323bf,
                "autiasp",
                vec![pac(LR, Pac::Auth(PacKey::A, Modifier::Sp))],
            ),
            (
                0xd503237f,
                "pacibsp",
                vec![pac(LR, Pac::Sign(PacKey::B, Modifier::Sp))],
            ),
            (
                0xd50323ff,
                "autibsp",
                vec![pac(LR, Pac::Auth(PacKey::B, Modifier::Sp))],
            ),
            (
                0xd65f0bff,
                "retaa",
                vec![pac(LR, Pac::Auth(PacKey::A, Modifier::Sp))],
            ),
            (
                0xd65f0fff,
                "retab",
                vec![pac(LR, Pac::Auth(PacKey::B, Modifier::Sp))],
            ),
            (0xd50320ff, "xpaclri", vec![pac(LR, Pac::Strip)]),
            (
                0xdac103fe,
                "pacia x30, sp",
                vec![pac(LR, Pac::Sign(PacKey::A, Modifier::Sp))],
            ),
            (
                0xdac117fe,
                "autib x30, sp",
                vec![pac(LR, Pac::Auth(PacKey::B, Modifier::Sp))],
            ),
            (
                0xdac123fe,
                "paciza x30",
                vec![pac(LR, Pac::Sign(PacKey::A, Modifier::Zero))],
            ),
            (0xaa0003fd, "mov x29, x0", vec![st(Unknown, R(FP))]),
            (0xf940041e, "ldr x30, [x0, #8]", vec![st(Unknown, R(LR))]),
            (0x1000001e, "adr x30, .", vec![st(Unknown, R(LR))]),
            (
                0xf81f83b3,
                "stur x19, [x29, #-8]",
                vec![st(Reg(19), Store(FP, -8))],
            ),
            (
                0xa9407bbd,
                "ldp x29, x30, [x29]",
                vec![st(Load(FP, 0), R(FP)), st(Load(FP, 8), R(LR))],
            ),
            (0xa9017fff, "stp xzr, xzr, [sp, #16]", vec![]),
            // Register 31 of a load is xzr (smccc-call.S, efi-rt-wrapper.S).
            (
                0xa8c14fff,
                "ldp xzr, x19, [sp], #16",
                vec![st(Load(SP, 8), R(19)), st(Add(SP, 16), R(SP))],
            ),
            (0xf94007ff, "ldr xzr, [sp, #8]", vec![]),
            (0xf94007e0, "ldr x0, [sp, #8]", vec![st(Load(SP, 8), R(0))]),
            (0x94000000, "bl", vec![]),
            (0xd65f03c0, "ret", vec![]),
            (0xaa0103e0, "mov x0, x1", vec![]),
        ];
        for (w, text, want) in cases {
            assert_eq!(&state_ops(*w), want, "{text} ({w:#010x})");
        }
    }
}
