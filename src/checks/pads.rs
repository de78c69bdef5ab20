//! Landing-pad logic, not a rule: what `ibt-missing-endbr`,
//! `bti-missing-landing-pad`, `gnu-property` and `objlint stats` share —
//! whether an object is built with landing pads, and which pad a
//! reference's target needs.

use super::{Ctx, Finding};
use crate::arch::Pad;
use crate::config::Options;
use crate::elf::{Machine, STT_FILE, STT_SECTION, SymSection};
use crate::model::Model;
use crate::model::address_taken::{AddressTaken, CodeRef, MemberRef, pad_at};

/// `GNU_PROPERTY_X86_FEATURE_1_IBT` / `GNU_PROPERTY_AARCH64_FEATURE_1_BTI`.
pub const FEATURE_BRANCH: u32 = 1;
/// `GNU_PROPERTY_X86_FEATURE_1_SHSTK` / `GNU_PROPERTY_AARCH64_FEATURE_1_PAC`.
pub const FEATURE_RETURN: u32 = 2;
/// `GNU_PROPERTY_AARCH64_FEATURE_1_GCS` (arm64's Guarded Control Stack).
pub const FEATURE_GCS: u32 = 4;

/// The feature bits of `.note.gnu.property` a link ANDs, with their names,
/// per architecture (binutils reports objects that lack them with `-z
/// cet-report`, `-z bti-report`, `-z gcs-report`).
pub fn feature_names(machine: Machine) -> &'static [(u32, &'static str)] {
    match machine {
        Machine::X86_64 => &[(FEATURE_BRANCH, "IBT"), (FEATURE_RETURN, "SHSTK")],
        Machine::Aarch64 => &[
            (FEATURE_BRANCH, "BTI"),
            (FEATURE_RETURN, "PAC"),
            (FEATURE_GCS, "GCS"),
        ],
    }
}

/// The pad that makes an entry a landing pad for indirect calls on this
/// machine, as compilers place it (ENDBR64; `BTI c`/`BTI jc`). PACIASP counts
/// as a pad but not as evidence of a BTI build: pac-ret alone emits it.
fn is_entry_pad(machine: Machine, p: Pad) -> bool {
    match machine {
        Machine::X86_64 => p == Pad::Endbr64,
        Machine::Aarch64 => matches!(p, Pad::BtiC | Pad::BtiJc),
    }
}

/// (functions whose first instruction is a landing pad, functions).
pub fn entry_pad_share(m: &Model) -> (usize, usize) {
    let mut with = 0;
    let mut total = 0;
    for f in m.functions.iter().filter(|f| !f.prefix) {
        total += 1;
        if pad_at(m, f.section, f.start).is_some_and(|p| is_entry_pad(m.obj.machine, p)) {
            with += 1;
        }
    }
    (with, total)
}

/// Whether the object is built with IBT/BTI: the command line or config
/// decides, else the `.note.gnu.property` claim, else a pad at the entry of
/// most functions.
pub fn enforced(m: &Model, opts: &Options) -> bool {
    if let Some(on) = opts.ibt {
        return on;
    }
    if m.obj
        .gnu_property_features()
        .is_some_and(|f| f & FEATURE_BRANCH != 0)
    {
        return true;
    }
    let (with, total) = entry_pad_share(m);
    total > 0 && with * 2 > total
}

/// Whether the pad at a reference's target (if any) is one an indirect
/// branch may land on. An entry is reached by indirect calls; another place
/// (a label taken with `adr`, a jump-table target) by either kind.
pub fn pad_ok(m: &Model, r: &CodeRef) -> bool {
    // A switch-table target is reached by `br xN` (N not x16/x17): only a
    // jump pad takes it.
    if r.jump().is_some() {
        return pad_at(m, r.to_section(), r.to_offset()).is_some_and(|p| p.accepts_jump());
    }
    // An address code computes (`adr`, `adrp`+`add`) may be for a `br`: an
    // entry whose only pad is `bti j` was written to be jumped to (the BPF
    // JIT's `dummy_tramp`, entered by `br x10`). A pointer in data is for
    // calls, and such an entry still needs a call pad.
    if r.insn().is_some()
        && m.obj.machine == Machine::Aarch64
        && pad_at(m, r.to_section(), r.to_offset()).is_some_and(|p| p.accepts_jump())
    {
        return true;
    }
    pointer_target_ok(m, r.to_section(), r.to_offset())
}

/// `sym+0xoff` for a place, as objtool prints it: the function containing
/// it, else a sized routine of hand-written code (`STT_NOTYPE`) containing
/// it, else a symbol defined there, else the section.
pub fn place_str(m: &Model, section: usize, offset: u64) -> String {
    if let Some(i) = m.function_containing(section, offset) {
        let f = &m.functions[i];
        return format!("{}+{:#x}", f.name, offset - f.start);
    }
    if let Some(k) = m.code_symbol_containing(section, offset) {
        let s = &m.obj.symbols[k];
        return format!("{}+{:#x}", s.name, offset - s.value);
    }
    if let Some((name, off)) = data_symbol(m, section, offset) {
        return format!("{name}+{off:#x}");
    }
    // A label without a size that starts there (hand-written assembly).
    if let Some(s) = m.obj.symbols.iter().find(|s| {
        s.section == SymSection::Section(section)
            && s.value == offset
            && s.size == 0
            && s.st_type != STT_SECTION
            && s.st_type != STT_FILE
            && !s.name.is_empty()
            && !s.is_assembler_local()
    }) {
        return format!("{}+0x0", s.name);
    }
    format!("{}+{:#x}", m.obj.section_name(section), offset)
}

/// The named symbol covering a place outside functions (objtool's choice too).
pub fn data_symbol(m: &Model, section: usize, offset: u64) -> Option<(String, u64)> {
    m.obj
        .symbols
        .iter()
        .filter(|s| {
            s.section == SymSection::Section(section)
                && s.st_type != STT_SECTION
                && s.st_type != STT_FILE
                && !s.name.is_empty()
                && !s.name.starts_with('$')
                && s.value <= offset
                && offset < s.value.saturating_add(s.size)
        })
        .max_by_key(|s| s.value)
        .map(|s| (s.name.to_string(), offset - s.value))
}

const JUMP_NOTE: &str = "the `br` of a switch reaches this case through its jump table; with BTI it faults unless the case starts with `bti j` (compilers emit it under -mbranch-protection=bti)";

/// Whether the object's checks will read its address-taking references:
/// the pad rules on a branch-tracking object, `gnu-property` on one with
/// the property note.
pub fn reads_address_taken(cx: &Ctx) -> bool {
    let m = cx.model;
    m.obj.gnu_property_features().is_some() || enforced(m, cx.opts)
}

/// The finding for a reference whose target lacks a landing pad.
/// The shared body of `ibt-missing-endbr` and `bti-missing-landing-pad`:
/// on objects of `machine` built with branch tracking, a finding for every
/// address-taking reference whose target has no fitting pad.
pub fn check_pads(
    cx: &Ctx,
    rule: &'static str,
    machine: Machine,
    pad: &str,
    note: &str,
    out: &mut Vec<Finding>,
) {
    let m = cx.model;
    if m.obj.machine != machine || !enforced(m, cx.opts) {
        return;
    }
    let at = m.address_taken(&cx.rules.landing_pads);
    for r in at.needing_pad() {
        if !pad_ok(m, r) {
            let mut fd = missing_pad(cx, rule, pad, r);
            if r.jump().is_some() {
                fd.notes.push(JUMP_NOTE.into());
            } else {
                fd.notes.push(note.into());
            }
            out.push(fd);
        }
    }
    for r in unpadded_member_refs(m, at) {
        let (section, place) = (r.section, r.offset);
        // objtool's `func+0xoff`, `+0x0` at an entry.
        let target = place_str(m, section, place);
        let entry = m.function_at_start(section, place).is_some();
        let more = match (r.count, r.members) {
            (1, _) => String::new(),
            (n, 1) => format!(" (and {} more there)", n - 1),
            (n, k) => format!(" (and {} more in {} members)", n - 1, k),
        };
        let mut fd = cx.finding(
            rule,
            section,
            place,
            format!(
                "relocation to !{pad}: {target} from another member of the archive: {}{more}",
                r.first
            ),
        );
        let routine = !entry && m.code_symbol_starts_at(section, place);
        let (what, why) = if entry {
            (
                "the function",
                "the address of this global function, so an indirect call may land on it",
            )
        } else if routine {
            (
                "the routine",
                "the address of this global routine of hand-written code, so an indirect branch may land on it",
            )
        } else if m.function_containing(section, place).is_none() {
            (
                "the target",
                "an address in this code, so an indirect branch may land there",
            )
        } else {
            (
                "the target",
                "an address inside this global function, so an indirect branch may land there",
            )
        };
        fd.notes.extend(starts_with(m, what, section, place));
        fd.notes.push(format!(
            "the archive is checked as one link: another member takes {why}; {note}"
        ));
        out.push(fd);
    }
}

/// In an archive checked as a unit: the places in functions other members
/// take the address of, not exempt, where no indirect branch may land.
pub fn unpadded_member_refs<'t>(
    m: &'t Model,
    at: &'t AddressTaken,
) -> impl Iterator<Item = &'t MemberRef> {
    at.from_members
        .iter()
        .filter(|r| r.exempt.is_none() && !pointer_target_ok(m, r.section, r.offset))
}

/// Whether a pointer's target (not a switch table's) has a pad an indirect
/// branch may land on: one that takes a call, or on arm64 inside a function
/// also one that takes a jump.
fn pointer_target_ok(m: &Model, section: usize, offset: u64) -> bool {
    pad_at(m, section, offset).is_some_and(|p| {
        accepts_call(m.obj.machine, p)
            || (m.obj.machine == Machine::Aarch64
                && m.function_at_start(section, offset).is_none()
                && p.accepts_jump())
    })
}

/// Whether a pad at a function's entry takes an indirect call.
fn accepts_call(machine: Machine, p: Pad) -> bool {
    match machine {
        Machine::X86_64 => p == Pad::Endbr64,
        Machine::Aarch64 => p.accepts_call(),
    }
}

pub fn missing_pad(cx: &Ctx, rule: &'static str, pad: &str, r: &CodeRef) -> Finding {
    let m = cx.model;
    let target = place_str(m, r.to_section(), r.to_offset());
    let (section, at, message) = match (r.jump(), r.insn()) {
        // Reported at the `br`, which has a function and a source line.
        (Some(j), _) => (
            r.to_section(),
            j,
            format!(
                "jump-table target !{pad} J: {target} (entry at {})",
                place_str(m, r.from_section(), r.reloc_offset())
            ),
        ),
        (None, Some(i)) if r.relocated => (
            r.from_section(),
            i,
            format!("relocation to !{pad}: {target}"),
        ),
        // The assembler resolved it: no relocation to speak of.
        (None, Some(i)) => (
            r.from_section(),
            i,
            format!("reference to !{pad}: {target}"),
        ),
        (None, None) => (
            r.from_section(),
            r.reloc_offset(),
            format!("data relocation to !{pad}: {target}"),
        ),
    };
    let mut fd = cx.finding(rule, section, at, message);
    if fd.symbol.is_none()
        && let Some((name, off)) = data_symbol(m, section, at)
    {
        fd.symbol = Some(name);
        fd.symbol_offset = off;
    }
    let mut t = cx.target(r.to_section(), r.to_offset());
    if t.symbol.is_none()
        && let Some((name, off)) = data_symbol(m, r.to_section(), r.to_offset())
    {
        t.symbol = Some(name);
        t.symbol_offset = off;
    }
    fd.target = Some(t);
    fd.notes
        .extend(starts_with(m, "the target", r.to_section(), r.to_offset()));
    fd
}

/// "WHAT starts with `insn`", for the instruction at a place, if one starts there.
fn starts_with(m: &Model, what: &str, section: usize, offset: u64) -> Option<String> {
    let code = m.section_code(section)?;
    let k = code.index_at(offset)?;
    Some(format!(
        "{what} starts with `{}`",
        m.disasm(section, &code.insns[k])
    ))
}
