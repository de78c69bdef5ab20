//! What an instruction does to the state the flow rules follow, in terms no
//! opcode appears in: stack operations (objtool's `stack_op`: a source and
//! a destination), the x86 direction flag, arm64 pointer authentication.
//!
//! The decoders record them while decoding, in a per-section [`OpTable`]
//! kept apart from the instructions (most instructions have none), and the
//! state walker in `model` applies them.

/// A register of the stack model. x86-64 in hardware order (0 rax, 1 rcx,
/// 2 rdx, 3 rbx, 4 rsp, 5 rbp, 6 rsi, 7 rdi, 8..15 r8..r15); arm64 x0..x30,
/// and 31 for sp.
pub type Reg = u8;

/// Where a stack operation's value comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Src {
    /// A register (`mov %rsp, %rbp`, `mov x29, sp`).
    Reg(Reg),
    /// A register plus a constant (`lea 8(%rsp), %r10`, `add $16, %rsp`,
    /// `sub sp, sp, #32`). x86 `add`/`sub` of a register to `%rsp` is
    /// `Add(reg, 0)`, as objtool decodes it.
    Add(Reg, i32),
    /// A register masked with a constant (`and $-16, %rsp`).
    And(Reg, i32),
    /// Loaded from memory at a register plus an offset.
    Load(Reg, i32),
    /// Popped off the stack.
    Pop,
    /// `popf`.
    PopFlags,
    /// Pushed, but not a register: an immediate, a memory operand, a
    /// segment register.
    Const,
    /// Written in a way the model does not describe (an arm64 write to sp
    /// through a register operand, for instance).
    Unknown,
}

/// Where a stack operation's value goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dst {
    Reg(Reg),
    /// Stored to memory at a register plus an offset.
    Store(Reg, i32),
    /// Pushed onto the stack (8 bytes).
    Push,
    /// `pushf`.
    PushFlags,
    /// Popped into memory (`pop mem`, `popf`).
    Mem,
}

/// Pointer-authentication keys (arm64).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PacKey {
    A,
    B,
}

/// What a pointer-authentication instruction mixes into the signature.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Modifier {
    /// The stack pointer (`paciasp`, `autiasp`, `retaa`).
    Sp,
    Zero,
    Reg(Reg),
}

/// A pointer-authentication operation on a register.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Pac {
    Sign(PacKey, Modifier),
    Auth(PacKey, Modifier),
    /// `xpaclri`: removes the signature without checking it.
    Strip,
}

/// One operation of an instruction. An instruction may have several, in
/// order (x86 `leave`; arm64 `stp x29, x30, [sp, #-16]!`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Op {
    Stack {
        src: Src,
        dst: Dst,
    },
    /// x86 `std` (true) / `cld` (false).
    Direction(bool),
    /// Pointer authentication of `reg`.
    Pac {
        reg: Reg,
        pac: Pac,
    },
    /// `reg` was just set `below` bytes under the stack pointer, and the
    /// frame address is found from it until the stack pointer is set from
    /// it again: a stack-probe loop moves the stack pointer down to `reg`
    /// a page at a time (compilers' `-fstack-clash-protection`, LLVM's
    /// inline probes), as the compilers' CFI says (`.cfi_def_cfa_register`).
    CfaFrom {
        reg: Reg,
        below: i32,
    },
    /// The end of that loop: the stack pointer is now `below` bytes under
    /// where it was at the `CfaFrom`, equal to `reg`.
    ProbeEnd {
        reg: Reg,
        below: i32,
    },
}

/// An [`Op`] in 8 bytes: four tag/register bytes and one immediate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PackedOp {
    tag: u8,
    a: u8,
    b: u8,
    c: u8,
    imm: i32,
}

impl PackedOp {
    #[inline]
    pub fn pack(op: Op) -> PackedOp {
        let (tag, a, b, c, imm) = match op {
            Op::Stack { src, dst } => {
                let (sk, sr, si) = match src {
                    Src::Reg(r) => (0, r, 0),
                    Src::Add(r, i) => (1, r, i),
                    Src::And(r, i) => (2, r, i),
                    Src::Load(r, i) => (3, r, i),
                    Src::Pop => (4, 0, 0),
                    Src::PopFlags => (5, 0, 0),
                    Src::Const => (6, 0, 0),
                    Src::Unknown => (7, 0, 0),
                };
                let (dk, dr, di) = match dst {
                    Dst::Reg(r) => (0, r, 0),
                    Dst::Store(r, i) => (1, r, i),
                    Dst::Push => (2, 0, 0),
                    Dst::PushFlags => (3, 0, 0),
                    Dst::Mem => (4, 0, 0),
                };
                // At most one side carries a constant (see the decoders).
                debug_assert!(si == 0 || di == 0, "{op:?}");
                (sk << 3 | dk, sr, dr, 0, si | di)
            }
            Op::Direction(set) => (64, u8::from(set), 0, 0, 0),
            Op::CfaFrom { reg, below } => (65, reg, 0, 0, below),
            Op::ProbeEnd { reg, below } => (66, reg, 0, 0, below),
            Op::Pac { reg, pac } => {
                let (kind, key, m) = match pac {
                    Pac::Sign(k, m) => (0, k, Some(m)),
                    Pac::Auth(k, m) => (1, k, Some(m)),
                    Pac::Strip => (2, PacKey::A, None),
                };
                let (mk, mr) = match m {
                    Some(Modifier::Sp) => (0, 0),
                    Some(Modifier::Zero) => (1, 0),
                    Some(Modifier::Reg(r)) => (2, r),
                    None => (3, 0),
                };
                let key = u8::from(key == PacKey::B);
                (128 | kind << 2 | key, reg, mk, mr, 0)
            }
        };
        PackedOp { tag, a, b, c, imm }
    }

    pub fn unpack(self) -> Op {
        let PackedOp { tag, a, b, c, imm } = self;
        if tag & 128 != 0 {
            let key = if tag & 1 != 0 { PacKey::B } else { PacKey::A };
            let m = match b {
                0 => Modifier::Sp,
                1 => Modifier::Zero,
                _ => Modifier::Reg(c),
            };
            let pac = match (tag >> 2) & 3 {
                0 => Pac::Sign(key, m),
                1 => Pac::Auth(key, m),
                _ => Pac::Strip,
            };
            return Op::Pac { reg: a, pac };
        }
        if tag == 64 {
            return Op::Direction(a != 0);
        }
        if tag == 65 {
            return Op::CfaFrom { reg: a, below: imm };
        }
        if tag == 66 {
            return Op::ProbeEnd { reg: a, below: imm };
        }
        let src = match tag >> 3 {
            0 => Src::Reg(a),
            1 => Src::Add(a, imm),
            2 => Src::And(a, imm),
            3 => Src::Load(a, imm),
            4 => Src::Pop,
            5 => Src::PopFlags,
            6 => Src::Const,
            _ => Src::Unknown,
        };
        let dst = match tag & 7 {
            0 => Dst::Reg(b),
            1 => Dst::Store(b, imm),
            2 => Dst::Push,
            3 => Dst::PushFlags,
            _ => Dst::Mem,
        };
        Op::Stack { src, dst }
    }
}

/// The operations of one instruction (a walk's hot loop: no adapters).
#[derive(Debug, Clone)]
pub struct OpIter<'a> {
    offsets: &'a [u32],
    ops: &'a [PackedOp],
    offset: u32,
}

impl OpIter<'_> {
    pub fn empty() -> OpIter<'static> {
        OpIter {
            offsets: &[],
            ops: &[],
            offset: 0,
        }
    }
}

impl Iterator for OpIter<'_> {
    type Item = Op;
    #[inline]
    fn next(&mut self) -> Option<Op> {
        match (self.offsets.split_first(), self.ops.split_first()) {
            (Some((&o, offsets)), Some((&p, ops))) if o == self.offset => {
                self.offsets = offsets;
                self.ops = ops;
                Some(p.unpack())
            }
            _ => None,
        }
    }
}

/// The operations of a section's instructions, by instruction offset, in
/// offset order (several entries for one offset are its operations in order).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct OpTable {
    offsets: Vec<u32>,
    ops: Vec<PackedOp>,
}

impl OpTable {
    /// Room for `n` more operations.
    pub fn reserve(&mut self, n: usize) {
        self.offsets.reserve(n);
        self.ops.reserve(n);
    }
    #[inline]
    pub fn push(&mut self, offset: u64, op: Op) {
        debug_assert!(self.offsets.last().is_none_or(|&o| u64::from(o) <= offset));
        self.offsets.push(offset as u32);
        self.ops.push(PackedOp::pack(op));
    }
    pub fn len(&self) -> usize {
        self.ops.len()
    }
    pub fn is_empty(&self) -> bool {
        self.ops.is_empty()
    }
    /// Offsets of the instructions whose operations include `sub $n, reg`
    /// (`add` of `-n`) to `reg` itself with `n` at least `min`, in order.
    pub fn stack_subs_from(&self, reg: Reg, min: i32) -> Vec<u64> {
        let add_to_reg = PackedOp::pack(Op::Stack {
            src: Src::Add(reg, -min),
            dst: Dst::Reg(reg),
        });
        self.ops
            .iter()
            .zip(&self.offsets)
            .filter(|(p, _)| {
                p.tag == add_to_reg.tag
                    && p.a == add_to_reg.a
                    && p.b == add_to_reg.b
                    && p.imm <= -min
            })
            .map(|(_, &o)| u64::from(o))
            .collect()
    }
    /// Appends another table whose offsets all follow this one's.
    pub fn append(&mut self, other: &mut OpTable) {
        self.offsets.append(&mut other.offsets);
        self.ops.append(&mut other.ops);
    }
    /// The operations of the instruction at `offset`.
    pub fn at(&self, offset: u64) -> impl Iterator<Item = Op> + '_ {
        let o = offset as u32;
        let lo = self.offsets.partition_point(|&x| x < o);
        self.offsets[lo..]
            .iter()
            .take_while(move |&&x| x == o)
            .zip(&self.ops[lo..])
            .map(|(_, p)| p.unpack())
    }
    /// The operations from entry `index` on that belong to the instruction
    /// at `offset`.
    // Asked once an instruction with operations in the walk's runs: left to
    // the inliner it was once outlined there (+0.4% of a vmlinux.o run).
    #[inline(always)]
    pub fn from_index(&self, index: usize, offset: u64) -> OpIter<'_> {
        let lo = index.min(self.offsets.len());
        OpIter {
            offsets: &self.offsets[lo..],
            ops: &self.ops[lo..],
            offset: offset as u32,
        }
    }
    /// Offsets of the entries, in order.
    pub fn offsets(&self) -> &[u32] {
        &self.offsets
    }
    /// Every (offset, operation), in order.
    pub fn iter(&self) -> impl Iterator<Item = (u64, Op)> + '_ {
        self.offsets
            .iter()
            .zip(&self.ops)
            .map(|(&o, p)| (u64::from(o), p.unpack()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packed_ops_round_trip() {
        let regs = [0u8, 4, 5, 15, 29, 30, 31];
        let imms = [0i32, -8, 8, 4096, -0x7fff_ffff, i32::MAX];
        let mut ops = vec![Op::Direction(true), Op::Direction(false)];
        for &r in &regs {
            for &i in &imms {
                for src in [Src::Add(r, i), Src::And(r, i), Src::Load(r, i)] {
                    ops.push(Op::Stack {
                        src,
                        dst: Dst::Reg(r),
                    });
                }
                ops.push(Op::Stack {
                    src: Src::Reg(r),
                    dst: Dst::Store(r, i),
                });
                ops.push(Op::CfaFrom { reg: r, below: i });
                ops.push(Op::ProbeEnd { reg: r, below: i });
            }
            for src in [Src::Pop, Src::PopFlags, Src::Const, Src::Unknown] {
                for dst in [Dst::Reg(r), Dst::Push, Dst::PushFlags, Dst::Mem] {
                    ops.push(Op::Stack { src, dst });
                }
            }
            for key in [PacKey::A, PacKey::B] {
                for m in [Modifier::Sp, Modifier::Zero, Modifier::Reg(r)] {
                    ops.push(Op::Pac {
                        reg: r,
                        pac: Pac::Sign(key, m),
                    });
                    ops.push(Op::Pac {
                        reg: r,
                        pac: Pac::Auth(key, m),
                    });
                }
            }
            ops.push(Op::Pac {
                reg: r,
                pac: Pac::Strip,
            });
        }
        for op in ops {
            assert_eq!(PackedOp::pack(op).unpack(), op);
        }
    }

    #[test]
    fn table_lookup_by_offset() {
        let mut t = OpTable::default();
        let leave = [
            Op::Stack {
                src: Src::Reg(5),
                dst: Dst::Reg(4),
            },
            Op::Stack {
                src: Src::Pop,
                dst: Dst::Reg(5),
            },
        ];
        t.push(0, Op::Direction(true));
        t.push(7, leave[0]);
        t.push(7, leave[1]);
        t.push(9, Op::Direction(false));
        assert_eq!(t.at(7).collect::<Vec<_>>(), leave);
        assert_eq!(t.at(0).count(), 1);
        assert_eq!(t.at(8).count(), 0);
        assert_eq!(t.at(10).count(), 0);
    }
}
