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
//!   on purpose; the kernel sections are listed in `rules/landing_pads.toml`;
//!   and objects without code, such as kbuild's data-only or empty objects);
//! - arm64: PACIASP/PACIBSP in the code, but no PAC claim.

use super::landing::{FEATURE_BRANCH, FEATURE_RETURN, entry_pad_share, pad_ok, place_str};
use super::{Check, Ctx, Finding};
use crate::arch::{Kind, Pad};
use crate::elf::Machine;

pub struct GnuProperty;

impl Check for GnuProperty {
    fn id(&self) -> &'static str {
        "gnu-property"
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
            let missing: Vec<_> = at.needing_pad().filter(|r| !pad_ok(m, r)).collect();
            if let Some(first) = missing.first() {
                let mut fd = cx.finding(
                    self.id(),
                    note,
                    0,
                    format!(
                        "claims {branch}, but {} address-taken place(s) have no {pad} (first: {})",
                        missing.len(),
                        place_str(m, first.to_section, first.to_offset)
                    ),
                );
                fd.target = Some(cx.target(first.to_section, first.to_offset));
                fd.notes.push(format!(
                    "a binary linked from this object enforces {branch} and faults on the first indirect branch to such a place"
                ));
                out.push(fd);
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
        if features & FEATURE_RETURN == 0 {
            let report = match obj.machine {
                // An object without code has nothing for the claim to
                // describe (kbuild's data-only and empty objects).
                Machine::X86_64 => {
                    m.code.iter().flatten().any(|c| !c.insns.is_empty())
                        && !obj
                            .sections
                            .iter()
                            .any(|s| cx.rules.landing_pads.is_kernel_section(&s.name))
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
