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

use super::landing::{enforced, missing_pad, pad_ok};
use super::{Check, Ctx, Finding};
use crate::elf::Machine;

pub struct BtiMissingLandingPad;

impl Check for BtiMissingLandingPad {
    fn id(&self) -> &'static str {
        "bti-missing-landing-pad"
    }

    fn check_object(&self, cx: &Ctx, out: &mut Vec<Finding>) {
        let m = cx.model;
        if m.obj.machine != Machine::Aarch64 || !enforced(m, cx.opts) {
            return;
        }
        let at = m.address_taken(&cx.rules.landing_pads);
        for r in at.needing_pad() {
            if !pad_ok(m, r) {
                let mut fd = missing_pad(cx, self.id(), "BTI", r);
                fd.notes.push(
                    "an indirect branch here faults with BTI: build the target with -mbranch-protection=bti (or standard) or start it with `bti c`".into(),
                );
                out.push(fd);
            }
        }
    }
}
