//! AArch64: classification from the fixed 32-bit encodings, text through
//! yaxpeax-arm (which prints BTI as `hint #0x22` and `msr pan` as a raw
//! PSTATE field, so the names that matter here are decoded from the bits).

use super::{Decoder, HashLoad, Insn, Kind, Pad, RelocUse};
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

/// ADR Xd, label (op=0, immlo in 30:29, immhi in 23:5): the offset it adds to
/// its own address. The assembler resolved the label, so no relocation says so.
fn adr_offset(w: u32) -> Option<i64> {
    if w & 0x9f00_0000 != 0x1000_0000 {
        return None;
    }
    let imm = ((w >> 5) & 0x7ffff) << 2 | ((w >> 29) & 3);
    Some(sext(imm, 21))
}

impl Decoder for Arm64 {
    fn machine(&self) -> Machine {
        Machine::Aarch64
    }

    fn decode(&self, bytes: &[u8], base: u64, out: &mut Vec<Insn>) {
        let mut chunks = bytes.chunks_exact(4);
        let mut off = base;
        for c in &mut chunks {
            let w = u32::from_le_bytes(c.try_into().unwrap());
            let (kind, disp) = classify(w);
            let imm_target = disp
                .or_else(|| adr_offset(w))
                .map(|d| off.wrapping_add(d as u64));
            out.push(Insn::new(off, 4, kind, imm_target));
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

    fn min_insn_len(&self) -> u64 {
        4
    }

    fn typical_insn_len(&self) -> usize {
        4
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
}
