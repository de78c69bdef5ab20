//! `intra-function-call`: a call to a label inside its own function that
//! objtool's annotation (ANNOTATE_INTRA_FUNCTION_CALL) does not say is meant.
//! The walk follows it as a jump that pushes a return address either way; in
//! a linked module the annotations are gone and such calls are counted under
//! analysis-incomplete instead.

use super::{Check, Ctx, Finding, flow};

pub struct IntraFunctionCall;

impl Check for IntraFunctionCall {
    fn id(&self) -> &'static str {
        flow::INTRA_FUNCTION_CALL
    }
    fn check_object(&self, cx: &Ctx, out: &mut Vec<Finding>) {
        flow::report(cx, self.id(), out);
    }
}
