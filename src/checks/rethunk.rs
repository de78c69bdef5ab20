//! `rethunk`: a bare `ret` in a return-thunk build (x86), where returns must be
//! `jmp __x86_return_thunk`. See `speculation.rs`.

use super::{Check, Ctx, Finding, speculation};

pub struct Rethunk;

impl Check for Rethunk {
    fn id(&self) -> &'static str {
        speculation::RETHUNK
    }
    fn check_object(&self, cx: &Ctx, out: &mut Vec<Finding>) {
        speculation::run(cx, self.id(), out);
    }
}
