//! `uaccess-call`, `uaccess-return`, `uaccess-redundant`: user memory access
//! left open across a call or a return, or switched when it is already so.
//!
//! User access is open between x86 `stac` and `clac` (EFLAGS.AC) and between
//! arm64 `msr pan, #0` and `msr pan, #1`. The kernel emits these through
//! alternatives (a NOP in the text, the real instruction in the replacement),
//! so each replacement is a path of its own; replacements that toggle access
//! are followed exclusively, as the feature is on everywhere or nowhere.
//! Every path through a function carries its own state (the flow walk,
//! `checks/flow.rs`): access open or closed, and a stack of states saved by
//! `pushf` and restored by `popf`. A function starts with access closed, or
//! open when it is on the uaccess-safe list (`rules/uaccess_safe.toml` plus
//! the config's `uaccess_safe`) and the architecture's `entered_open` says
//! listed functions can be entered so (x86). In functions listed under
//! `state_resets` (arm64 code that sets PAN after boot, firmware entry or
//! resume) the toggles are not followed. Like objtool, a path ends at its
//! first finding; exception fixups (`__ex_table`) are paths too, so a STAC
//! whose CLAC is reached only through a fixup is seen.

use super::flow;
use super::{Check, Ctx, Finding};
use crate::arch::Kind;
use crate::model::walk::Callee;
use crate::model::{Dest, Model};
use crate::rules::NameSet;

pub struct UaccessCall;
pub struct UaccessReturn;
pub struct UaccessRedundant;

pub const CALL: &str = "uaccess-call";
pub const RETURN: &str = "uaccess-return";
pub const REDUNDANT: &str = "uaccess-redundant";

impl Check for UaccessCall {
    fn id(&self) -> &'static str {
        CALL
    }
    fn check_object(&self, cx: &Ctx, out: &mut Vec<Finding>) {
        run(cx, CALL, out);
    }
}

impl Check for UaccessReturn {
    fn id(&self) -> &'static str {
        RETURN
    }
    fn check_object(&self, cx: &Ctx, out: &mut Vec<Finding>) {
        run(cx, RETURN, out);
    }
}

impl Check for UaccessRedundant {
    fn id(&self) -> &'static str {
        REDUNDANT
    }
    fn check_object(&self, cx: &Ctx, out: &mut Vec<Finding>) {
        run(cx, REDUNDANT, out);
    }
}

/// Whether a callee may run with user access open.
pub(crate) fn is_safe(m: &Model, safe: &NameSet, c: Callee) -> bool {
    match c {
        Callee::Direct(Dest::External { sym }) => safe.contains(&m.obj.symbols[sym].name),
        Callee::Direct(Dest::Local { section, offset }) => m
            .function_containing(section, offset)
            .is_some_and(|i| safe.contains(m.functions[i].name)),
        Callee::Direct(Dest::None) | Callee::Indirect { .. } => false,
    }
}

/// (rule, message, target, notes) of a call made with access open.
pub(crate) fn call_event(
    m: &Model,
    c: Callee,
    tail: bool,
) -> (&'static str, String, Option<(usize, u64)>, Vec<String>) {
    let kind = if tail { "tail call" } else { "call" };
    let mut notes = Vec::new();
    let (message, target) = match c {
        Callee::Direct(Dest::None) => (
            format!("{kind} to an unresolved target with UACCESS enabled"),
            None,
        ),
        Callee::Direct(d) => {
            let target = match d {
                Dest::Local { section, offset } => Some((section, offset)),
                _ => None,
            };
            (
                format!("{kind} to {}() with UACCESS enabled", m.dest_name(d)),
                target,
            )
        }
        Callee::Indirect { thunk } => {
            if let Some(t) = thunk {
                notes.push(format!("through {}", m.obj.symbols[t].name));
            }
            (format!("indirect {kind} with UACCESS enabled"), None)
        }
    };
    (CALL, message, target, notes)
}

fn run(cx: &Ctx, rule: &'static str, out: &mut Vec<Finding>) {
    let from = out.len();
    flow::report(cx, rule, out);
    if rule == CALL {
        for f in &mut out[from..] {
            // Only where the finding names the callee: a call through a
            // retpoline thunk is an indirect call, and the thunk no fix.
            f.fix = direct_callee(cx.model, f.section_index, f.offset)
                .filter(|name| f.message.contains(&format!(" to {name}() ")))
                .and_then(|name| crate::checks::ConfigFix::new("uaccess_safe", &name));
        }
    }
}

/// The function a direct call or tail call at a place goes to, by name.
fn direct_callee(m: &Model, section: usize, offset: u64) -> Option<String> {
    let code = m.section_code(section)?;
    let k = code.lower_bound(offset);
    let ins = code.insns.get(k).filter(|i| i.offset() == offset)?;
    if !matches!(ins.kind, Kind::Call | Kind::Jump) {
        return None;
    }
    match code.dest(k) {
        Dest::External { sym } => Some(m.obj.symbols[sym].name.to_string()),
        Dest::Local { section, offset } => m
            .function_containing(section, offset)
            .filter(|&i| m.functions[i].start == offset)
            .map(|i| m.functions[i].name.to_string()),
        Dest::None => None,
    }
}

#[cfg(test)]
mod tests {
    use super::flow::Access;

    #[test]
    fn pushf_popf_save_and_restore_the_state() {
        let mut a = Access::new(true);
        a.push(); // saves open
        a.open = false; // clac
        a.push(); // saves closed
        a.open = true;
        a.pop();
        assert!(!a.open);
        a.pop();
        assert!(a.open);
        assert!(!a.saved_any());
        // popf with nothing saved leaves the state alone.
        a.pop();
        assert!(a.open);
    }

    #[test]
    fn the_saved_stack_is_bounded() {
        let mut a = Access::new(false);
        for _ in 0..100 {
            a.push();
        }
        let full = a;
        a.push();
        assert_eq!(a, full);
        for _ in 0..31 {
            a.pop();
        }
        assert!(!a.saved_any());
    }
}
