//! x86-64 through iced-x86.

use super::{Decoder, HashLoad, Insn, Kind, Pad};
use crate::elf::Machine;
use iced_x86::{
    Decoder as IcedDecoder, DecoderOptions, FlowControl, Formatter, GasFormatter, Instruction,
    Mnemonic, OpKind, Register,
};

pub struct X86;

const R_X86_64_PC32: u32 = 2;
const R_X86_64_PLT32: u32 = 4;

fn classify(i: &Instruction) -> Kind {
    match i.mnemonic() {
        Mnemonic::Endbr64 => return Kind::Pad(Pad::Endbr64),
        Mnemonic::Stac => return Kind::UaccessOpen,
        Mnemonic::Clac => return Kind::UaccessClose,
        Mnemonic::Pushfq | Mnemonic::Pushf => return Kind::PushFlags,
        Mnemonic::Popfq | Mnemonic::Popf => return Kind::PopFlags,
        Mnemonic::Nop => return Kind::Nop,
        Mnemonic::Ud0 | Mnemonic::Ud1 | Mnemonic::Ud2 | Mnemonic::Int3 => return Kind::Trap,
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
                out.push(Insn {
                    offset,
                    len: len.min(15) as u8,
                    kind: Kind::Invalid,
                    imm_target: None,
                });
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
                _ => None,
            };
            out.push(Insn {
                offset,
                len: ins.len() as u8,
                kind,
                imm_target,
            });
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

    fn min_insn_len(&self) -> u64 {
        1
    }

    fn kcfi_hash_load(&self, bytes: &[u8]) -> Option<HashLoad> {
        // kCFI checks: `add -K(%reg),%r10d` or `cmp $hash,-K(%reg)` /
        // `cmpl $hash,-K(%reg)`, reading 32 bits before the call target.
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
