//! Every entry of every exemption list in rules/ (issue 15: "a test fails on
//! an exemption that matches nothing in the committed fixtures"): the
//! library records which entries matched while checking (`Rules::log`);
//! this runs every committed object under testdata/ with the option sets the
//! tests use and fails, listing them, on entries that matched nothing.
//!
//! The lists covered are those that make a check skip something (the
//! `Exemption` kinds). Not covered: lists of what functions and sections
//! are (noreturn.toml, uaccess_safe.toml's names, calls.toml's thunks and
//! frame_exempt, profile.toml, export_section): most are objtool's own tables
//! copied whole, their anchor is that source, not a fixture.

use objlint::config::{Mitigations, Options};
use objlint::engine::check_bytes;
use objlint::input::{Bytes, from_bytes};
use objlint::rules::{Exemption, Rules};
use std::path::{Path, PathBuf};

/// Folders not run: testdata/bad holds crafted resource-limit inputs (large
/// once decompressed) that hold no exemption-relevant section.
const SKIP_DIRS: &[&str] = &["bad"];

/// Entries that no committed fixture can match, with why. Kept short: an
/// entry here that does match fails the test too (move it out).
const NO_FIXTURE: &[(Exemption, &str, &str)] = &[];

fn objects(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            if !SKIP_DIRS.iter().any(|s| p.ends_with(s)) {
                objects(&p, out);
            }
            continue;
        }
        let head = std::fs::read(&p).map(|b| b[..b.len().min(8)].to_vec());
        if head.is_ok_and(|h| {
            h.starts_with(b"\x7fELF")
                || h.starts_with(b"!<arch>\n")
                || h.starts_with(b"!<thin>\n")
                || h.starts_with(b"\xfd7zXZ\0")
                || h.starts_with(b"\x28\xb5\x2f\xfd")
        }) {
            out.push(p);
        }
    }
}

/// Checks every fixture with each option set the tests use, recording.
fn run_fixtures(rules: &Rules) -> usize {
    let mut files = Vec::new();
    objects(
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata")),
        &mut files,
    );
    let all = Mitigations {
        retpoline: true,
        rethunk: true,
        sls: true,
        sls_blr: true,
    };
    let option_sets = [
        Options::default(),
        Options {
            link: true,
            ..Default::default()
        },
        Options {
            mitigations: Some(all),
            ibt: Some(true),
            ..Default::default()
        },
    ];
    let mut checked = 0;
    for f in &files {
        let Ok(loaded) = from_bytes(Bytes::Owned(std::fs::read(f).unwrap())) else {
            continue;
        };
        for (_, range) in &loaded.members {
            for opts in &option_sets {
                let name = f.display().to_string();
                let _ = check_bytes(&name, &loaded.bytes[range.clone()], rules, opts);
            }
            checked += 1;
        }
    }
    checked
}

#[test]
fn every_exemption_matches_a_committed_fixture() {
    let rules = Rules::builtin();
    rules.record_exemptions();
    let checked = run_fixtures(&rules);
    assert!(
        checked > 100,
        "only {checked} objects found under testdata/"
    );
    let entries = rules.exemption_entries();
    let mut unmatched = Vec::new();
    let mut allowed_but_matched = Vec::new();
    for ((kind, _, _), desc, hit) in &entries {
        let allowed = NO_FIXTURE
            .iter()
            .any(|(k, d, _)| k == kind && desc.starts_with(&format!("{d:?}")));
        match (hit, allowed) {
            (false, false) => unmatched.push(format!("{}: {desc}", kind.list())),
            (true, true) => allowed_but_matched.push(format!("{}: {desc}", kind.list())),
            _ => {}
        }
    }
    assert!(
        unmatched.is_empty(),
        "{} exemption entries match nothing in the {checked} committed objects:\n  {}",
        unmatched.len(),
        unmatched.join("\n  ")
    );
    assert!(
        allowed_but_matched.is_empty(),
        "entries in NO_FIXTURE do match a fixture; take them out:\n  {}",
        allowed_but_matched.join("\n  ")
    );
    // Every kind of list is covered: the test sees entries of each.
    for kind in [
        Exemption::ExemptSection,
        Exemption::NeverExemptSection,
        Exemption::NoPadTarget,
        Exemption::StateReset,
        Exemption::NonStandard,
        Exemption::SkipFunction,
        Exemption::SpeculationExempt,
        Exemption::NoinstrAllow,
    ] {
        assert!(
            entries.iter().any(|((k, _, _), _, _)| *k == kind),
            "no entries of {}",
            kind.list()
        );
    }
}

/// Without recording switched on nothing is recorded, and an entry that
/// names nothing in the fixtures is reported by name (the mechanism the test
/// above relies on).
#[test]
fn a_dead_entry_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let builtin = include_str!("../rules/landing_pads.toml");
    std::fs::write(
        dir.path().join("landing_pads.toml"),
        format!(
            "{builtin}\n[[exempt_section]]\nname = \".no_such_table\"\nmatch = \"exact\"\nreason = \"dead\"\n"
        ),
    )
    .unwrap();
    let rules = Rules::load(Some(dir.path())).unwrap();
    let obj = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/testdata/landing/ibt-kernel-asm.o"
    ))
    .unwrap();
    let _ = check_bytes("a.o", &obj, &rules, &Options::default());
    assert!(rules.exemption_entries().iter().all(|e| !e.2));
    rules.record_exemptions();
    let _ = check_bytes("a.o", &obj, &rules, &Options::default());
    let entries = rules.exemption_entries();
    let dead: Vec<_> = entries
        .iter()
        .filter(|e| e.1.contains(".no_such_table"))
        .collect();
    assert_eq!(dead.len(), 1);
    assert!(!dead[0].2, "{dead:?}");
    assert!(
        entries.iter().any(|e| e.2),
        "something matched: {entries:?}"
    );
}

fn fixture(path: &str) -> Vec<u8> {
    std::fs::read(format!("{}/testdata/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// (rule, symbol or target symbol) of every finding.
fn findings(rules: &Rules, name: &str, bytes: &[u8]) -> Vec<(String, String)> {
    let rep = check_bytes(name, bytes, rules, &Options::default());
    assert!(rep.error.is_none(), "{name}: {:?}", rep.error);
    rep.findings
        .into_iter()
        .map(|f| {
            let sym = f
                .target
                .and_then(|t| t.symbol)
                .or(f.symbol)
                .unwrap_or_default();
            (f.rule.to_string(), sym)
        })
        .collect()
}

/// The exempt_section entries testdata/landing/exempt-sections-*.s hold
/// decide: with the built-in list nothing is reported; without an entry,
/// the function its section names is.
#[test]
fn exempt_sections_of_the_fixtures_decide() {
    let cases = [
        (
            "landing/exempt-sections-x86.o",
            "ibt-missing-endbr",
            &[
                (".parainstructions", "in_parainstructions"),
                (".smp_locks", "in_smp_locks"),
                ("_error_injection_whitelist", "in_error_injection"),
                ("_kprobe_blacklist", "in_kprobe_blacklist"),
                (".init.klp_funcs", "in_klp_funcs"),
                (".llvm.call-graph-profile", "in_call_graph_profile"),
                (".llvm_bb_addr_map", "in_bb_addr_map"),
            ][..],
        ),
        (
            "landing/exempt-sections-arm64.o",
            "bti-missing-landing-pad",
            &[
                (".bti_seal", "sealed"),
                ("__kvm_ex_table", "in_kvm_ex_table"),
                ("runtime_ptr_", "in_runtime_ptr"),
                ("runtime_shift_", "in_runtime_shift"),
                ("runtime_mask_", "in_runtime_mask"),
            ][..],
        ),
    ];
    for (obj, rule, entries) in cases {
        let bytes = fixture(obj);
        let builtin = Rules::builtin();
        assert_eq!(findings(&builtin, obj, &bytes), [], "{obj}");
        for (section, function) in entries {
            let mut rules = Rules::builtin();
            let k = rules
                .landing_pads
                .exempt_section
                .iter()
                .position(|p| p.name == *section)
                .unwrap_or_else(|| panic!("{section} is not listed"));
            rules.landing_pads.exempt_section.remove(k);
            let got = findings(&rules, obj, &bytes);
            assert!(
                got.iter().any(|(r, s)| r == rule && s == function),
                "{obj} without {section}: {got:?}"
            );
        }
    }
}

/// Each arm64 stack.toml non_standard entry but cpu_switch_to (kept in
/// testdata/landing/real/kbuild-arm64/entry.o) decides in
/// testdata/stack/non-standard-arm64.s (Linux 6.12's forms) or
/// non-standard-arm64-61.s (6.1's): without it, the function draws a stack
/// finding in its section.
#[test]
fn non_standard_functions_of_the_fixture_decide() {
    let objs = [
        "stack/non-standard-arm64.o",
        "stack/non-standard-arm64-61.o",
    ];
    let bytes: Vec<Vec<u8>> = objs.iter().map(|o| fixture(o)).collect();
    let all = |rules: &Rules| -> Vec<(String, String)> {
        objs.iter()
            .zip(&bytes)
            .flat_map(|(o, b)| findings(rules, o, b))
            .collect()
    };
    let stack = |got: &[(String, String)], f: &str| {
        got.iter().any(|(r, s)| r.starts_with("stack-") && s == f)
    };
    let builtin = Rules::builtin();
    let listed: Vec<String> = builtin
        .stack
        .non_standard
        .aarch64
        .iter()
        .map(|e| e.function.clone())
        .collect();
    let base = all(&builtin);
    for f in &listed {
        assert!(!stack(&base, f), "{f}: {base:?}");
    }
    for (k, f) in listed.iter().enumerate() {
        if f == "cpu_switch_to" {
            continue;
        }
        let mut rules = Rules::builtin();
        rules.stack.non_standard.aarch64.remove(k);
        let got = all(&rules);
        assert!(stack(&got, f), "without {f}: {got:?}");
    }
}
