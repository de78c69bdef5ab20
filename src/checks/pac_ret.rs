//! `pac-ret`: arm64 return-address signing. A function that signs its
//! return address (PACIASP/PACIBSP) must authenticate it before it returns
//! or tail-calls (AUTIASP/AUTIBSP, RETAA/RETAB), with the same key and the
//! same stack pointer it signed with, and must return through the address
//! it authenticated: not through an x30 reloaded from the stack or changed
//! after the authentication. Otherwise the return either faults (a failed
//! authentication) or bypasses the protection the signing was for.
//!
//! The walk (`checks/flow.rs`) carries, per path, what x30 holds (the
//! caller's address, a signed one and with what key and stack pointer, or
//! something else) and what its save slot holds.

use super::flow;
use super::{Check, Ctx, Finding};
use crate::elf::Machine;
use rustc_hash::FxHashSet;

pub struct PacRet;

impl Check for PacRet {
    fn id(&self) -> &'static str {
        flow::PAC_RET
    }
    fn check_object(&self, cx: &Ctx, out: &mut Vec<Finding>) {
        if cx.model.obj.machine != Machine::Aarch64 {
            return;
        }
        let mut seen = FxHashSet::default();
        for e in flow::events(cx, self.id()) {
            if seen.insert((e.at, &e.message)) {
                out.push(super::stack::finding(cx, self.id(), e));
            }
        }
    }
}
