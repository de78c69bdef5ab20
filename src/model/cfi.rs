//! The stack model: where the canonical frame address (CFA) is and where
//! the callee-saved registers and the return address were saved, at each
//! instruction of a path. It is objtool's (`struct cfi_state`,
//! `update_cfi_state` in tools/objtool/check.c of Linux 6.12), rule for
//! rule, so that the state at every instruction is the one objtool writes
//! into ORC, with what arm64 needs besides: a return address that lives in
//! x30 until saved and that a call overwrites, frame records set up with
//! `add x29, sp, #n`, and stack-pointer writes the model cannot describe.

use super::special::Hint;
use super::walk::Loc as Place;
use crate::arch::{Dst, FrameAbi, Op, RaHome, Reg, Src};
use crate::elf::orc::{self, OrcEntry};

/// A base in objtool's numbering: a register, or one of these. (32 bits
/// wide so that a [`Cfi`] has no padding and compares as bytes.)
pub type Base = i32;
pub const UNDEFINED: Base = -1;
/// A value saved on the stack at CFA + offset.
pub const CFA: Base = -2;
/// CFA = *(sp) + offset (a stack switch).
pub const SP_INDIRECT: Base = -3;
/// CFA = *(bp + offset) (DRAP).
pub const BP_INDIRECT: Base = -4;
/// A callee-saved register (or the arm64 return address) overwritten
/// before it was saved: the caller's value is lost.
pub const CLOBBERED: Base = -5;

/// A register rule: `base` + `offset`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C)]
pub struct Loc {
    pub base: Base,
    pub offset: i32,
}

impl Loc {
    pub const UNDEF: Loc = Loc {
        base: UNDEFINED,
        offset: 0,
    };
    pub fn new(base: Base, offset: i32) -> Loc {
        Loc { base, offset }
    }
}

/// Registers tracked as saved: the callee-saved ones and the return address.
pub const SLOTS: usize = 12;
/// Registers whose copies of the stack pointer are followed (objtool's
/// `vals`): all of them.
const VALS: usize = 32;

/// Whether a state follows stack operations.
#[derive(Debug, Clone, Copy, PartialEq, Eq, bytemuck::NoUninit)]
#[repr(u8)]
pub enum Follow {
    Yes,
    /// Not followed: after `UNWIND_HINT_UNDEFINED`, an operation the model
    /// cannot follow, or with the stack rules off.
    No,
    /// Not followed and not judged: after an unwind hint whose frame
    /// address the model does not follow (an analysis-incomplete place).
    /// No stack finding and no comparison with ORC or CFI until a hint
    /// gives the frame again.
    NotJudged,
}

/// The unwinding type of a state (objtool's `UNWIND_HINT_TYPE_*`).
pub type Type = u8;

/// The stack state before an instruction.
///
/// Laid out without padding (widest fields first), so that states are
/// copied, compared and hashed as plain bytes: the walks compare one at
/// every instruction where paths meet.
#[derive(Debug, Clone, Copy, bytemuck::NoUninit)]
#[repr(C)]
pub struct Cfi {
    pub cfa: Loc,
    /// Per slot (see [`Frame::slot`]): where the register's entry value is.
    pub regs: [Loc; SLOTS],
    pub stack_size: i32,
    pub drap_reg: Base,
    pub drap_offset: i32,
    vals_cfa: u32,
    vals_ind: u32,
    /// Per register, when it holds a value derived from the stack pointer
    /// (objtool's `vals`): the offset, and whether from the CFA or `*(sp)`.
    vals_off: [i16; VALS],
    /// arm64: slots whose register was written since it was saved (a saved
    /// x29 or x30 never written since still holds its entry value).
    dirty: u16,
    pub drap: bool,
    pub bp_scratch: bool,
    pub ty: Type,
    pub signal: bool,
    /// Whether stack operations are followed (not after
    /// `UNWIND_HINT_UNDEFINED`).
    pub follow: Follow,
    /// arm64: sp was set from a register the model does not follow while
    /// the CFA hangs off x29 (a switch to another stack, a variable-length
    /// array): saves and reloads at sp say nothing about the frame until sp
    /// is set back from x29.
    pub sp_lost: bool,
}

impl PartialEq for Cfi {
    #[inline]
    fn eq(&self, other: &Cfi) -> bool {
        bytemuck::bytes_of(self) == bytemuck::bytes_of(other)
    }
}

impl Eq for Cfi {}

impl std::hash::Hash for Cfi {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write(bytemuck::bytes_of(self));
    }
}

/// The stack states walks recorded, one per instruction walked, in the
/// order recorded: each a place and an index into one table of the distinct
/// states. A whole kernel's 13 M recorded instructions share a few hundred
/// thousand states; kept as (place, state) pairs they took 212 bytes each.
#[derive(Debug, Default)]
pub struct States {
    places: Vec<(u32, u32, u32)>,
    table: Vec<Cfi>,
    ids: rustc_hash::FxHashMap<Cfi, u32>,
}

impl States {
    fn intern(&mut self, c: &Cfi) -> u32 {
        let table = &mut self.table;
        *self.ids.entry(*c).or_insert_with(|| {
            table.push(*c);
            (table.len() - 1) as u32
        })
    }
    /// Record `places`, each with an index into `table` (one walk's own
    /// table): each distinct state is looked up once, not each place.
    pub fn extend(&mut self, table: &[Cfi], places: impl IntoIterator<Item = (Place, u32)>) {
        let mut ids = vec![u32::MAX; table.len()];
        for ((sec, i), k) in places {
            let id = match ids[k as usize] {
                u32::MAX => {
                    let id = self.intern(&table[k as usize]);
                    ids[k as usize] = id;
                    id
                }
                id => id,
            };
            self.places.push((sec as u32, i as u32, id));
        }
    }
    pub fn len(&self) -> usize {
        self.places.len()
    }
    pub fn is_empty(&self) -> bool {
        self.places.is_empty()
    }
    /// Every record, in the order recorded (a place walked from several
    /// roots appears once for each).
    pub fn iter(&self) -> impl Iterator<Item = (Place, &Cfi)> {
        self.places
            .iter()
            .map(|&(s, i, id)| ((s as usize, i as usize), &self.table[id as usize]))
    }
    /// The state at each place, the last recorded where several were.
    pub fn by_place(self) -> StateMap {
        let mut at: Vec<Vec<u32>> = Vec::new();
        let mut len = 0;
        for &(s, i, id) in &self.places {
            let (s, i) = (s as usize, i as usize);
            if at.len() <= s {
                at.resize_with(s + 1, Vec::new);
            }
            let v = &mut at[s];
            if v.len() <= i {
                v.resize(i + 1, u32::MAX);
            }
            len += usize::from(v[i] == u32::MAX);
            v[i] = id;
        }
        StateMap {
            at,
            table: self.table,
            len,
        }
    }
}

/// The stack state before each instruction walked, by place: per section an
/// index per instruction into a table of the distinct states.
#[derive(Debug, Default)]
pub struct StateMap {
    at: Vec<Vec<u32>>,
    table: Vec<Cfi>,
    len: usize,
}

impl StateMap {
    pub fn get(&self, &(sec, i): &Place) -> Option<&Cfi> {
        let id = *self.at.get(sec)?.get(i)?;
        self.table.get(id as usize)
    }
    pub fn contains_key(&self, at: &Place) -> bool {
        self.get(at).is_some()
    }
    /// Places with a state.
    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// Why a stack operation cannot be followed (the path ends there).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unsupported {
    /// A stack operation while the CFA is undefined.
    UndefinedState,
    /// The register the CFA is computed from is changed in a way the model
    /// does not describe.
    StackRegister,
    /// `and $imm, %rsp` outside a frame-pointer or DRAP function.
    Realignment,
    /// An instruction that touches the stack in a way the model does not know.
    Unknown,
}

impl Unsupported {
    /// objtool's wording.
    pub fn message(self) -> &'static str {
        match self {
            Unsupported::UndefinedState => "undefined stack state",
            Unsupported::StackRegister => "unsupported stack register modification",
            Unsupported::Realignment => "unsupported stack pointer realignment",
            Unsupported::Unknown => "unknown stack-related instruction",
        }
    }
}

/// How the model applies operations for one architecture.
#[derive(Debug, Clone)]
pub struct Frame {
    pub abi: &'static FrameAbi,
    /// arm64's rules besides objtool's.
    arm64: bool,
    /// Per register number: its slot, or -1.
    slots: [i8; 32],
    /// The state at a function's entry.
    entry: Cfi,
}

/// objtool's `UNWIND_HINT_TYPE_CALL`: an ordinary callable function state.
pub const TYPE_CALL: Type = Hint::CALL;

impl Frame {
    pub fn new(abi: &'static FrameAbi) -> Frame {
        let mut slots = [-1i8; 32];
        for (k, &r) in abi.callee_saved.iter().enumerate() {
            slots[r as usize] = k as i8;
        }
        if let RaHome::Reg(r) = abi.ra {
            slots[r as usize] = abi.callee_saved.len() as i8;
        }
        let mut f = Frame {
            abi,
            arm64: matches!(abi.ra, RaHome::Reg(_)),
            slots,
            entry: Cfi::undefined(),
        };
        f.entry = f.make_entry();
        f
    }

    pub fn sp(&self) -> Base {
        self.abi.sp as Base
    }
    pub fn fp(&self) -> Base {
        self.abi.fp as Base
    }
    /// Whether `op` realigns the stack pointer (`and $-N, %rsp`, `and sp,
    /// xN, #-N`): a function that does needs a frame base whatever the
    /// build, so its frame says nothing about frame pointers.
    #[inline]
    pub fn realigns(&self, op: &Op) -> bool {
        matches!(op, Op::Stack { src: Src::And(..), dst: Dst::Reg(d) } if *d as Base == self.sp())
    }
    /// The register holding the return address at entry (arm64 x30).
    pub fn ra_reg(&self) -> Option<Reg> {
        match self.abi.ra {
            RaHome::Reg(r) => Some(r),
            RaHome::Stack => None,
        }
    }
    /// The slot of the return address.
    pub fn ra_slot(&self) -> usize {
        self.abi.callee_saved.len()
    }
    /// The slot of a register, if it is tracked as saved.
    #[inline]
    pub fn slot(&self, reg: Reg) -> Option<usize> {
        let k = *self.slots.get(reg as usize)?;
        (k >= 0).then_some(k as usize)
    }
    /// The register a slot tracks (`None` for x86's return address).
    pub fn slot_reg(&self, slot: usize) -> Option<Reg> {
        if slot == self.ra_slot() {
            return self.ra_reg();
        }
        self.abi.callee_saved.get(slot).copied()
    }

    /// objtool's `initial_func_cfi` as a full state (`set_func_state`).
    pub fn entry(&self) -> Cfi {
        self.entry
    }

    fn make_entry(&self) -> Cfi {
        let mut c = Cfi::undefined();
        c.cfa = Loc::new(self.sp(), self.abi.entry_cfa_offset);
        c.stack_size = self.abi.entry_cfa_offset;
        if self.ra_reg().is_none() {
            c.regs[self.ra_slot()] = Loc::new(CFA, -8);
        }
        c.ty = TYPE_CALL;
        c
    }

    /// The state an unwind hint describes (`read_unwind_hints`); `None` for
    /// a base register the model has no name for, and for SAVE/RESTORE.
    pub fn from_hint(&self, h: &Hint) -> Option<Cfi> {
        match h.ty {
            Hint::UNDEFINED => return Some(Cfi::not_followed(Follow::No)),
            Hint::FUNC => return Some(self.entry()),
            Hint::SAVE | Hint::RESTORE => return None,
            _ => {}
        }
        if self.arm64 {
            return None;
        }
        let mut c = Cfi::undefined();
        // ORC_REG_* to objtool's register numbers (arch_decode_hint_reg).
        c.cfa.base = match h.sp_reg {
            0 => UNDEFINED,
            2 => 2,  // dx
            3 => 7,  // di
            4 => 5,  // bp
            5 => 4,  // sp
            6 => 10, // r10
            7 => 13, // r13
            9 => SP_INDIRECT,
            // ax, a CFA base since Linux 7.x.
            orc::ORC_REG_AX => 0,
            _ => return None,
        };
        c.cfa.offset = i32::from(h.sp_offset);
        c.ty = h.ty;
        c.signal = h.signal;
        Some(c)
    }

    /// Apply one operation (objtool's `update_cfi_state`). `Err` means the
    /// state cannot be followed past this instruction.
    pub fn apply(
        &self,
        c: &mut Cfi,
        op: &Op,
        in_function: bool,
        next_has_hint: bool,
    ) -> Result<(), Unsupported> {
        // arm64: a write to a saved x29/x30 that restores nothing leaves the
        // slot as it was, and the register no longer holds its entry value.
        let watched = match *op {
            Op::Stack {
                dst: Dst::Reg(d), ..
            } if self.arm64 && (d as Base == self.fp() || Some(d) == self.ra_reg()) => {
                self.slot(d).filter(|&k| c.regs[k].base == CFA)
            }
            _ => None,
        };
        let was = watched.map(|k| c.regs[k]);
        let r = self.apply_op(c, op, in_function, next_has_hint);
        if let (Some(k), Some(was)) = (watched, was)
            && c.regs[k] == was
        {
            c.dirty |= 1 << k;
        }
        r
    }

    fn apply_op(
        &self,
        c: &mut Cfi,
        op: &Op,
        in_function: bool,
        next_has_hint: bool,
    ) -> Result<(), Unsupported> {
        if c.follow != Follow::Yes {
            return Ok(());
        }
        if let Op::CfaFrom { reg, below } = *op {
            // The probe register holds sp - below: the CFA is as far above
            // it, while the stack pointer moves down to it.
            // Under a frame pointer (or DRAP) the frame address does not
            // move with the stack pointer.
            let sp = self.sp();
            if c.cfa.base != sp || c.drap {
                return Ok(());
            }
            if reg as Base == sp || reg as Base == self.fp() {
                return Err(Unsupported::StackRegister);
            }
            c.cfa.base = reg as Base;
            c.cfa.offset = c.cfa.offset.wrapping_add(below);
            return Ok(());
        }
        if let Op::ProbeEnd { reg, below } = *op {
            let sp = self.sp();
            if c.cfa.base == reg as Base {
                // The stack pointer is where the CFA was found from.
                c.cfa.base = sp;
                c.stack_size = c.cfa.offset;
            } else {
                // Under a frame pointer: the stack pointer `below` lower.
                self.add(c, sp, below.wrapping_neg(), sp, false)?;
            }
            return Ok(());
        }
        let Op::Stack { src, dst } = *op else {
            return Ok(());
        };
        if c.cfa.base == UNDEFINED {
            return if in_function {
                Err(Unsupported::UndefinedState)
            } else {
                Ok(())
            };
        }
        if c.ty == Hint::REGS || c.ty == Hint::REGS_PARTIAL {
            self.apply_regs(c, src, dst);
            return Ok(());
        }
        let sp = self.sp();
        let bp = self.fp();
        match dst {
            Dst::Reg(d) => {
                let d = d as Base;
                match src {
                    Src::Reg(s) => self.mov(c, s as Base, d),
                    Src::Add(s, off) => self.add(c, s as Base, off, d, next_has_hint)?,
                    Src::And(_, _) if self.arm64 => {
                        // and sp, xN, #-align under a frame record (arm64
                        // compilers use no DRAP); sp is then unknown
                        // relative to the CFA until set back from x29.
                        if d != sp || c.cfa.base != bp {
                            return Err(Unsupported::Realignment);
                        }
                        c.sp_lost = true;
                    }
                    Src::And(_, _) => {
                        if d != sp
                            || (c.drap_reg != UNDEFINED && c.cfa.base != sp)
                            || (c.drap_reg == UNDEFINED && c.cfa.base != bp)
                        {
                            return Err(Unsupported::Realignment);
                        }
                        if c.drap_reg != UNDEFINED {
                            // drap: and imm, %rsp
                            c.cfa.base = c.drap_reg;
                            c.cfa.offset = 0;
                            c.stack_size = 0;
                            c.drap = true;
                        }
                        // Older compilers realign with a frame pointer, no DRAP.
                    }
                    Src::Pop | Src::PopFlags => {
                        if d == sp && c.cfa.base == SP_INDIRECT {
                            // pop %rsp: back from a stack swizzle
                            c.cfa.base = sp;
                        } else {
                            if !c.drap && d == c.cfa.base {
                                // pop %rbp
                                c.cfa.base = sp;
                            }
                            if c.drap
                                && c.cfa.base == BP_INDIRECT
                                && d == c.drap_reg
                                && c.drap_offset == c.stack_size.wrapping_neg()
                            {
                                // drap: pop %drap
                                c.cfa.base = c.drap_reg;
                                c.cfa.offset = 0;
                                c.drap_offset = -1;
                            } else if c.stack_size == self.reg(c, d).offset.wrapping_neg() {
                                // pop %reg
                                self.restore(c, d);
                            }
                            c.stack_size = c.stack_size.wrapping_sub(8);
                            if c.cfa.base == sp {
                                c.cfa.offset = c.cfa.offset.wrapping_sub(8);
                            }
                        }
                    }
                    Src::Load(s, off) => {
                        let s = s as Base;
                        if c.sp_lost && s == sp {
                            // a reload from the other stack
                            return self.clobber(c, d);
                        }
                        let old_cfa = c.cfa;
                        if !c.drap && d == c.cfa.base && d == bp {
                            // mov disp(%rsp), %rbp
                            c.cfa.base = sp;
                            c.cfa.offset = c.stack_size;
                        }
                        if c.drap && s == bp && off == c.drap_offset {
                            // drap: mov disp(%rbp), %drap
                            c.cfa.base = c.drap_reg;
                            c.cfa.offset = 0;
                            c.drap_offset = -1;
                        }
                        let saved = self.reg(c, d).offset;
                        if c.drap && s == bp && off == saved {
                            // drap: mov disp(%rbp), %reg
                            self.restore(c, d);
                        } else if s == c.cfa.base && off == saved.wrapping_add(c.cfa.offset) {
                            // mov disp(%rbp), %reg; mov disp(%rsp), %reg
                            self.restore(c, d);
                        } else if s == sp && off == saved.wrapping_add(c.stack_size) {
                            // mov disp(%rsp), %reg
                            self.restore(c, d);
                        } else if self.arm64
                            && s == old_cfa.base
                            && off == saved.wrapping_add(old_cfa.offset)
                        {
                            // ldr x29, [x29]: the frame record's own slot,
                            // through the register the CFA was computed from
                            self.restore(c, d);
                        } else if self.arm64 {
                            self.clobber(c, d)?;
                        }
                    }
                    Src::Unknown => {
                        if d == c.cfa.base {
                            return Err(Unsupported::StackRegister);
                        }
                        // sp moved by a register (a variable-length array)
                        // while the CFA hangs off the frame pointer: as
                        // objtool, followed no further until sp is set back
                        // from the frame pointer.
                        if d != sp {
                            self.clobber(c, d)?;
                        } else if self.arm64 {
                            c.sp_lost = true;
                        }
                    }
                    Src::Const => return Err(Unsupported::Unknown),
                }
            }
            Dst::Push | Dst::PushFlags => {
                c.stack_size = c.stack_size.wrapping_add(8);
                if c.cfa.base == sp {
                    c.cfa.offset = c.cfa.offset.wrapping_add(8);
                }
                if let Src::Reg(s) = src {
                    let s = s as Base;
                    if c.drap {
                        if s == c.cfa.base && s == c.drap_reg {
                            // drap: push %drap
                            c.cfa.base = BP_INDIRECT;
                            c.cfa.offset = c.stack_size.wrapping_neg();
                            c.drap_offset = c.stack_size.wrapping_neg();
                        } else if s == bp && c.cfa.base == c.drap_reg {
                            // drap: push %rbp
                            c.stack_size = 0;
                        } else {
                            // drap: push %reg
                            self.save(c, s, bp, c.stack_size.wrapping_neg());
                        }
                    } else {
                        // push %reg
                        self.save(c, s, CFA, c.stack_size.wrapping_neg());
                    }
                    // rbp pushed but not made the frame pointer
                    if in_function && s == bp && c.cfa.base != bp {
                        c.bp_scratch = true;
                    }
                }
            }
            Dst::Store(base, off) => {
                let base = base as Base;
                let s = match src {
                    Src::Reg(s) => s as Base,
                    _ => return Err(Unsupported::Unknown),
                };
                if c.drap {
                    if s == c.cfa.base && s == c.drap_reg {
                        // drap: mov %drap, disp(%rbp)
                        c.cfa.base = BP_INDIRECT;
                        c.cfa.offset = off;
                        c.drap_offset = off;
                    } else {
                        // drap: mov reg, disp(%rbp)
                        self.save(c, s, bp, off);
                    }
                } else if base == c.cfa.base {
                    // mov reg, disp(%rbp); mov reg, disp(%rsp)
                    self.save(c, s, CFA, off.wrapping_sub(c.cfa.offset));
                } else if base == sp && c.sp_lost {
                    // a store to the other stack
                } else if base == sp {
                    // mov reg, disp(%rsp)
                    self.save(c, s, CFA, off.wrapping_sub(c.stack_size));
                } else if s == sp && off == 0 {
                    // mov %rsp, (%reg): a stack swizzle is being set up
                    self.set_val(c, base, Loc::new(SP_INDIRECT, c.cfa.offset));
                }
            }
            Dst::Mem => match src {
                Src::Pop | Src::PopFlags => {
                    // pop mem
                    c.stack_size = c.stack_size.wrapping_sub(8);
                    if c.cfa.base == sp {
                        c.cfa.offset = c.cfa.offset.wrapping_sub(8);
                    }
                }
                _ => return Err(Unsupported::Unknown),
            },
        }
        Ok(())
    }

    /// `mov %src, %dst` (objtool's OP_SRC_REG to OP_DEST_REG).
    fn mov(&self, c: &mut Cfi, s: Base, d: Base) {
        let sp = self.sp();
        let bp = self.fp();
        if s == sp
            && d == bp
            && c.cfa.base == sp
            && self.reg(c, bp) == Loc::new(CFA, c.cfa.offset.wrapping_neg())
        {
            // mov %rsp, %rbp: the frame pointer is set up
            c.cfa.base = d;
            c.bp_scratch = false;
        } else if s == sp && d == bp && c.drap {
            // drap: mov %rsp, %rbp
            self.put(c, bp, Loc::new(bp, c.stack_size.wrapping_neg()));
            c.bp_scratch = false;
        } else if s == sp && c.cfa.base == sp {
            // mov %rsp, %reg: remembered, for a later mov %reg, %rsp
            self.set_val(c, d, Loc::new(CFA, c.stack_size.wrapping_neg()));
            if self.arm64 {
                let _ = self.clobber(c, d);
            }
        } else if s == bp && d == sp && (c.cfa.base == bp || c.cfa.base == c.drap_reg) {
            // mov %rbp, %rsp: the stack pointer back from the frame pointer
            c.stack_size = self.reg(c, bp).offset.wrapping_neg();
            c.sp_lost = false;
        } else if d == c.cfa.base {
            // mov %reg, %rsp
            let v = self.val(c, s);
            if c.cfa.base == sp && v.base == CFA {
                c.cfa.offset = v.offset.wrapping_neg();
                c.stack_size = c.cfa.offset;
            } else if c.cfa.base == sp && v.base == SP_INDIRECT && v.offset == c.cfa.offset {
                // a stack swizzle: the CFA is found through the new stack's top
                c.cfa.base = SP_INDIRECT;
            } else {
                c.cfa = Loc::UNDEF;
            }
        } else if d == sp
            && self.val(c, s).base == SP_INDIRECT
            && self.val(c, s).offset == c.cfa.offset
        {
            // the swizzle once more, with the CFA base unchanged: a later
            // pop %rsp is a plain pop, so count this as a push
            c.stack_size = c.stack_size.wrapping_add(8);
        } else if self.val(c, s).base == CFA {
            // a copy of a copy of the stack pointer
            let v = self.val(c, s);
            self.set_val(c, d, v);
        } else if self.arm64 && d == sp {
            // mov sp, xN under x29: another stack
            c.sp_lost = true;
        } else if self.arm64 {
            let _ = self.clobber(c, d);
        }
    }

    /// `lea disp(%src), %dst`, `add $imm, %rsp` (OP_SRC_ADD).
    fn add(
        &self,
        c: &mut Cfi,
        s: Base,
        off: i32,
        d: Base,
        next_has_hint: bool,
    ) -> Result<(), Unsupported> {
        let sp = self.sp();
        let bp = self.fp();
        if d == sp && s == sp {
            // add imm, %rsp
            c.stack_size = c.stack_size.wrapping_sub(off);
            if c.cfa.base == sp {
                c.cfa.offset = c.cfa.offset.wrapping_sub(off);
            }
            return Ok(());
        }
        if self.arm64 && d == bp && s == sp && c.cfa.base == sp {
            // add x29, sp, #n: the frame record is n bytes up the stack
            if self.reg(c, bp) == Loc::new(CFA, off.wrapping_sub(c.stack_size)) {
                c.cfa.base = bp;
                c.cfa.offset = c.cfa.offset.wrapping_sub(off);
                c.bp_scratch = false;
                return Ok(());
            }
        }
        if d == sp && s == bp {
            // lea disp(%rbp), %rsp
            c.stack_size = off.wrapping_add(self.reg(c, bp).offset).wrapping_neg();
            c.sp_lost = false;
            return Ok(());
        }
        if s == sp && c.cfa.base == sp {
            // lea disp(%rsp), %reg: a DRAP candidate, or a copy of sp
            if !self.arm64 {
                c.drap_reg = d;
            }
            self.set_val(c, d, Loc::new(CFA, off.wrapping_sub(c.stack_size)));
            if self.arm64 && d == bp {
                let _ = self.clobber(c, d);
            }
            return Ok(());
        }
        if c.drap && d == sp && s == c.drap_reg {
            // drap: lea disp(%drap), %rsp
            c.cfa.base = sp;
            c.cfa.offset = off.wrapping_neg();
            c.stack_size = off.wrapping_neg();
            c.drap_reg = UNDEFINED;
            c.drap = false;
            return Ok(());
        }
        if d == c.cfa.base && !next_has_hint {
            return Err(Unsupported::StackRegister);
        }
        if self.arm64 && d == sp && c.cfa.base == bp {
            // add sp, xN, #n under x29: another stack (call_on_irq_stack)
            c.sp_lost = true;
            return Ok(());
        }
        if self.arm64 && d == sp {
            return Err(Unsupported::StackRegister);
        }
        if self.arm64 {
            self.clobber(c, d)?;
        }
        Ok(())
    }

    /// The state in a `pt_regs` frame: only the stack pointer is followed
    /// (objtool's `update_cfi_state_regs`).
    fn apply_regs(&self, c: &mut Cfi, src: Src, dst: Dst) {
        let sp = self.sp();
        if c.cfa.base != sp && c.cfa.base != SP_INDIRECT {
            return;
        }
        if matches!(dst, Dst::Push | Dst::PushFlags) {
            c.cfa.offset = c.cfa.offset.wrapping_add(8);
        }
        if matches!(src, Src::Pop | Src::PopFlags) {
            c.cfa.offset = c.cfa.offset.wrapping_sub(8);
        }
        if let (Dst::Reg(d), Src::Add(s, off)) = (dst, src)
            && d as Base == sp
            && s as Base == sp
        {
            c.cfa.offset = c.cfa.offset.wrapping_sub(off);
        }
    }

    /// A call: arm64 `bl`/`blr` overwrite x30.
    pub fn call(&self, c: &mut Cfi) {
        if let Some(ra) = self.ra_reg() {
            let _ = self.clobber(c, ra as Base);
        }
    }

    /// A register written with something else than its entry value: lost
    /// unless saved before (arm64; x86 follows objtool, which does not look).
    fn clobber(&self, c: &mut Cfi, r: Base) -> Result<(), Unsupported> {
        if r < 0 {
            return Ok(());
        }
        if r == c.cfa.base {
            return Err(Unsupported::StackRegister);
        }
        if let Some(k) = self.slot(r as Reg)
            && (r == self.fp() || Some(r as Reg) == self.ra_reg())
        {
            if c.regs[k].base == UNDEFINED {
                c.regs[k] = Loc::new(CLOBBERED, 0);
            } else {
                c.dirty |= 1 << k;
            }
        }
        Ok(())
    }

    fn reg(&self, c: &Cfi, r: Base) -> Loc {
        if r < 0 {
            return Loc::UNDEF;
        }
        match self.slot(r as Reg) {
            Some(k) => c.regs[k],
            None => Loc::UNDEF,
        }
    }

    fn put(&self, c: &mut Cfi, r: Base, l: Loc) {
        if r >= 0
            && let Some(k) = self.slot(r as Reg)
        {
            c.regs[k] = l;
        }
    }

    /// objtool's `save_reg`: a callee-saved register saved for the first time.
    fn save(&self, c: &mut Cfi, r: Base, base: Base, offset: i32) {
        if r < 0 {
            return;
        }
        if let Some(k) = self.slot(r as Reg)
            && c.regs[k].base == UNDEFINED
        {
            c.regs[k] = Loc::new(base, offset);
        }
    }

    /// objtool's `restore_reg`: back to its entry rule.
    fn restore(&self, c: &mut Cfi, r: Base) {
        if r < 0 {
            return;
        }
        if let Some(k) = self.slot(r as Reg) {
            c.regs[k] = self.entry.regs[k];
            c.dirty &= !(1 << k);
        }
    }

    fn val(&self, c: &Cfi, r: Base) -> Loc {
        if !(0..VALS as Base).contains(&r) {
            return Loc::UNDEF;
        }
        let bit = 1u32 << r;
        let base = if c.vals_cfa & bit != 0 {
            CFA
        } else if c.vals_ind & bit != 0 {
            SP_INDIRECT
        } else {
            return Loc::UNDEF;
        };
        Loc::new(base, i32::from(c.vals_off[r as usize]))
    }

    fn set_val(&self, c: &mut Cfi, r: Base, l: Loc) {
        if !(0..VALS as Base).contains(&r) {
            return;
        }
        let bit = 1u32 << r;
        c.vals_cfa &= !bit;
        c.vals_ind &= !bit;
        // Offsets past 32 KiB (frames that large) are not followed.
        let Ok(off) = i16::try_from(l.offset) else {
            c.vals_off[r as usize] = 0;
            return;
        };
        c.vals_off[r as usize] = match l.base {
            CFA => {
                c.vals_cfa |= bit;
                off
            }
            SP_INDIRECT => {
                c.vals_ind |= bit;
                off
            }
            _ => 0,
        };
    }

    /// objtool's `has_modified_stack_frame`: anything not as at entry.
    pub fn modified(&self, c: &Cfi) -> Option<Modified> {
        let e = &self.entry;
        if c.cfa.base != e.cfa.base || c.drap {
            return Some(Modified::Cfa);
        }
        if c.cfa.offset != e.cfa.offset || c.stack_size != e.cfa.offset {
            return Some(Modified::StackSize);
        }
        // arm64 x29 and x30 saved and never written since hold their
        // entry values still (hand-written code that skips the reload).
        let intact = |k: usize| {
            self.arm64
                && c.regs[k].base == CFA
                && c.dirty & (1 << k) == 0
                && self
                    .slot_reg(k)
                    .is_some_and(|r| r as Base == self.fp() || Some(r) == self.ra_reg())
        };
        (0..SLOTS)
            .find(|&k| c.regs[k] != e.regs[k] && !intact(k))
            .map(Modified::Register)
    }

    /// objtool's `has_valid_stack_frame`: the frame pointer points at a
    /// frame record {fp, return address}.
    pub fn valid_frame(&self, c: &Cfi) -> bool {
        let bp = self.fp();
        let at = |l: Loc, off: i32| l.base == CFA && l.offset == off;
        if c.cfa.base == bp
            && at(self.reg(c, bp), c.cfa.offset.wrapping_neg())
            && at(c.regs[self.ra_slot()], 8i32.wrapping_sub(c.cfa.offset))
        {
            return true;
        }
        c.drap && self.reg(c, bp).base == bp
    }

    /// objtool's `insn_cfi_match`: what two paths must agree on.
    pub fn mismatch(&self, a: &Cfi, b: &Cfi) -> Option<Mismatch> {
        if a.cfa != b.cfa {
            return Some(Mismatch::Cfa(a.cfa, b.cfa));
        }
        if let Some(k) = (0..SLOTS).find(|&k| a.regs[k] != b.regs[k]) {
            return Some(Mismatch::Register(k, a.regs[k], b.regs[k]));
        }
        if a.ty != b.ty {
            return Some(Mismatch::Type(a.ty, b.ty));
        }
        if a.drap != b.drap
            || (a.drap && (a.drap_reg != b.drap_reg || a.drap_offset != b.drap_offset))
        {
            return Some(Mismatch::Drap);
        }
        None
    }

    /// A readable name for a register of the model.
    pub fn reg_name(&self, r: Base) -> String {
        match r {
            UNDEFINED => "undefined".into(),
            CFA => "cfa".into(),
            SP_INDIRECT => "(sp)".into(),
            BP_INDIRECT => "(bp)".into(),
            CLOBBERED => "clobbered".into(),
            r if self.arm64 => match r {
                31 => "sp".into(),
                29 => "x29".into(),
                30 => "x30".into(),
                r => format!("x{r}"),
            },
            r => ["rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi"]
                .get(r as usize)
                .map_or_else(|| format!("r{r}"), |s| s.to_string()),
        }
    }

    /// The name of what a slot tracks.
    pub fn slot_name(&self, slot: usize) -> String {
        match self.slot_reg(slot) {
            Some(r) => self.reg_name(r as Base),
            None => "return address".into(),
        }
    }

    /// `rsp+8`, `rbp+16`, `x29+32`, `undefined`.
    pub fn loc_text(&self, l: Loc) -> String {
        match l.base {
            UNDEFINED => "undefined".into(),
            CLOBBERED => "overwritten".into(),
            CFA => format!("cfa{:+}", l.offset),
            SP_INDIRECT => format!("(sp){:+}", l.offset),
            BP_INDIRECT => format!("(bp{:+})", l.offset),
            r => format!("{}{:+}", self.reg_name(r), l.offset),
        }
    }

    /// A one-line description of a state: CFA and the saved registers.
    pub fn describe(&self, c: &Cfi) -> String {
        let mut s = format!("cfa={}", self.loc_text(c.cfa));
        for k in 0..SLOTS {
            let l = c.regs[k];
            if l.base != UNDEFINED {
                s.push_str(&format!(" {}={}", self.slot_name(k), self.loc_text(l)));
            }
        }
        if c.drap {
            s.push_str(&format!(" drap={}", self.reg_name(c.drap_reg)));
        }
        s
    }
}

impl Frame {
    /// The ORC row objtool writes for a state (`init_orc_entry`), or why
    /// the state has none (a CFA or frame-pointer base ORC cannot name).
    pub fn orc(&self, c: &Cfi) -> Result<OrcEntry, String> {
        let mut e = OrcEntry::undefined();
        match c.ty {
            Hint::UNDEFINED => return Ok(e),
            Hint::END_OF_STACK => {
                e.ty = orc::ORC_TYPE_END_OF_STACK;
                return Ok(e);
            }
            Hint::CALL => e.ty = orc::ORC_TYPE_CALL,
            Hint::REGS => e.ty = orc::ORC_TYPE_REGS,
            Hint::REGS_PARTIAL => e.ty = orc::ORC_TYPE_REGS_PARTIAL,
            t => return Err(format!("unknown unwind hint type {t}")),
        }
        e.signal = c.signal;
        e.sp_reg = match c.cfa.base {
            // Only Linux 7.x's numbering has it (objtool 6.12 says "unknown
            // CFA base reg" where 7.x writes it).
            0 => orc::ORC_REG_AX,
            4 => orc::ORC_REG_SP,
            SP_INDIRECT => orc::ORC_REG_SP_INDIRECT,
            5 => orc::ORC_REG_BP,
            BP_INDIRECT => orc::ORC_REG_BP_INDIRECT,
            10 => orc::ORC_REG_R10,
            13 => orc::ORC_REG_R13,
            7 => orc::ORC_REG_DI,
            2 => orc::ORC_REG_DX,
            b => return Err(format!("unknown CFA base reg {b}")),
        };
        let bp = self.reg(c, self.fp());
        e.bp_reg = match bp.base {
            UNDEFINED => orc::ORC_REG_UNDEFINED,
            CFA => orc::ORC_REG_PREV_SP,
            5 => orc::ORC_REG_BP,
            b => return Err(format!("unknown BP base reg {b}")),
        };
        e.sp_offset = c.cfa.offset as i16;
        e.bp_offset = bp.offset as i16;
        Ok(e)
    }
}

/// How a state and a DWARF CFI row disagree (see [`Frame::cfi_diff`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CfiDiff {
    Cfa,
    ReturnAddress,
    FramePointer,
}

impl Frame {
    /// Whether a state and a DWARF CFI row describe the same frame: the CFA
    /// (a rule on sp holds when the stack pointer is that far below the
    /// CFA, whatever register the model computes it from; a rule on another
    /// register when the model uses that register with that offset) and the
    /// save slots of the return address and the frame pointer. `None` when
    /// they agree or cannot be compared (an expression, an undefined state).
    pub fn cfi_diff(&self, c: &Cfi, row: &crate::elf::cfi::CfiRow) -> Option<CfiDiff> {
        use crate::elf::cfi::Rule;
        if c.follow != Follow::Yes || c.cfa.base == UNDEFINED || c.ty != Hint::CALL {
            return None;
        }
        let (reg, off) = row.cfa?;
        let dw = |r: Base| -> Option<u16> {
            (r >= 0)
                .then(|| self.abi.dwarf.get(r as usize).copied())
                .flatten()
        };
        let sp_dw = dw(self.sp())?;
        // A register the model knows holds CFA + n (`lea 8(%rsp), %r10`
        // before a DRAP realignment) computes the CFA too.
        let via_copy = || {
            self.abi
                .dwarf
                .iter()
                .position(|&d| d == reg)
                .map(|r| self.val(c, r as Base))
                .is_some_and(|v| v.base == CFA && -i64::from(v.offset) == off)
        };
        let cfa_ok = if reg == sp_dw {
            i64::from(c.stack_size) == off
                || (c.cfa.base == self.sp() && i64::from(c.cfa.offset) == off)
        } else {
            (dw(c.cfa.base) == Some(reg) && i64::from(c.cfa.offset) == off) || via_copy()
        };
        if !cfa_ok {
            return Some(CfiDiff::Cfa);
        }
        // Both rules hold when the value is in both places: a register
        // restored but still described as saved (clang emits no
        // .cfi_restore after `pop %rbp`), or saved but described only once
        // the prologue is done (clang) while the register is not
        // written yet.
        let same = |k: usize, theirs: Rule| {
            let ours = c.regs[k];
            let intact = c.dirty & (1 << k) == 0;
            match theirs {
                Rule::Offset(n) => {
                    (ours.base == CFA && i64::from(ours.offset) == n) || ours.base == UNDEFINED
                }
                Rule::Undefined | Rule::SameValue => {
                    ours.base == UNDEFINED || ours.base == CLOBBERED || (ours.base == CFA && intact)
                }
                Rule::Other => true,
            }
        };
        if !same(self.ra_slot(), row.ra) {
            return Some(CfiDiff::ReturnAddress);
        }
        if let Some(k) = self.slot(self.abi.fp)
            && !same(k, row.fp)
        {
            return Some(CfiDiff::FramePointer);
        }
        None
    }

    /// A DWARF CFI row as text: `cfa=sp+48 x29=cfa-48 ra=cfa-40`.
    pub fn cfi_row_text(&self, row: &crate::elf::cfi::CfiRow) -> String {
        use crate::elf::cfi::Rule;
        let reg = |d: u16| {
            self.abi
                .dwarf
                .iter()
                .position(|&x| x == d)
                .map_or_else(|| format!("r{d}"), |r| self.reg_name(r as Base))
        };
        let rule = |r: Rule| match r {
            Rule::Offset(n) => format!("cfa{n:+}"),
            Rule::Undefined => "undefined".into(),
            Rule::SameValue => "same".into(),
            Rule::Other => "other".into(),
        };
        let cfa = row.cfa.map_or_else(
            || "expression".to_string(),
            |(r, o)| format!("{}{o:+}", reg(r)),
        );
        format!(
            "cfa={cfa} {}={} ra={}",
            self.reg_name(self.fp()),
            rule(row.fp),
            rule(row.ra)
        )
    }
}

/// What differs from the entry state (see [`Frame::modified`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Modified {
    Cfa,
    StackSize,
    Register(usize),
}

/// What two states reaching one instruction disagree on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mismatch {
    Cfa(Loc, Loc),
    Register(usize, Loc, Loc),
    Type(Type, Type),
    Drap,
}

impl Cfi {
    /// objtool's `init_cfi_state`: nothing known.
    pub fn undefined() -> Cfi {
        Cfi {
            cfa: Loc::UNDEF,
            regs: [Loc::UNDEF; SLOTS],
            vals_off: [0; VALS],
            vals_cfa: 0,
            vals_ind: 0,
            stack_size: 0,
            drap_reg: UNDEFINED,
            drap_offset: -1,
            drap: false,
            bp_scratch: false,
            dirty: 0,
            ty: Hint::UNDEFINED,
            signal: false,
            follow: Follow::Yes,
            sp_lost: false,
        }
    }

    /// Nothing known, and stack operations not followed.
    pub fn not_followed(follow: Follow) -> Cfi {
        Cfi {
            follow,
            ..Cfi::undefined()
        }
    }
}

/// Whether a push since the CFI row at `row_start` began, within the 16
/// instructions before `i`, explains a frame-address disagreement there:
/// inline assembly's pushes (`pushf; pop`, the iret frame of sync_core())
/// are invisible to the compiler writing the CFI.
pub fn undescribed_push(code: &crate::model::SectionCode, i: usize, row_start: u64) -> bool {
    use crate::arch::{Dst, Op};
    (i.saturating_sub(16)..i).rev().any(|k| {
        code.insns[k].offset() >= row_start
            && code.ops(k).any(|op| {
                matches!(
                    op,
                    Op::Stack {
                        dst: Dst::Push | Dst::PushFlags,
                        ..
                    }
                )
            })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arch::{Decoder, OpTable, arm64::Arm64, x86::X86};

    /// The recorded states keep every record (a place walked from two roots
    /// twice) and intern each distinct state once; by place, the last
    /// recorded wins, as the map they replaced did.
    #[test]
    fn states_keep_records_and_look_up_the_last() {
        let (_, pushed) = run(&X86, &[0x55]); // push %rbp
        let entry = Frame::new(X86.frame()).entry();
        let mut s = States::default();
        s.extend(&[entry, pushed], [((1, 0), 0), ((1, 1), 1)]);
        s.extend(&[pushed, entry], [((1, 0), 0), ((3, 2), 1)]);
        assert_eq!(s.len(), 4);
        assert_eq!(s.table.len(), 2);
        let got: Vec<_> = s.iter().map(|(at, c)| (at, *c == entry)).collect();
        assert_eq!(
            got,
            [
                ((1, 0), true),
                ((1, 1), false),
                ((1, 0), false),
                ((3, 2), true)
            ]
        );
        let m = s.by_place();
        assert_eq!(m.len(), 3);
        assert_eq!(m.get(&(1, 0)), Some(&pushed));
        assert_eq!(m.get(&(1, 1)), Some(&pushed));
        assert_eq!(m.get(&(3, 2)), Some(&entry));
        assert!(!m.contains_key(&(2, 0)) && !m.contains_key(&(3, 1)) && !m.contains_key(&(9, 9)));
    }

    fn run(dec: &dyn Decoder, bytes: &[u8]) -> (Frame, Cfi) {
        let f = Frame::new(dec.frame());
        let mut insns = Vec::new();
        let mut t = OpTable::default();
        dec.decode_with_ops(bytes, 0, &mut insns, Some(&mut t));
        let mut c = f.entry();
        for i in &insns {
            for op in t.at(i.offset()) {
                f.apply(&mut c, &op, true, false).unwrap();
            }
            if matches!(i.kind, crate::arch::Kind::Call) {
                f.call(&mut c);
            }
        }
        (f, c)
    }

    #[test]
    fn x86_frame_setup_and_teardown() {
        // push %rbp; mov %rsp,%rbp; push %rbx; sub $0x10,%rsp
        let (f, c) = run(
            &X86,
            &[0x55, 0x48, 0x89, 0xe5, 0x53, 0x48, 0x83, 0xec, 0x10],
        );
        assert_eq!(c.cfa, Loc::new(5, 16));
        assert_eq!(c.stack_size, 40);
        assert!(f.valid_frame(&c));
        assert_eq!(
            f.describe(&c),
            "cfa=rbp+16 rbx=cfa-24 rbp=cfa-16 return address=cfa-8"
        );
        // ... add $0x10,%rsp; pop %rbx; pop %rbp
        let (f, c) = run(
            &X86,
            &[
                0x55, 0x48, 0x89, 0xe5, 0x53, 0x48, 0x83, 0xec, 0x10, 0x48, 0x83, 0xc4, 0x10, 0x5b,
                0x5d,
            ],
        );
        assert_eq!(f.modified(&c), None);
        // leave restores as well
        let (f, c) = run(&X86, &[0x55, 0x48, 0x89, 0xe5, 0xc9]);
        assert_eq!(f.modified(&c), None);
        // a pop too few
        let (f, c) = run(&X86, &[0x55, 0x53, 0x5b]);
        assert_eq!(f.modified(&c), Some(Modified::StackSize));
    }

    #[test]
    fn x86_drap_realignment() {
        // lea 0x8(%rsp),%r10; and $-16,%rsp; push -0x8(%r10); push %rbp;
        // mov %rsp,%rbp; push %r10
        let bytes = [
            0x4c, 0x8d, 0x54, 0x24, 0x08, 0x48, 0x83, 0xe4, 0xf0, 0x41, 0xff, 0x72, 0xf8, 0x55,
            0x48, 0x89, 0xe5, 0x41, 0x52,
        ];
        let (f, c) = run(&X86, &bytes);
        assert!(c.drap);
        assert_eq!(c.cfa.base, BP_INDIRECT);
        assert!(f.valid_frame(&c));
        // ... pop %r10; pop %rbp; lea -0x8(%r10),%rsp
        let mut all = bytes.to_vec();
        all.extend([0x41, 0x5a, 0x5d, 0x49, 0x8d, 0x62, 0xf8]);
        let (f, c) = run(&X86, &all);
        assert_eq!(f.modified(&c), None, "{}", f.describe(&c));
    }

    #[test]
    fn arm64_frame_record() {
        let words = |w: &[u32]| w.iter().flat_map(|w| w.to_le_bytes()).collect::<Vec<u8>>();
        // stp x29, x30, [sp, #-32]!; mov x29, sp; str x19, [sp, #16]; bl
        let (f, c) = run(
            &Arm64,
            &words(&[0xa9be7bfd, 0x910003fd, 0xf9000bf3, 0x94000000]),
        );
        assert_eq!(c.cfa, Loc::new(29, 32));
        assert!(f.valid_frame(&c));
        assert_eq!(
            f.describe(&c),
            "cfa=x29+32 x19=cfa-16 x29=cfa-32 x30=cfa-24"
        );
        // ... ldr x19, [sp, #16]; ldp x29, x30, [sp], #32
        let (f, c) = run(
            &Arm64,
            &words(&[
                0xa9be7bfd, 0x910003fd, 0xf9000bf3, 0x94000000, 0xf9400bf3, 0xa8c27bfd,
            ]),
        );
        assert_eq!(f.modified(&c), None, "{}", f.describe(&c));
        // sub sp, sp, #48; stp x29, x30, [sp, #32]; add x29, sp, #32
        let (f, c) = run(&Arm64, &words(&[0xd100c3ff, 0xa9027bfd, 0x910083fd]));
        assert_eq!(c.cfa, Loc::new(29, 16));
        assert!(f.valid_frame(&c), "{}", f.describe(&c));
        // A call with x30 never saved loses the return address.
        let (f, c) = run(&Arm64, &words(&[0x94000000]));
        assert_eq!(f.modified(&c), Some(Modified::Register(f.ra_slot())));
        // A frame record set up and dropped without reloading x29: x29 was
        // written (mov x29, sp) and is lost.
        let (f, c) = run(&Arm64, &words(&[0xa9bf7bfd, 0x910003fd, 0x910043ff]));
        assert_eq!(f.modified(&c), Some(Modified::Cfa));
        // ... and the same with sp moved back through x29 first.
        let (f, c) = run(
            &Arm64,
            &words(&[0xa9bf7bfd, 0x910003fd, 0x910003bf, 0x910043ff]),
        );
        assert!(f.modified(&c).is_some(), "{}", f.describe(&c));
        // OpenSSL's epilogue without calls: ldr x29, [x29]; add sp, sp, #16
        // (x30 never written, so it needs no reload).
        let (f, c) = run(
            &Arm64,
            &words(&[0xa9bf7bfd, 0x910003fd, 0xf94003bd, 0x910043ff]),
        );
        assert_eq!(f.modified(&c), None, "{}", f.describe(&c));
    }
}
