//! Fault injection on real kernel modules (testdata/real): each fault kind
//! breaks one thing a rule exists for; objlint must report it, at the right
//! function, and nothing new elsewhere. Prints the detection rate per kind.

use objlint::arch::Kind;
use objlint::checks::Ctx;
use objlint::config::Options;
use objlint::elf::{Machine, Object};
use objlint::engine::check_bytes;
use objlint::model::Model;
use objlint::rules::Rules;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Byte patches to apply, and the finding they must cause.
struct Fault {
    patches: Vec<(usize, Vec<u8>)>,
    rule: &'static str,
    symbol: String,
}

fn nop_fill(machine: Machine, len: usize) -> Vec<u8> {
    match machine {
        Machine::X86_64 => vec![0x90; len],
        Machine::Aarch64 => [0x1f, 0x20, 0x03, 0xd5]
            .iter()
            .copied()
            .cycle()
            .take(len)
            .collect(),
    }
}

/// `fallthrough`: turn a function's final return or tail jump into NOPs, so
/// its last reachable path runs off the end.
fn drop_final_return(obj: &Object, m: &Model) -> Vec<Fault> {
    let mut out = Vec::new();
    for (fi, f) in m.functions.iter().enumerate() {
        if f.prefix || m.noreturn[fi] {
            continue;
        }
        let Some(code) = m.section_code(f.section) else {
            continue;
        };
        let range = m.insn_range(f);
        let seen = m.reachable(f);
        // Last instruction that is not trailing padding.
        let Some(last) = range
            .clone()
            .rev()
            .find(|&i| !matches!(code.insns[i].kind, Kind::Nop | Kind::Trap))
        else {
            continue;
        };
        let ins = code.insns[last];
        if !seen[last - range.start]
            || !matches!(ins.kind, Kind::Return | Kind::Jump | Kind::IndirectJump)
        {
            continue;
        }
        let sec = &obj.sections[f.section];
        let start = (sec.offset + ins.offset) as usize;
        let len = (f.end - ins.offset) as usize;
        out.push(Fault {
            patches: vec![(start, nop_fill(obj.machine, len))],
            rule: "fallthrough",
            symbol: f.name.clone(),
        });
    }
    out
}

type Injector = fn(&Object, &Model) -> Vec<Fault>;

fn kinds() -> Vec<(&'static str, Injector)> {
    vec![("drop-final-return", drop_final_return)]
}

fn real_objects() -> Vec<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testdata/real");
    let (inputs, errs) = objlint::input::expand(&[root]);
    assert!(errs.is_empty());
    inputs.into_iter().map(|i| i.path).collect()
}

fn key(f: &objlint::checks::Finding) -> (String, Option<String>, String) {
    (f.rule.to_string(), f.symbol.clone(), f.message.clone())
}

#[test]
fn injected_faults_are_reported() {
    let rules = Rules::builtin();
    let opts = Options::default();
    let mut rate: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let objects = real_objects();
    assert!(objects.len() >= 8, "testdata/real holds the real modules");
    for path in objects {
        let bytes = std::fs::read(&path).unwrap();
        let name = path.display().to_string();
        let base = check_bytes(&name, &bytes, &rules, &opts);
        assert!(base.error.is_none(), "{name}: {:?}", base.error);
        let before: Vec<_> = base.findings.iter().map(key).collect();
        let obj = Object::parse(&bytes).unwrap();
        let model = Model::build(&obj, &rules);
        let _ = Ctx {
            model: &model,
            rules: &rules,
            opts: &opts,
        };
        for (kind, inject) in kinds() {
            let faults = inject(&obj, &model);
            // Spread over the object, at most 25 per object and kind.
            let step = faults.len().div_ceil(25).max(1);
            for fault in faults.into_iter().step_by(step) {
                let mut b = bytes.clone();
                for (at, p) in &fault.patches {
                    b[*at..*at + p.len()].copy_from_slice(p);
                }
                let rep = check_bytes(&name, &b, &rules, &opts);
                assert!(rep.error.is_none());
                let new: Vec<_> = rep
                    .findings
                    .iter()
                    .filter(|f| !before.contains(&key(f)))
                    .collect();
                let hit = new
                    .iter()
                    .any(|f| f.rule == fault.rule && f.symbol.as_deref() == Some(&fault.symbol));
                let e = rate.entry(kind).or_default();
                e.0 += 1;
                e.1 += hit as usize;
                assert!(
                    hit,
                    "{name}: {kind} in {} not reported; new findings: {new:?}",
                    fault.symbol
                );
                assert!(
                    new.iter().all(|f| f.rule == fault.rule && f.symbol.as_deref() == Some(&fault.symbol)),
                    "{name}: {kind} in {} caused unrelated findings: {new:?}",
                    fault.symbol
                );
            }
        }
    }
    for (kind, (n, hit)) in &rate {
        eprintln!("fault {kind}: {hit}/{n} detected");
        assert!(*n > 0, "no site for {kind} in the real objects");
    }
}
