//! The core pipeline end to end: committed fixtures against their expected
//! findings, the output contracts of DESIGN.md, exit codes, determinism, the
//! directory walk, and an object with more sections than ELF's 16-bit fields
//! can count.
//!
//! Expected findings live beside each fixture as NAME.expected (`--format
//! short --enable fallthrough`, run from testdata/core). After a deliberate
//! change, rewrite them with `OBJLINT_BLESS=1 cargo test --test core` and
//! review the diff.

#[path = "common/expected.rs"]
mod expected;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn core_dir() -> PathBuf {
    root().join("testdata/core")
}

fn objlint(cwd: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_objlint"))
        .current_dir(cwd)
        .args(args)
        .output()
        .expect("run objlint")
}

fn text(b: &[u8]) -> String {
    String::from_utf8(b.to_vec()).expect("UTF-8 output")
}

const OBJECT_SUFFIXES: [&str; 4] = [".o", ".a", ".ko.xz", ".ko.zst"];

/// Object files under `dir`, in the order the directory walk visits them
/// (entries sorted by name at each level).
fn objects_in(dir: &Path) -> Vec<PathBuf> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort_by_key(|p| p.file_name().unwrap().to_owned());
    let mut out = Vec::new();
    for p in entries {
        if p.is_dir() {
            out.extend(objects_in(&p));
        } else if OBJECT_SUFFIXES
            .iter()
            .any(|s| p.to_str().unwrap().ends_with(s))
        {
            out.push(p);
        }
    }
    out
}

/// `x86/f.o` -> `x86/f.expected`, `input/m.ko.xz` -> `input/m.expected`.
fn expected_path(obj: &Path) -> PathBuf {
    let name = obj.file_name().unwrap().to_str().unwrap();
    let stem = OBJECT_SUFFIXES
        .iter()
        .find_map(|s| name.strip_suffix(s))
        .unwrap();
    obj.with_file_name(format!("{stem}.expected"))
}

fn rel(p: &Path) -> String {
    p.strip_prefix(core_dir())
        .unwrap()
        .to_str()
        .unwrap()
        .to_string()
}

#[test]
fn fixtures_match_expected_findings() {
    let dir = core_dir();
    let objs = objects_in(&dir);
    assert!(objs.len() >= 20, "fixtures missing: {objs:?}");
    let mut failures = Vec::new();
    for obj in &objs {
        let name = rel(obj);
        let out = objlint(
            &dir,
            &[
                "check",
                "--format",
                "short",
                "-q",
                "-j",
                "1",
                "--enable",
                "fallthrough",
                &name,
            ],
        );
        let got = text(&out.stdout);
        let code = out.status.code();
        // Notes never fail a run.
        let errors = got.lines().any(|l| !l.contains(": note: "));
        let want_code = if errors { Some(1) } else { Some(0) };
        if code != want_code || !out.stderr.is_empty() {
            failures.push(format!(
                "{name}: exit {code:?} (want {want_code:?}), stderr: {}",
                text(&out.stderr)
            ));
        }
        expected::check(&expected_path(obj), &got, &name, &mut failures);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The cases the fixtures exist for, stated once more so that an expected
/// file rewritten by mistake cannot hide a regression.
#[test]
fn fixtures_cover_the_cases() {
    let dir = core_dir();
    let read = |p: &str| std::fs::read_to_string(dir.join(p)).unwrap();
    for arch in ["x86", "arm64"] {
        for cc in ["gcc", "clang"] {
            for fs in ["", "-fs"] {
                let e = read(&format!("{arch}/flow-{cc}{fs}.expected"));
                let reported: Vec<&str> = e
                    .lines()
                    .map(|l| l.split(": ").nth(1).unwrap().split('+').next().unwrap())
                    .collect();
                // Exactly these three, whatever the compiler: an unknown
                // noreturn callee, a weak one (never counts), and a call
                // left last by __builtin_unreachable().
                assert_eq!(
                    reported,
                    [
                        "calls_unknown_noreturn",
                        "calls_weak_noreturn",
                        "unreachable_end"
                    ],
                    "{arch} {cc}{fs}"
                );
                let suffix = if fs.is_empty() {
                    "falls through to next function"
                } else {
                    "falls through past the end of section .text."
                };
                assert!(
                    e.lines().all(|l| l.contains(suffix)),
                    "{arch} {cc}{fs}:\n{e}"
                );
            }
        }
        for clean in ["endings", "preamble", "libc"] {
            assert_eq!(
                read(&format!("{arch}/{clean}.expected")),
                "",
                "{arch}/{clean}"
            );
        }
        let m = read(&format!("{arch}/missing-ret.expected"));
        assert!(m.contains("f() falls through to next function g()"), "{m}");
        assert!(m.contains("g() falls through to next function h()"), "{m}");
        let n = read(&format!("{arch}/nosize.expected"));
        assert!(n.contains("nosize_bad() falls through to next function sized()"));
        assert!(n.contains("nosize_last() falls through past the end of section .text"));
        assert!(!n.contains("nosize_ok"));
    }
    // Data in code is skipped, but running into it is reported.
    assert_eq!(
        read("arm64/literal-pool.expected"),
        "arm64/literal-pool.o: into_pool+0x4: error: into_pool() runs into data at into_pool+0x8 [fallthrough]\n"
    );
    // Regressions: a finding past a nested symbol belongs to the enclosing
    // function; a preamble-named alias does not exempt a function.
    assert_eq!(
        read("x86/nested.expected"),
        "x86/nested.o: inner+0x0: error: inner() runs off its end into the middle of outer() at outer+0x9 [fallthrough]\n\
         x86/nested.o: outer+0x9: note: outer() falls through to next function after() [fallthrough]\n"
    );
    let a = read("x86/aliases.expected");
    assert!(
        a.contains("local_fn+0x0: error: local_fn() falls through to next function strong_name()"),
        "{a}"
    );
    assert!(
        a.contains("strong_name+0x0: error: strong_name() falls through to next function next()"),
        "{a}"
    );
}

/// A path that leaves its function by a jump to code outside every function,
/// which runs on: objtool's verdict (x86/unowned-run.objtool.txt) place by
/// place, "falls through to next function" as it words it and its
/// "unexpected end of section" as the function's fall past that end. On
/// arm64 the same shapes, and clang's dead switch bound, which is clean.
#[test]
fn code_outside_functions_running_on_agrees_with_objtool() {
    let dir = core_dir();
    let verdict = objtool_verdict(&dir, "x86/unowned-run.objtool.txt");
    let want: Vec<String> = verdict
        .iter()
        .map(|w| match w.strip_suffix(": unexpected end of section") {
            Some(sec) => format!("falls through past the end of section {sec}"),
            None => w.to_string(),
        })
        .collect();
    assert_eq!(want.len(), 2, "{verdict:?}");
    let out = objlint(
        &dir,
        &[
            "check",
            "--format",
            "short",
            "--enable",
            "fallthrough",
            "x86/unowned-run.o",
        ],
    );
    let got: Vec<String> = text(&out.stdout)
        .lines()
        .map(|l| l.split(": error: ").nth(1).unwrap().to_string())
        .collect();
    assert_eq!(got.len(), want.len(), "{got:?}");
    for (g, w) in got.iter().zip(&want) {
        assert!(g.contains(w.as_str()), "objlint: {g}\nobjtool: {w}");
    }
    let a = std::fs::read_to_string(dir.join("arm64/unowned-run.expected")).unwrap();
    assert!(
        a.contains("leaves() falls through to next function next()"),
        "{a}"
    );
    assert!(
        a.contains("leaves_into_data() runs into bytes that are not code"),
        "{a}"
    );
    assert!(!a.contains("dead_bound"), "{a}");
    assert!(!a.contains("inverted_bound"), "{a}");
}

/// A switch case the compiler knows is never taken, pointed at what it
/// left of its block at the function's end (one register save, then the
/// padding: gcc 16's mlxfw.ko in Linux 7.2): not followed, so no
/// fall-through, and its save is unreachable, said with the table it came
/// from. The same shape with a case running into the save still falls
/// through, reported.
#[test]
fn a_dead_switch_case_at_the_end_is_unreachable_not_a_fall_through() {
    let dir = core_dir();
    let out = objlint(
        &dir,
        &[
            "check",
            "--format",
            "json",
            "--enable",
            "fallthrough,unreachable",
            "arm64/dead-case.o",
        ],
    );
    let findings: Vec<serde_json::Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|v| v["type"] == "finding")
        .collect();
    let at = |f: &serde_json::Value| {
        format!(
            "{}+{:#x} {}",
            f["symbol"].as_str().unwrap(),
            f["symbol_offset"].as_u64().unwrap(),
            f["rule"].as_str().unwrap()
        )
    };
    let got: Vec<String> = findings.iter().map(at).collect();
    assert_eq!(
        got,
        ["dead_case+0x50 unreachable", "fallen_into+0x4c fallthrough"],
        "{findings:#?}"
    );
    let notes = findings[0]["notes"].to_string();
    assert!(
        notes.contains("only a case of the switch table at dead_case+0x30 lands here"),
        "{notes}"
    );
}

/// objtool's warnings in a committed verdict file (its header line a `#`
/// comment), each without the `FILE: warning: objtool: ` before it.
fn objtool_verdict(dir: &Path, file: &str) -> Vec<String> {
    std::fs::read_to_string(dir.join(file))
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split("warning: objtool: ").nth(1))
        .map(str::to_string)
        .collect()
}

/// A replacement of an alternative whose site ends its function runs on into
/// the next one: objtool's verdict (x86/alt-end.objtool.txt), and objlint's
/// finding names the replacement the path went through.
#[test]
fn replacement_running_past_its_function_agrees_with_objtool() {
    let dir = core_dir();
    let want = objtool_verdict(&dir, "x86/alt-end.objtool.txt");
    assert_eq!(want, ["alt_end() falls through to next function next()"]);
    let out = objlint(
        &dir,
        &[
            "check",
            "--format",
            "json",
            "-q",
            "--enable",
            "fallthrough",
            "x86/alt-end.o",
        ],
    );
    let s = text(&out.stdout);
    let lines: Vec<&str> = s.lines().filter(|l| l.contains("\"finding\"")).collect();
    assert_eq!(lines.len(), 1, "{s}");
    assert!(lines[0].contains(want[0].as_str()), "{s}");
    assert!(
        lines[0].contains("through an alternative's replacement"),
        "{s}"
    );
}

#[test]
fn gcc_cold_parts_are_functions_and_clean() {
    let out = objlint(
        &core_dir(),
        &["check", "--format", "json", "-q", "x86/flow-gcc.o"],
    );
    let s = text(&out.stdout);
    assert!(!s.contains(".cold"), "{s}");
    let data = std::fs::read(core_dir().join("x86/flow-gcc.o")).unwrap();
    let obj = objlint::elf::Object::parse(&data).unwrap();
    let rules = objlint::rules::Rules::builtin();
    let m = objlint::model::Model::build(&obj, &rules);
    let cold: Vec<_> = m
        .functions
        .iter()
        .filter(|f| f.name.ends_with(".cold"))
        .map(|f| (f.name, m.obj.section_name(f.section)))
        .collect();
    assert!(
        cold.contains(&("with_cold.cold", ".text.unlikely")),
        "{cold:?}"
    );
    // Noreturn inference: the local chain is proven, the weak one is not.
    let nr = |n: &str| {
        let i = m.functions.iter().position(|f| f.name == n).unwrap();
        m.noreturn[i]
    };
    assert!(nr("die_loop") && nr("die_mid") && nr("die_top"));
    assert!(!nr("weak_die"));
    assert!(nr("traps.cold"));
    assert!(!nr("with_cold.cold") && !nr("calls_panic") && !nr("tail"));
}

#[test]
fn arm64_data_in_code_is_not_decoded() {
    let data = std::fs::read(core_dir().join("arm64/literal-pool.o")).unwrap();
    let obj = objlint::elf::Object::parse(&data).unwrap();
    let rules = objlint::rules::Rules::builtin();
    let m = objlint::model::Model::build(&obj, &rules);
    let text = obj.sections_named(".text")[0];
    let offsets: Vec<u64> = m
        .section_code(text)
        .unwrap()
        .insns
        .iter()
        .map(|i| i.offset())
        .collect();
    // $d at 0x10..0x1c, 0x24..0x28 and 0x30..0x38 (see literal-pool.s).
    for d in [0x10, 0x14, 0x18, 0x24, 0x30, 0x34] {
        assert!(
            !offsets.contains(&d),
            "data at {d:#x} decoded: {offsets:x?}"
        );
    }
    for c in [0x0, 0x8, 0x1c, 0x20, 0x28, 0x2c, 0x38] {
        assert!(offsets.contains(&c), "code at {c:#x} missing: {offsets:x?}");
    }
}

#[test]
fn directory_walk_finds_every_object_in_order() {
    let dir = core_dir();
    let out = objlint(
        &root(),
        &[
            "check",
            "--format",
            "short",
            "-j",
            "2",
            "--enable",
            "fallthrough",
            "testdata/core",
        ],
    );
    assert_eq!(out.status.code(), Some(1));
    let mut want = String::new();
    let mut members = 0;
    for obj in objects_in(&dir) {
        // The thin archive's members were walked already: checked once, there.
        if obj.ends_with("input/thin.a") {
            continue;
        }
        members += if obj.extension().is_some_and(|e| e == "a") {
            2
        } else {
            1
        };
        for l in std::fs::read_to_string(expected_path(&obj))
            .unwrap()
            .lines()
        {
            want.push_str(&format!("testdata/core/{l}\n"));
        }
    }
    assert_eq!(text(&out.stdout), want);
    let err = text(&out.stderr);
    assert!(
        err.starts_with(&format!(
            "objlint: {members} object{}, ",
            if members == 1 { "" } else { "s" }
        )),
        "{err}"
    );
    assert!(err.contains(" 0 unreadable"), "{err}");
}

#[test]
fn output_is_the_same_whatever_the_thread_count() {
    for format in ["short", "json", "human"] {
        let run = |j: &str| {
            let out = objlint(
                &root(),
                &["check", "--format", format, "-q", "-j", j, "testdata/core"],
            );
            assert_eq!(out.status.code(), Some(1));
            out.stdout
        };
        let one = run("1");
        assert!(!one.is_empty());
        assert_eq!(one, run("2"), "{format}");
        assert_eq!(one, run("2"), "{format} (again)");
    }
    // The stack fixtures and the incomplete ones: walks from unwind hints,
    // unreached code and pads, judged in parallel inside one object.
    for dir in ["testdata/stack", "testdata/incomplete"] {
        let run = |j: &str| {
            let out = objlint(&root(), &["check", "--format", "json", "-q", "-j", j, dir]);
            (out.status.code(), out.stdout)
        };
        let one = run("1");
        assert!(!one.1.is_empty(), "{dir}");
        assert_eq!(one, run("4"), "{dir}");
    }
}

#[test]
fn json_lines_follow_the_contract() {
    let out = objlint(
        &core_dir(),
        &[
            "check",
            "--format",
            "json",
            "-q",
            "--enable",
            "fallthrough",
            "x86/missing-ret.o",
            "arm64/end-of-section.o",
        ],
    );
    assert_eq!(out.status.code(), Some(1));
    let all: Vec<serde_json::Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect();
    // Each object's findings, then its record.
    let kinds: Vec<&str> = all.iter().map(|v| v["type"].as_str().unwrap()).collect();
    assert_eq!(
        kinds,
        [
            "finding", "finding", "object", "finding", "finding", "object"
        ]
    );
    for (v, n) in [(&all[2], 2), (&all[5], 2)] {
        assert_eq!(v["findings"], n, "{v}");
        assert!(
            v["functions"].is_u64() && v["incomplete"] == serde_json::json!([]),
            "{v}"
        );
    }
    assert_eq!(all[2]["file"], "x86/missing-ret.o");
    let lines: Vec<&serde_json::Value> = all.iter().filter(|v| v["type"] == "finding").collect();
    assert_eq!(lines.len(), 4);
    for v in &lines {
        for key in [
            "rule",
            "severity",
            "file",
            "arch",
            "section",
            "offset",
            "symbol",
            "symbol_offset",
            "message",
        ] {
            assert!(v.get(key).is_some(), "{key} missing in {v}");
        }
        assert_eq!(v["rule"], "fallthrough");
        // f runs straight into g: how a deliberate second entry looks, a note.
        let want = if v["symbol"] == "f" { "note" } else { "error" };
        assert_eq!(v["severity"], want, "{v}");
        assert!(v["offset"].is_u64() && v["symbol_offset"].is_u64());
    }
    let f = &lines[0];
    assert_eq!(f["file"], "x86/missing-ret.o");
    assert_eq!(f["arch"], "x86_64");
    assert_eq!(f["section"], ".text");
    assert_eq!(f["symbol"], "f");
    assert_eq!(f["offset"], 4);
    assert_eq!(f["symbol_offset"], 4);
    assert_eq!(f["message"], "f() falls through to next function g()");
    assert_eq!(f["target"]["symbol"], "g");
    assert_eq!(f["target"]["section"], ".text");
    assert_eq!(f["target"]["offset"], 9);
    assert_eq!(f["target"]["symbol_offset"], 0);
    // g's own finding: g starts at 9, the xor is at g+0xe.
    assert_eq!(lines[1]["symbol"], "g");
    assert_eq!(lines[1]["offset"], 9 + 0xe);
    assert_eq!(lines[1]["target"]["symbol"], "h");
    assert!(
        lines[1]["notes"][0]
            .as_str()
            .unwrap()
            .contains("bytes outside any function")
    );
    let e = &lines[2];
    assert_eq!(e["arch"], "aarch64");
    assert_eq!(e["section"], ".text.one");
    assert_eq!(e["symbol"], "last");
    // Past the end of a section there is no target.
    assert!(e["target"].is_null(), "{e}");
    assert!(
        e["notes"][0].as_str().unwrap().contains("calls work"),
        "{e}"
    );
}

#[test]
fn short_format_is_file_location_severity_message_rule() {
    let out = objlint(
        &core_dir(),
        &["check", "--format", "short", "-q", "x86/nosize.o"],
    );
    for l in text(&out.stdout).lines() {
        let (file, rest) = l.split_once(": ").unwrap();
        assert_eq!(file, "x86/nosize.o");
        let (loc, rest) = rest.split_once(": ").unwrap();
        let (sym, off) = loc.split_once("+0x").unwrap();
        assert!(
            !sym.is_empty() && u64::from_str_radix(off, 16).is_ok(),
            "{l}"
        );
        let (sev, rest) = rest.split_once(": ").unwrap();
        assert!(sev == "error" || sev == "warning" || sev == "note", "{l}");
        assert!(rest.ends_with(" [fallthrough]"), "{l}");
    }
}

#[test]
fn human_format_shows_the_disassembly() {
    let out = objlint(
        &core_dir(),
        &["check", "--format", "human", "-q", "x86/missing-ret.o"],
    );
    let s = text(&out.stdout);
    // f runs straight into g (a note: a deliberate second entry looks so);
    // g's other path runs into int3 padding (an error).
    assert!(
        s.contains("note[fallthrough]: f+0x4: f() falls through to next function g()"),
        "{s}"
    );
    assert!(
        s.contains("error[fallthrough]: g+0xe: g() falls through to next function h()"),
        "{s}"
    );
    assert!(
        s.contains("movl    $1,%eax") || s.contains("mov     $1,%eax"),
        "{s}"
    );
    assert!(s.contains("here"), "{s}");
    assert!(!s.contains('\x1b'), "no colour when not on a terminal");
}

#[test]
fn exit_codes() {
    let dir = core_dir();
    let code = |args: &[&str]| objlint(&dir, args).status.code();
    assert_eq!(
        code(&[
            "check",
            "-q",
            "--enable",
            "fallthrough",
            "x86/endings.o",
            "arm64/endings.o"
        ]),
        Some(0)
    );
    assert_eq!(code(&["check", "-q", "x86/missing-ret.o"]), Some(1));
    // Findings below error level do not fail the run.
    let cfg = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(cfg.path(), "[rules]\nfallthrough = \"warning\"\n").unwrap();
    let cfgp = cfg.path().to_str().unwrap();
    let out = objlint(
        &dir,
        &[
            "check",
            "--format",
            "short",
            "-q",
            "--config",
            cfgp,
            "x86/missing-ret.o",
        ],
    );
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stdout).contains(": warning: g() falls through"));
    // A note stays a note (and never fails a run, not even with --deny-warnings).
    assert!(text(&out.stdout).contains(": note: f() falls through"));
    let notes_only = objlint(
        &dir,
        &[
            "check",
            "-q",
            "--deny-warnings",
            "--enable",
            "fallthrough",
            "x86/nosize.o",
            "x86/aliases.o",
        ],
    );
    assert_eq!(notes_only.status.code(), Some(1), "nosize_last is an error");
    // aliases.o is kernel code (its __pfx_ symbols): there a fall-through
    // into the next function is an error, as objtool has it; as user space
    // both are deliberate-looking entries, notes only.
    assert_eq!(
        code(&[
            "check",
            "-q",
            "--deny-warnings",
            "--enable",
            "fallthrough",
            "x86/aliases.o"
        ]),
        Some(1),
        "aliases.o is kernel code"
    );
    assert_eq!(
        code(&[
            "check",
            "-q",
            "--deny-warnings",
            "--profile",
            "user",
            "--enable",
            "fallthrough",
            "x86/aliases.o"
        ]),
        Some(0),
        "aliases.o as user space has notes only"
    );
    assert_eq!(
        code(&[
            "check",
            "-q",
            "--disable",
            "fallthrough",
            "x86/missing-ret.o"
        ]),
        Some(0)
    );
    // Unreadable input wins over findings.
    assert_eq!(
        code(&["check", "-q", "x86/missing-ret.o", "no/such.o"]),
        Some(2)
    );
    assert_eq!(code(&["check", "-q", "x86/missing-ret.s"]), Some(2));
    // Bad usage.
    assert_eq!(code(&["check"]), Some(2));
    assert_eq!(code(&["check", "--bogus", "x86/endings.o"]), Some(2));
    assert_eq!(
        code(&["check", "--enable", "no-such-rule", "x86/endings.o"]),
        Some(2)
    );
    assert_eq!(code(&["check", "-j", "0", "x86/endings.o"]), Some(2));
    assert_eq!(
        code(&["check", "--format", "xml", "x86/endings.o"]),
        Some(2)
    );
    assert_eq!(code(&["rules", "--explain", "no-such-rule"]), Some(2));
    assert_eq!(code(&["--help"]), Some(0));
}

#[test]
fn arch_filter_skips_other_objects() {
    let out = objlint(
        &core_dir(),
        &[
            "check",
            "--format",
            "short",
            "-q",
            "--arch",
            "aarch64",
            "x86/missing-ret.o",
            "arm64/missing-ret.o",
        ],
    );
    assert_eq!(out.status.code(), Some(1));
    let s = text(&out.stdout);
    assert!(
        s.lines().all(|l| l.starts_with("arm64/missing-ret.o: ")),
        "{s}"
    );
    assert_eq!(s.lines().count(), 2);
}

#[test]
fn rules_and_explain() {
    let out = objlint(&root(), &["rules"]);
    assert_eq!(out.status.code(), Some(0));
    let s = text(&out.stdout);
    let ft = s
        .lines()
        .find(|l| l.starts_with("fallthrough "))
        .expect("fallthrough listed");
    assert!(ft.contains("x86_64,aarch64"), "{ft}");
    for id in objlint::checks::ids() {
        assert!(
            s.lines().any(|l| l.split_whitespace().next() == Some(id)),
            "{id} not listed"
        );
    }
    let out = objlint(&root(), &["rules", "--explain", "fallthrough"]);
    assert_eq!(out.status.code(), Some(0));
    let e = text(&out.stdout);
    assert!(
        e.starts_with("fallthrough (x86_64, aarch64; default error)"),
        "{e}"
    );
    for part in [
        "## What it does",
        "## Why it matters",
        "## Example",
        "falls through to next function",
    ] {
        assert!(e.contains(part), "{part} missing:\n{e}");
    }
    // "How to fix" comes after "Why it matters" and before the example.
    for (id, fix) in [
        ("fallthrough", "__noreturn"),
        ("ibt-missing-endbr", "ANNOTATE_NOENDBR"),
    ] {
        let out = objlint(&root(), &["rules", "--explain", id]);
        assert_eq!(out.status.code(), Some(0));
        let e = text(&out.stdout);
        let at = |h: &str| e.find(h).unwrap_or_else(|| panic!("{h} missing:\n{e}"));
        let how = at("\n## How to fix\n");
        assert!(
            at("## Why it matters") < how && how < at("## Example"),
            "{e}"
        );
        assert!(e[how..].contains(fix), "{e}");
    }
}

#[test]
fn every_rule_explains_how_to_fix() {
    let out = objlint(&root(), &["rules"]);
    assert_eq!(out.status.code(), Some(0));
    let list = text(&out.stdout);
    let ids: Vec<&str> = list
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert!(ids.len() >= objlint::checks::ids().len(), "{list}");
    for id in ids {
        let out = objlint(&root(), &["rules", "--explain", id]);
        assert_eq!(out.status.code(), Some(0), "{id}");
        let e = text(&out.stdout);
        let fix = e
            .split_once("\n## How to fix\n")
            .unwrap_or_else(|| panic!("{id}: no How to fix:\n{e}"))
            .1;
        let fix = fix.split("\n## ").next().unwrap();
        assert!(!fix.trim().is_empty(), "{id}: empty How to fix");
    }
}

/// More than 65,280 sections: `e_shnum == 0` and `e_shstrndx == SHN_XINDEX`
/// with the true values in section 0, symbols' sections in `.symtab_shndx`.
#[test]
fn extended_section_numbering() {
    const N: usize = 70_000;
    let tmp = tempfile::tempdir().unwrap();
    let mut s = String::with_capacity(N * 120);
    for i in 0..N {
        s.push_str(&format!(
            ".section .text.f{i},\"ax\",@progbits\n.globl f{i}\n.type f{i},@function\nf{i}:\n"
        ));
        let body = match i {
            // A call to a local noreturn function in a low-numbered section.
            69_990 => "call f3\n",
            3 => "ud2\n",
            // Falls off the end of its section after a call that returns.
            69_999 => "call f7\n",
            _ => "ret\n",
        };
        s.push_str(body);
        s.push_str(&format!(".size f{i},.-f{i}\n"));
    }
    let src = tmp.path().join("many.s");
    let obj = tmp.path().join("many.o");
    std::fs::write(&src, s).unwrap();
    let st = Command::new("as")
        .args(["--64", "-o"])
        .arg(&obj)
        .arg(&src)
        .status()
        .expect("GNU as");
    assert!(st.success());

    let data = std::fs::read(&obj).unwrap();
    let o = objlint::elf::Object::parse(&data).unwrap();
    assert_eq!(o.raw_shnum, 0);
    assert_eq!(o.raw_shstrndx, objlint::elf::SHN_XINDEX);
    assert!(o.sections.len() > N);
    assert!(o.symtab_shndx.is_some());
    let f = o.symbols.iter().find(|s| s.name == "f69999").unwrap();
    assert_eq!(f.raw_shndx, objlint::elf::SHN_XINDEX);
    assert_eq!(o.section_name(f.section_index().unwrap()), ".text.f69999");

    let out = objlint(tmp.path(), &["check", "--format", "short", "many.o"]);
    assert_eq!(
        text(&out.stdout),
        "many.o: f69999+0x0: error: f69999() falls through past the end of section .text.f69999 [fallthrough]\n"
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains(&format!("{} functions", N)));
}

/// A thin archive (kbuild's built-in.a) stands for its members, each read
/// from its own file; a member also named on its own is checked once, under
/// its own path.
#[test]
fn thin_archive_members_are_read_and_checked_once() {
    let dir = core_dir();
    let check = |args: &[&str]| {
        let mut all = vec!["check", "--format", "short", "-q", "-j", "1"];
        all.extend_from_slice(&["--enable", "fallthrough"]);
        all.extend_from_slice(args);
        let out = objlint(&dir, &all);
        assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
        text(&out.stdout)
    };
    let want = std::fs::read_to_string(dir.join("input/thin.expected")).unwrap();
    assert_eq!(check(&["input/thin.a"]), want);
    for args in [
        ["input/thin.a", "x86/missing-ret.o"],
        ["x86/missing-ret.o", "input/thin.a"],
    ] {
        let got = check(&args);
        assert_eq!(got.lines().count(), 4, "{got}");
        let own = got.lines().filter(|l| l.starts_with("x86/missing-ret.o: "));
        assert_eq!(own.count(), 2, "{got}");
    }
    // Not a thin archive: members inside, named as before.
    assert!(check(&["input/lib.a"]).starts_with("input/lib.a(missing-ret.o): "));
}

/// kbuild's built-in.a from another GNU ar ends the name field of members
/// of nested thin archives with '/' (`/70            /`): was "bad archive
/// name" for kernel/built-in.a and six others of a kbuild tree.
#[test]
fn thin_archive_names_ending_in_a_slash_are_read() {
    let dir = core_dir();
    let mut b = std::fs::read(dir.join("input/thin.a")).unwrap();
    let at = b
        .windows(17)
        .position(|w| w.starts_with(b"\n/22 "))
        .expect("a long-name member")
        + 16;
    b[at] = b'/';
    let tmp = tempfile::tempdir().unwrap();
    let a = tmp.path().join("input/thin.a");
    std::fs::create_dir_all(a.parent().unwrap()).unwrap();
    std::fs::write(&a, &b).unwrap();
    // The members' own files, where the archive names them.
    for m in std::fs::read_dir(dir.join("input")).unwrap() {
        let m = m.unwrap().path();
        if m.extension().is_some_and(|e| e == "o") {
            std::fs::copy(&m, tmp.path().join("input").join(m.file_name().unwrap())).unwrap();
        }
    }
    for sub in ["x86", "arm64"] {
        let d = tmp.path().join(sub);
        std::fs::create_dir_all(&d).unwrap();
        for m in std::fs::read_dir(dir.join(sub)).unwrap() {
            let m = m.unwrap().path();
            std::fs::copy(&m, d.join(m.file_name().unwrap())).unwrap();
        }
    }
    let out = objlint(
        tmp.path(),
        &[
            "check",
            "--format",
            "short",
            "-q",
            "--enable",
            "fallthrough",
            "input/thin.a",
        ],
    );
    let want = std::fs::read_to_string(dir.join("input/thin.expected")).unwrap();
    assert_eq!(text(&out.stdout), want, "{}", text(&out.stderr));
}

/// User-space code (a kernel tree's host tools): every function of libc.c
/// ends in a call to a C library function that never returns, so each would
/// fall through without those names in rules/noreturn.toml; with them the
/// objects are clean (`fixtures_cover_the_cases`).
#[test]
fn libc_noreturn_calls_end_their_callers() {
    use objlint::arch::Kind;
    use objlint::elf::Object;
    use objlint::model::Model;
    let rules = objlint::rules::Rules::builtin();
    for arch in ["x86", "arm64"] {
        let bytes = std::fs::read(core_dir().join(format!("{arch}/libc.o"))).unwrap();
        let obj = Object::parse(&bytes).unwrap();
        let m = Model::build(&obj, &rules);
        let mut last_calls: Vec<&str> = m
            .functions
            .iter()
            .filter(|f| !f.prefix)
            .filter(|f| {
                let code = m.section_code(f.section).unwrap();
                let r = m.insn_range(f);
                r.end > r.start && code.insns[r.end - 1].kind == Kind::Call
            })
            .map(|f| f.name)
            .collect();
        last_calls.sort_unstable();
        assert_eq!(last_calls, ["bad_arg", "check", "stop", "usage"], "{arch}");
        let noreturn = rules.noreturn(obj.machine, None);
        for callee in ["exit", "err", "__assert_fail", "abort"] {
            assert!(noreturn.contains(callee), "{callee}");
        }
    }
}

/// Code as Linux 6.1 builds it (testdata/core/linux61.c, gcc for both
/// arches), the shapes Debian's 6.1 modules showed and objlint tuned on 6.12
/// got wrong (3,136 fallthrough, 298 arm64 stack and 11 unreachable false
/// findings): cold blocks end in calls to 6.1's noreturn names, and an init
/// function's cold part is named after the function where the model keeps
/// its alias `init_module`; and what a kbuild build of 6.1 showed: a call to
/// the weak, empty default `arch_cpu_idle_dead()` (listed noreturn, as 6.12
/// declares it) returns. Every rule on, nothing reported.
#[test]
fn linux_6_1_shapes_are_clean() {
    use objlint::arch::Kind;
    use objlint::elf::Object;
    use objlint::model::Model;
    let rules = objlint::rules::Rules::builtin();
    for arch in ["x86", "arm64"] {
        let name = format!("{arch}/linux61.o");
        let bytes = std::fs::read(core_dir().join(&name)).unwrap();
        let obj = Object::parse(&bytes).unwrap();
        let m = Model::build(&obj, &rules);
        // The shapes are there: calls to each name end a function's code...
        let mut last_callees: Vec<&str> = m
            .functions
            .iter()
            .filter_map(|f| {
                let code = m.section_code(f.section)?;
                let r = m.insn_range(f);
                let last = r.end.checked_sub(1).filter(|&l| l >= r.start)?;
                (code.insns[last].kind == Kind::Call).then_some(last)?;
                let objlint::model::Dest::External { sym } = code.dest(last) else {
                    return None;
                };
                Some(&*obj.symbols[sym].name)
            })
            .collect();
        last_callees.sort_unstable();
        assert_eq!(
            last_callees,
            ["__invalid_creds", "fortify_panic", "lbug_with_loc"],
            "{arch}"
        );
        let noreturn = rules.noreturn(obj.machine, None);
        for callee in last_callees {
            assert!(noreturn.contains(callee), "{callee}");
        }
        // ...and the init function is kept as `init_module`, a local
        // `fixture_init` at its start (with its cold part on x86).
        let init = m.functions.iter().find(|f| f.name == "init_module");
        let init = init.unwrap_or_else(|| panic!("{arch}: init_module kept"));
        assert!(obj.symbols.iter().any(|s| s.name == "fixture_init"
            && s.section_index() == Some(init.section)
            && s.value == init.start));
        if arch == "x86" {
            assert!(m.functions.iter().any(|f| f.name == "fixture_init.cold"));
        }
        let out = objlint(&core_dir(), &["check", "--format", "short", "-q", &name]);
        assert_eq!(text(&out.stdout), "", "{arch}: {}", text(&out.stderr));
        assert_eq!(out.status.code(), Some(0), "{arch}");
    }
}

/// What never returns is each kernel version's (testdata/core/x86/
/// kernel-version.s, its version from a vmlinux.o's `linux_banner`): 6.1's
/// `arch_cpu_idle_dead()` may return, 6.12's is listed, and each version's
/// objtool says so of its own build; a listed name defined as a code label
/// (6.1's `rewind_stack_and_make_dead`, no function symbol) ends the path
/// where once `oops_end()` fell through. objtool's verdicts are beside the
/// objects; its other line, "unreachable instruction" at the label's trap,
/// is about code no function covers, which objlint does not judge.
#[test]
fn noreturn_lists_follow_the_kernel_version() {
    let dir = core_dir().join("x86");
    for (obj, kernel) in [
        ("kernel-version", None),
        ("kernel-version-612", None),
        // `--kernel` over the banner.
        ("kernel-version", Some("6.12")),
        ("kernel-version-612", Some("6.1")),
    ] {
        let o = format!("{obj}.o");
        let mut args = vec!["check", "--format", "short", "-q", &o];
        if let Some(k) = kernel {
            args.extend(["--kernel", k]);
        }
        let out = objlint(&dir, &args);
        let ours: Vec<String> = text(&out.stdout)
            .lines()
            .map(|l| l.split_once(": ").map_or(l, |(_, r)| r).to_string())
            .collect();
        let version = kernel.unwrap_or(if obj.ends_with("612") { "6.12" } else { "6.1" });
        let want: Vec<String> = match version {
            "6.1" => vec![],
            _ => vec![
                "idle+0x6: warning: arch_cpu_idle_dead() is missing a __noreturn annotation [unreachable]"
                    .to_string(),
            ],
        };
        assert_eq!(ours, want, "{obj} --kernel {kernel:?}");
        if kernel.is_none() {
            let verdict = std::fs::read_to_string(dir.join(format!("{obj}.objtool.txt"))).unwrap();
            let theirs: Vec<&str> = verdict
                .lines()
                .filter_map(|l| l.split_once(": warning: objtool: ").map(|(_, r)| r))
                .filter(|r| !r.starts_with(".text+"))
                .collect();
            let ours: Vec<String> = want
                .iter()
                .map(|w| w.replace(": warning: ", ": ").replace(" [unreachable]", ""))
                .collect();
            assert_eq!(theirs, ours, "{obj}: objtool's verdict");
        }
    }
}

/// `--timings` adds a table on stderr (every phase, each rule that ran,
/// counted once per object or function) and changes nothing on stdout.
#[test]
fn timings_show_every_phase_and_leave_findings_alone() {
    let args = ["check", "--format", "short", "-j", "1", "testdata/core"];
    let plain = objlint(&root(), &args);
    let timed = objlint(&root(), &[&args[..], &["--timings"]].concat());
    assert_eq!(plain.stdout, timed.stdout);
    assert_eq!(plain.status.code(), timed.status.code());
    let err = text(&timed.stderr);
    let objects = objects_in(&core_dir()).len();
    for phase in [
        "read",
        "decode",
        "model",
        "walk",
        "speculation pass",
        "output",
        "rules",
    ] {
        assert!(
            err.lines().any(|l| l.starts_with(phase)),
            "{phase} missing:\n{err}"
        );
    }
    // Each object is walked once; a rule runs once per object.
    let calls = |name: &str| -> u64 {
        let l = err
            .lines()
            .find(|l| l.trim_start().starts_with(name))
            .unwrap();
        let f: Vec<&str> = l.split_whitespace().collect();
        f[f.len() - 2].parse().unwrap()
    };
    assert!(calls("walk") as usize >= objects, "{err}");
    assert_eq!(calls("fallthrough"), objects as u64, "{err}");
    assert!(!text(&plain.stderr).contains("thread s"));
}

/// An arm64 alternative's replacement in a subsection after data (Linux
/// 6.1's head.S, `ptrauth_keys_init_cpu`): clang's mapping symbols call it
/// data, binutils' code. Either way the code after the replaced `b` is
/// reached through the NOP that replaces it, and nothing is unreachable
/// (built by clang, it was reported unreachable).
#[test]
fn alternative_replacements_are_code_whatever_the_mapping_symbols_say() {
    for o in ["arm64/alt-subsection-clang.o", "arm64/alt-subsection-gas.o"] {
        let out = objlint(
            &core_dir(),
            &["check", "--format", "short", "-q", "--profile", "kernel", o],
        );
        assert_eq!(text(&out.stdout), "", "{o}");
        assert_eq!(out.status.code(), Some(0), "{o}");
    }
    // The case the fixture is for: clang's mapping symbols leave the
    // replacement (at 0x28, after the table at 0x20) out of the code.
    let bytes = std::fs::read(core_dir().join("arm64/alt-subsection-clang.o")).unwrap();
    let obj = objlint::elf::Object::parse(&bytes).unwrap();
    let text_sec = obj.sections.iter().find(|s| s.name == ".text").unwrap();
    let ranges = obj.code_ranges(text_sec.index);
    assert!(ranges.iter().all(|&(_, hi)| hi <= 0x20), "{ranges:?}");
}
