//! x86-64 through iced-x86.

use super::{Decoder, HashLoad, Insn, Kind, Pad, RelocUse};
use crate::elf::Machine;
use iced_x86::{
    Decoder as IcedDecoder, DecoderOptions, FlowControl, Formatter, GasFormatter, Instruction,
    Mnemonic, OpKind, Register,
};

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
    match i.mnemonic() {
        Mnemonic::Endbr64 => return Kind::Pad(Pad::Endbr64),
        Mnemonic::Stac => return Kind::UaccessOpen,
        Mnemonic::Clac => return Kind::UaccessClose,
        Mnemonic::Pushfq | Mnemonic::Pushf => return Kind::PushFlags,
        Mnemonic::Popfq | Mnemonic::Popf => return Kind::PopFlags,
        Mnemonic::Nop => return Kind::Nop,
        Mnemonic::Ud0 | Mnemonic::Ud1 | Mnemonic::Ud2 | Mnemonic::Int3 => return Kind::Trap,
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

impl Decoder for X86 {
    fn machine(&self) -> Machine {
        Machine::X86_64
    }

    fn decode(&self, bytes: &[u8], base: u64, out: &mut Vec<Insn>) {
        let mut dec = IcedDecoder::with_ip(64, bytes, base, DecoderOptions::NONE);
        let mut ins = Instruction::default();
        while dec.can_decode() {
            let pos = dec.position();
            dec.decode_out(&mut ins);
            let offset = base + pos as u64;
            if ins.is_invalid() {
                let rest = bytes.len() - pos;
                // Undecodable byte: one-byte Invalid, resynchronise after it.
                let len = if dec.last_error() == iced_x86::DecoderError::NoMoreBytes {
                    rest
                } else {
                    1
                };
                out.push(Insn::new(offset, len.min(15) as u8, Kind::Invalid, None));
                if len > 1 {
                    break;
                }
                let _ = dec.set_position(pos + 1);
                dec.set_ip(offset + 1);
                continue;
            }
            let kind = classify(&ins);
            let imm_target = match kind {
                Kind::Call | Kind::Jump | Kind::CondJump => Some(ins.near_branch_target()),
                // lea disp(%rip), reg: computes an address in this section
                // (the assembler resolved the label, so no relocation says so).
                Kind::Other
                    if ins.mnemonic() == Mnemonic::Lea && ins.is_ip_rel_memory_operand() =>
                {
                    Some(ins.ip_rel_memory_address())
                }
                _ => None,
            };
            out.push(Insn::new(offset, ins.len() as u8, kind, imm_target));
        }
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

    fn min_insn_len(&self) -> u64 {
        1
    }

    fn typical_insn_len(&self) -> usize {
        // Debian's x86-64 modules average 3.7 bytes.
        3
    }

    fn kcfi_hash_load(&self, bytes: &[u8]) -> Option<HashLoad> {
        // kCFI checks: `add -K(%reg),%r10d` or `cmp $hash,-K(%reg)` /
        // `cmpl $hash,-K(%reg)`, reading 32 bits before the call target.
        // Opcode 03 or 81 after at most a REX prefix, before decoding.
        let op = match bytes {
            [rex, op, ..] if rex & 0xf0 == 0x40 => *op,
            [op, ..] => *op,
            [] => return None,
        };
        if op != 0x03 && op != 0x81 {
            return None;
        }
        let mut dec = IcedDecoder::new(64, bytes, DecoderOptions::NONE);
        let ins = dec.decode();
        if ins.is_invalid() {
            return None;
        }
        let mem_op = (0..ins.op_count()).position(|k| ins.op_kind(k) == OpKind::Memory)?;
        let d = ins.memory_displacement64() as i64;
        let reads32 = ins.memory_size().size() == 4;
        let base_ok = ins.memory_base() != Register::None
            && ins.memory_base() != Register::RIP
            && ins.memory_index() == Register::None;
        let ok = match ins.mnemonic() {
            Mnemonic::Add => mem_op == 1 && ins.op0_register() == Register::R10D,
            Mnemonic::Cmp => mem_op == 0 && ins.op1_kind() == OpKind::Immediate32,
            _ => false,
        };
        (ok && reads32 && base_ok && (-64..0).contains(&d)).then_some(HashLoad { disp: d })
    }

    fn sealed_pad(&self, pad: Pad) -> Option<&'static [u8]> {
        // `osp nopl (%rax)`: the kernel's own ENDBR poison (gen_endbr_poison),
        // a 4-byte NOP unique to former ENDBR sites.
        (pad == Pad::Endbr64).then_some(&[0x66, 0x0f, 0x1f, 0x00])
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

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(bytes: &[u8]) -> Vec<Kind> {
        let mut v = Vec::new();
        X86.decode(bytes, 0, &mut v);
        v.into_iter().map(|i| i.kind).collect()
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
}
