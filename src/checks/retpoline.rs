//! `retpoline`: an indirect call or jump in a retpoline build that does not go
//! through a retpoline thunk (x86). See `speculation.rs` for how the build is
//! told and what needs no thunk.

use super::{Check, Ctx, Finding, speculation};

pub struct Retpoline;

impl Check for Retpoline {
    fn id(&self) -> &'static str {
        speculation::RETPOLINE
    }
    fn check_object(&self, cx: &Ctx, out: &mut Vec<Finding>) {
        speculation::run(cx, self.id(), out);
    }
}
