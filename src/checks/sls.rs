//! `sls`: a return or indirect jump not followed by a speculation barrier in a
//! build hardened against straight-line speculation (x86 `int3`; arm64 `sb`
//! or `dsb sy; isb`), and on arm64 under `-mharden-sls=blr` an indirect call
//! not through the compiler's thunk. See `speculation.rs`.

use super::{Check, Ctx, Finding, speculation};

pub struct Sls;

impl Check for Sls {
    fn id(&self) -> &'static str {
        speculation::SLS
    }
    fn check_object(&self, cx: &Ctx, out: &mut Vec<Finding>) {
        speculation::run(cx, self.id(), out);
    }
}
