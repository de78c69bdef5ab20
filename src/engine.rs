//! Runs the checks over inputs in parallel, in a deterministic order.

use crate::checks::{self, Ctx, Finding};
use crate::config::Options;
use crate::elf::{Machine, Object};
use crate::input::{self, Input};
use crate::model::Model;
use crate::rules::Rules;
use crate::timing::{self, Phase};
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
    /// Where each section's bytes start in the object (`None` for sections
    /// without bytes), by section index: SARIF's byte regions.
    pub section_offsets: Vec<Option<u64>>,
    /// Findings dropped by the config's per-file and per-symbol ignores.
    pub ignored: usize,
}

/// [`ObjectReport::section_offsets`] of an object.
pub fn section_offsets(obj: &Object) -> Vec<Option<u64>> {
    obj.sections
        .iter()
        .map(|s| (s.sh_type != goblin::elf::section_header::SHT_NOBITS).then_some(s.offset))
        .collect()
}

/// Check one object held in memory.
pub fn check_bytes(file: &str, data: &[u8], rules: &Rules, opts: &Options) -> ObjectReport {
    let mut rep = ObjectReport {
        file: file.to_string(),
        ..Default::default()
    };
    // The reader checks every offset it uses; the guard is for its bugs.
    let obj = match catch_unwind(|| timing::time(Phase::Read, || Object::parse(data))) {
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
    rep.section_offsets = section_offsets(&obj);
    if opts.arch.is_some_and(|a| a != obj.machine) {
        return rep;
    }
    let result = catch_unwind(AssertUnwindSafe(|| {
        let model = timing::time(Phase::Model, || Model::build(&obj, rules));
        let cx = Ctx::new(&model, rules, opts);
        let mut findings = run_checks(&cx);
        timing::time(Phase::Source, || {
            crate::source::annotate(&obj, &mut findings)
        });
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
    // Each with its place in checks::all(), which names its timing.
    let checks: Vec<_> = checks::all()
        .into_iter()
        .enumerate()
        .filter(|(_, c)| cx.opts.enabled(c.id()))
        .collect();
    let funcs = &cx.model.functions;
    let mut out: Vec<Finding> = funcs
        .par_iter()
        .with_min_len(64)
        .flat_map_iter(|f| {
            let mut v = Vec::new();
            for &(i, c) in &checks {
                timing::time(Phase::Rule(i), || c.check_function(cx, f, &mut v));
            }
            v
        })
        .collect();
    for &(i, c) in &checks {
        timing::time(Phase::Rule(i), || c.check_object(cx, &mut out));
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
    let loaded = match timing::time(Phase::Read, || input::load(&inp.path)) {
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
            let mut rep = check_bytes(&file, &loaded.bytes[range.clone()], rules, opts);
            rep.ignored = opts.ignores.filter(&inp.path, &mut rep.findings);
            rep
        })
        .collect()
}

/// Check all inputs, in parallel; reports come back in input order.
pub fn check_inputs(inputs: &[Input], rules: &Rules, opts: &Options) -> Vec<ObjectReport> {
    let mut all = Vec::new();
    check_inputs_streaming(inputs, rules, opts, &mut |r| all.extend(r));
    all
}

/// Check all inputs in parallel and hand each input's reports to `sink` in
/// input order, as soon as it and every input before it are done (ripgrep's
/// habit). Workers take inputs in order from one counter, so what waits for an
/// earlier input is at most about one per worker: memory stays flat however
/// many objects a run has. Each input's own work (archive members, sections,
/// functions) is parallel inside it.
pub fn check_inputs_streaming(
    inputs: &[Input],
    rules: &Rules,
    opts: &Options,
    sink: &mut dyn FnMut(Vec<ObjectReport>),
) {
    check_inputs_streaming_with(inputs, &|_| (rules, opts), sink)
}

/// [`check_inputs_streaming`] with the rules and options of each input
/// (by index): each object under its own `objlint.toml`.
pub fn check_inputs_streaming_with<'a>(
    inputs: &[Input],
    setup: &(dyn Fn(usize) -> (&'a Rules, &'a Options) + Sync),
    sink: &mut dyn FnMut(Vec<ObjectReport>),
) {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let next = AtomicUsize::new(0);
    let (tx, rx) = std::sync::mpsc::channel::<(usize, Vec<ObjectReport>)>();
    // The body runs on the calling thread, which must not be a pool worker
    // (it would hold one while it waits).
    rayon::in_place_scope(|s| {
        for _ in 0..rayon::current_num_threads().min(inputs.len()) {
            let (tx, next) = (tx.clone(), &next);
            s.spawn(move |_| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(inp) = inputs.get(i) else { break };
                    let (rules, opts) = setup(i);
                    if tx.send((i, check_input(inp, rules, opts))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut pending = std::collections::BTreeMap::new();
        let mut want = 0;
        for (i, r) in rx {
            pending.insert(i, r);
            while let Some(r) = pending.remove(&want) {
                sink(r);
                want += 1;
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reports reach the sink in input order, each input once, however the
    /// workers finish.
    #[test]
    fn streaming_keeps_input_order() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata");
        let (mut inputs, _) = input::expand(&[root.join("core"), root.join("examples")]);
        let once = inputs.clone();
        for _ in 0..3 {
            inputs.extend(once.iter().cloned());
        }
        assert!(inputs.len() > 40);
        let rules = Rules::builtin();
        let opts = Options::default();
        let mut seen = Vec::new();
        check_inputs_streaming(&inputs, &rules, &opts, &mut |r| {
            // An archive's reports name its members: `lib.a(member.o)`.
            let f = &r[0].file;
            seen.push(f.split_once('(').map_or(f.as_str(), |p| p.0).to_string());
        });
        let want: Vec<String> = inputs.iter().map(|i| i.name()).collect();
        assert_eq!(seen, want);
    }
}
