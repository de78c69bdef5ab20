//! `patchable-entry`, `kcfi-hash-offset`, `call-ops-align` and the layout
//! report over testdata/patchable (real gcc/clang-19/clang-22/aarch64-gcc
//! output for each layout, plus hand-written defects; see build.sh there).

use objlint::elf::Object;
use objlint::model::Model;
use objlint::model::patchable::{LayoutSummary, layout};
use objlint::rules::Rules;
use std::path::Path;
use std::process::Command;

const RULES: &str = "patchable-entry,kcfi-hash-offset,call-ops-align";

fn objlint(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_objlint"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["check", "--format", "short", "-q"])
        .args(args)
        .output()
        .expect("run objlint");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).expect("utf-8 output"),
    )
}

fn fixture(name: &str) -> String {
    format!("testdata/patchable/{name}")
}

#[test]
fn findings_match_expected() {
    let expected = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/patchable/expected.txt"),
    )
    .unwrap();
    let (code, out) = objlint(&["--enable", RULES, "testdata/patchable"]);
    assert_eq!(out, expected);
    assert_eq!(code, 1);
}

/// Real compiler output in each layout FACTS.md lists stays clean.
#[test]
fn real_layouts_are_clean() {
    for f in [
        "x86_gcc_16_16.o",
        "x86_gcc_16_16_sections.o",
        "x86_clang_kcfi_16_16.o",
        "x86_clang_kcfi_11_11.o",
        // After objtool --mcount --mnop: `call __fentry__` is a NOP listed in
        // __mcount_loc, not part of the patch site before it.
        "x86_clang_kcfi_11_11_mcount.o",
        "arm64_gcc_4_2.o",
        "arm64_clang_kcfi_2_0.o",
        "arm64_clang22_kcfi_3_3_discard.o",
        "arm64_clang22_kcfi_5_3.o",
    ] {
        let (code, out) = objlint(&[&fixture(f)]);
        assert_eq!((code, out.as_str()), (0, ""), "{f}");
    }
}

/// Each defect is found by its own rule: with that rule off it is gone.
#[test]
fn each_defect_needs_its_rule() {
    for (f, rule) in [
        ("defects_x86.o", "patchable-entry"),
        ("defects_arm64.o", "patchable-entry"),
        ("x86_gcc_16_16_short.o", "patchable-entry"),
        ("defects_kcfi_x86.o", "kcfi-hash-offset"),
        ("arm64_clang_kcfi_4_2_unaligned.o", "call-ops-align"),
    ] {
        let (_, with) = objlint(&["--enable", RULES, &fixture(f)]);
        assert!(with.contains(&format!("[{rule}]")), "{f}: {with}");
        let (_, without) = objlint(&["--enable", RULES, "--disable", rule, &fixture(f)]);
        assert!(!without.contains(&format!("[{rule}]")), "{f}: {without}");
    }
}

/// A configured layout replaces the inferred one.
#[test]
fn configured_layout() {
    let (code, out) = objlint(&[
        "--enable",
        RULES,
        "--patchable",
        "4,4",
        &fixture("x86_gcc_16_16.o"),
    ]);
    assert_eq!(code, 1);
    assert_eq!(out.lines().count(), 3, "{out}");
    assert!(out.contains(
        "leaf() has 16 bytes of NOPs before its entry and 0 after (layout 16,16); the configured layout is 4,4"
    ));
    // kCFI without call checks in the object: the configured N gives the offset.
    let (_, out) = objlint(&[
        "--enable",
        "kcfi-hash-offset",
        "--patchable",
        "11,11",
        &fixture("x86_clang_kcfi_11_11.o"),
    ]);
    assert_eq!(out, "", "checks in the object decide, and they agree");
}

fn summary(name: &str) -> LayoutSummary {
    let data = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join(fixture(name))).unwrap();
    let obj = Object::parse(&data).unwrap();
    let rules = Rules::builtin();
    let model = Model::build(&obj, &rules);
    layout(&model, &rules.patchable)
}

#[test]
fn layout_report() {
    for (f, m, n, k, with, without) in [
        ("x86_gcc_16_16.o", 16, 16, None, 3, 1),
        ("x86_gcc_16_16_sections.o", 16, 16, None, 5, 2),
        ("x86_clang_kcfi_16_16.o", 16, 16, Some(0x14), 3, 0),
        ("x86_clang_kcfi_11_11.o", 11, 11, Some(0xf), 3, 0),
        ("arm64_gcc_4_2.o", 4, 2, None, 3, 1),
        ("arm64_clang_kcfi_2_0.o", 2, 0, Some(0x4), 3, 0),
        ("arm64_clang_kcfi_4_2.o", 4, 2, Some(0xc), 3, 0),
        ("arm64_clang22_kcfi_3_3_discard.o", 3, 3, Some(0x10), 3, 0),
        ("arm64_clang22_kcfi_5_3.o", 5, 3, Some(0x10), 3, 0),
        ("x86_clang_kcfi_11_11_short.o", 11, 11, Some(0xf), 6, 1),
    ] {
        let s = summary(f);
        assert_eq!(
            (
                s.m,
                s.n,
                s.hash_offset,
                s.functions_with_entry,
                s.functions_without_entry
            ),
            (Some(m), Some(n), k, with, without),
            "{f}: {s:?}"
        );
    }
    let s = summary("defects_kcfi_x86.o");
    assert_eq!((s.m, s.entries, s.hashes, s.hash_checks), (None, 0, 3, 3));
}

/// Entries pointing anywhere (huge, negative, unaligned addends) never make
/// the analysis panic.
#[test]
fn wild_entries_do_not_panic() {
    use objlint::config::Options;
    for name in [
        "defects_x86.o",
        "defects_arm64.o",
        "arm64_clang22_kcfi_5_3.o",
    ] {
        let data =
            std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join(fixture(name))).unwrap();
        let obj = Object::parse(&data).unwrap();
        let relas: Vec<(u64, u64)> = obj
            .sections
            .iter()
            .filter(|s| s.name.ends_with("patchable_function_entries") && s.sh_type == 4)
            .map(|s| (s.offset, s.size))
            .collect();
        assert!(!relas.is_empty());
        let rules = Rules::builtin();
        for addend in [-1i64 << 40, -17, -1, 1, 3, 0x7fff_ffff, i64::MAX] {
            let mut bytes = data.clone();
            for &(off, size) in &relas {
                for e in (0..size / 24).map(|k| (off + k * 24 + 16) as usize) {
                    bytes[e..e + 8].copy_from_slice(&addend.to_le_bytes());
                }
            }
            let rep = objlint::engine::check_bytes(name, &bytes, &rules, &Options::default());
            assert_eq!(rep.error, None, "{name} addend {addend}");
        }
    }
}

/// Shipped Debian 6.12 modules (testdata/real): x86 CALL_PADDING 16,16 beside
/// __mcount_loc, arm64 CALL_OPS 4,2; no findings.
#[test]
fn real_modules() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/real");
    let rules = Rules::builtin();
    let mut seen = 0;
    for (arch, want) in [("x86_64", (16, 16)), ("arm64", (4, 2))] {
        let mut names: Vec<_> = std::fs::read_dir(dir.join(arch))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "ko"))
            .collect();
        names.sort();
        for p in names {
            let data = std::fs::read(&p).unwrap();
            let obj = Object::parse(&data).unwrap();
            let model = Model::build(&obj, &rules);
            let s = layout(&model, &rules.patchable);
            assert_eq!((s.m, s.n), (Some(want.0), Some(want.1)), "{}", p.display());
            assert!(
                s.functions_with_entry > 0 && s.hashes == 0,
                "{}: {s:?}",
                p.display()
            );
            seen += 1;
        }
    }
    assert!(seen >= 2);
    let (code, out) = objlint(&["--enable", RULES, "testdata/real"]);
    assert_eq!((code, out.as_str()), (0, ""));
}
