//! `ibt-missing-endbr`: an address-taken place in x86 code is not ENDBR64.
//!
//! With IBT, an indirect call or jump must land on ENDBR64. Every relocation
//! that materialises a code address (a pointer in data, `lea sym(%rip)`,
//! `mov $sym`) makes its target a possible indirect-branch target; direct
//! branch operands and the exemptions of `rules/landing_pads.toml` do not (see
//! [`crate::model::address_taken`]). Only for objects built with IBT.

use super::pads::check_pads;
use super::{Check, Ctx, Finding};
use crate::elf::Machine;

pub struct IbtMissingEndbr;

impl Check for IbtMissingEndbr {
    fn id(&self) -> &'static str {
        "ibt-missing-endbr"
    }

    fn check_object(&self, cx: &Ctx, out: &mut Vec<Finding>) {
        check_pads(
            cx,
            self.id(),
            Machine::X86_64,
            "ENDBR",
            "an indirect branch here faults with IBT: build the target with -fcf-protection=branch or add ENDBR64; if it is never branched to indirectly, annotate it ANNOTATE_NOENDBR",
            out,
        );
    }
}
