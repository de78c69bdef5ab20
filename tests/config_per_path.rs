//! `objlint.toml` found from each checked object upward (as ruff and git
//! find theirs), and its per-file and per-symbol ignores.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn fixture(name: &str) -> PathBuf {
    std::fs::canonicalize(Path::new("testdata/examples").join(name)).unwrap()
}

/// objlint check --format short ARGS, run in `dir`.
fn check_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_objlint"))
        .args(["check", "--format", "short"])
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// `root/NAME/objlint.toml` holding `config` (when given) and the fixtures
/// copied to `root/NAME/obj/`.
fn tree(root: &Path, name: &str, config: Option<&str>, objects: &[&str]) -> PathBuf {
    let dir = root.join(name);
    std::fs::create_dir_all(dir.join("obj")).unwrap();
    if let Some(c) = config {
        std::fs::write(dir.join("objlint.toml"), c).unwrap();
    }
    for o in objects {
        std::fs::copy(fixture(o), dir.join("obj").join(o)).unwrap();
    }
    dir
}

/// Two trees, each with its own objlint.toml, checked in one run from a
/// folder with none: each object gets its own tree's settings.
#[test]
fn each_object_uses_the_config_above_it() {
    let t = tempfile::tempdir().unwrap();
    let elsewhere = t.path().join("cwd");
    std::fs::create_dir(&elsewhere).unwrap();
    let a = tree(
        t.path(),
        "a",
        Some("[rules]\nuaccess-call = \"off\"\n"),
        &["uaccess-x86_64.o"],
    );
    let b = tree(t.path(), "b", None, &["uaccess-x86_64.o"]);
    let o = check_in(
        &elsewhere,
        &[
            a.join("obj").to_str().unwrap(),
            b.join("obj").to_str().unwrap(),
        ],
    );
    let out = text(&o.stdout);
    let calls = |tree: &Path| {
        out.lines()
            .filter(|l| l.starts_with(tree.to_str().unwrap()) && l.contains("[uaccess-call]"))
            .count()
    };
    assert_eq!(calls(&a), 0, "{out}");
    assert_eq!(calls(&b), 4, "{out}");
    assert_eq!(o.status.code(), Some(1));

    // A tree without a config of its own falls back to the one found from
    // the working directory.
    std::fs::write(
        elsewhere.join("objlint.toml"),
        "[rules]\nuaccess-return = \"off\"\n",
    )
    .unwrap();
    let o = check_in(
        &elsewhere,
        &[
            a.join("obj").to_str().unwrap(),
            b.join("obj").to_str().unwrap(),
        ],
    );
    let out = text(&o.stdout);
    let returns: Vec<&str> = out
        .lines()
        .filter(|l| l.contains("[uaccess-return]"))
        .collect();
    // a's own config does not turn uaccess-return off; b takes the cwd's.
    assert_eq!(returns.len(), 1, "{out}");
    assert!(returns[0].starts_with(a.to_str().unwrap()), "{out}");
}

/// `--config` still decides for every object.
#[test]
fn an_explicit_config_wins_everywhere() {
    let t = tempfile::tempdir().unwrap();
    let a = tree(
        t.path(),
        "a",
        Some("[rules]\nuaccess-call = \"off\"\n"),
        &["uaccess-x86_64.o"],
    );
    let cfg = t.path().join("other.toml");
    std::fs::write(&cfg, "[rules]\ngnu-property = \"off\"\n").unwrap();
    let o = check_in(
        t.path(),
        &["--config", cfg.to_str().unwrap(), a.to_str().unwrap()],
    );
    let out = text(&o.stdout);
    assert_eq!(out.matches("[uaccess-call]").count(), 4, "{out}");
    assert_eq!(out.matches("[gnu-property]").count(), 0, "{out}");
}

#[test]
fn per_file_and_per_symbol_ignores() {
    let t = tempfile::tempdir().unwrap();
    let config = r#"
[per_file_ignores]
# A file name: matches anywhere under this folder.
"fallthrough-dwarf.o" = ["fallthrough"]
# A path: relative to this file's folder.
"obj/uaccess-*.o" = ["gnu-property"]
"other/*.o" = ["uaccess-call"]

[per_symbol_ignores]
"call_*" = ["uaccess-call"]
"save_restore_bad" = ["uaccess-redundant"]
"#;
    let d = tree(
        t.path(),
        "p",
        Some(config),
        &["fallthrough-dwarf.o", "uaccess-x86_64.o"],
    );
    let o = check_in(t.path(), &[d.to_str().unwrap()]);
    let out = text(&o.stdout);
    let err = text(&o.stderr);
    // fallthrough-dwarf.o: both fallthrough findings ignored.
    assert!(!out.contains("[fallthrough]"), "{out}");
    // uaccess: gnu-property by path, call_open/call_indirect by symbol;
    // tail_open's and save_restore_bad's calls stay (another symbol, or
    // another rule ignored in that symbol).
    assert!(!out.contains("[gnu-property]"), "{out}");
    let calls: Vec<&str> = out
        .lines()
        .filter(|l| l.contains("[uaccess-call]"))
        .collect();
    assert_eq!(calls.len(), 2, "{out}");
    assert!(calls[0].contains("tail_open+") && calls[1].contains("save_restore_bad+"));
    assert!(out.contains("[uaccess-return]") && out.contains("[uaccess-redundant]"));
    // (uaccess-x86_64.o is kernel code, where gnu-property has nothing to
    // say about SHSTK: the path ignore has nothing to drop.)
    assert!(
        err.contains(", 4 ignored by the config, "),
        "2 fallthrough + 2 uaccess-call: {err}"
    );
    assert_eq!(o.status.code(), Some(1));

    // JSON says the same: the ignored findings are not there.
    let o = Command::new(env!("CARGO_BIN_EXE_objlint"))
        .args(["check", "--format", "json", d.to_str().unwrap()])
        .output()
        .unwrap();
    let n = text(&o.stdout)
        .lines()
        .filter(|l| l.contains("\"type\":\"finding\""))
        .count();
    assert_eq!(n, 4);
}

#[test]
fn bad_ignores_name_the_file() {
    let t = tempfile::tempdir().unwrap();
    for (config, want) in [
        (
            "[per_file_ignores]\n\"*.o\" = [\"fallthru\"]\n",
            "[per_file_ignores]: unknown rule \"fallthru\"",
        ),
        (
            "[per_symbol_ignores]\n\"f*\" = [\"uaccess-cal\"]\n",
            "[per_symbol_ignores]: unknown rule \"uaccess-cal\"",
        ),
        (
            "[per_file_ignores]\n\"a[.o\" = [\"fallthrough\"]\n",
            "[per_file_ignores] \"a[.o\"",
        ),
        (
            "[per_file_ignores]\n\"*.o\" = \"fallthrough\"\n",
            "objlint.toml",
        ),
    ] {
        let d = tree(t.path(), "bad", Some(config), &["fallthrough-dwarf.o"]);
        let o = check_in(t.path(), &[d.to_str().unwrap()]);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{config}: {err}");
        assert!(err.contains("objlint.toml") && err.contains(want), "{err}");
        assert!(o.stdout.is_empty());
    }
}
