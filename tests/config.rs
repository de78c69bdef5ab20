//! `objlint.toml` end to end: found upward from the working directory or
//! given with `--config`; per-rule severities change findings and the exit
//! status; extra noreturn names change what falls through.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn fixture() -> PathBuf {
    std::fs::canonicalize("testdata/source/x86-gcc-dwarf5.o").unwrap()
}

fn run_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_objlint"))
        .args(["check", "--format", "short"])
        .args(args)
        .arg(fixture())
        .current_dir(dir)
        .output()
        .unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

/// A project folder with `objlint.toml` and a subfolder to run from.
fn project(config: &str) -> (tempfile::TempDir, PathBuf) {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("objlint.toml"), config).unwrap();
    let sub = d.path().join("build/deep");
    std::fs::create_dir_all(&sub).unwrap();
    (d, sub)
}

#[test]
fn without_config_findings_are_errors() {
    let d = tempfile::tempdir().unwrap();
    let o = run_in(d.path(), &[]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o).matches(": error: ").count(), 2);
}

#[test]
fn severity_warning_keeps_findings_exit_zero() {
    let (_d, sub) = project("[rules]\nfallthrough = \"warning\"\n");
    let o = run_in(&sub, &[]);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let out = stdout(&o);
    assert_eq!(out.matches(": warning: ").count(), 2, "{out}");
    assert!(!out.contains(": error: "));
}

#[test]
fn deny_warnings_makes_warnings_fail() {
    let warn = "[rules]\nfallthrough = \"warning\"\n";
    let (_d, sub) = project(warn);
    let o = run_in(&sub, &["--deny-warnings"]);
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    assert_eq!(stdout(&o).matches(": warning: ").count(), 2);
    let (_d, sub) = project(&format!("deny_warnings = true\n{warn}"));
    assert_eq!(run_in(&sub, &[]).status.code(), Some(1));
    // The flag turns it on over a config that says false.
    let (_d, sub) = project(&format!("deny_warnings = false\n{warn}"));
    assert_eq!(run_in(&sub, &[]).status.code(), Some(0));
    assert_eq!(run_in(&sub, &["--deny-warnings"]).status.code(), Some(1));
    // No findings at all: still 0.
    let (_d, sub) = project("deny_warnings = true\n[rules]\nfallthrough = \"off\"\n");
    assert_eq!(run_in(&sub, &["--deny-warnings"]).status.code(), Some(0));
}

#[test]
fn severity_off_removes_findings() {
    let (_d, sub) = project("[rules]\nfallthrough = \"off\"\n");
    let o = run_in(&sub, &[]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o), "");
}

#[test]
fn severity_error_exits_one() {
    let (_d, sub) = project("[rules]\nfallthrough = \"error\"\n");
    let o = run_in(&sub, &[]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o).matches(": error: ").count(), 2);
}

#[test]
fn extra_noreturn_names_end_paths() {
    let (_d, sub) = project("noreturn = [\"fixture_die\"]\n");
    let o = run_in(&sub, &[]);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    assert_eq!(stdout(&o), "");
}

#[test]
fn explicit_config_wins_over_the_found_one() {
    let (d, sub) = project("[rules]\nfallthrough = \"off\"\n");
    let other = d.path().join("strict.toml");
    std::fs::write(&other, "[rules]\nfallthrough = \"warning\"\n").unwrap();
    let o = run_in(&sub, &["--config", other.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o).matches(": warning: ").count(), 2);
}

#[test]
fn command_line_disable_applies_over_config() {
    let (_d, sub) = project("[rules]\nfallthrough = \"error\"\n");
    let o = run_in(&sub, &["--disable", "fallthrough"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o), "");
}

#[test]
fn bad_config_is_a_usage_error_naming_the_file() {
    for bad in [
        "[rules]\nfallthrough = \"loud\"\n",
        "[rules]\nno-such-rule = \"off\"\n",
        "unknown_key = 1\n",
        "noreturn = \"not a list\"\n",
        "patchable = [2, 4]\n",
    ] {
        let (_d, sub) = project(bad);
        let o = run_in(&sub, &[]);
        assert_eq!(o.status.code(), Some(2), "{bad}: {o:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("objlint.toml: "), "{bad}: {err}");
        assert_eq!(stdout(&o), "");
    }
}

/// Mistyped names get the nearest real one, wherever they are.
#[test]
fn mistakes_name_their_place_and_the_nearest_name() {
    let cases: [(&str, &[&str], &str); 3] = [
        (
            "[rules]\nfalltrough = \"off\"\n",
            &[],
            "objlint.toml: [rules]: unknown rule \"falltrough\"",
        ),
        ("rule = 1\n", &[], "did you mean `rules`?"),
        (
            "",
            &["--enable", "stack-mismach"],
            "--enable: unknown rule \"stack-mismach\" (see `objlint rules`); did you mean stack-mismatch?",
        ),
    ];
    for (config, args, want) in cases {
        let (_d, sub) = project(config);
        let o = run_in(&sub, args);
        assert_eq!(o.status.code(), Some(2));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(want), "{want}: {err}");
    }
    assert!(
        String::from_utf8_lossy(&run_in(&project("[rules]\nfalltrough = \"off\"\n").1, &[]).stderr)
            .contains("did you mean fallthrough?")
    );
}

/// `--rules` is as strict as objlint.toml: the folder must exist, hold only
/// rule files, and each key must be known; errors name the user's file.
#[test]
fn rule_folders_are_strict() {
    let d = tempfile::tempdir().unwrap();
    let o = run_in(d.path(), &["--rules", "/nonexistent"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("rules folder /nonexistent: "));
    let r = d.path().join("r");
    std::fs::create_dir(&r).unwrap();
    std::fs::write(
        r.join("noreturn.toml"),
        "[any]\nnames = [\"a\"]\nnams = [\"b\"]\n",
    )
    .unwrap();
    let o = run_in(d.path(), &["--rules", "r"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("r/noreturn.toml: ") && err.contains("did you mean `names`?"),
        "{err}"
    );
    std::fs::remove_file(r.join("noreturn.toml")).unwrap();
    std::fs::write(r.join("noretrun.toml"), "").unwrap();
    let o = run_in(d.path(), &["--rules", "r"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("not a rule file") && err.contains("did you mean noreturn.toml?"),
        "{err}"
    );
    // A folder of real rule files is taken.
    std::fs::remove_file(r.join("noretrun.toml")).unwrap();
    std::fs::copy("rules/noreturn.toml", r.join("noreturn.toml")).unwrap();
    assert_eq!(run_in(d.path(), &["--rules", "r"]).status.code(), Some(1));
}

#[test]
fn missing_explicit_config_is_an_error() {
    let d = tempfile::tempdir().unwrap();
    let o = run_in(d.path(), &["--config", "nope.toml"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("nope.toml"));
}

/// The example in docs/CONFIG.md is a valid config.
#[test]
fn documented_example_is_valid() {
    let doc = std::fs::read_to_string("docs/CONFIG.md").unwrap();
    let start = doc.find("```toml\n").unwrap() + 8;
    let example = &doc[start..start + doc[start..].find("```").unwrap()];
    let (d, sub) = project(example);
    // The folder it names must exist (an empty one keeps the built-in rules).
    std::fs::create_dir(d.path().join("objlint-rules")).unwrap();
    let o = run_in(&sub, &[]);
    // Other rules may have their say about this object under `ibt = true` and
    // `patchable = [4, 2]`; the config itself must be accepted.
    assert_ne!(o.status.code(), Some(2), "{o:?}");
    assert_eq!(stdout(&o).matches("[fallthrough]").count(), 2);
}
