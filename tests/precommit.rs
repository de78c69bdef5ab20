//! `objlint precommit` (sources → objects through compile_commands.json) and
//! the generated completions and man pages.

use std::path::Path;
use std::process::{Command, Output};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/lsp");

fn objlint(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_objlint"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// driver.c at the root, its object in out/, compile_commands.json in build/.
fn project() -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    for d in ["inc", "out", "build"] {
        std::fs::create_dir_all(root.join(d)).unwrap();
    }
    std::fs::copy(Path::new(FIXTURES).join("driver.c"), root.join("driver.c")).unwrap();
    std::fs::copy(
        Path::new(FIXTURES).join("inc/fatal.h"),
        root.join("inc/fatal.h"),
    )
    .unwrap();
    std::fs::copy(
        Path::new(FIXTURES).join("driver.o"),
        root.join("out/driver.o"),
    )
    .unwrap();
    let db = serde_json::json!([
        {"directory": root.join("build"), "file": "../driver.c",
         "arguments": ["gcc", "-c", "../driver.c", "-o", "../out/driver.o"]},
        {"directory": root.join("build"), "file": "../missing.c",
         "command": "gcc -c ../missing.c -o ../out/missing.o"}
    ]);
    std::fs::write(root.join("build/compile_commands.json"), db.to_string()).unwrap();
    t
}

#[test]
fn named_sources_map_to_their_objects() {
    let t = project();
    let root = t.path();
    let o = objlint(root, &["precommit", "driver.c", "--", "--format", "short"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert_eq!(out.lines().count(), 2, "{out}");
    // DWARF places both: the lines lead with the source position.
    let line = |start: &str, end: &str| {
        out.lines()
            .any(|l| l.starts_with(start) && l.ends_with(end))
    };
    assert!(
        line(
            "driver.c:12:2: error: stop() falls through",
            "out/driver.o: stop+0xb)"
        ),
        "{out}"
    );
    assert!(
        line(
            "inc/fatal.h:10:2: error: scale() falls through",
            "out/driver.o: scale+0x10)"
        ),
        "{out}"
    );

    // Not built: a note, nothing to check, success. Not a source: ignored.
    std::fs::write(root.join("missing.c"), "int x;\n").unwrap();
    let o = objlint(root, &["precommit", "missing.c", "README.md"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(text(&o.stderr).contains("out/missing.o is not built; skipped"));

    // The rebuilt object is clean.
    std::fs::copy(
        Path::new(FIXTURES).join("driver-fixed.o"),
        root.join("out/driver.o"),
    )
    .unwrap();
    let o = objlint(root, &["precommit", "driver.c"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stdout));
}

#[test]
fn no_compile_database_is_a_usage_error() {
    let t = tempfile::tempdir().unwrap();
    let o = objlint(t.path(), &["precommit", "x.c"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("no compile_commands.json"));
}

/// The hook's default: the sources staged in git.
#[test]
fn staged_sources() {
    if Command::new("git").arg("--version").output().is_err() {
        eprintln!("git not installed; skipped");
        return;
    }
    let t = project();
    let root = t.path();
    let git = |args: &[&str]| {
        let o = Command::new("git")
            .args(args)
            .current_dir(root)
            .output()
            .unwrap();
        assert!(o.status.success(), "git {args:?}: {}", text(&o.stderr));
    };
    git(&["init", "-q", "."]);
    let o = objlint(root, &["precommit"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(text(&o.stderr).contains("no built objects for the staged sources"));
    git(&["add", "driver.c"]);
    let o = objlint(
        root,
        &[
            "precommit",
            "--build-dir",
            "build",
            "--",
            "--format",
            "short",
        ],
    );
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    assert_eq!(text(&o.stdout).lines().count(), 2);
}

#[test]
fn completions_and_man_pages() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let o = objlint(dir, &["completions", "bash"]);
    assert!(o.status.success());
    let bash = text(&o.stdout);
    assert!(bash.contains("_objlint()"));
    assert!(bash.contains("precommit") && bash.contains("--write-baseline"));
    let o = objlint(dir, &["completions", "zsh"]);
    assert!(text(&o.stdout).starts_with("#compdef objlint"));
    let o = objlint(dir, &["man"]);
    let man = text(&o.stdout);
    assert!(man.contains(".TH objlint 1") && man.contains("objlint\\-check(1)"));
    let o = objlint(dir, &["man", "check"]);
    let man = text(&o.stdout);
    assert!(man.contains(".TH objlint-check 1") && man.contains("\\-\\-format"));
    let o = objlint(dir, &["man", "nope"]);
    assert_eq!(o.status.code(), Some(2));
}
