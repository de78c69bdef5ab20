//! Output habits of `check` and the other subcommands: colour, the summary
//! line's counts, formats a subcommand cannot write.

use std::process::{Command, Output};

const DWARF: &str = "testdata/examples/fallthrough-dwarf.o";

/// objlint with the colour variables cleared, then `env` set.
fn objlint(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_objlint"));
    c.args(args)
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env("TERM", "xterm-256color");
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().unwrap()
}

fn has_escapes(out: &Output) -> bool {
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    out.stdout.contains(&0x1b)
}

#[test]
fn color_always_never_and_the_environment() {
    let human = |color: &str, env: &[(&str, &str)]| {
        has_escapes(&objlint(
            &["check", "--format", "human", "--color", color, DWARF],
            env,
        ))
    };
    assert!(human("always", &[]));
    assert!(human("always", &[("NO_COLOR", "1")]));
    assert!(!human("never", &[]));
    assert!(!human("never", &[("CLICOLOR_FORCE", "1")]));
    // stdout is a pipe here: auto colours only when forced, never with NO_COLOR.
    assert!(!human("auto", &[]));
    assert!(human("auto", &[("CLICOLOR_FORCE", "1")]));
    assert!(!human("auto", &[("CLICOLOR_FORCE", "0")]));
    assert!(!human("auto", &[("NO_COLOR", "1")]));
    assert!(!human(
        "auto",
        &[("NO_COLOR", "1"), ("CLICOLOR_FORCE", "1")]
    ));
    // The default is auto.
    let out = objlint(
        &["check", "--format", "human", DWARF],
        &[("CLICOLOR_FORCE", "1")],
    );
    assert!(has_escapes(&out));
    // Line formats carry no colour whatever is asked.
    let out = objlint(
        &["check", "--format", "short", "--color", "always", DWARF],
        &[],
    );
    assert!(!has_escapes(&out));
}

#[test]
fn bad_color_value_is_a_usage_error() {
    let out = objlint(&["check", "--color", "sometimes", DWARF], &[]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
}

fn summary(args: &[&str]) -> String {
    let out = objlint(args, &[]);
    let err = String::from_utf8(out.stderr).unwrap();
    let line = err.lines().last().unwrap_or_default();
    // The elapsed time varies.
    line.rsplit_once(", ").unwrap().0.to_string()
}

#[test]
fn the_summary_says_one_in_the_singular() {
    assert_eq!(
        summary(&[
            "check",
            "--mitigations",
            "retpoline",
            "--enable",
            "retpoline",
            "testdata/speculation/x86/retpoline-module.o",
        ]),
        "objlint: 1 object, 1 function, 1 finding (1 error), 0 not fully checked, 0 unreadable"
    );
    assert_eq!(
        summary(&["check", DWARF]),
        "objlint: 1 object, 3 functions, 2 findings (2 errors), 0 not fully checked, 0 unreadable"
    );
    assert_eq!(
        summary(&[
            "check",
            "--enable",
            "fallthrough",
            DWARF,
            "testdata/examples/ibt-x86_64.o"
        ]),
        "objlint: 2 objects, 14 functions, 3 findings (2 errors), 1 not fully checked, 0 unreadable"
    );
}

#[test]
fn a_format_a_subcommand_cannot_write_is_a_usage_error() {
    let cases: [(&[&str], &str); 3] = [
        (
            &["stats", "--format", "sarif", DWARF],
            "objlint: error: stats cannot write --format sarif; it writes human, short, json\n",
        ),
        (
            &["stats", "--format", "objtool", DWARF],
            "objlint: error: stats cannot write --format objtool; it writes human, short, json\n",
        ),
        (
            &["unwind", "--format", "sarif", DWARF],
            "objlint: error: unwind cannot write --format sarif; it writes human, short, json\n",
        ),
    ];
    for (args, want) in cases {
        let out = objlint(args, &[]);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
        assert!(out.stdout.is_empty(), "{args:?}: {out:?}");
        assert_eq!(String::from_utf8_lossy(&out.stderr), want, "{args:?}");
    }
    // The formats it can write still work.
    for f in ["human", "short", "json"] {
        let out = objlint(&["stats", "--format", f, DWARF], &[]);
        assert_eq!(out.status.code(), Some(0), "{f}: {out:?}");
        assert!(!out.stdout.is_empty(), "{f}");
    }
}

/// docs/RULES.md, which rule documentation URLs point into, is what
/// `objlint rules --markdown` writes from rules/rules.toml today, with an
/// anchor per rule id.
#[test]
fn docs_rules_md_is_current() {
    let out = objlint(&["rules", "--markdown"], &[]);
    assert_eq!(out.status.code(), Some(0));
    let got = String::from_utf8(out.stdout).unwrap();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/RULES.md");
    if std::env::var_os("OBJLINT_BLESS").is_some() {
        std::fs::write(path, &got).unwrap();
    }
    let want = std::fs::read_to_string(path).unwrap();
    assert!(
        got == want,
        "docs/RULES.md is stale: objlint rules --markdown > docs/RULES.md"
    );
    for d in objlint::rules::Rules::builtin().docs {
        assert!(got.contains(&format!("<a id=\"{}\"></a>\n\n## {}\n", d.id, d.id)));
    }
}

/// A rules_doc_url that is not an absolute URL is a config error naming
/// the file.
#[test]
fn a_bad_rules_doc_url_is_a_config_error() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("objlint.toml");
    std::fs::write(&cfg, "rules_doc_url = \"docs/RULES.md#{rule}\"\n").unwrap();
    let out = objlint(&["check", "--config", cfg.to_str().unwrap(), DWARF], &[]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("objlint.toml: rules_doc_url") && err.contains("absolute URL"),
        "{err}"
    );
}
