//! `orc-mismatch` (x86) and `cfi-mismatch` (both): the unwind tables an
//! object carries against the stack state the walk computes. ORC is what
//! objtool wrote (`.orc_unwind`, `.orc_unwind_ip`); DWARF CFI is what the
//! compiler wrote (`.eh_frame`, `.debug_frame`). Compared at every
//! instruction a path reaches, the first difference per function reported.

use super::flow;
use super::{Check, Ctx, Finding};

pub struct OrcMismatch;
pub struct CfiMismatch;

impl Check for OrcMismatch {
    fn id(&self) -> &'static str {
        flow::ORC_MISMATCH
    }
    fn check_object(&self, cx: &Ctx, out: &mut Vec<Finding>) {
        super::stack::first_per_function(cx, self.id(), out);
    }
}

impl Check for CfiMismatch {
    fn id(&self) -> &'static str {
        flow::CFI_MISMATCH
    }
    fn check_object(&self, cx: &Ctx, out: &mut Vec<Finding>) {
        super::stack::first_per_function(cx, self.id(), out);
    }
}
