//! The speculation rules (retpoline, rethunk, sls) on testdata/speculation:
//! compiler output for every mitigation stays clean, the hand-written cases
//! are reported, and on x86 objlint agrees with objtool's own output on the
//! same objects (NAME.objtool, written by testdata/speculation/build.sh)
//! except where objlint reads what objtool 6.12 does not.
//!
//! After a deliberate change, rewrite the expected files with
//! `OBJLINT_BLESS=1 cargo test --test speculation` and review the diff.

#[path = "common/expected.rs"]
mod expected;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testdata/speculation")
}

fn objects() -> Vec<String> {
    let mut out = Vec::new();
    for arch in ["x86", "arm64"] {
        let mut v: Vec<String> = std::fs::read_dir(dir().join(arch))
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter(|n| n.ends_with(".o"))
            .map(|n| format!("{arch}/{n}"))
            .collect();
        v.sort();
        out.extend(v);
    }
    out
}

fn objlint(args: &[&str]) -> (String, Option<i32>) {
    let out = Command::new(env!("CARGO_BIN_EXE_objlint"))
        .current_dir(dir())
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (String::from_utf8(out.stdout).unwrap(), out.status.code())
}

const RULES: &str = "retpoline,rethunk,sls";
/// The rules on the walk the `reach*` fixtures are for.
const WALK_RULES: &str = "unreachable,direction-flag,intra-function-call";
const ALL_RULES: &str = "retpoline,rethunk,sls,unreachable,direction-flag,intra-function-call";

#[test]
fn fixtures_match_expected_findings() {
    let mut failures = Vec::new();
    let objs = objects();
    assert!(objs.len() >= 17, "fixtures missing: {objs:?}");
    for o in &objs {
        let (got, code) = objlint(&["check", "--format", "short", "-q", "--enable", ALL_RULES, o]);
        assert_eq!(code, Some(i32::from(got.contains(": error: "))), "{o}");
        expected::check(
            &dir().join(o.replace(".o", ".expected")),
            &got,
            o,
            &mut failures,
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The cases, stated once more so that a blessed file cannot hide a
/// regression: compiler output is clean whatever the mitigation, and each
/// hand-written fault is reported by its rule, nothing else.
#[test]
fn fixtures_cover_the_cases() {
    let read = |p: &str| std::fs::read_to_string(dir().join(p)).unwrap();
    for o in objects().iter().filter(|o| o.contains("/spec-")) {
        assert_eq!(read(&o.replace(".o", ".expected")), "", "{o} must be clean");
    }
    let sites = |p: &str| -> Vec<(String, String)> {
        read(p)
            .lines()
            .map(|l| {
                let mut it = l.split(": ");
                let _file = it.next();
                let sym = it.next().unwrap().to_string();
                let rule = l
                    .rsplit('[')
                    .next()
                    .unwrap()
                    .trim_end_matches(']')
                    .to_string();
                (sym, rule)
            })
            .collect()
    };
    let pairs = |v: &[(&str, &str)]| -> Vec<(String, String)> {
        v.iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    };
    assert_eq!(
        sites("x86/retpoline-bad.expected"),
        pairs(&[
            ("bad_call+0x0", "retpoline"),
            ("bad_jump+0x0", "retpoline"),
            ("bad_ret+0x2", "rethunk"),
        ])
    );
    assert_eq!(
        sites("x86/reach.expected"),
        pairs(&[
            ("dead+0x1", "unreachable"),
            ("after_noreturn+0x9", "unreachable"),
            ("padded+0x3", "unreachable"),
        ])
    );
    assert_eq!(
        sites("x86/reach-df.expected"),
        pairs(&[
            ("df_call+0x1", "direction-flag"),
            ("df_return+0x1", "direction-flag"),
            ("redundant_cld+0x0", "direction-flag"),
        ])
    );
    assert_eq!(
        sites("x86/reach-intra.expected"),
        pairs(&[("intra+0x0", "intra-function-call")])
    );
    assert_eq!(
        sites("arm64/reach.expected"),
        pairs(&[("dead+0x4", "unreachable")])
    );
    assert_eq!(
        sites("x86/retpoline-module.expected"),
        pairs(&[("init_module+0x7", "retpoline")])
    );
    assert_eq!(
        sites("x86/sls-bad.expected"),
        pairs(&[("bad_ret+0x0", "sls"), ("bad_jump+0x0", "sls")])
    );
    assert_eq!(
        sites("arm64/sls-bad.expected"),
        pairs(&[
            ("bad_ret+0x0", "sls"),
            ("bad_br+0x0", "sls"),
            ("bad_blr+0x8", "sls"),
        ])
    );
}

/// objtool's lines `FILE: warning: objtool: SYM+OFF: MESSAGE` as (SYM+OFF, MESSAGE).
fn objtool_lines(p: &Path) -> BTreeSet<(String, String)> {
    std::fs::read_to_string(p)
        .unwrap()
        .lines()
        .filter_map(|l| {
            let rest = l.split(": warning: objtool: ").nth(1)?;
            let (at, msg) = rest.split_once(": ")?;
            Some((at.to_string(), msg.to_string()))
        })
        .collect()
}

/// Where objlint and objtool 6.12 differ on the fixtures, by design: places
/// objlint knows need no thunk and objtool does not (it reads neither newer
/// kernels' typed annotations nor what an alternative does; the kernel's own
/// sources annotate those sites for it).
const KNOWN: [(&str, &str, &str); 3] = [
    (
        "x86/retpoline-bad.o",
        "annotated_typed+0x0",
        "ANNOTYPE_RETPOLINE_SAFE in .discard.annotate_insn (newer kernels)",
    ),
    (
        "x86/retpoline-bad.o",
        "pv_call+0x0",
        "ALT_FLAG_DIRECT_CALL: the kernel makes it a direct call",
    ),
    (
        "x86/retpoline-bad.o",
        "nospec+0x0",
        "CALL_NOSPEC: the alternative's other form is the thunk",
    ),
];

/// objtool forces the mitigations it is told; so does `--mitigations`. Then
/// every x86 fixture gets the same findings from both, save [`KNOWN`].
#[test]
fn x86_agrees_with_objtool() {
    let mut compared = 0;
    for o in objects().iter().filter(|o| o.starts_with("x86/")) {
        let truth = dir().join(o.replace(".o", ".objtool"));
        if !truth.exists() {
            continue;
        }
        let theirs = objtool_lines(&truth);
        // objtool ran its walk (--stackval) on the reach fixtures, its
        // speculation checks, forced, on the others.
        let args: Vec<&str> = if o.contains("/reach") {
            vec![
                "check", "--format", "short", "-q", "--enable", WALK_RULES, o,
            ]
        } else {
            vec![
                "check",
                "--format",
                "short",
                "-q",
                "--mitigations",
                RULES,
                "--enable",
                RULES,
                o,
            ]
        };
        let (out, _) = objlint(&args);
        // objtool warns once per symbol and run: per symbol the first
        // place in address order, of retpoline/rethunk and of sls apart.
        let mut first: std::collections::BTreeMap<(bool, String), (u64, String)> =
            Default::default();
        for l in out.lines() {
            let mut it = l.splitn(3, ": ");
            let _ = it.next();
            let at = it.next().unwrap();
            let msg = it.next().unwrap();
            let msg = msg.strip_prefix("error: ").unwrap_or(msg);
            let msg = msg.strip_prefix("warning: ").unwrap_or(msg);
            let (msg, rule) = msg.rsplit_once(" [").unwrap();
            let (sym, off) = at.rsplit_once("+0x").unwrap();
            let off = u64::from_str_radix(off, 16).unwrap();
            let e = first
                .entry((rule == "sls]", sym.to_string()))
                .or_insert((off, msg.to_string()));
            if off < e.0 {
                *e = (off, msg.to_string());
            }
        }
        let ours: BTreeSet<(String, String)> = first
            .into_iter()
            .map(|((_, sym), (off, msg))| (format!("{sym}+{off:#x}"), msg))
            .collect();
        let known: BTreeSet<&str> = KNOWN.iter().filter(|k| k.0 == o).map(|k| k.1).collect();
        let only_theirs: BTreeSet<&str> = theirs
            .difference(&ours)
            .map(|(at, _)| at.as_str())
            .collect();
        assert_eq!(only_theirs, known, "{o}: objtool reports, objlint does not");
        let only_ours: Vec<_> = ours.difference(&theirs).collect();
        assert!(
            only_ours.is_empty(),
            "{o}: objlint reports, objtool does not: {only_ours:?}"
        );
        compared += 1;
    }
    // The objtool outputs are committed: the comparison always runs.
    assert!(compared >= 11, "only {compared} objtool outputs found");
}

/// `--format objtool` writes objtool's own lines: on the fixtures where each
/// symbol has one finding (objtool warns once per symbol), the same bytes as
/// objtool's output, with the flags of [`x86_agrees_with_objtool`].
#[test]
fn format_objtool_is_objtools_lines() {
    for o in [
        "x86/reach.o",
        "x86/reach-df.o",
        "x86/reach-intra.o",
        "x86/retpoline-module.o",
    ] {
        let rules = if o.contains("/reach") {
            vec!["--enable", WALK_RULES]
        } else {
            vec!["--mitigations", RULES, "--enable", RULES]
        };
        let mut args = vec!["check", "--format", "objtool", "-q"];
        args.extend(rules);
        args.push(o);
        let (out, code) = objlint(&args);
        assert!(matches!(code, Some(0 | 1)), "{o}");
        let truth = std::fs::read_to_string(dir().join(o.replace(".o", ".objtool"))).unwrap();
        let sorted = |t: &str| {
            let mut v: Vec<String> = t.lines().map(String::from).collect();
            v.sort();
            v
        };
        assert!(!truth.is_empty(), "{o}");
        assert_eq!(sorted(&out), sorted(&truth), "{o}");
    }
}
