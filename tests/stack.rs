//! The stack rules against ground truth made by other tools, on the
//! fixtures of testdata/stack (sources and build.sh beside them):
//! - objtool's own warnings on the x86 objects (`X.objtool.txt`, objtool
//!   6.12 with the arguments in its first line), finding for finding;
//! - the ORC table objtool wrote (`X.orc.o`), row for row, against the one
//!   objlint computes from the object as the compiler left it (`X.o`);
//! - compiler output is clean on both arches;
//! - the hand-written arm64 faults (no objtool there): each reported where
//!   it is, and nothing else.

use objlint::config::Options;
use objlint::elf::Object;
use objlint::engine::check_bytes;
use objlint::model::Model;
use objlint::rules::Rules;
use objlint::unwind;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// frames.c as the compilers built it, exact CFI at every instruction.
const FRAMES: [&str; 9] = [
    "x86-gcc",
    "x86-clang",
    "x86-gcc-fp",
    "x86-clang-fp",
    "x86-clang-kcfi",
    "arm64-gcc",
    "arm64-clang",
    "arm64-gcc-fp",
    "arm64-clang-fp",
];

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/stack")
}

/// The flow rules objtool has a counterpart for, by its message.
fn objtool_class(message: &str) -> Option<&'static str> {
    let m = message;
    Some(if m.starts_with("stack state mismatch") {
        "stack-mismatch"
    } else if m.starts_with("return with modified stack frame") {
        "stack-modified-return"
    } else if m.starts_with("sibling call from callable instruction with modified stack frame") {
        "stack-modified-sibling-call"
    } else if m.starts_with("undefined stack state")
        || m.starts_with("unsupported stack register modification")
        || m.starts_with("unsupported stack pointer realignment")
        || m.starts_with("unknown stack-related instruction")
    {
        "stack-undefined"
    } else if m.starts_with("call without frame pointer save/setup")
        || m.starts_with("BP used as a scratch register")
    {
        "frame-pointer"
    } else if m.contains("falls through to next function")
        || m.contains("unexpected end of section")
    {
        "fallthrough"
    } else if m.contains("with UACCESS enabled") {
        "uaccess-call"
    } else {
        return None;
    })
}

/// objtool's warnings in a file it wrote: (`sym+0xoff`, class), and its
/// arguments.
fn objtool_warnings(file: &str) -> (Vec<(String, &'static str)>, String) {
    let text = std::fs::read_to_string(dir().join(file)).unwrap();
    let mut lines = text.lines();
    let args = lines.next().unwrap_or_default().to_string();
    let mut out = Vec::new();
    for l in lines {
        let Some((_, rest)) = l.split_once(": warning: objtool: ") else {
            continue;
        };
        // `sym+0xoff: message`, or `func() falls through ...` with no place.
        let (place, msg) = match rest.split_once(": ") {
            Some((p, m)) if !p.contains(' ') => (p.to_string(), m),
            _ => (String::new(), rest),
        };
        if let Some(c) = objtool_class(msg) {
            out.push((place, c));
        }
    }
    (out, args)
}

fn check(name: &str, frame_pointer: bool) -> Vec<objlint::checks::Finding> {
    let bytes = std::fs::read(dir().join(format!("{name}.o"))).unwrap();
    let rules = Rules::builtin();
    let opts = Options {
        frame_pointer: Some(frame_pointer),
        ..Default::default()
    };
    let rep = check_bytes(name, &bytes, &rules, &opts);
    assert!(rep.error.is_none(), "{name}: {:?}", rep.error);
    rep.findings
}

fn place(f: &objlint::checks::Finding) -> String {
    match &f.symbol {
        Some(s) if f.symbol_offset == 0 => format!("{s}+0x0"),
        Some(s) => format!("{s}+{:#x}", f.symbol_offset),
        None => format!("{}+{:#x}", f.section, f.offset),
    }
}

/// With nothing to say whether the build uses frame pointers, the object
/// says it (19 of 20 calling functions framed), and the one call before its
/// frame is objtool's --stackval warning, at the same place.
#[test]
fn frame_pointer_build_read_from_a_small_object() {
    let bytes = std::fs::read(dir().join("x86-fp-detect.o")).unwrap();
    let rep = check_bytes(
        "x86-fp-detect",
        &bytes,
        &Rules::builtin(),
        &Options::default(),
    );
    let ours: Vec<(String, &str)> = rep.findings.iter().map(|f| (place(f), f.rule)).collect();
    let (warnings, args) = objtool_warnings("x86-fp-detect.stackval.objtool.txt");
    assert!(args.contains("--stackval"));
    assert_eq!(warnings.len(), 1);
    let want: Vec<(String, &str)> = warnings.into_iter().collect();
    assert_eq!(ours, want);
}

/// The flow findings objtool has a class for, read from the object alone
/// (`None`) or told the build (`Some`).
fn classed(name: &str, frame_pointer: Option<bool>) -> Vec<(String, &'static str)> {
    let bytes = std::fs::read(dir().join(format!("{name}.o"))).unwrap();
    let opts = Options {
        frame_pointer,
        ..Default::default()
    };
    let rep = check_bytes(name, &bytes, &Rules::builtin(), &opts);
    assert!(rep.error.is_none(), "{name}: {:?}", rep.error);
    rep.findings
        .iter()
        .filter(|f| objtool_class(&f.message).is_some())
        .map(|f| (place(f), f.rule))
        .collect()
}

/// Frame-pointer kernels are compiled with -fno-optimize-sibling-calls
/// (rules/stack.toml): a function that jumps on to another without a frame
/// record says the object is no frame-pointer build, however many of its
/// calling functions are framed. objtool --stackval names the %rbp scratch
/// use in both objects; objlint, reading the build from the object, only
/// where no such jump is (a static_call trampoline's does not count), and
/// in both when told the build.
#[test]
fn unframed_sibling_calls_say_no_frame_pointer_build() {
    for (name, fp_build) in [("x86-fp-trampoline", true), ("x86-fp-sibling", false)] {
        let (want, args) = objtool_warnings(&format!("{name}.stackval.objtool.txt"));
        assert!(args.contains("--stackval"));
        assert_eq!(want.len(), 1, "{name}");
        let read = classed(name, None);
        assert_eq!(read, if fp_build { want.clone() } else { vec![] }, "{name}");
        assert_eq!(classed(name, Some(true)), want, "{name}");
    }
}

/// Real ORC objects, as objtool saw them, whose calling functions keep %rbp
/// frames, so the share alone took them for frame-pointer builds and
/// reported another function's %rbp used as a scratch register:
/// - Linux 6.1's zstd fse_decompress.o (gcc): its functions jump on to
///   others without a frame (sibling calls, never made in frame-pointer
///   kernels);
/// - Linux 6.1's lib/crypto/chacha.o (clang, kCFI): both calling functions
///   realign the stack (`and $-16, %rsp`), which needs a frame base in any
///   build, so their frames are no evidence.
///
/// objtool 6.1 with kbuild's arguments (--orc) says nothing, and neither
/// does objlint; told the build, both report the one place.
#[test]
fn real_orc_objects_with_framed_callers_are_no_frame_pointer_builds() {
    for name in ["x86-orc-fse", "x86-orc-chacha"] {
        let (orc, args) = objtool_warnings(&format!("{name}.objtool61.txt"));
        assert!(args.contains("--orc") && !args.contains("--stackval"));
        assert!(orc.is_empty(), "{name}: {orc:?}");
        assert_eq!(classed(name, None), orc, "{name}");
        let (stackval, args) = objtool_warnings(&format!("{name}.stackval.objtool61.txt"));
        assert!(args.contains("--stackval"));
        assert_eq!(stackval.len(), 1, "{name}");
        assert_eq!(classed(name, Some(true)), stackval, "{name}");
    }
}

#[test]
fn findings_agree_with_objtool() {
    let mut compared = 0;
    for (name, file) in [
        ("x86-cases", "x86-cases.objtool.txt"),
        ("x86-cases", "x86-cases.stackval.objtool.txt"),
        (
            "x86-embedded-call",
            "x86-embedded-call.stackval.objtool.txt",
        ),
        ("x86-gcc", "x86-gcc.objtool.txt"),
        ("x86-clang", "x86-clang.objtool.txt"),
        ("x86-gcc-fp", "x86-gcc-fp.objtool.txt"),
        ("x86-clang-fp", "x86-clang-fp.objtool.txt"),
        ("x86-clang-kcfi", "x86-clang-kcfi.objtool.txt"),
        ("x86-gcc-goto", "x86-gcc-goto.objtool.txt"),
    ] {
        let (warnings, args) = objtool_warnings(file);
        let fp = args.contains("--stackval");
        let findings = check(name, fp);
        let ours: BTreeSet<(String, &str)> = findings
            .iter()
            .filter(|f| objtool_class(&f.message).is_some() || f.rule.starts_with("stack-"))
            .map(|f| (place(f), f.rule))
            .collect();
        // Every objtool warning has its finding (fall-through warnings
        // name no place: the class must be there).
        for (p, c) in &warnings {
            compared += 1;
            let hit = if p.is_empty() {
                ours.iter().any(|(_, r)| r == c)
            } else {
                ours.contains(&(p.clone(), *c))
            };
            assert!(hit, "{name}: objtool's {c} at {p} not reported: {ours:?}");
        }
        // objtool stops a function at its first warning; any other finding
        // must be in a function objtool already warned about.
        let warned: BTreeSet<&str> = warnings
            .iter()
            .filter_map(|(p, _)| p.split('+').next())
            .collect();
        for (p, r) in &ours {
            let func = p.split('+').next().unwrap();
            let known = warnings.iter().any(|(wp, wc)| wp == p && wc == r)
                || (*r == "fallthrough" && warnings.iter().any(|(_, c)| *c == "fallthrough"));
            assert!(
                known || warned.contains(func),
                "{name}: {r} at {p} that objtool ({args}) does not report"
            );
        }
    }
    assert!(compared >= 13, "only {compared} objtool warnings compared");
}

/// The path to each stack finding takes the branches objtool's
/// `--backtrace` lists for its warning there (its `(branch)`/`(alt)` lines,
/// nearest first).
#[test]
fn paths_are_the_ones_objtool_backtraces() {
    let text = std::fs::read_to_string(dir().join("x86-cases.backtrace.objtool.txt")).unwrap();
    let findings = check("x86-cases", false);
    let mut compared = 0;
    let mut with_branches = 0;
    let mut current: Option<(String, &str)> = None;
    let mut branches: Vec<String> = Vec::new();
    let mut check_one = |w: &(String, &str), branches: &[String]| {
        let f = findings
            .iter()
            .find(|f| place(f) == w.0 && f.rule == w.1)
            .unwrap_or_else(|| panic!("no {} at {}", w.1, w.0));
        let ours: Vec<String> = f
            .path
            .as_ref()
            .expect("stack findings have a path")
            .iter()
            .map(|p| {
                let t = &p.from;
                format!("{}+{:#x}", t.symbol.as_deref().unwrap(), t.symbol_offset)
            })
            .collect();
        let theirs: Vec<String> = branches.iter().rev().cloned().collect();
        assert_eq!(ours, theirs, "path to {} at {}", w.1, w.0);
        compared += 1;
        with_branches += usize::from(!theirs.is_empty());
    };
    for l in text.lines().skip(1) {
        let Some((_, rest)) = l.split_once(": warning: objtool: ") else {
            continue;
        };
        if let Some(bt) = rest.strip_prefix("  ") {
            let (p, what) = bt.split_once(": ").unwrap();
            if what.starts_with("<===") {
                if let Some(w) = current.take() {
                    check_one(&w, &branches);
                }
                branches.clear();
            } else {
                branches.push(p.to_string());
            }
        } else {
            let (p, msg) = rest.split_once(": ").unwrap();
            current = objtool_class(msg).map(|c| (p.to_string(), c));
        }
    }
    assert!(
        compared >= 6 && with_branches >= 1,
        "{compared} paths compared, {with_branches} with branches"
    );
}

/// Every kind of edge a path can take is named: a switch case and an
/// alternative (arm64, no objtool there).
#[test]
fn paths_name_cases_and_alternatives() {
    let findings = check("arm64-cases", true);
    let edges = |at: &str| -> Vec<(String, &'static str)> {
        let f = findings
            .iter()
            .find(|f| place(f) == at)
            .unwrap_or_else(|| panic!("no finding at {at}"));
        f.path
            .iter()
            .flatten()
            .map(|p| {
                (
                    format!(
                        "{}+{:#x}",
                        p.to.symbol.as_deref().unwrap(),
                        p.to.symbol_offset
                    ),
                    p.edge,
                )
            })
            .collect()
    };
    assert_eq!(
        edges("table_spilled_index+0x44"),
        [("table_spilled_index+0x44".to_string(), "switch case")]
    );
    assert_eq!(
        edges("cb_patch_nops+0xc"),
        [("cb_patch_nops+0xc".to_string(), "alternative")]
    );
}

#[test]
fn computed_orc_is_the_orc_objtool_wrote() {
    let rules = Rules::builtin();
    // Every x86 build of frames.c. x86-clang-kcfi: the NOPs after each
    // 5-byte `__cfi_` preamble symbol take the preamble's state, as objtool
    // walks them (10 rows apart before).
    // x86-gcc-goto: a computed goto dispatched through an indirect thunk
    // defined in the object, as vmlinux.o's ___bpf_prog_run is: its
    // handlers are reached only through the table (13 of 25 rows apart
    // when the jump was taken for a tail call).
    let x86 = FRAMES.into_iter().filter(|n| n.starts_with("x86-"));
    assert_eq!(x86.clone().count(), 5);
    for name in x86.chain(["x86-gcc-goto"]) {
        let a = orc_against(&rules, name, "orc");
        assert!(a.reference_rows >= 25, "{name}: {a:?}");
        assert_eq!(a.disagree, 0, "{name}: {:#?}", a);
    }
}

/// A call marked reachable (`.discard.reachable` after it, the kernel's
/// call_on_stack()) returns even though objlint proves its callee never
/// does: objtool walks on past it and writes ORC rows there, and so does
/// objlint (before, 3 of 6 rows undefined: the 10 rows of smp.c's
/// `sysvec_reboot` and `page_fault_oops` apart on a defconfig vmlinux.o,
/// then taken for objlint's stricter noreturn). Without the mark both end
/// the path at the call.
#[test]
fn a_call_marked_reachable_returns() {
    let rules = Rules::builtin();
    for (name, rows) in [
        ("x86-reachable-call", 6),
        ("x86-reachable-call-unannotated", 5),
    ] {
        let a = orc_against(&rules, name, "orc");
        assert_eq!(a.reference_rows, rows, "{name}: {a:?}");
        assert_eq!(a.disagree, 0, "{name}: {:#?}", a);
    }
    // Unmarked, the code after the call is unreachable: the local callee
    // has no return instruction, so the compiler could have known (objtool's
    // dead-end functions), and both say it lacks a __noreturn annotation.
    let text =
        std::fs::read_to_string(dir().join("x86-reachable-call-unannotated.objtool.txt")).unwrap();
    let theirs: Vec<&str> = text
        .lines()
        .filter_map(|l| l.split_once(": warning: objtool: ").map(|(_, r)| r))
        .collect();
    assert_eq!(
        theirs,
        ["on_stack+0xf: dies() is missing a __noreturn annotation"]
    );
    for (name, want) in [
        ("x86-reachable-call", vec![]),
        (
            "x86-reachable-call-unannotated",
            vec!["on_stack+0xf: dies() is missing a __noreturn annotation".to_string()],
        ),
    ] {
        let bytes = std::fs::read(dir().join(format!("{name}.o"))).unwrap();
        let rep = check_bytes(name, &bytes, &rules, &Options::default());
        let ours: Vec<String> = rep
            .findings
            .iter()
            .map(|f| format!("{}: {}", place(f), f.message))
            .collect();
        assert_eq!(ours, want, "{name}");
    }
}

/// Two alternatives at one site (Linux's FILL_RETURN_BUFFER, ALTERNATIVE_2):
/// as 6.1 has it, the shorter replacement ends where the other makes its
/// second call a word deeper, which objtool 6.12 calls a "stack layout
/// conflict in alternatives" at the same place objlint names; as 6.12 has
/// it (two NOPs first), both are clean and the ORC agrees row for row.
/// objtool 6.1 wrote the last alternative's states only: where the ORC
/// objtool 6.1 wrote disagrees, each row is put down to that (or, as 6.1
/// has it, to the conflict itself), never to the walk.
#[test]
fn alternatives_at_one_site_agree_on_the_stack() {
    let rules = Rules::builtin();
    let text = std::fs::read_to_string(dir().join("x86-alt2.objtool.txt")).unwrap();
    let theirs: Vec<&str> = text
        .lines()
        .filter_map(|l| l.split_once(": warning: objtool: ").map(|(_, r)| r))
        .collect();
    let want = ["stuff_rsb+0x4: stack layout conflict in alternatives: .altinstr_replacement+0xd"];
    assert_eq!(theirs, want);
    let fixed = std::fs::read_to_string(dir().join("x86-alt2-fixed.objtool.txt")).unwrap();
    assert_eq!(fixed.lines().filter(|l| !l.starts_with('#')).count(), 0);
    let ours = |name: &str| -> Vec<String> {
        check(name, false)
            .iter()
            .map(|f| format!("{}: {} [{}]", place(f), f.message, f.rule))
            .collect()
    };
    for name in ["x86-alt2", "x86-alt2-61"] {
        assert_eq!(
            ours(name),
            [format!("{} [stack-mismatch]", want[0])],
            "{name}"
        );
    }
    for name in ["x86-alt2-fixed", "x86-alt2-fixed-61"] {
        assert!(ours(name).is_empty(), "{name}: {:?}", ours(name));
    }
    let a = orc_against(&rules, "x86-alt2-fixed", "orc");
    assert_eq!((a.disagree, a.agree), (0, 14), "{a:#?}");
    let conflict = "in a site whose alternatives conflict (stack-mismatch there)";
    let last_only = "in a site with several alternatives (objtool before 6.3 writes the last one's states only)";
    for (name, class) in [("x86-alt2-61", conflict), ("x86-alt2-fixed-61", last_only)] {
        let a = orc_against(&rules, name, "orc61");
        assert!(a.disagree > 0, "{name}: {a:#?}");
        let classes: Vec<_> = a.classes.iter().map(|(c, n)| (c.as_str(), *n)).collect();
        assert_eq!(classes, [(class, a.disagree)], "{name}");
    }
}

/// How the ORC objlint computes for testdata/stack/NAME.o agrees with the
/// one objtool wrote into NAME.WRITTEN.o.
fn orc_against(rules: &Rules, name: &str, written: &str) -> unwind::OrcAgreement {
    let pre = std::fs::read(dir().join(format!("{name}.o"))).unwrap();
    let post = std::fs::read(dir().join(format!("{name}.{written}.o"))).unwrap();
    let obj = Object::parse(&pre).unwrap();
    let robj = Object::parse(&post).unwrap();
    let m = Model::build(&obj, rules);
    let computed = unwind::computed_orc(&m, rules, &Options::default(), None);
    let reference = unwind::reference_orc(&robj, rules, m.kernel).unwrap();
    unwind::compare_orc(&m, &computed, &reference, 5)
}

/// The ORC objtool 6.1 writes (rows laid out as before Linux 6.4: two type
/// bits, CALL 0, and an `end` bit) is read in that layout: read as the newer
/// one, every CALL row was UNDEFINED, the stack rules took every function of
/// a 6.1 module for one objtool was told not to follow, and 3 in 4 rows
/// disagreed.
#[test]
fn computed_orc_is_the_orc_objtool_6_1_wrote() {
    let rules = Rules::builtin();
    // x86-hints61: unwind hints numbered as 6.1 numbers them (END_OF_STACK,
    // REGS, REGS_PARTIAL, ENTRY, FUNC); x86-cold-cases: a computed goto's
    // cases in the function's .cold part (Linux 6.1's ___bpf_prog_run).
    let names = ["x86-gcc", "x86-gcc-fp", "x86-clang", "x86-clang-fp"];
    for name in names.into_iter().chain(["x86-hints61", "x86-cold-cases"]) {
        let post = std::fs::read(dir().join(format!("{name}.orc61.o"))).unwrap();
        let t = Object::parse(&post)
            .unwrap()
            .orc_table(Ok(&Default::default()));
        assert_eq!(
            (t.layout, t.error.as_deref()),
            ("before 6.4", None),
            "{name}"
        );
        if names.contains(&name) {
            let orc = std::fs::read(dir().join(format!("{name}.orc.o"))).unwrap();
            assert_eq!(
                Object::parse(&orc)
                    .unwrap()
                    .orc_table(Ok(&Default::default()))
                    .layout,
                "6.4"
            );
        }
        if name == "x86-hints61" {
            use objlint::elf::orc::*;
            let types: BTreeSet<u8> = t.rows.iter().flatten().map(|r| r.1.ty).collect();
            let want = [
                ORC_TYPE_END_OF_STACK,
                ORC_TYPE_CALL,
                ORC_TYPE_REGS,
                ORC_TYPE_REGS_PARTIAL,
            ];
            assert!(want.iter().all(|ty| types.contains(ty)), "{types:?}");
        }
        let a = orc_against(&rules, name, "orc61");
        assert!(a.reference_rows >= 7, "{name}: {a:?}");
        assert_eq!(a.disagree, 0, "{name}: {:#?}", a);
    }
    // objtool 6.1 says nothing of either; neither does objlint (the cold
    // cases were a sibling call with a modified frame).
    for name in ["x86-hints61", "x86-cold-cases"] {
        let findings = check(name, false);
        assert!(findings.is_empty(), "{name}: {findings:#?}");
    }
}

#[test]
fn compiler_output_is_clean() {
    let inexact = ["x86-inline-push", "arm64-clang-sync"];
    // clang's arm64 switch bounded by a branch to the function's end, where
    // the next function starts (switch-default.c): a dead edge, no tail call.
    let other = ["arm64-clang-switch"];
    for name in FRAMES.into_iter().chain(inexact).chain(other) {
        // Frame-pointer builds are recognised as such, the others not.
        let findings = check(name, name.ends_with("-fp"));
        assert!(findings.is_empty(), "{name}: {findings:#?}");
    }
}

#[test]
fn arm64_faults_are_found_and_nothing_else() {
    let findings = check("arm64-cases", true);
    let got: BTreeSet<(String, &str)> = findings.iter().map(|f| (place(f), f.rule)).collect();
    let want: BTreeSet<(String, &str)> = [
        ("pac_no_auth+0x14", "pac-ret"),
        ("pac_wrong_key+0x14", "pac-ret"),
        ("pac_wrong_sp+0x18", "pac-ret"),
        ("pac_reload+0x1c", "pac-ret"),
        ("pac_reload+0x1c", "stack-modified-return"),
        ("no_reload+0x10", "stack-modified-return"),
        ("sibling_modified+0x8", "stack-modified-sibling-call"),
        ("mismatch+0x8", "stack-mismatch"),
        ("saved_mismatch+0x10", "stack-mismatch"),
        ("undefined_state+0x0", "stack-undefined"),
        ("call_before_frame+0x4", "frame-pointer"),
        // Cases behind switch tables only a full read reaches.
        ("table_two_defs+0x50", "stack-modified-return"),
        ("table_many_defs+0xbc", "stack-modified-return"),
        ("table_spilled_addr+0x3c", "stack-modified-return"),
        ("table_page_reg+0x30", "stack-modified-return"),
        ("table_other_page+0x3c", "stack-modified-return"),
        ("table_spilled_index+0x44", "stack-modified-return"),
        // After a branch a boot-time callback turns into a NOP (also under
        // the nVHE hypervisor's prefixed name for the callback).
        ("cb_patch_nops+0xc", "stack-modified-return"),
        ("cb_patch_nops_nvhe+0xc", "stack-modified-return"),
        // Listed non_standard in rules/stack.toml: said to be unchecked.
        ("cpu_switch_to+0x0", "analysis-incomplete"),
    ]
    .into_iter()
    .map(|(p, r)| (p.to_string(), r))
    .collect();
    assert_eq!(got, want);
    // objtool's `reg1[N]=` with the register's name (was `x191=undefined`).
    let saved = findings
        .iter()
        .find(|f| place(f) == "saved_mismatch+0x10")
        .unwrap();
    assert_eq!(
        saved.message,
        "stack state mismatch: reg1[x19]=undefined reg2[x19]=cfa-16"
    );
}

/// DWARF CFI the compiler cannot make exact: gcc's for code with a push in
/// inline assembly, clang's `.debug_frame` without unwind tables (exact at
/// calls only). `objlint unwind --cfi` shows the disagreements; cfi-mismatch
/// does not report them.
#[test]
fn inexact_compiler_cfi_is_not_reported() {
    let rules = Rules::builtin();
    for (name, fp) in [("x86-inline-push", false), ("arm64-clang-sync", true)] {
        let bytes = std::fs::read(dir().join(format!("{name}.o"))).unwrap();
        let obj = Object::parse(&bytes).unwrap();
        let m = Model::build(&obj, &rules);
        let computed = unwind::computed_orc(&m, &rules, &Options::default(), None);
        let a = unwind::compare_cfi(&m, &computed.states, 5, &rules);
        assert!(a.disagree > 0, "{name}: {a:?}");
        let findings = check(name, fp);
        assert!(
            findings.iter().all(|f| f.rule != "cfi-mismatch"),
            "{name}: {findings:#?}"
        );
    }
}

/// rules/stack.toml's `non_standard` functions are left alone: the listed
/// context switch of arm64-cases.s is reported once the list is gone.
#[test]
fn listed_non_standard_functions_are_not_followed() {
    let bytes = std::fs::read(dir().join("arm64-cases.o")).unwrap();
    let opts = Options {
        frame_pointer: Some(true),
        ..Default::default()
    };
    let mut rules = Rules::builtin();
    let with = check_bytes("arm64-cases", &bytes, &rules, &opts);
    let about: Vec<_> = with
        .findings
        .iter()
        .filter(|f| f.symbol.as_deref() == Some("cpu_switch_to"))
        .collect();
    // Not followed, and said so.
    assert_eq!(about.len(), 1, "{about:#?}");
    assert_eq!(about[0].cause, Some("exempt"));
    assert!(about[0].notes[0].contains("rules/stack.toml non_standard"));
    rules.stack.non_standard.aarch64.clear();
    let without = check_bytes("arm64-cases", &bytes, &rules, &opts);
    let got: Vec<(String, &str)> = without
        .findings
        .iter()
        .filter(|f| f.symbol.as_deref() == Some("cpu_switch_to") && f.cause.is_none())
        .map(|f| (place(f), f.rule))
        .collect();
    assert_eq!(
        got,
        [("cpu_switch_to+0x2c".to_string(), "stack-modified-return")]
    );
}

#[test]
fn computed_states_agree_with_the_compilers_dwarf_cfi() {
    let rules = Rules::builtin();
    for name in FRAMES {
        let bytes = std::fs::read(dir().join(format!("{name}.o"))).unwrap();
        let obj = Object::parse(&bytes).unwrap();
        let m = Model::build(&obj, &rules);
        let computed = unwind::computed_orc(&m, &rules, &Options::default(), None);
        let a = unwind::compare_cfi(&m, &computed.states, 5, &rules);
        assert!(a.errors.is_empty(), "{name}: {:?}", a.errors);
        assert!(a.fdes >= 10 && a.compared > 200, "{name}: {a:?}");
        assert_eq!(a.disagree, 0, "{name}: {a:#?}");
    }
}

#[test]
fn hand_written_cfi_that_forgets_a_push_is_reported() {
    let findings = check("cfi-asm", false);
    let got: Vec<(String, &str)> = findings.iter().map(|f| (place(f), f.rule)).collect();
    assert_eq!(got, [("cfi_missing_push+0x1".to_string(), "cfi-mismatch")]);
}

#[test]
fn orc_changed_after_objtool_is_reported() {
    let rules = Rules::builtin();
    let opts = Options::default();
    let mut bytes = std::fs::read(dir().join("x86-gcc.orc.o")).unwrap();
    let clean = check_bytes("x86-gcc.orc.o", &bytes, &rules, &opts);
    assert!(clean.findings.is_empty(), "{:#?}", clean.findings);
    // Move one row's CFA offset by 8, as a rewrite that shifted code under
    // the table would.
    let obj = Object::parse(&bytes).unwrap();
    let unw = obj.sections_named(".orc_unwind")[0];
    let s = &obj.sections[unw];
    let rows = s.size / 6;
    let k = (0..rows)
        .find(|&k| {
            let at = (s.offset + k * 6) as usize;
            let sp = i16::from_le_bytes([bytes[at], bytes[at + 1]]);
            let ty = (u16::from_le_bytes([bytes[at + 4], bytes[at + 5]]) >> 8) & 7;
            ty == 2 && sp >= 16
        })
        .expect("a call row with a pushed frame");
    let at = (s.offset + k * 6) as usize;
    let sp = i16::from_le_bytes([bytes[at], bytes[at + 1]]) + 8;
    bytes[at..at + 2].copy_from_slice(&sp.to_le_bytes());
    let rep = check_bytes("x86-gcc.orc.o", &bytes, &rules, &opts);
    let rules_hit: Vec<&str> = rep.findings.iter().map(|f| f.rule).collect();
    assert_eq!(rules_hit, ["orc-mismatch"], "{:#?}", rep.findings);
    assert!(rep.findings[0].message.contains(&format!("sp:sp+{sp}")));
}

/// clang's x86 `.eh_frame` states the pushes of a prologue once it is done
/// (`branches`: push %rbp; push %r14; push %rbx, then the three offsets):
/// until then a pushed register is still in itself, which the CFI's "same
/// value" describes. Was a false cfi-mismatch at branches+0x1.
#[test]
fn clang_prologue_cfi_is_not_a_mismatch() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_objlint"))
        .args(["check", "--format", "short", "--enable", "cfi-mismatch"])
        .arg(dir().join("../core/x86/flow-clang.o"))
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "");
    assert_eq!(out.status.code(), Some(0));
}

/// A call through a noreturn function pointer as the last instruction of a
/// function DWARF declares noreturn (the arm64 EFI stub's
/// `efi_enter_kernel`) does not return; the same code in a function not
/// declared so is reported. objtool, which reads no DWARF, reports both
/// (x86-gcc-noreturn-ptr.objtool.txt): the one difference is the declared one.
#[test]
fn noreturn_pointer_call_ends_a_function_declared_noreturn() {
    let (warnings, _) = objtool_warnings("x86-gcc-noreturn-ptr.objtool.txt");
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    for (name, at) in [
        ("x86-gcc-noreturn-ptr", "enter_undeclared+0x19"),
        ("arm64-clang-noreturn-ptr", "enter_undeclared+0x28"),
    ] {
        let got: Vec<(String, &str)> = check(name, false)
            .iter()
            .map(|f| (place(f), f.rule))
            .collect();
        assert_eq!(got, [(at.to_string(), "fallthrough")], "{name}");
    }
}

/// A noreturn callee under a prefix `objcopy --prefix-symbols` gave it
/// (vmlinux.o's `__kvm_nvhe_`, `__efistub_`, `__pi_` objects) is noreturn
/// by the name DWARF keeps: each prefix of rules/noreturn.toml `renamed` has
/// its copy of prefixed-noreturn.c and is clean; a prefix not listed falls
/// through after the call.
#[test]
fn noreturn_callees_renamed_by_objcopy() {
    let rules = Rules::builtin();
    let renamed = rules.noreturn_renamed(objlint::elf::Machine::Aarch64);
    assert!(renamed.len() >= 3);
    for r in renamed {
        let name = format!("arm64-clang-prefixed-{}", r.prefix);
        assert!(check(&name, false).is_empty(), "{name}");
    }
    let got: Vec<(String, &str)> = check("arm64-clang-prefixed-__other_", false)
        .iter()
        .map(|f| (place(f), f.rule))
        .collect();
    assert_eq!(
        got,
        [("__other_handle_trap+0x18".to_string(), "fallthrough")]
    );
}

/// The retpoline thunks compilers put in objects built without external
/// thunks (user space, Linux's vDSO) get the annotations Linux's own thunks
/// carry (rules/special.toml `compiler_thunks`): clang's `__llvm_retpoline_r11`
/// is clean, and without the list draws "unannotated intra-function call"
/// and "return with modified stack frame". gcc's thunk is covered by its
/// own CFI, which says the call's push stays on the stack: still reported.
#[test]
fn compiler_retpoline_thunks_are_annotated_where_no_cfi_says_otherwise() {
    let rules = Rules::builtin();
    let run = |rules: &Rules, name: &str| -> Vec<(String, &'static str)> {
        let bytes = std::fs::read(dir().join(format!("{name}.o"))).unwrap();
        let rep = check_bytes(name, &bytes, rules, &Options::default());
        assert!(rep.error.is_none(), "{name}: {:?}", rep.error);
        rep.findings.iter().map(|f| (place(f), f.rule)).collect()
    };
    assert_eq!(run(&rules, "x86-clang-retpoline"), []);
    let gcc = run(&rules, "x86-gcc-retpoline");
    assert_eq!(
        gcc,
        [
            (
                "__x86_indirect_thunk_rax+0x0".to_string(),
                "intra-function-call"
            ),
            (
                "__x86_indirect_thunk_rax+0x10".to_string(),
                "stack-modified-return"
            ),
        ]
    );
    let mut bare = Rules::builtin();
    bare.special.compiler_thunks.x86_64.clear();
    let got = run(&bare, "x86-clang-retpoline");
    assert!(
        got.iter().any(|(_, r)| *r == "intra-function-call")
            && got.iter().any(|(_, r)| *r == "stack-modified-return"),
        "{got:?}"
    );
}

/// Linux 6.12's arm64 identity-mapped code sits in `.idmap.text`, which the
/// assembler is told is `"a"` (not executable): rules/special.toml
/// `code_sections` makes it code, so its functions are found and walked
/// (before, the object had no function at all and the fault went unseen).
#[test]
fn code_in_sections_not_flagged_executable_is_checked() {
    let bytes = std::fs::read(dir().join("arm64-idmap.o")).unwrap();
    let obj = objlint::elf::Object::parse(&bytes).unwrap();
    let s = obj.sections_named(".idmap.text")[0];
    assert!(
        !obj.sections[s].is_exec(),
        "the fixture's section is not flagged"
    );
    let rep = check_bytes(
        "arm64-idmap.o",
        &bytes,
        &Rules::builtin(),
        &Options::default(),
    );
    let got: Vec<(String, &str)> = rep.findings.iter().map(|f| (place(f), f.rule)).collect();
    assert_eq!(
        got,
        [("idmap_fault+0x10".to_string(), "stack-modified-return")]
    );
    assert_eq!(rep.functions, 2);
}

/// KASAN calls `__asan_handle_no_return()` right before every call that
/// never returns, also one through a pointer whose type is noreturn
/// (rules/noreturn.toml `markers`): such a call ends its path, and the code
/// the compiler placed after it for another path is not entered from it
/// (Linux 6.12 arm64 hibernate.c `swsusp_arch_resume`, a false stack state
/// mismatch in a KASAN build). Without the marker the call is taken to
/// return, and the mismatch is what objlint reports.
#[test]
fn a_call_after_a_noreturn_marker_ends_its_path() {
    let run = |name: &str| {
        let bytes = std::fs::read(dir().join(format!("{name}.o"))).unwrap();
        let rep = check_bytes(name, &bytes, &Rules::builtin(), &Options::default());
        rep.findings
            .iter()
            .map(|f| (place(f), f.rule))
            .collect::<Vec<_>>()
    };
    assert_eq!(run("arm64-kasan-noreturn"), []);
    assert_eq!(
        run("arm64-kasan-noreturn-unmarked"),
        [("resume+0x2c".to_string(), "stack-mismatch")]
    );
}
