//! `gnu-property`: the `.note.gnu.property` claims disagree with the code.
//!
//! The linker ANDs every input's feature bits: one object that claims too
//! little turns IBT/BTI (or shadow stacks, PAC) off for the whole binary
//! without a word, and one that claims too much lets the loader enforce
//! landing pads the code does not have. Checked per object, silent when the
//! object has no note (kernel objects often have none):
//! - claims IBT/BTI, but address-taken places lack landing pads;
//! - landing pads at most function entries, but no IBT/BTI claim;
//! - x86: no SHSTK claim (except kernel code, built `-fcf-protection=branch`
//!   on purpose, told by `rules/profile.toml` or `--profile`;
//!   and objects without code, such as kbuild's data-only or empty objects);
//! - arm64: PACIASP/PACIBSP in the code, but no PAC claim;
//! - arm64: claims GCS (the Guarded Control Stack), but a return goes to an
//!   address other than the one the call left in x30 (`ret` used as a jump,
//!   x30 loaded from elsewhere): with GCS on, the return faults; or a return
//!   does not go through x30 (`ret xN`, which objlint cannot follow, and
//!   `br x30`, which leaves the GCS entry behind).
//!
//! In an archive, a member with code that lacks a property most others claim
//! is reported too (the engine's archive pass, [`missing_in_archive`]): linked
//! with them, it turns the feature off for the whole binary, which is what
//! the linkers' `-z cet-report`, `-z bti-report` and `-z gcs-report` say.

use super::pads::{
    FEATURE_BRANCH, FEATURE_GCS, FEATURE_RETURN, entry_pad_share, feature_names, pad_ok, place_str,
    unpadded_member_refs,
};
use super::{Check, Ctx, Finding};
use crate::arch::{Insn, Kind, Pad};
use crate::elf::Machine;
use crate::model::Model;

pub struct GnuProperty;

/// A claim the code breaks: the finding at the note, pointing at the first
/// place that breaks it, with why that faults.
fn claim_broken(
    cx: &Ctx,
    note: usize,
    message: String,
    (section, offset): (usize, u64),
    why: String,
) -> Finding {
    let mut fd = cx.finding(ID, note, 0, message);
    fd.target = Some(cx.target(section, offset));
    fd.notes.push(why);
    fd
}

pub const ID: &str = "gnu-property";

impl Check for GnuProperty {
    fn id(&self) -> &'static str {
        ID
    }

    fn check_object(&self, cx: &Ctx, out: &mut Vec<Finding>) {
        let m = cx.model;
        let obj = m.obj;
        let Some(features) = obj.gnu_property_features() else {
            return;
        };
        let Some(&note) = obj.sections_named(".note.gnu.property").first() else {
            return;
        };
        let (branch, ret, pad) = match obj.machine {
            Machine::X86_64 => ("IBT", "SHSTK", "ENDBR64"),
            Machine::Aarch64 => ("BTI", "PAC", "BTI landing pad"),
        };
        let at = m.address_taken(&cx.rules.landing_pads);
        if features & FEATURE_BRANCH != 0 {
            // Every reference, also those of other members of an archive.
            let missing: Vec<(usize, u64)> = at
                .needing_pad()
                .filter(|r| !pad_ok(m, r))
                .map(|r| (r.to_section(), r.to_offset()))
                .chain(
                    unpadded_member_refs(m, at)
                        .flat_map(|r| std::iter::repeat_n((r.section, r.offset), r.count)),
                )
                .collect();
            if let Some(&(section, offset)) = missing.first() {
                out.push(claim_broken(
                    cx,
                    note,
                    format!(
                        "claims {branch}, but {} address-taken place(s) have no {pad} (first: {})",
                        missing.len(),
                        place_str(m, section, offset)
                    ),
                    (section, offset),
                    format!(
                        "a binary linked from this object enforces {branch} and faults on the first indirect branch to such a place"
                    ),
                ));
            }
        } else {
            let (with, total) = entry_pad_share(m);
            if total > 0 && with * 2 > total {
                out.push(cx.finding(
                    self.id(),
                    note,
                    0,
                    format!(
                        "{with} of {total} functions start with {pad}, but the object does not claim {branch}: the linker turns {branch} off for the whole binary"
                    ),
                ));
            }
        }
        if obj.machine == Machine::Aarch64 && features & FEATURE_GCS != 0 {
            let bad = gcs_breaking_returns(cx);
            if let Some(&(sec, off)) = bad.first() {
                out.push(claim_broken(
                    cx,
                    note,
                    format!(
                        "claims GCS, but {} return(s) go to an address other than the one the call left in x30 (first: {})",
                        bad.len(),
                        place_str(m, sec, off)
                    ),
                    (sec, off),
                    "with the Guarded Control Stack on, a return must go back to the address its call pushed on the GCS, or it faults: `ret` used as a jump, or a return address loaded from memory (longjmp, a context switch), needs the GCS instructions; else do not claim GCS".into(),
                ));
            }
            let other = gcs_other_returns(m);
            if let Some(&(sec, off, ref how)) = other.first() {
                out.push(claim_broken(
                    cx,
                    note,
                    format!(
                        "claims GCS, but {} return(s) do not go through x30 (first: `{how}` at {})",
                        other.len(),
                        place_str(m, sec, off)
                    ),
                    (sec, off),
                    "with the Guarded Control Stack on, `ret xN` faults unless xN holds exactly the address the call pushed on the GCS (objlint cannot follow a return address copied to another register: check it, or return through x30), and `br x30` returns without popping the GCS, so a later return faults".into(),
                ));
            }
        }
        if features & FEATURE_RETURN == 0 {
            let report = match obj.machine {
                // An object without code has nothing for the claim to
                // describe (kbuild's data-only and empty objects).
                Machine::X86_64 => {
                    m.code.iter().flatten().any(|c| !c.insns.is_empty()) && !cx.kernel
                }
                Machine::Aarch64 => m.code.iter().flatten().any(|c| {
                    c.insns
                        .iter()
                        .any(|i| matches!(i.kind, Kind::Pad(Pad::Paciasp | Pad::Pacibsp)))
                }),
            };
            if report {
                let why = match obj.machine {
                    Machine::X86_64 => {
                        "the linker turns shadow stacks off for any binary that links this object (build with -fcf-protection=full, or add the SHSTK bit to hand-written assembly's note)"
                    }
                    Machine::Aarch64 => {
                        "the code signs return addresses (PACIASP/PACIBSP) but the linker will not mark the binary PAC-enabled"
                    }
                };
                out.push(cx.finding(
                    self.id(),
                    note,
                    0,
                    format!("the object does not claim {ret}: {why}"),
                ));
            }
        }
    }
}

/// Whether this rule reads the stack state at every instruction from the
/// walk: for an arm64 object that claims GCS.
pub(super) fn wants_states(cx: &Ctx) -> bool {
    let obj = cx.model.obj;
    cx.opts.enabled(GnuProperty.id())
        && obj.machine == Machine::Aarch64
        && obj
            .gnu_property_features()
            .is_some_and(|f| f & FEATURE_GCS != 0)
}

/// The returns (section, offset) reached with x30 not the caller's return
/// address: not as at entry, and not restored from where it was saved.
fn gcs_breaking_returns(cx: &Ctx) -> Vec<(usize, u64)> {
    use crate::model::cfi::{Frame, Modified};
    let m = cx.model;
    let frame = Frame::new(m.dec.frame());
    let entry = frame.entry();
    let ra = frame.ra_slot();
    // The stack state before every instruction walked: the one walk keeps
    // them for objects that claim GCS (`wants_states`).
    let facts = cx.flow();
    debug_assert!(wants_states(cx));
    let mut out: Vec<(usize, u64)> = facts
        .states
        .iter()
        .filter_map(|((sec, i), &c)| {
            let ins = m.section_code(sec)?.insns.get(i)?;
            // `ret xN` does not return through x30 (gcs_other_returns).
            if ins.kind != Kind::Return || not_through_x30(m, sec, ins) {
                return None;
            }
            // Only the return address: everything else as at entry.
            let mut only_ra = c;
            only_ra.cfa = entry.cfa;
            only_ra.stack_size = entry.stack_size;
            only_ra.drap = false;
            for k in 0..only_ra.regs.len() {
                if k != ra {
                    only_ra.regs[k] = entry.regs[k];
                }
            }
            (frame.modified(&only_ra) == Some(Modified::Register(ra))).then(|| (sec, ins.offset()))
        })
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// arm64 returns that do not go through x30, in functions: `ret xN` (N not
/// 30) and `br x30` (a return by a jump, which leaves its call's entry on
/// the GCS), as (section, offset, instruction).
fn gcs_other_returns(m: &Model) -> Vec<(usize, u64, String)> {
    let mut out = Vec::new();
    for f in m.functions.iter().filter(|f| !f.prefix) {
        let Some(code) = m.section_code(f.section) else {
            continue;
        };
        for ins in &code.insns[m.insn_range(f)] {
            if not_through_x30(m, f.section, ins) {
                out.push((f.section, ins.offset(), m.disasm(f.section, ins)));
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// Whether an arm64 instruction is `ret xN` (N not 30) or `br x30`.
fn not_through_x30(m: &Model, section: usize, ins: &Insn) -> bool {
    const RET_XN: (u32, u32) = (0xffff_fc1f, 0xd65f_0000);
    const BR_X30: u32 = 0xd61f_03c0;
    if m.obj.machine != Machine::Aarch64
        || !matches!(ins.kind, Kind::Return | Kind::IndirectJump)
        || ins.len != 4
    {
        return false;
    }
    let at = ins.offset() as usize;
    let Some(&[a, b, c, d]) = m.obj.section_data(section).get(at..at + 4) else {
        return false;
    };
    let w = u32::from_le_bytes([a, b, c, d]);
    (w & RET_XN.0 == RET_XN.1 && (w >> 5) & 31 != 30) || w == BR_X30
}

/// For the members of an archive, each a (machine, feature bits of its
/// note, 0 without one): the features each member lacks that most others of
/// its machine claim, with how many of them claim it, as `(bit, name, claimed,
/// of)`. Only members that have code and are user space take part (the
/// kernel reads no property notes); `None` members take no part.
pub fn missing_in_archive(
    members: &[Option<(Machine, u32)>],
) -> Vec<Vec<(&'static str, usize, usize)>> {
    let mut out = vec![Vec::new(); members.len()];
    for machine in [Machine::X86_64, Machine::Aarch64] {
        let same: Vec<usize> = (0..members.len())
            .filter(|&i| members[i].is_some_and(|(m, _)| m == machine))
            .collect();
        for &(bit, name) in feature_names(machine) {
            let claimed = same
                .iter()
                .filter(|&&i| members[i].is_some_and(|(_, f)| f & bit != 0))
                .count();
            // Only where most claim it: when most do not, the binary lacks
            // it anyway and the few claims change nothing.
            if claimed * 2 <= same.len() || claimed == same.len() {
                continue;
            }
            for &i in &same {
                if members[i].is_some_and(|(_, f)| f & bit == 0) {
                    out[i].push((name, claimed, same.len()));
                }
            }
        }
    }
    out
}
