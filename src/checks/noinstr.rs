//! `noinstr-call`: code in a noinstr section (`.noinstr.text`, `.entry.text`,
//! ... as `rules/noinstr.toml` lists) calls code that may be instrumented.
//!
//! Such code runs before the kernel can cope with tracing, kprobes or
//! sanitizer callbacks, so it may only call other noinstr code, except
//! between instrumentation_begin() and instrumentation_end(). objtool records
//! those in `.discard.instr_begin`/`.discard.instr_end` (6.12) or as typed
//! entries of `.discard.annotate_insn` (newer); every path carries the nesting
//! depth of these regions. A call is reported when it is outside every region
//! and goes to a function of this object outside the noinstr sections, or
//! through a register (retpoline thunks included). Where an undefined
//! function lives is known only for a linked whole (`--link`); without it
//! calls to undefined functions are not judged, nor calls to weak ones
//! (another object's strong definition may replace them). A final module (`.ko`) has
//! lost its annotations at link time, so its regions are unknown and it is
//! not checked. On architectures whose builds never record the regions
//! (arm64: no objtool), an object without annotations gets its findings as
//! warnings (`regions_recorded` in `rules/noinstr.toml`). Where builds can
//! record them (x86, with CONFIG_NOINSTR_VALIDATION), an object that records
//! none was built without it: its calls out are analysis-incomplete places
//! (`regions-unrecorded`), not findings.

use super::flow;
use super::{Check, Ctx, Finding};
use crate::model::Dest;
use crate::model::walk::{Callee, Step};
use crate::rules::Severity;
use rustc_hash::FxHashSet as HashSet;

pub struct NoinstrCall;

pub const ID: &str = "noinstr-call";

const UNKNOWN_REGIONS: &str = "this architecture's builds do not record instrumentation_begin()/end() (no objtool): if the call is inside such a region it is allowed";

impl Check for NoinstrCall {
    fn id(&self) -> &'static str {
        ID
    }

    fn check_object(&self, cx: &Ctx, out: &mut Vec<Finding>) {
        let m = cx.model;
        let nr = &cx.rules.noinstr;
        let a = &nr.annotations;
        let annotated = [&a.begin, &a.end, &a.typed]
            .iter()
            .any(|s| !m.obj.sections_named(s).is_empty());
        let regions_unknown = !annotated && !*nr.regions_recorded.get(m.obj.machine);
        let mut seen = HashSet::default();
        for e in flow::events(cx, ID) {
            if !seen.insert((e.at, &e.message)) {
                continue;
            }
            let mut fd = cx.finding(ID, e.at.0, e.at.1, e.message.clone());
            if let Some((s, o)) = e.target {
                fd.target = Some(cx.target(s, o));
            }
            fd.notes = e.notes.clone();
            if regions_unknown {
                fd.severity = fd.severity.min(Severity::Warning);
                fd.notes.push(UNKNOWN_REGIONS.into());
            }
            out.push(fd);
        }
    }
}

/// The message for a call that leaves noinstr code, or `None` when it may.
pub(crate) fn judge(
    cx: &Ctx,
    noinstr: &[bool],
    allowed: &crate::rules::NameSet,
    step: &Step,
    c: Callee,
    tail: bool,
    section: &str,
) -> Option<String> {
    let m = cx.model;
    let kind = if tail { "tail call" } else { "call" };
    match c {
        Callee::Direct(Dest::Local { section: s, offset }) => {
            if noinstr.get(s).copied().unwrap_or(false) {
                return None;
            }
            let name = m.dest_name(Dest::Local { section: s, offset });
            let callee = m.function_containing(s, offset);
            // A weak definition may not be the one linked (idle.c's
            // arch_cpu_idle() gives way to x86's __cpuidle one): like an
            // undefined callee, judged only for a linked whole.
            if callee.is_some_and(|i| m.functions[i].weak) && !cx.opts.link {
                return None;
            }
            let base = callee.map_or(name.as_str(), |i| m.functions[i].name);
            if allowed.contains(base) {
                cx.rules.noinstr_allowed_hit(base);
                return None;
            }
            Some(format!("{kind} to {name}() leaves {section} section"))
        }
        Callee::Direct(Dest::External { sym }) => {
            let name = &m.obj.symbols[sym].name;
            if allowed.contains(name) {
                cx.rules.noinstr_allowed_hit(name);
                return None;
            }
            if !cx.opts.link {
                return None;
            }
            Some(format!("{kind} to {name}() leaves {section} section"))
        }
        Callee::Direct(Dest::None) => None,
        Callee::Indirect { thunk } => {
            // `call *pv_ops+N(%rip)`: its targets are checked at link time.
            let tables = &cx.rules.noinstr.indirect_tables;
            let via_table = thunk.is_none()
                && m.obj
                    .relocs_in(step.section, step.insn.offset(), step.insn.end())
                    .iter()
                    .any(|r| tables.iter().any(|t| *t == m.obj.symbols[r.sym()].name));
            if via_table {
                return None;
            }
            Some(format!("indirect {kind} leaves {section} section"))
        }
    }
}
