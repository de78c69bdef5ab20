//! `bti-missing-landing-pad`: an address-taken place in arm64 code has no BTI
//! landing pad.
//!
//! With BTI, an indirect call (BLR) must land on `BTI c`/`BTI jc` or on
//! `PACIASP`/`PACIBSP` (implicit `BTI c`), and an indirect jump (BR) on
//! `BTI j`/`BTI jc`. Address-taking relocations (`ABS64`, `PREL32`/`PREL64`,
//! `ADR_PREL_LO21`, the `ADD_ABS_LO12_NC` of an `adrp`+`add` pair) make their
//! target address-taken; `B`/`BL` operands and the exemptions of
//! `rules/landing_pads.toml` do not. A function entry needs a call pad; another
//! place (a label) either kind. Only for objects built with BTI.

use super::pads::check_pads;
use super::{Check, Ctx, Finding};
use crate::elf::Machine;

pub struct BtiMissingLandingPad;

impl Check for BtiMissingLandingPad {
    fn id(&self) -> &'static str {
        "bti-missing-landing-pad"
    }

    fn check_object(&self, cx: &Ctx, out: &mut Vec<Finding>) {
        check_pads(
            cx,
            self.id(),
            Machine::Aarch64,
            "BTI",
            "an indirect branch here faults with BTI: build the target with -mbranch-protection=bti (or standard) or start it with `bti c`",
            out,
        );
    }
}
