//! `uaccess-call`, `uaccess-return`, `uaccess-redundant`: user memory access
//! left open across a call or a return, or switched when it is already so.
//!
//! User access is open between x86 `stac` and `clac` (EFLAGS.AC) and between
//! arm64 `msr pan, #0` and `msr pan, #1`. The kernel emits these through
//! alternatives (a NOP in the text, the real instruction in the replacement),
//! so each replacement is a path of its own; replacements that toggle access
//! are followed exclusively, as the feature is on everywhere or nowhere.
//! Every path through a function carries its own state: access open or
//! closed, and a stack of states saved by `pushf` and restored by `popf`. A
//! function starts with access closed, or open when it is on the
//! uaccess-safe list (`rules/uaccess_safe.toml` plus the config's
//! `uaccess_safe`) and the architecture's `entered_open` says listed
//! functions can be entered so (x86). Functions listed under `state_resets`
//! (arm64 code that sets PAN after boot, firmware entry or resume) are not
//! walked. Like objtool, a path ends at its first finding.

use super::{Check, Ctx, Finding};
use crate::arch::Kind;
use crate::model::paths::{Action, Callee, Step, Walker, is_cold};
use crate::model::{Dest, Function};
use crate::rules::NameSet;
use rustc_hash::FxHashSet as HashSet;

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

/// Saved states: one bit per `pushf`, above a marker bit (0 = nothing saved).
const MAX_SAVED: u32 = 31;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Access {
    open: bool,
    saved: u32,
}

impl Access {
    fn push(&mut self) {
        let depth = match self.saved {
            0 => 0,
            s => 31 - s.leading_zeros(),
        };
        if depth >= MAX_SAVED {
            return;
        }
        let base = if self.saved == 0 { 1 } else { self.saved };
        self.saved = (base << 1) | u32::from(self.open);
    }
    fn pop(&mut self) {
        if self.saved == 0 {
            return;
        }
        self.open = self.saved & 1 != 0;
        self.saved >>= 1;
        if self.saved == 1 {
            self.saved = 0;
        }
    }
}

pub(crate) struct Event {
    rule: &'static str,
    at: (usize, u64),
    message: String,
    target: Option<(usize, u64)>,
    notes: Vec<String>,
}

/// Names of functions with a user-access toggle in their code, their `.cold`
/// parts or their alternatives' replacements (the only ones whose state can
/// change from the start state).
fn toggling_functions(cx: &Ctx) -> HashSet<String> {
    let m = cx.model;
    let mut names = HashSet::default();
    for (sec, code) in m.code.iter().enumerate() {
        let Some(code) = code else { continue };
        if !code.has_any(Kind::UaccessOpen.bit() | Kind::UaccessClose.bit()) {
            continue;
        }
        for ins in &code.insns {
            if !matches!(ins.kind, Kind::UaccessOpen | Kind::UaccessClose) {
                continue;
            }
            let (s, off) = match m.alts.replacement_containing(sec, ins.offset()) {
                Some((site, _)) => (site.section, site.start),
                None => (sec, ins.offset()),
            };
            if let Some(i) = m.function_containing(s, off) {
                let name = m.functions[i].name;
                let parent = name.find(".cold").map_or(name, |k| &name[..k]);
                names.insert(parent.to_string());
            }
        }
    }
    names
}

fn callee_name(w: &Walker, c: Callee) -> Option<String> {
    match c {
        Callee::Direct(Dest::None) => None,
        Callee::Direct(d) => Some(w.model().dest_name(d)),
        Callee::Indirect { .. } => None,
    }
}

fn is_safe(w: &Walker, safe: &NameSet, c: Callee) -> bool {
    let m = w.model();
    match c {
        Callee::Direct(Dest::External { sym }) => safe.contains(&m.obj.symbols[sym].name),
        Callee::Direct(Dest::Local { section, offset }) => m
            .function_containing(section, offset)
            .is_some_and(|i| safe.contains(m.functions[i].name)),
        Callee::Direct(Dest::None) | Callee::Indirect { .. } => false,
    }
}

fn call_event(w: &Walker, step: &Step, c: Callee, tail: bool) -> Event {
    let m = w.model();
    let kind = if tail { "tail call" } else { "call" };
    let mut notes = Vec::new();
    let (message, target) = match (c, callee_name(w, c)) {
        (Callee::Direct(d), Some(name)) => {
            let target = match d {
                Dest::Local { section, offset } => Some((section, offset)),
                _ => None,
            };
            (format!("{kind} to {name}() with UACCESS enabled"), target)
        }
        (Callee::Indirect { thunk }, _) => {
            if let Some(t) = thunk {
                notes.push(format!("through {}", m.obj.symbols[t].name));
            }
            (format!("indirect {kind} with UACCESS enabled"), None)
        }
        _ => (
            format!("{kind} to an unresolved target with UACCESS enabled"),
            None,
        ),
    };
    Event {
        rule: CALL,
        at: step.report_at(),
        message,
        target,
        notes,
    }
}

fn alt_note(w: &Walker, step: &Step) -> Option<String> {
    step.alt_site?;
    let m = w.model();
    Some(format!(
        "in the alternative replacement at {}+{:#x}: {}",
        m.obj.section_name(step.section),
        step.insn.offset(),
        m.disasm(step.section, step.insn)
    ))
}

fn walk_function(
    w: &Walker,
    safe: &NameSet,
    entered_open: bool,
    f: &Function,
    out: &mut Vec<Event>,
) {
    let f_safe = safe.contains(f.name);
    let start = Access {
        open: f_safe && entered_open,
        saved: 0,
    };
    w.walk(f, start, |step, mut a| {
        let redundant = |message: &str| Event {
            rule: REDUNDANT,
            at: step.report_at(),
            message: message.to_string(),
            target: None,
            notes: Vec::new(),
        };
        let mut ev = match step.insn.kind {
            Kind::UaccessOpen if a.open => Some(redundant("recursive UACCESS enable")),
            Kind::UaccessOpen => {
                a.open = true;
                None
            }
            // A close right after saving the state is smap_save(): deliberate.
            Kind::UaccessClose if !a.open && a.saved == 0 => {
                Some(redundant("redundant UACCESS disable"))
            }
            Kind::UaccessClose => {
                a.open = false;
                None
            }
            Kind::PushFlags => {
                a.push();
                None
            }
            Kind::PopFlags => {
                a.pop();
                None
            }
            _ => None,
        };
        if ev.is_none() && a.open {
            ev = match step.action {
                Action::Call(c) if !is_safe(w, safe, c) => Some(call_event(w, step, c, false)),
                Action::TailCall(c) if !is_safe(w, safe, c) => Some(call_event(w, step, c, true)),
                Action::Return if !f_safe => Some(Event {
                    rule: RETURN,
                    at: step.report_at(),
                    message: "return with UACCESS enabled".to_string(),
                    target: None,
                    notes: Vec::new(),
                }),
                _ => None,
            };
        }
        match ev {
            Some(mut e) => {
                e.notes.extend(alt_note(w, step));
                out.push(e);
                None
            }
            None => Some(a),
        }
    });
}

fn run(cx: &Ctx, rule: &'static str, out: &mut Vec<Finding>) {
    let events = cx.uaccess.get_or_init(|| events(cx));
    let mut seen = HashSet::default();
    for e in events {
        if e.rule != rule || !seen.insert((e.at, &e.message)) {
            continue;
        }
        let mut fd = cx.finding(rule, e.at.0, e.at.1, e.message.clone());
        if let Some((s, o)) = e.target {
            fd.target = Some(cx.target(s, o));
        }
        fd.notes = e.notes.clone();
        out.push(fd);
    }
}

/// The events of every rule, from one walk of the functions that matter.
fn events(cx: &Ctx) -> Vec<Event> {
    let m = cx.model;
    let safe = cx.rules.uaccess_safe(m.obj.machine);
    let toggling = toggling_functions(cx);
    let mut events = Vec::new();
    let entered_open = cx.rules.uaccess_entered_open(m.obj.machine);
    // Only toggling functions, and listed ones entered open, are walked.
    if toggling.is_empty() && !(entered_open && m.functions.iter().any(|f| safe.contains(f.name))) {
        return events;
    }
    let resets = cx.rules.uaccess_state_resets(m.obj.machine);
    let walker = Walker::new(m, cx.rules);
    for f in &m.functions {
        if f.prefix || is_cold(f.name) || resets.iter().any(|r| r == f.name) {
            continue;
        }
        // A listed function that starts closed matters only if it toggles.
        let entered_open_here = entered_open && safe.contains(f.name);
        if !toggling.contains(f.name) && !entered_open_here {
            continue;
        }
        walk_function(&walker, safe, entered_open, f, &mut events);
    }
    events
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pushf_popf_save_and_restore_the_state() {
        let mut a = Access {
            open: true,
            saved: 0,
        };
        a.push(); // saves open
        a.open = false; // clac
        a.push(); // saves closed
        a.open = true;
        a.pop();
        assert!(!a.open);
        a.pop();
        assert!(a.open);
        assert_eq!(a.saved, 0);
        // popf with nothing saved leaves the state alone.
        a.pop();
        assert!(a.open);
    }

    #[test]
    fn the_saved_stack_is_bounded() {
        let mut a = Access {
            open: false,
            saved: 0,
        };
        for _ in 0..100 {
            a.push();
        }
        let full = a.saved;
        a.push();
        assert_eq!(a.saved, full);
        for _ in 0..MAX_SAVED {
            a.pop();
        }
        assert_eq!(a.saved, 0);
    }
}
