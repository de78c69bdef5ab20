//! Thunks: symbols the rules give a meaning beyond a plain call or jump
//! (return and retpoline thunks, frame-exempt calls), thunk-shaped stubs,
//! and the speculation barriers after them.

use super::{Dest, Model, SectionCode};
use crate::arch::Kind;
use crate::elf::Object;
use crate::rules::Rules;

/// A jump to this symbol is a return.
const SYM_RETURN_THUNK: u8 = 1;
/// A call or jump to this symbol is an indirect one (a retpoline).
const SYM_INDIRECT_THUNK: u8 = 2;
/// A call to this symbol is made before the frame is set up by design.
const SYM_FRAME_EXEMPT: u8 = 4;
/// Per function (never per symbol): its section is decoded and no
/// instruction starts where it does.
const FN_START_UNDECODED: u8 = 8;

/// Per function, its symbol's `SYM_` flags and [`FN_START_UNDECODED`]:
/// what a walk asks of every call's callee, in one byte a function (the
/// function's entry and its symbol's flags are two misses apart on
/// vmlinux.o's 40 K functions).
pub(super) fn function_flags(
    functions: &[super::Function],
    sym_flags: &[u8],
    code: &[Option<Box<SectionCode>>],
) -> Vec<u8> {
    functions
        .iter()
        .map(|f| {
            let undecoded = code
                .get(f.section)
                .and_then(|c| c.as_ref())
                .is_some_and(|c| c.index_at(f.start).is_none());
            sym_flags.get(f.sym).copied().unwrap_or(0)
                | if undecoded { FN_START_UNDECODED } else { 0 }
        })
        .collect()
}

/// Per symbol, its `SYM_` flags from the rules; and the functions named
/// like the retpoline thunks compilers emit (`compiler_thunks`), found in
/// the same pass over the names (a separate one cost vmlinux.o 3.5 ms on
/// one thread, 140 K names read from memory again).
pub(super) fn symbol_flags(obj: &Object, rules: &Rules) -> (Vec<u8>, Vec<usize>) {
    let named = crate::rules::NameFlags::new(&[
        (rules.return_thunks(obj.machine), SYM_RETURN_THUNK),
        (rules.indirect_thunks(obj.machine), SYM_INDIRECT_THUNK),
        (rules.frame_exempt_calls(obj.machine), SYM_FRAME_EXEMPT),
    ]);
    let prefixes = rules.special.compiler_thunks.get(obj.machine);
    let mut compiler_thunks = Vec::new();
    let flags = obj
        .symbols
        .iter()
        .map(|s| {
            if s.index == 0 || s.name.is_empty() {
                return 0;
            }
            if s.st_type == crate::elf::STT_FUNC
                && prefixes.iter().any(|p| s.name.starts_with(p.as_str()))
            {
                compiler_thunks.push(s.index);
            }
            named.get(&s.name)
        })
        .collect();
    (flags, compiler_thunks)
}

impl<'a> Model<'a> {
    /// Whether a jump to `dest` is a return (a return thunk, undefined or
    /// defined in this object).
    pub fn is_return_thunk(&self, dest: Dest) -> bool {
        self.flagged_sym(dest)
            .is_some_and(|s| self.is_return_thunk_sym(s))
    }

    /// Whether a jump to this symbol is a return (a return thunk).
    pub fn is_return_thunk_sym(&self, sym: usize) -> bool {
        self.sym_flags
            .get(sym)
            .is_some_and(|f| f & SYM_RETURN_THUNK != 0)
    }

    /// Whether any symbol is a retpoline thunk (jumps through one may
    /// dispatch a switch).
    pub(super) fn has_indirect_thunks(&self) -> bool {
        self.sym_flags.iter().any(|f| f & SYM_INDIRECT_THUNK != 0)
    }

    /// Whether a branch to `dest` goes through a retpoline thunk, defined
    /// here or not: an indirect call or jump.
    pub fn is_indirect_thunk(&self, dest: Dest) -> bool {
        self.flagged_sym(dest)
            .is_some_and(|s| self.is_indirect_thunk_sym(s))
    }

    /// [`Model::dest_sym`] where that symbol has a flag: a place in this
    /// object is looked up among the flagged symbols defined there only
    /// (the symbol of a function starting there has none unless it is one
    /// of them), and not at all when none is defined (a module's thunks are
    /// undefined): every jump asks.
    #[inline]
    fn flagged_sym(&self, dest: Dest) -> Option<usize> {
        match dest {
            Dest::Local { section, offset } => {
                if self.flagged_at.is_empty() {
                    return None;
                }
                self.flagged_at.get(&(section, offset)).copied()
            }
            _ => self.dest_sym(dest),
        }
    }

    /// Whether a call to this symbol is an indirect call (a retpoline thunk).
    pub fn is_indirect_thunk_sym(&self, sym: usize) -> bool {
        self.sym_flags
            .get(sym)
            .is_some_and(|f| f & SYM_INDIRECT_THUNK != 0)
    }

    /// Whether a call to function `i` is an indirect call (its symbol is a
    /// retpoline thunk): [`Model::is_indirect_thunk_sym`] of its symbol.
    #[inline]
    pub fn is_indirect_thunk_fn(&self, i: usize) -> bool {
        self.fn_flags[i] & SYM_INDIRECT_THUNK != 0
    }

    /// Whether a call to function `i` does not count as one made with a
    /// frame or without: its symbol is frame-exempt
    /// ([`Model::is_frame_exempt_sym`]), or its section is decoded and no
    /// instruction starts where it does.
    #[inline]
    pub fn is_special_callee_fn(&self, i: usize) -> bool {
        self.fn_flags[i] & (SYM_FRAME_EXEMPT | FN_START_UNDECODED) != 0
    }

    /// Whether a call to this symbol is made before a frame is set up by
    /// design (`__fentry__`).
    pub fn is_frame_exempt_sym(&self, sym: usize) -> bool {
        self.sym_flags
            .get(sym)
            .is_some_and(|f| f & SYM_FRAME_EXEMPT != 0)
    }

    /// Whether a speculation barrier follows instruction `i` of section
    /// `sec` (x86 `int3`; arm64 `sb`, or `dsb sy`/`dsb nsh` then `isb`).
    pub fn barrier_after(&self, sec: usize, i: usize) -> bool {
        use crate::arch::Barrier;
        let Some(code) = self.section_code(sec) else {
            return false;
        };
        let data = self.obj.section_data(sec);
        let at = |k: usize| -> Option<Barrier> {
            let ins = code.insns.get(k)?;
            self.dec
                .speculation_barrier(data.get(ins.offset() as usize..)?)
        };
        match at(i + 1) {
            Some(Barrier::Complete) => true,
            Some(Barrier::NeedsIsb) => at(i + 2) == Some(Barrier::Isb),
            _ => false,
        }
    }

    /// Whether the code at a place is an indirect-call thunk of
    /// straight-line-speculation hardening (arm64 `-mharden-sls=blr`: `mov
    /// x16, xN; br x16` and a barrier, which GCC places inside the calling
    /// function and LLVM in `__llvm_slsblr_thunk_xN`): a call to it is an
    /// indirect call. Where calls leave the return address in a register
    /// (arm64), one inside a function (no symbol of its own: GCC's) is one
    /// by its shape alone, so a missing barrier after it is an `sls` finding
    /// and not a call into the function's body. (x86 keeps such a call an
    /// intra-function call, as objtool does.)
    pub fn is_call_thunk(&self, section: usize, offset: u64) -> bool {
        let Some(code) = self.section_code(section) else {
            return false;
        };
        code.index_at(offset)
            .and_then(|k| thunk_jump(code, k))
            .is_some_and(|jump| {
                self.sls_hardened(section, jump)
                    || (matches!(self.dec.frame().ra, crate::arch::RaHome::Reg(_))
                        && self.function_at_start(section, offset).is_none()
                        && self.function_containing(section, offset).is_some())
            })
    }

    /// Whether straight-line speculation past the return or indirect jump
    /// at `i` stops at a barrier: one follows it, or (GCC's stubs of
    /// `-mharden-sls=blr`, one per register, emitted together after a
    /// function with one barrier after the last) it runs only through
    /// further `mov x16, xN; br x16` stubs to one.
    pub fn sls_hardened(&self, sec: usize, i: usize) -> bool {
        let Some(code) = self.section_code(sec) else {
            return false;
        };
        let mut jump = i;
        // At most one stub per register.
        for _ in 0..32 {
            if self.barrier_after(sec, jump) {
                return true;
            }
            match thunk_jump(code, jump + 1) {
                Some(next)
                    if next == jump + 2 && jump > 0 && thunk_jump(code, jump - 1) == Some(jump) =>
                {
                    jump = next
                }
                _ => return false,
            }
        }
        false
    }
}

/// The indirect jump of a thunk-shaped stub at `k`: a bare indirect jump, or
/// one instruction and then the jump (`mov x16, xN; br x16`).
fn thunk_jump(code: &SectionCode, k: usize) -> Option<usize> {
    match code.insns.get(k)?.kind {
        Kind::IndirectJump => Some(k),
        Kind::Other
            if code
                .insns
                .get(k + 1)
                .is_some_and(|n| n.kind == Kind::IndirectJump) =>
        {
            Some(k + 1)
        }
        _ => None,
    }
}
