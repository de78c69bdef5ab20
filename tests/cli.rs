//! The command line as a contract: every argument explains itself, flags that
//! contradict each other are errors (exit 2) instead of the last one winning
//! silently, and `-V` works on every subcommand, as their man pages say.

use clap::CommandFactory;
use objlint::app::Cli;
use std::process::Command;

/// Every argument of every (sub)command, as `objlint ... --help` lists it,
/// without help text: `(command path, argument id)`.
fn without_help(cmd: &clap::Command, path: &str, out: &mut Vec<(String, String)>) {
    let mut cmd = cmd.clone();
    // Build as `--help` does: the generated --help/--version count too.
    cmd.build();
    for a in cmd.get_arguments() {
        if a.is_hide_set() {
            continue;
        }
        let help = a.get_help().map(|h| h.to_string()).unwrap_or_default();
        if help.trim().is_empty() {
            out.push((path.to_string(), a.get_id().to_string()));
        }
    }
    for sub in cmd.get_subcommands() {
        if sub.get_name() == "help" {
            continue;
        }
        if sub.get_about().is_none() {
            out.push((path.to_string(), format!("subcommand {}", sub.get_name())));
        }
        without_help(sub, &format!("{path} {}", sub.get_name()), out);
    }
}

#[test]
fn every_argument_has_help() {
    let mut missing = Vec::new();
    without_help(&Cli::command(), "objlint", &mut missing);
    assert!(
        missing.is_empty(),
        "arguments without help text: {missing:?}"
    );
}

/// The walk above sees what `--help` shows: a positional without a doc
/// comment is caught (the check cannot pass vacuously).
#[test]
fn the_help_walk_finds_a_bare_argument() {
    let cmd = clap::Command::new("t")
        .arg(clap::Arg::new("input").help("The input."))
        .arg(clap::Arg::new("output"))
        .subcommand(
            clap::Command::new("sub")
                .about("A sub.")
                .arg(clap::Arg::new("x")),
        );
    let mut missing = Vec::new();
    without_help(&cmd, "t", &mut missing);
    assert_eq!(
        missing,
        [
            ("t".to_string(), "output".to_string()),
            ("t sub".to_string(), "x".to_string())
        ]
    );
}

fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_objlint"))
        .args(args)
        .output()
        .unwrap();
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

const OBJ: &str = "testdata/examples";

#[test]
fn contradicting_flags_are_errors() {
    for (args, says) in [
        (&["check", "--ibt", "--no-ibt", OBJ][..], "--no-ibt"),
        (&["check", "--no-ibt", "--ibt", OBJ], "--ibt"),
        (
            &["check", "--frame-pointer", "--no-frame-pointer", OBJ],
            "--no-frame-pointer",
        ),
        (
            &[
                "check",
                "--enable",
                "fallthrough",
                "--disable",
                "fallthrough",
                OBJ,
            ],
            "--enable and --disable both name \"fallthrough\"",
        ),
        (
            &[
                "check",
                "--enable",
                "uaccess-call,fallthrough",
                "--disable=sls,fallthrough",
                OBJ,
            ],
            "both name \"fallthrough\"",
        ),
        (
            &["check", "--mitigations", "none,retpoline", OBJ],
            "none cannot go with a mitigation",
        ),
        (
            &[
                "seal",
                "--mode",
                "nop",
                "-o",
                "/nonexistent/out.o",
                "--in-place",
                "testdata/symtab/seal_x86.o",
            ],
            "--in-place",
        ),
        (&["stats", "--summary", "--list", OBJ], "--list"),
        (&["rules", "--explain", "sls", "--markdown"], "--markdown"),
    ] {
        let (code, out, err) = run(args);
        assert_eq!(code, Some(2), "{args:?}: {out}{err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?} wrote {out}");
    }
    // Each flag alone is fine.
    for args in [
        &["check", "-q", "--ibt", OBJ][..],
        &["check", "-q", "--no-ibt", OBJ],
        &[
            "check",
            "-q",
            "--enable",
            "fallthrough",
            "--disable",
            "sls",
            OBJ,
        ],
        &["check", "-q", "--mitigations", "none", OBJ],
    ] {
        let (code, _, err) = run(args);
        assert!(matches!(code, Some(0 | 1)), "{args:?}: {err}");
    }
}

/// objlint-check(1) and the other subcommands' pages list `-V, --version`:
/// it works there as on objlint itself.
#[test]
fn version_on_every_subcommand() {
    let want = format!("{}\n", env!("CARGO_PKG_VERSION"));
    let top = Cli::command();
    let mut names: Vec<String> = vec![String::new()];
    names.extend(
        top.get_subcommands()
            .map(|s| s.get_name().to_string())
            .filter(|n| n != "help"),
    );
    for name in names {
        for flag in ["-V", "--version"] {
            let args: Vec<&str> = if name.is_empty() {
                vec![flag]
            } else {
                vec![name.as_str(), flag]
            };
            let (code, out, err) = run(&args);
            assert_eq!(code, Some(0), "{args:?}: {err}");
            assert!(out.ends_with(&want), "{args:?}: {out:?}");
        }
        // And the man page says so.
        if !name.is_empty() {
            let (_, page, _) = run(&["man", &name]);
            assert!(
                page.contains("\\-V\\fR, \\fB\\-\\-version"),
                "{name}: {page}"
            );
        }
    }
}

/// `unwind --kernel` takes a version and says what it wants otherwise; the
/// version changes what the table is compared with (Linux 7.x's objtool
/// gives an assembly function's padding no state).
#[test]
fn unwind_takes_the_kernel_version() {
    let thunk = "testdata/real7/kbuild/thunk.o";
    let (code, out, err) = run(&["unwind", "--kernel", "seven", thunk]);
    assert_eq!(code, Some(2), "{out}{err}");
    assert!(err.contains("--kernel wants a kernel version"), "{err}");
    let reference = "testdata/real7/kbuild/thunk.orc.o";
    let agree = |k: &str| {
        let (code, out, err) = run(&[
            "unwind",
            "--format",
            "json",
            "--prefix",
            "16",
            "--kernel",
            k,
            "--reference",
            reference,
            thunk,
        ]);
        // 1 when the tables disagree.
        assert!(matches!(code, Some(0 | 1)), "{err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        v["orc"]["disagree"].as_u64().unwrap()
    };
    assert_eq!(agree("7.3"), 0);
    assert!(agree("6.12") > 0);
}
