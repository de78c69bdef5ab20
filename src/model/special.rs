//! The kernel's tables of places in code, turned into what the state walker
//! follows: exception fixups (`__ex_table`; in user space, the landing pads
//! of `.gcc_except_table`), jump labels (`__jump_table`),
//! traps execution resumes after (`__bug_table` WARN entries,
//! `.discard.reachable`), unwind hints, intra-function calls and
//! functions whose stack is not standard (objtool's `.discard.*`).
//!
//! Linked modules lost the `.discard.*` sections; the other tables survive.

use super::SectionCode;
use super::alternatives::Alternatives;
use crate::arch::{Insn, Kind};
use crate::elf::Object;
use crate::elf::special_sections::{RefEntry, RefTable};
use crate::rules::SpecialRules;
use rustc_hash::FxHashMap;

/// A place in code: (section, offset).
pub type At = (usize, u64);

/// An objtool unwind hint (`UNWIND_HINT_*`), as written in the object.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Hint {
    /// The CFA base register, in objlint's ORC numbering (`ORC_REG_*`).
    pub sp_reg: u8,
    pub sp_offset: i16,
    /// `UNWIND_HINT_TYPE_*`.
    pub ty: u8,
    pub signal: bool,
}

/// Hint types as Linux 6.4 and later number them (include/linux/objtool_types.h),
/// the numbering the model uses; [`Hint::from_before_6_4`] reads the older one.
impl Hint {
    pub const UNDEFINED: u8 = 0;
    pub const END_OF_STACK: u8 = 1;
    pub const CALL: u8 = 2;
    pub const REGS: u8 = 3;
    pub const REGS_PARTIAL: u8 = 4;
    pub const FUNC: u8 = 5;
    pub const SAVE: u8 = 6;
    pub const RESTORE: u8 = 7;
    /// The type's name in `unwind_hints.h` (`UNWIND_HINT_TYPE_*`).
    pub fn type_name(&self) -> String {
        match self.ty {
            Hint::UNDEFINED => "UNDEFINED".into(),
            Hint::END_OF_STACK => "END_OF_STACK".into(),
            Hint::CALL => "CALL".into(),
            Hint::REGS => "REGS".into(),
            Hint::REGS_PARTIAL => "REGS_PARTIAL".into(),
            Hint::FUNC => "FUNC".into(),
            Hint::SAVE => "SAVE".into(),
            Hint::RESTORE => "RESTORE".into(),
            t => format!("type {t}"),
        }
    }

    /// `sp_reg` of a hint whose register the object's ORC numbering has not.
    pub const UNKNOWN_REG: u8 = 0xff;

    /// Whether a hint is one Linux 6.4 or later writes: UNDEFINED and
    /// END_OF_STACK name no register, CALL and REGS_PARTIAL one, REGS one
    /// with `signal` (UNWIND_HINT_REGS's default; only IRET_ENTRY, a partial
    /// one, clears it), FUNC is `sp+8`, SAVE and RESTORE name none.
    pub fn fits_since_6_4(&self) -> bool {
        match self.ty {
            Hint::UNDEFINED | Hint::END_OF_STACK => {
                self.sp_reg == 0 && self.sp_offset == 0 && !self.signal
            }
            Hint::CALL | Hint::REGS_PARTIAL => self.sp_reg != 0,
            Hint::REGS => self.sp_reg != 0 && self.signal,
            Hint::FUNC => self.is_func(),
            Hint::SAVE | Hint::RESTORE => self.sp_reg == 0,
            _ => false,
        }
    }

    fn is_func(&self) -> bool {
        self.sp_reg == crate::elf::orc::ORC_REG_SP && self.sp_offset == 8
    }

    /// A hint as Linux before 6.4 wrote it (CALL 0, REGS 1, REGS_PARTIAL 2,
    /// FUNC 3, ENTRY 4, SAVE 5, RESTORE 6; `signal`'s byte was `end`), in
    /// the newer numbering: a CALL with no register is UNDEFINED, or with
    /// `end` END_OF_STACK (UNWIND_HINT_EMPTY), as is ENTRY; REGS and
    /// REGS_PARTIAL were signal frames by their type. `None` for a hint that
    /// layout does not allow either.
    pub fn from_before_6_4(&self) -> Option<Hint> {
        let (end, none) = (self.signal, self.sp_reg == 0);
        let (ty, signal) = match self.ty {
            0 if none && end => (Hint::END_OF_STACK, false),
            0 if none => (Hint::UNDEFINED, false),
            0 if !end => (Hint::CALL, false),
            1 if !none && !end => (Hint::REGS, true),
            2 if !none && !end => (Hint::REGS_PARTIAL, true),
            3 if self.is_func() && !end => (Hint::FUNC, false),
            4 if none && end => (Hint::END_OF_STACK, false),
            5 if none && !end => (Hint::SAVE, false),
            6 if none && !end => (Hint::RESTORE, false),
            _ => return None,
        };
        Some(Hint {
            ty,
            signal,
            ..*self
        })
    }
}

/// What the tables say about one instruction.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Marks {
    /// Where a fault of this instruction resumes (`__ex_table`).
    pub fixups: Vec<At>,
    /// The jump target of a jump label at this instruction.
    pub jump_label: Option<At>,
    /// A trap (WARN()) or a call (`call_on_stack()`'s) execution continues
    /// after, whatever the callee.
    pub resumes: bool,
    pub hint: Option<Hint>,
    /// A call to a label of its own function, annotated as meant.
    pub intra_call: bool,
    /// Alternatives of this instruction are not followed
    /// (`.discard.ignore_alts`, Linux 6.12 and earlier).
    pub ignore_alts: bool,
    /// The version of an alternative this instruction begins (the original
    /// at the site, or a replacement) is not walked: ANNOTATE_IGNORE_ALTERNATIVE
    /// in `.discard.annotate_insn`, written inside the version it drops
    /// (objtool 7.x's `alt_group->ignore`; Linux 7.3's smap_save() drops
    /// its original, ASM_CLAC_UNSAFE its replacement).
    pub skip_version: bool,
    /// An indirect branch or bare return that needs no thunk or trap
    /// (`ANNOTATE_RETPOLINE_SAFE`, `ANNOTATE_UNRET_SAFE`).
    pub retpoline_safe: bool,
    /// An alternative site starts here (`.altinstructions`).
    pub alt_site: bool,
    /// Bytes of arguments this call pushed that the unwinder pops before
    /// entering its landing pad (`DW_CFA_GNU_args_size` in `.eh_frame`).
    pub pad_args: u32,
}

/// The tables of one object.
#[derive(Debug, Default)]
pub struct Special {
    marks: FxHashMap<At, Marks>,
    /// (section, instruction index) of each mark added, for
    /// [`Special::mark_insns`]: the instructions carry the one bit the walks
    /// ask first. (A bit set per section here cost a ThinLTO vmlinux.o 10 ms
    /// on one thread: each page of a calloc'd table read before written was
    /// mapped to the zero page, and its first write a copy-on-write fault
    /// whose TLB flush interrupts the other CPU.)
    marked: Vec<(usize, usize)>,
    /// Starts of functions marked STACK_FRAME_NON_STANDARD.
    pub non_standard: Vec<At>,
    /// Tables present but not read, with the reason.
    pub unread: Vec<String>,
    /// The object still has objtool's `.discard.*` annotations (an object
    /// straight from the compiler, not a linked module).
    pub annotated: bool,
    /// Entries naming places that are not instructions of this object:
    /// what they describe there is not followed.
    pub dangling: Vec<Dangling>,
}

/// A table entry whose place is no instruction of this object.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dangling {
    /// The entry: its table section and its offset there.
    pub entry: At,
    /// The place it names, when that is in this object.
    pub names: Option<At>,
    pub why: DanglingWhy,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DanglingWhy {
    /// Inside an instruction, data, or code not decoded.
    NoInstruction,
    /// A symbol of another object, or none.
    Elsewhere,
    /// An annotation naming the instruction after a trap where none
    /// precedes (`.discard.reachable`).
    NothingBefore,
    /// An alternative's replacement (`entry` is the site).
    Replacement,
    /// The end of an alternative's original (`entry` is the site).
    SiteEnd,
}

impl Dangling {
    fn new(entry: At, names: Option<At>) -> Dangling {
        Dangling {
            entry,
            names,
            why: match names {
                Some(_) => DanglingWhy::NoInstruction,
                None => DanglingWhy::Elsewhere,
            },
        }
    }
}

impl Special {
    /// The marks of `ins`, an instruction of section `sec` of the model
    /// (whose instructions [`Special::mark_insns`] marked).
    #[inline]
    pub fn at(&self, sec: usize, ins: &Insn) -> Option<&Marks> {
        if !ins.is_marked() {
            return None;
        }
        self.marks.get(&(sec, ins.offset()))
    }

    /// The marks of the instruction at `at`, looked up by place alone.
    pub fn get(&self, at: At) -> Option<&Marks> {
        self.marks.get(&at)
    }

    pub fn is_empty(&self) -> bool {
        self.marks.is_empty()
    }

    /// Flags the instructions with marks ([`Insn::set_marked`]): they are
    /// not straight-line code for the walks, and [`Special::at`] looks
    /// them up.
    pub fn mark_insns(&self, code: &mut [Option<Box<SectionCode>>]) {
        for &(sec, i) in &self.marked {
            if let Some(ins) = code
                .get_mut(sec)
                .and_then(Option::as_mut)
                .and_then(|c| c.insns.get_mut(i))
            {
                ins.set_marked();
            }
        }
    }

    /// Every instruction with an unwind hint, in address order.
    pub fn hints(&self) -> Vec<(At, Hint)> {
        let mut v: Vec<(At, Hint)> = self
            .marks
            .iter()
            .filter_map(|(&at, m)| m.hint.map(|h| (at, h)))
            .collect();
        v.sort_unstable_by_key(|e| e.0);
        v
    }

    pub fn build(
        obj: &Object,
        code: &[Option<Box<SectionCode>>],
        alts: &Alternatives,
        compiler_thunks: &[usize],
        rules: &SpecialRules,
        kernel: Option<crate::rules::KernelVersion>,
        orc: &Result<crate::elf::orc::OrcNumbering, String>,
    ) -> Special {
        let reads = Reads::new(obj, rules, kernel, orc);
        let mut sp = Special::default();
        let index = |at: At| -> Option<usize> { code.get(at.0)?.as_ref()?.index_at(at.1) };
        // Marks the instruction at `at`, named by the table entry `entry`;
        // an entry naming no instruction is kept to be reported.
        let add =
            |sp: &mut Special, entry: At, at: Option<At>, f: &mut dyn FnMut(&mut Marks)| match at
                .and_then(|a| Some((a, index(a)?)))
            {
                Some((a, i)) => {
                    f(sp.marks.entry(a).or_default());
                    sp.marked.push((a.0, i));
                }
                None => sp.dangling.push(Dangling::new(entry, at)),
            };
        let entry = |e: &RefEntry| (e.section, e.base);
        // A place a path goes on from (a fixup, a jump label's target, a
        // landing pad): when it is no instruction, the entry is kept to be
        // reported and nothing is marked.
        let code_target = |sp: &mut Special, entry: At, t: Option<At>| -> Option<At> {
            let code = t.filter(|&t| index(t).is_some());
            if code.is_none() {
                sp.dangling.push(Dangling::new(entry, t));
            }
            code
        };

        for t in reads.ex {
            sp.unread.extend(t.errors);
            for e in &t.entries {
                if let Some(fix) = code_target(&mut sp, entry(e), e.refs[1].local()) {
                    add(&mut sp, entry(e), e.refs[0].local(), &mut |m| {
                        m.fixups.push(fix)
                    });
                }
            }
        }

        // Sites the source annotated retpoline-safe that a kernel table still
        // lists after the link dropped `.discard.retpoline_safe`: a table's
        // layouts tried in order, the first that fits read.
        for (name, fit) in reads.safe_sites {
            match fit {
                Ok(table) => {
                    for e in &table.entries {
                        add(&mut sp, entry(e), e.refs[0].local(), &mut |m| {
                            m.retpoline_safe = true
                        });
                    }
                }
                Err(errors) => sp
                    .unread
                    .push(format!("{name}: fits no layout ({})", errors.join("; "))),
            }
        }

        // Exception landing pads (.gcc_except_table): a call in a
        // call-site range that throws continues at its landing pad, with
        // the stack as at the call. User-space C built with -fexceptions
        // (glibc's cancellation cleanups) and C++; never in the kernel.
        // Reported against the LSDA table, which says where a pad is.
        let lsda = obj
            .sections_named(".gcc_except_table")
            .first()
            .map(|&s| (s, 0));
        // The object's CFI, read when first needed (landing pads' argument
        // sizes, compiler thunks below).
        let mut cfi: Option<crate::elf::cfi::CfiTables> = None;
        let read_cfi = || {
            let abi = crate::arch::decoder(obj.machine).frame();
            obj.cfi_tables(abi.dwarf_ra, abi.dwarf[abi.fp as usize])
        };
        for lp in obj.landing_pads() {
            let Some(c) = code.get(lp.section).and_then(Option::as_ref) else {
                continue;
            };
            for &(start, len, pad) in &lp.sites {
                let lo = lp.start.saturating_add(start);
                let to = (lp.section, lp.start.saturating_add(pad));
                for i in c.lower_bound(lo)..c.lower_bound(lo.saturating_add(len)) {
                    if matches!(c.insns[i].kind, Kind::Call | Kind::IndirectCall) {
                        let at = (lp.section, c.insns[i].offset());
                        let args = cfi
                            .get_or_insert_with(read_cfi)
                            .at(at.0, at.1)
                            .map_or(0, |r| u32::try_from(r.args_size).unwrap_or(0));
                        if let Some(to) = code_target(&mut sp, lsda.unwrap_or(at), Some(to)) {
                            add(&mut sp, at, Some(at), &mut |m| {
                                m.fixups.push(to);
                                m.pad_args = args;
                            });
                        }
                    }
                }
            }
        }

        let t = reads.jump;
        sp.unread.extend(t.errors);
        for e in &t.entries {
            if let Some(target) = code_target(&mut sp, entry(e), e.refs[1].local()) {
                add(&mut sp, entry(e), e.refs[0].local(), &mut |m| {
                    m.jump_label = Some(target)
                });
            }
        }

        // The first layout that fits every __bug_table section.
        let bug = rules.bug_table.get(obj.machine);
        if let Some(fit) = reads.bug {
            match fit {
                Ok((l, t)) => {
                    for e in &t.entries {
                        let flags = obj.table_u16(e.section, e.base + l.flags);
                        if flags & l.warning != 0 {
                            add(&mut sp, entry(e), e.refs[0].local(), &mut |m| {
                                m.resumes = true
                            });
                        }
                    }
                }
                Err(_) => sp.unread.push(format!(
                    "{}: fits no struct bug_entry layout{}",
                    bug[0].section,
                    kernel.map_or(String::new(), |k| format!(" of Linux {k}"))
                )),
            }
        }

        let (t, hints) = reads.hints;
        sp.unread.extend(t.errors);
        match hints {
            Ok(hints) => {
                for (e, &hint) in t.entries.iter().zip(&hints) {
                    add(&mut sp, entry(e), e.refs[0].local(), &mut |m| {
                        m.hint = Some(hint)
                    });
                }
            }
            Err(e) => sp.unread.push(e),
        }

        // 6.12: the instruction after the trap (or the section's end).
        for (e, at) in reads.reachable {
            let Some((s, off)) = at else {
                sp.dangling.push(Dangling::new(e, None));
                continue;
            };
            let prev = code.get(s).and_then(Option::as_ref).and_then(|c| {
                c.lower_bound(off)
                    .checked_sub(1)
                    .map(|i| c.insns[i].offset())
            });
            match prev {
                Some(p) => add(&mut sp, e, Some((s, p)), &mut |m| m.resumes = true),
                None => sp.dangling.push(Dangling {
                    entry: e,
                    names: at,
                    why: DanglingWhy::NothingBefore,
                }),
            }
        }
        for (e, at) in reads.intra_function_calls {
            add(&mut sp, e, at, &mut |m| m.intra_call = true);
        }
        for (e, at) in reads.ignore_alts {
            add(&mut sp, e, at, &mut |m| m.ignore_alts = true);
        }
        for (e, at) in reads.retpoline_safe {
            add(&mut sp, e, at, &mut |m| m.retpoline_safe = true);
        }
        sp.non_standard = reads
            .non_standard
            .into_iter()
            .filter_map(|(e, at)| {
                if at.is_none() {
                    sp.dangling.push(Dangling::new(e, None));
                }
                at
            })
            .collect();
        let ty = &rules.annotations.typed;
        for (kind, e, at) in reads.typed {
            if kind == ty.reachable {
                add(&mut sp, e, at, &mut |m| m.resumes = true);
            } else if kind == ty.intra_function_call {
                add(&mut sp, e, at, &mut |m| m.intra_call = true);
            } else if kind == ty.ignore_alts {
                add(&mut sp, e, at, &mut |m| m.skip_version = true);
            } else if kind == ty.retpoline_safe {
                add(&mut sp, e, at, &mut |m| m.retpoline_safe = true);
            }
        }
        // The retpoline thunks compilers emit (`call 1f; <trap>; 1: mov
        // %reg,(%rsp); ret`) lack the annotations Linux's own carry: the
        // call is meant, and after it and at its target the stack is the
        // entry's (ANNOTATE_INTRA_FUNCTION_CALL, UNWIND_HINT_FUNC).
        // Where the object's own CFI covers a thunk, it says the truth there
        // (the call's push stays on the stack to the `ret`), which the
        // hints do not: such thunks are left as they are.
        if !compiler_thunks.is_empty() {
            let func = Hint {
                sp_reg: crate::elf::orc::ORC_REG_SP,
                sp_offset: 8,
                ty: Hint::FUNC,
                signal: false,
            };
            for s in compiler_thunks.iter().map(|&k| &obj.symbols[k]) {
                let Some(sec) = s.section_index() else {
                    continue;
                };
                let Some(c) = code.get(sec).and_then(Option::as_ref) else {
                    continue;
                };
                let Some(ins) = c.index_at(s.value).map(|i| &c.insns[i]) else {
                    continue;
                };
                // gcc's have no size: their section is theirs alone.
                let end = match s.size {
                    0 => obj.sections[sec].size,
                    n => s.value.saturating_add(n),
                };
                let Some(to) = ins
                    .imm_target()
                    .filter(|&t| ins.kind == Kind::Call && t > ins.offset() && t < end)
                else {
                    continue;
                };
                let call = (sec, ins.offset());
                if sp.get(call).is_some_and(|m| m.intra_call) {
                    continue;
                }
                let t = cfi.get_or_insert_with(read_cfi);
                if t.at(sec, s.value).is_some() {
                    continue;
                }
                add(&mut sp, call, Some(call), &mut |m| m.intra_call = true);
                for at in [(sec, ins.end()), (sec, to)] {
                    add(&mut sp, call, Some(at), &mut |m| {
                        m.hint.get_or_insert(func);
                    });
                }
            }
        }
        for site in &alts.sites {
            let at = (site.section, site.start);
            add(&mut sp, at, Some(at), &mut |m| m.alt_site = true);
            // Paths go on after the site: its end must be code (or the
            // section's end).
            let end = (site.section, site.end);
            let sec_end = obj.sections.get(site.section).map_or(0, |s| s.size);
            if site.end < sec_end && index(end).is_none() {
                sp.dangling.push(Dangling {
                    entry: at,
                    names: Some(end),
                    why: DanglingWhy::SiteEnd,
                });
            }
            // Each replacement is a path from the site: it must start at code.
            for r in site.repls.iter().filter(|r| r.start < r.end) {
                let start = (r.section, r.start);
                if index(start).is_none() {
                    sp.dangling.push(Dangling {
                        entry: at,
                        names: Some(start),
                        why: DanglingWhy::Replacement,
                    });
                }
            }
        }
        sp.dangling
            .extend(alts.dangling.iter().map(|&e| Dangling::new(e, None)));
        sp.annotated = obj.sections.iter().any(|s| s.name.starts_with(".discard."));
        sp.non_standard.sort_unstable();
        sp
    }
}

/// The first of a table's layouts whose read has no error (struct bug_entry's
/// variants, struct paravirt_patch_site's), with what it read; or every
/// layout's errors.
fn first_fitting<'l, L: 'l>(
    layouts: impl IntoIterator<Item = &'l L>,
    read: impl Fn(&L) -> RefTable,
) -> Result<(&'l L, RefTable), Vec<String>> {
    let mut errors = Vec::new();
    for l in layouts {
        let t = read(l);
        if t.errors.is_empty() {
            return Ok((l, t));
        }
        errors.extend(t.errors);
    }
    Err(errors)
}

/// What the tables say, read before any is applied: the reads are most of
/// the build's time and independent of each other (vmlinux.o: 14 ms on one
/// thread, the others idle); applying them stays in one order.
struct Reads<'r> {
    ex: Vec<RefTable>,
    /// Per table name: the first layout's entries that fit, or every
    /// layout's errors.
    safe_sites: Vec<(&'r str, Result<RefTable, Vec<String>>)>,
    jump: RefTable,
    /// When the object has the table.
    bug: Option<Result<(&'r crate::rules::BugTableLayout, RefTable), Vec<String>>>,
    hints: (RefTable, Result<Vec<Hint>, String>),
    /// (the entry, the place it names) of each relocation of a list.
    reachable: Vec<(At, Option<At>)>,
    intra_function_calls: Vec<(At, Option<At>)>,
    ignore_alts: Vec<(At, Option<At>)>,
    retpoline_safe: Vec<(At, Option<At>)>,
    non_standard: Vec<(At, Option<At>)>,
    /// `.discard.annotate_insn`: (kind, entry, place).
    typed: Vec<(u32, At, Option<At>)>,
}

impl<'r> Reads<'r> {
    fn new(
        obj: &Object,
        rules: &'r SpecialRules,
        kernel: Option<crate::rules::KernelVersion>,
        orc: &Result<crate::elf::orc::OrcNumbering, String>,
    ) -> Reads<'r> {
        let list = |name: &str| -> Vec<(At, Option<At>)> {
            let mut v = Vec::new();
            for &s in obj.sections_named(name) {
                for r in obj.relocs(s) {
                    let at = obj.resolve(r.sym(), obj.addend(r)).local();
                    v.push(((s, r.offset()), at));
                }
            }
            v
        };
        let tables = || {
            let ex = rules
                .ex_table
                .get(obj.machine)
                .iter()
                .map(|ex| obj.ref_table(&ex.section, ex.size, &[ex.insn, ex.fixup], false))
                .collect();
            let safe = rules.retpoline_safe_sites.get(obj.machine);
            let mut names: Vec<&str> = safe.iter().map(|t| t.section.as_str()).collect();
            names.dedup();
            let safe_sites = names
                .into_iter()
                .map(|name| {
                    let layouts = safe.iter().filter(|t| t.section == name);
                    let fit = first_fitting(layouts, |t| {
                        obj.ref_table(&t.section, t.size, &[t.insn], true)
                    });
                    (name, fit.map(|(_, t)| t))
                })
                .collect();
            let jl = &rules.jump_table;
            let jump = obj.ref_table(&jl.section, jl.size, &[jl.code, jl.target], false);
            (ex, safe_sites, jump)
        };
        let bug = || {
            let bug = rules.bug_table.get(obj.machine);
            let sections = obj.sections_named(bug.first().map_or("", |l| &l.section));
            (!sections.is_empty()).then(|| {
                first_fitting(bug.iter().filter(|l| l.fits_kernel(kernel)), |l| {
                    let mut refs = vec![l.addr];
                    refs.extend(l.format);
                    refs.extend(l.file);
                    obj.ref_table(&l.section, l.size, &refs, true)
                })
            })
        };
        let hints = || {
            let h = &rules.unwind_hints;
            let t = obj.ref_table(&h.section, h.size, &[h.ip], false);
            // As written: the byte at `signal` was `end` before Linux 6.4;
            // the register in the object's ORC numbering, read into objlint's.
            let hints: Result<Vec<Hint>, String> = match orc {
                _ if t.entries.is_empty() => Ok(Vec::new()),
                Err(e) => Err(format!("{}: {e}", h.section)),
                Ok(orc) => {
                    let raw: Vec<Hint> = t
                        .entries
                        .iter()
                        .map(|e| Hint {
                            sp_reg: orc
                                .ours(obj.table_u8(e.section, e.base + h.sp_reg))
                                .unwrap_or(Hint::UNKNOWN_REG),
                            sp_offset: obj.table_u16(e.section, e.base + h.sp_offset) as i16,
                            ty: obj.table_u8(e.section, e.base + h.ty),
                            signal: obj.table_u8(e.section, e.base + h.signal) != 0,
                        })
                        .collect();
                    if raw.iter().all(Hint::fits_since_6_4) {
                        Ok(raw)
                    } else {
                        raw.iter().map(Hint::from_before_6_4).collect::<Option<_>>().ok_or_else(|| {
                            format!(
                                "{}: fits neither numbering of unwind hint types (Linux 6.4 and later, or before)",
                                h.section
                            )
                        })
                    }
                }
            };
            (t, hints)
        };
        let a = &rules.annotations;
        let lists = || {
            (
                list(&a.reachable),
                list(&a.intra_function_calls),
                list(&a.ignore_alts),
                list(&a.retpoline_safe),
                list(&a.non_standard),
            )
        };
        let typed = || {
            let ty = &a.typed;
            let mut v = Vec::new();
            for &s in obj.sections_named(&ty.section) {
                let data = obj.section_data(s);
                for r in obj.relocs(s) {
                    let kind = data
                        .get(r.offset() as usize + 4..r.offset() as usize + 8)
                        .map(|b| u32::from_le_bytes(b.try_into().unwrap()));
                    let Some(kind) = kind.filter(|_| r.offset() % ty.size == 0) else {
                        continue;
                    };
                    v.push((
                        kind,
                        (s, r.offset()),
                        obj.resolve(r.sym(), obj.addend(r)).local(),
                    ));
                }
            }
            v
        };
        let (((ex, safe_sites, jump), bug), ((hints, lists), typed)) = rayon::join(
            || rayon::join(tables, bug),
            || rayon::join(|| (hints(), lists()), typed),
        );
        let (reachable, intra_function_calls, ignore_alts, retpoline_safe, non_standard) = lists;
        Reads {
            ex,
            safe_sites,
            jump,
            bug,
            hints,
            reachable,
            intra_function_calls,
            ignore_alts,
            retpoline_safe,
            non_standard,
            typed,
        }
    }
}
