//! `--write-baseline` / `--baseline` end to end: recorded findings stay
//! quiet across rebuilds that move code, new ones are reported.

use std::path::Path;
use std::process::{Command, Output};

fn objlint(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_objlint"))
        .args(["check", "--format", "short"])
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

/// Put fixture `name` at `dir/obj/fall.o` (standing for a rebuild).
fn build_as(dir: &Path, name: &str) {
    std::fs::create_dir_all(dir.join("obj")).unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/source")
        .join(name);
    std::fs::copy(src, dir.join("obj/fall.o")).unwrap();
}

#[test]
fn baseline_survives_rebuilds_and_reports_new_findings() {
    let d = tempfile::tempdir().unwrap();
    let root = d.path();
    build_as(root, "x86-gcc-dwarf5.o");

    // Writing a baseline accepts the current findings: exit 0.
    let o = objlint(root, &["--write-baseline", "objlint-baseline.json", "obj"]);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let text = std::fs::read_to_string(root.join("objlint-baseline.json")).unwrap();
    let b: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(b["version"], 1);
    let entries = b["findings"].as_array().unwrap();
    assert_eq!(entries.len(), 2);
    for e in entries {
        assert_eq!(e["rule"], "fallthrough");
        assert_eq!(e["file"], "obj/fall.o");
        assert_eq!(e["count"], 1);
        assert!(e["fingerprint"].as_str().unwrap().len() == 16);
    }

    // Same object: nothing new.
    let o = objlint(root, &["--baseline", "objlint-baseline.json", "obj"]);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    assert_eq!(stdout(&o), "");
    assert!(String::from_utf8_lossy(&o.stderr).contains("2 in the baseline"));

    // Another compiler moves the code (inlined+0x10 becomes inlined+0x12)
    // and changes the DWARF: still the same findings.
    build_as(root, "x86-clang-dwarf5.o");
    let o = objlint(root, &["--baseline", "objlint-baseline.json", "obj"]);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    assert_eq!(stdout(&o), "");

    // From another working directory, with other spellings of the paths.
    let sub = root.join("obj");
    let o = objlint(
        &sub,
        &["--baseline", "../objlint-baseline.json", "./fall.o"],
    );
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    assert_eq!(stdout(&o), "");

    // One .text section: the functions now run into padding, a different
    // problem: reported as new.
    build_as(root, "x86-gcc-text.o");
    let o = objlint(root, &["--baseline", "objlint-baseline.json", "obj"]);
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    assert_eq!(stdout(&o).lines().count(), 2, "{}", stdout(&o));
    // (objtool's wording: padding between the functions does not matter.)
    assert!(stdout(&o).contains("falls through to next function"));
}

#[test]
fn unreadable_baseline_is_a_usage_error() {
    let d = tempfile::tempdir().unwrap();
    build_as(d.path(), "x86-gcc-dwarf5.o");
    std::fs::write(d.path().join("b.json"), "{not json").unwrap();
    let o = objlint(d.path(), &["--baseline", "b.json", "obj"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("b.json"));
    let o = objlint(d.path(), &["--baseline", "missing.json", "obj"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn baseline_entries_count_duplicates_per_object() {
    // The same object twice under two names: separate entries; twice under
    // one name (an archive holding it twice would do the same): counted.
    let d = tempfile::tempdir().unwrap();
    build_as(d.path(), "x86-gcc-dwarf5.o");
    let o = objlint(
        d.path(),
        &["--write-baseline", "b.json", "obj/fall.o", "obj/./fall.o"],
    );
    assert_eq!(o.status.code(), Some(0));
    let b: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.path().join("b.json")).unwrap()).unwrap();
    let entries = b["findings"].as_array().unwrap();
    assert_eq!(entries.len(), 2);
    assert!(entries.iter().all(|e| e["count"] == 2));
    // Checking it once against that baseline: accepted.
    let o = objlint(d.path(), &["--baseline", "b.json", "obj/fall.o"]);
    assert_eq!(o.status.code(), Some(0));
    // Three copies: one of each is new.
    let o = objlint(
        d.path(),
        &[
            "--baseline",
            "b.json",
            "obj/fall.o",
            "obj/./fall.o",
            "./obj/fall.o",
        ],
    );
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o).lines().count(), 2);
}
