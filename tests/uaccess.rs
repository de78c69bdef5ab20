//! uaccess-call, uaccess-return, uaccess-redundant and noinstr-call on the
//! committed fixtures in testdata/uaccess (sources and build.sh beside them).

use std::path::Path;
use std::process::Command;

const RULES: &str = "uaccess-call,uaccess-return,uaccess-redundant,noinstr-call";

fn dir() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/uaccess"))
}

fn objects() -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".o"))
        .collect();
    v.sort();
    v
}

fn objlint(args: &[&str]) -> (String, i32) {
    let out = Command::new(env!("CARGO_BIN_EXE_objlint"))
        .current_dir(dir())
        .args(args)
        .output()
        .unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        out.status.code().unwrap_or(-1),
    )
}

fn expected(name: &str) -> String {
    std::fs::read_to_string(dir().join(name)).unwrap()
}

#[test]
fn fixtures_give_the_expected_findings() {
    let objs = objects();
    let mut args = vec!["check", "--format", "short", "--enable", RULES];
    args.extend(objs.iter().map(String::as_str));
    let (out, code) = objlint(&args);
    assert_eq!(out, expected("expected.txt"));
    assert_eq!(code, 1);
}

#[test]
fn link_judges_calls_to_undefined_functions() {
    let (out, _) = objlint(&[
        "check",
        "--link",
        "--format",
        "short",
        "--enable",
        "noinstr-call",
        "noinstr-x86_64.o",
        "noinstr-aarch64.o",
        "noinstr-typed-x86_64.o",
    ]);
    assert_eq!(out, expected("expected-link.txt"));
    // __ubsan_handle_*() stays allowed with --link.
    assert!(!out.contains("__ubsan"));
}

#[test]
fn clean_functions_stay_clean() {
    let (out, _) = objlint(&[
        "check",
        "--format",
        "short",
        "--enable",
        RULES,
        "uaccess-x86_64.o",
        "uaccess-aarch64.o",
    ]);
    for clean in ["get_ok", "call_safe", "close_then_call", "save_restore_ok"] {
        assert!(!out.contains(&format!(": {clean}+")), "{clean}: {out}");
    }
    let (out, _) = objlint(&[
        "check",
        "--format",
        "short",
        "--enable",
        RULES,
        "asm-x86_64.o",
        "asm-aarch64.o",
    ]);
    for clean in ["pushf_ok", "old_layout_ok", "pan_ok", " split+"] {
        assert!(!out.contains(clean), "{clean}: {out}");
    }
    let (out, _) = objlint(&[
        "check",
        "--format",
        "short",
        "--enable",
        RULES,
        "noinstr-x86_64.o",
    ]);
    for clean in [
        "enter_ok",
        "enter_annotated",
        "enter_external",
        "traced+",
        "quiet+",
    ] {
        assert!(!out.contains(clean), "{clean}: {out}");
    }
}

#[test]
fn config_extends_the_safe_list() {
    let tmp = tempfile::tempdir().unwrap();
    let cfg = tmp.path().join("objlint.toml");
    std::fs::write(&cfg, "uaccess_safe = [\"helper\"]\n").unwrap();
    let (out, _) = objlint(&[
        "check",
        "--config",
        cfg.to_str().unwrap(),
        "--format",
        "short",
        "--enable",
        "uaccess-call",
        "uaccess-x86_64.o",
        "uaccess-aarch64.o",
    ]);
    assert!(!out.contains("helper()"), "{out}");
    assert!(out.contains("indirect call with UACCESS enabled"), "{out}");
}

#[test]
fn json_notes_name_the_thunk_and_the_replacement() {
    let (out, _) = objlint(&[
        "check",
        "--format",
        "json",
        "--enable",
        "uaccess-call",
        "uaccess-x86_64.o",
    ]);
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let indirect = lines
        .iter()
        .find(|v| v["symbol"] == "call_indirect")
        .expect("call_indirect finding");
    assert_eq!(indirect["section"], ".text");
    let text = indirect.to_string();
    assert!(text.contains("__x86_indirect_thunk_rax"), "{text}");
    let call = lines
        .iter()
        .find(|v| v["symbol"] == "call_open")
        .expect("call_open finding");
    assert_eq!(call["severity"], "error");
}

#[test]
fn disabling_one_rule_keeps_the_others() {
    let (out, _) = objlint(&[
        "check",
        "--format",
        "short",
        "--enable",
        "uaccess-return",
        "uaccess-x86_64.o",
    ]);
    assert_eq!(
        out,
        "uaccess-x86_64.o: one_path_open+0xd: error: return with UACCESS enabled [uaccess-return]\n"
    );
}

fn real(path: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/real")
        .join(path)
}

fn check_file(path: &Path) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_objlint"))
        .args(["check", "--format", "short", "--enable", RULES])
        .arg(path)
        .output()
        .unwrap();
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn real_modules() {
    // Both hypercalls of privcmd_ioctl run with user access open (objtool
    // reports the second only: it stops at a function's first warning).
    let out = check_file(&real("x86_64/xen-privcmd.ko"));
    let sites: Vec<&str> = out.lines().map(|l| l.split(": ").nth(1).unwrap()).collect();
    assert_eq!(
        sites,
        ["privcmd_ioctl+0x47c", "privcmd_ioctl+0xbf2"],
        "{out}"
    );
    assert!(out.contains("call to __SCT__xen_hypercall() with UACCESS enabled"));
    // evdev.ko opens and closes user access through alternatives, correctly.
    assert_eq!(check_file(&real("x86_64/evdev.ko")), "");
}

#[test]
fn real_module_with_its_clac_removed() {
    let path = real("x86_64/evdev.ko");
    let mut bytes = std::fs::read(&path).unwrap();
    let obj = objlint::elf::Object::parse(&bytes).unwrap();
    let sec = obj.sections_named(".altinstr_replacement")[0];
    let data = obj.section_data(sec);
    let at = data
        .windows(3)
        .position(|w| w == [0x0f, 0x01, 0xca])
        .expect("a CLAC replacement");
    let file_off = obj.sections[sec].offset as usize + at;
    drop(obj);
    bytes[file_off..file_off + 3].copy_from_slice(&[0x0f, 0x1f, 0x00]); // nopl (%rax)
    let tmp = tempfile::tempdir().unwrap();
    let broken = tmp.path().join("evdev.ko");
    std::fs::write(&broken, &bytes).unwrap();
    let out = check_file(&broken);
    assert!(
        out.contains("with UACCESS enabled [uaccess-"),
        "the open path must be reported: {out}"
    );
}

/// The arm64 uaccess policy lives in rules/uaccess_safe.toml: with a file
/// that has objtool's model instead (listed functions entered open, no state
/// resets), the arm64 kernel shapes in asm-aarch64.s are reported again.
#[test]
fn arm64_policy_comes_from_the_rules() {
    let builtin = include_str!("../rules/uaccess_safe.toml");
    let cut = builtin.find("[entered_open]").unwrap();
    let rest = &builtin[builtin.find("[any]").unwrap()..];
    let rules = tempfile::tempdir().unwrap();
    std::fs::write(
        rules.path().join("uaccess_safe.toml"),
        format!("{}{rest}", &builtin[..cut]),
    )
    .unwrap();
    let run = |extra: &[&str]| {
        let mut args = vec![
            "check",
            "--format",
            "short",
            "--enable",
            "uaccess-call,uaccess-redundant",
        ];
        args.extend_from_slice(extra);
        args.push("asm-aarch64.o");
        objlint(&args).0
    };
    let shapes = [
        "__stack_chk_fail+",
        "cpu_enable_pan+",
        "__sdei_handler+",
        "__cpu_suspend_exit+",
    ];
    let all_out = run(&[]);
    // The functions the policy exempts are named as not checked.
    assert!(
        all_out
            .contains("cpu_enable_pan+0x0: warning: analysis incomplete: 3 functions are exempt"),
        "{all_out}"
    );
    let builtin_out: String = all_out
        .lines()
        .filter(|l| !l.ends_with("[analysis-incomplete]"))
        .collect();
    assert!(
        shapes.iter().all(|s| !builtin_out.contains(s)),
        "{builtin_out}"
    );
    let dir = rules.path().to_str().unwrap().to_string();
    let objtool_model = run(&["--rules", &dir]);
    for s in shapes {
        assert!(objtool_model.contains(s), "{s}: {objtool_model}");
    }
    // A state reset is one in the section the kernel defines it in:
    // __sdei_handler is noinstr; listed in .text, the one here is tracked.
    let moved = tempfile::tempdir().unwrap();
    let from = "function = \"__sdei_handler\"\nsection = \".noinstr.text\"";
    assert!(builtin.contains(from));
    std::fs::write(
        moved.path().join("uaccess_safe.toml"),
        builtin.replace(from, "function = \"__sdei_handler\"\nsection = \".text\""),
    )
    .unwrap();
    let out = run(&["--rules", moved.path().to_str().unwrap()]);
    assert!(out.contains("__sdei_handler+"), "{out}");
    assert!(out.contains("2 functions are exempt"), "{out}");
}

/// Without recorded instrumentation regions (arm64 builds have no objtool),
/// a call out of noinstr code is a warning with a note. On x86 the regions
/// are recorded only in builds with CONFIG_NOINSTR_VALIDATION: an object
/// with none is taken for one built without it (a Linux 6.1 build without
/// DEBUG_ENTRY had 70 such calls in 15 objects, all false as errors), and
/// its calls out are said not judged.
#[test]
fn unrecorded_regions_make_warnings() {
    let (out, _) = objlint(&[
        "check",
        "--format",
        "json",
        "--enable",
        "noinstr-call,analysis-incomplete",
        "noinstr-noregions-aarch64.o",
        "noinstr-noregions-x86_64.o",
    ]);
    let v: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|v| v["type"] == "finding")
        .collect();
    assert_eq!(v.len(), 2, "{out}");
    assert_eq!(v[0]["arch"], "aarch64");
    assert_eq!(v[0]["rule"], "noinstr-call");
    assert_eq!(v[0]["severity"], "warning");
    assert_eq!(v[1]["arch"], "x86_64");
    assert_eq!(v[1]["rule"], "analysis-incomplete");
    assert_eq!(v[1]["cause"], "regions-unrecorded");
    assert_eq!(
        v[1]["notes"][0],
        "enter_unannotated+0x0: call to traced() leaves .noinstr.text section"
    );
    // An arm64 object that carries the annotations keeps its errors.
    let (annotated, code) = objlint(&[
        "check",
        "--format",
        "short",
        "--enable",
        "noinstr-call",
        "noinstr-aarch64.o",
    ]);
    assert_eq!(code, 1);
    assert!(annotated.contains("error: call to traced()"), "{annotated}");
}

/// A weak callee may be replaced by another object's strong definition:
/// judged only for a linked whole.
#[test]
fn weak_callees_are_judged_with_link_only() {
    let args = ["check", "--format", "short", "--enable", "noinstr-call"];
    let (alone, code) = objlint(&[&args[..], &["noinstr-weak-x86_64.o"]].concat());
    assert_eq!(alone, "");
    assert_eq!(code, 0);
    let (linked, _) = objlint(&[&args[..], &["--link", "noinstr-weak-x86_64.o"]].concat());
    assert!(
        linked.contains("call to arch_cpu_idle() leaves .cpuidle.text"),
        "{linked}"
    );
}

/// A linked whole (vmlinux.o) defines `__x86_return_thunk` and the retpoline
/// thunks as SYM_CODE labels: a jump to the return thunk is a return, not a
/// walk into its `ALTERNATIVE "ret", "jmp warn_thunk_thunk"` (four false
/// findings on a defconfig vmlinux.o before), and the build's mitigations are
/// told from branches to them; their annotated `ret; int3` do not make the
/// build look SLS-hardened (nine false `sls` findings on .init.text's bare
/// jumps there). objtool's own warnings on the object are the expected
/// findings, with every default rule on.
#[test]
fn linked_whole_defining_its_thunks_agrees_with_objtool() {
    let (out, code) = objlint(&[
        "check",
        "--link",
        "--format",
        "short",
        "rethunk-defined-x86_64.o",
    ]);
    let ours: std::collections::BTreeSet<(String, String)> = out
        .lines()
        .filter_map(|l| {
            let rest = l.strip_prefix("rethunk-defined-x86_64.o: ")?;
            let (at, rest) = rest.split_once(": ")?;
            let msg = rest.split_once(": ")?.1;
            let msg = msg.rsplit_once(" [")?.0;
            Some((at.to_string(), msg.to_string()))
        })
        .collect();
    let theirs: std::collections::BTreeSet<(String, String)> =
        expected("rethunk-defined-x86_64.objtool")
            .lines()
            .filter_map(|l| {
                let (at, msg) = l.split(": warning: objtool: ").nth(1)?.split_once(": ")?;
                Some((at.to_string(), msg.to_string()))
            })
            .collect();
    assert_eq!(theirs.len(), 3);
    assert_eq!(ours, theirs, "{out}");
    assert_eq!(code, 1);
}

/// A call to a named function with user access open carries the fix (add
/// the callee to `uaccess_safe`); an indirect call has none.
#[test]
fn direct_calls_carry_the_uaccess_safe_fix() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_objlint"))
        .args([
            "check",
            "--format",
            "json",
            "--enable",
            "uaccess-call",
            "testdata/examples/uaccess-x86_64.o",
        ])
        .output()
        .unwrap();
    let fixes: Vec<(String, serde_json::Value)> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|v| v["rule"] == "uaccess-call")
        .map(|v| (v["symbol"].as_str().unwrap().to_string(), v["fix"].clone()))
        .collect();
    let helper = serde_json::json!({"key": "uaccess_safe", "name": "helper"});
    assert_eq!(
        fixes,
        [
            ("call_open".to_string(), helper.clone()),
            ("call_indirect".to_string(), serde_json::Value::Null),
            ("tail_open".to_string(), helper.clone()),
            ("save_restore_bad".to_string(), helper),
        ]
    );
}

/// objtool's uaccess-safe list is its kernel version's: Linux 6.12 lists
/// `__stack_chk_fail` (and makes it close user access before it calls
/// panic()), Linux 6.1 does not. A function on the list is walked as entered
/// with access open, so 6.1's `__stack_chk_fail` (the real kernel/panic.o of
/// a 6.1 build) drew "call to panic() with UACCESS enabled", which objtool
/// 6.1 with kbuild's arguments does not say. For a 6.1 object, told by
/// `--kernel`, the config's `kernel`, or a module's vermagic, 6.1's list
/// applies and nothing is reported; for 6.12, or a version not known, the
/// names of every version's list do.
#[test]
fn the_kernel_versions_own_list_applies() {
    let objtool = expected("versions/panic-61.objtool61.txt");
    assert!(objtool.lines().all(|l| l.starts_with('#')), "{objtool}");
    let finding = "versions/panic-61.o: __stack_chk_fail+0xb: error: call to panic() with UACCESS enabled [uaccess-call]\n";
    let run = |extra: &[&str], obj: &str| {
        let mut a = vec![
            "check",
            "-q",
            "--format",
            "short",
            "--enable",
            "uaccess-call",
        ];
        a.extend_from_slice(extra);
        a.push(obj);
        objlint(&a).0
    };
    assert_eq!(run(&[], "versions/panic-61.o"), finding);
    assert_eq!(
        run(&["--kernel", "6.12.117"], "versions/panic-61.o"),
        finding
    );
    assert_eq!(run(&["--kernel", "6.1"], "versions/panic-61.o"), "");
    // The same object as a module of 6.1 says so itself; a version given
    // wins over it.
    let module = "versions/panic-61-vermagic.o";
    assert_eq!(run(&[], module), "");
    assert_eq!(
        run(&["--kernel", "6.12"], module),
        finding.replace("panic-61.o", "panic-61-vermagic.o")
    );
    // The config file's `kernel`.
    let tmp = tempfile::tempdir().unwrap();
    let cfg = tmp.path().join("objlint.toml");
    std::fs::write(&cfg, "kernel = \"6.1\"\n").unwrap();
    let cfg = cfg.to_str().unwrap();
    assert_eq!(run(&["--config", cfg], "versions/panic-61.o"), "");
    std::fs::write(tmp.path().join("objlint.toml"), "kernel = \"six\"\n").unwrap();
    let (_, code) = objlint(&["check", "--config", cfg, "versions/panic-61.o"]);
    assert_eq!(code, 2);
    let (_, code) = objlint(&["check", "--kernel", "latest", "versions/panic-61.o"]);
    assert_eq!(code, 2);
}
