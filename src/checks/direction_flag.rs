//! `direction-flag`: x86 code that calls or returns with the direction flag
//! set (after `std`), sets it twice, or clears it when it is clear, as
//! objtool's validate_call / validate_return / INSN_STD / INSN_CLD. Each
//! path carries the flag (`checks/flow.rs`); one finding per path.

use super::{Check, Ctx, Finding, flow};

pub struct DirectionFlag;

impl Check for DirectionFlag {
    fn id(&self) -> &'static str {
        flow::DIRECTION_FLAG
    }
    fn check_object(&self, cx: &Ctx, out: &mut Vec<Finding>) {
        flow::report(cx, self.id(), out);
    }
}
