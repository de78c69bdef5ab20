//! Runs the checks over inputs in parallel, in a deterministic order.

use crate::checks::{self, Ctx, Finding};
use crate::config::Options;
use crate::elf::{Machine, Object};
use crate::input::{self, Input};
use crate::model::Model;
use crate::rules::Rules;
use rayon::prelude::*;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// The result for one object (a file, or one member of an archive).
#[derive(Debug, Clone, Default)]
pub struct ObjectReport {
    /// Path as given, with `(member)` for archive members.
    pub file: String,
    pub arch: Option<Machine>,
    pub functions: usize,
    pub findings: Vec<Finding>,
    /// Why the object could not be checked.
    pub error: Option<String>,
}

/// Check one object held in memory.
pub fn check_bytes(file: &str, data: &[u8], rules: &Rules, opts: &Options) -> ObjectReport {
    let mut rep = ObjectReport {
        file: file.to_string(),
        ..Default::default()
    };
    // The reader checks every offset it uses; the guard is for its bugs.
    let obj = match catch_unwind(|| Object::parse(data)) {
        Ok(Ok(o)) => o,
        Ok(Err(e)) => {
            rep.error = Some(e.0);
            return rep;
        }
        Err(_) => {
            rep.error = Some("internal error while reading (a bug in objlint)".into());
            return rep;
        }
    };
    rep.arch = Some(obj.machine);
    if opts.arch.is_some_and(|a| a != obj.machine) {
        return rep;
    }
    let result = catch_unwind(AssertUnwindSafe(|| {
        let model = Model::build(&obj, rules);
        let cx = Ctx::new(&model, rules, opts);
        let mut findings = run_checks(&cx);
        crate::source::annotate(&obj, &mut findings);
        (model.functions.len(), findings)
    }));
    match result {
        Ok((n, f)) => {
            rep.functions = n;
            rep.findings = f;
        }
        Err(_) => rep.error = Some("internal error while checking (a bug in objlint)".into()),
    }
    rep
}

/// Run every enabled check over a model; findings sorted by place and rule.
pub fn run_checks(cx: &Ctx) -> Vec<Finding> {
    let checks: Vec<_> = checks::all()
        .into_iter()
        .filter(|c| cx.opts.enabled(c.id()))
        .collect();
    let funcs = &cx.model.functions;
    let mut out: Vec<Finding> = funcs
        .par_iter()
        .with_min_len(64)
        .flat_map_iter(|f| {
            let mut v = Vec::new();
            for c in &checks {
                c.check_function(cx, f, &mut v);
            }
            v
        })
        .collect();
    for c in &checks {
        c.check_object(cx, &mut out);
    }
    out.sort_by(|a, b| {
        (a.section_index, a.offset, a.rule, &a.message).cmp(&(
            b.section_index,
            b.offset,
            b.rule,
            &b.message,
        ))
    });
    out.dedup();
    out
}

/// Check a file (all members of an archive).
pub fn check_input(inp: &Input, rules: &Rules, opts: &Options) -> Vec<ObjectReport> {
    let name = inp.name();
    let loaded = match input::load(&inp.path) {
        Ok(l) => l,
        Err(e) => {
            return vec![ObjectReport {
                file: name,
                error: Some(e),
                ..Default::default()
            }];
        }
    };
    loaded
        .members
        .par_iter()
        .map(|(member, range)| {
            let file = input::member_name(&name, member.as_deref());
            check_bytes(&file, &loaded.bytes[range.clone()], rules, opts)
        })
        .collect()
}

/// Check all inputs, in parallel; reports come back in input order.
pub fn check_inputs(inputs: &[Input], rules: &Rules, opts: &Options) -> Vec<ObjectReport> {
    check_inputs_with(inputs, rules, opts, &|| {})
}

/// `check_inputs`, calling `done` after each input (a progress bar).
pub fn check_inputs_with(
    inputs: &[Input],
    rules: &Rules,
    opts: &Options,
    done: &(dyn Fn() + Sync),
) -> Vec<ObjectReport> {
    inputs
        .par_iter()
        .flat_map_iter(|i| {
            let r = check_input(i, rules, opts);
            done();
            r
        })
        .collect()
}
