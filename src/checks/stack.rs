//! `stack-mismatch`, `stack-modified-return`, `stack-modified-sibling-call`,
//! `stack-undefined`: the stack as objtool follows it (`update_cfi_state`,
//! `validate_branch` in tools/objtool/check.c), from the one walk of every
//! function (`checks/flow.rs`, the state model in `model/cfi.rs`).
//!
//! The state is where the canonical frame address is (a register plus an
//! offset), where each callee-saved register and the return address are
//! saved, and how far the stack pointer has moved. Two paths reaching an
//! instruction with different states, a return or a tail call with the
//! frame not given back as it was found, and a stack operation the model
//! cannot follow are what the ORC unwinder, the frame-pointer unwinder and
//! livepatch's reliable stack traces cannot live with.

use super::flow::{self, Event};
use super::{Check, Ctx, Finding, PathStep};
use crate::model::walk::Edge;
use rustc_hash::{FxHashMap, FxHashSet};

pub struct StackMismatch;
pub struct StackModifiedReturn;
pub struct StackModifiedSiblingCall;
pub struct StackUndefined;

pub(crate) fn finding(cx: &Ctx, rule: &'static str, e: &Event) -> Finding {
    let mut fd = cx.finding(rule, e.at.0, e.at.1, e.message.clone());
    if let Some((s, o)) = e.target {
        fd.target = Some(cx.target(s, o));
    }
    fd.notes = e.notes.clone();
    let place = |(sec, i): crate::model::walk::Loc| {
        let off = cx
            .model
            .section_code(sec)
            .map_or(0, |c| c.insns[i].offset());
        cx.target(sec, off)
    };
    fd.path = Some(
        e.path
            .iter()
            .map(|&(from, to, edge)| PathStep {
                from: place(from),
                to: place(to),
                edge: edge_name(edge),
            })
            .collect(),
    );
    fd.path_omitted = e.path_len - e.path.len();
    fd
}

fn edge_name(e: Edge) -> &'static str {
    match e {
        Edge::Jump => "jump",
        Edge::Case => "switch case",
        Edge::Alternative => "alternative",
        Edge::Fixup => "exception fixup",
        Edge::JumpLabel => "jump label",
        Edge::RunsOn => "runs on",
    }
}

/// Every event of a rule once per place and message.
fn each(cx: &Ctx, rule: &'static str, out: &mut Vec<Finding>) {
    let mut seen = FxHashSet::default();
    for e in flow::events(cx, rule) {
        if seen.insert((e.at, &e.message)) {
            out.push(finding(cx, rule, e));
        }
    }
}

/// The first event of a rule (in address order) per function.
pub(crate) fn first_per_function(cx: &Ctx, rule: &'static str, out: &mut Vec<Finding>) {
    let mut first: FxHashMap<usize, &Event> = FxHashMap::default();
    for e in flow::events(cx, rule) {
        let key = e.owner.unwrap_or(e.root);
        first
            .entry(key)
            .and_modify(|f| {
                if e.at < f.at {
                    *f = e;
                }
            })
            .or_insert(e);
    }
    let mut v: Vec<&Event> = first.into_values().collect();
    v.sort_by_key(|e| e.at);
    out.extend(v.into_iter().map(|e| finding(cx, rule, e)));
}

impl Check for StackMismatch {
    fn id(&self) -> &'static str {
        flow::STACK_MISMATCH
    }
    fn check_object(&self, cx: &Ctx, out: &mut Vec<Finding>) {
        each(cx, self.id(), out);
    }
}

impl Check for StackModifiedReturn {
    fn id(&self) -> &'static str {
        flow::STACK_RETURN
    }
    fn check_object(&self, cx: &Ctx, out: &mut Vec<Finding>) {
        each(cx, self.id(), out);
    }
}

impl Check for StackModifiedSiblingCall {
    fn id(&self) -> &'static str {
        flow::STACK_SIBLING
    }
    fn check_object(&self, cx: &Ctx, out: &mut Vec<Finding>) {
        each(cx, self.id(), out);
    }
}

impl Check for StackUndefined {
    fn id(&self) -> &'static str {
        flow::STACK_UNDEFINED
    }
    fn check_object(&self, cx: &Ctx, out: &mut Vec<Finding>) {
        first_per_function(cx, self.id(), out);
    }
}
