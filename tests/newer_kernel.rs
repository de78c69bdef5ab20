//! Linux 7.x as it ships (testdata/real7, Debian's 7.3 modules): what the
//! kernel changed since 6.12, read as the object says. The ORC rows objtool
//! 7.3 wrote are the ground truth for the stack states.

use objlint::config::Options;
use objlint::elf::Object;
use objlint::engine::check_bytes;
use objlint::model::Model;
use objlint::rules::Rules;
use objlint::unwind;
use std::path::{Path, PathBuf};

const MODULES: [&str; 2] = ["tcp_hybla.ko", "ts_kmp.ko"];

fn path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/real7/x86_64")
        .join(name)
}

fn findings(name: &str, bytes: &[u8], rules: &Rules) -> Vec<(String, String)> {
    let r = check_bytes(name, bytes, rules, &Options::default());
    assert!(r.error.is_none(), "{name}: {:?}", r.error);
    r.findings
        .iter()
        .map(|f| (f.rule.to_string(), format!("{} {:?}", f.message, f.notes)))
        .collect()
}

/// Rules without Linux 7.x's ORC numbering: a 7.x object's `.orc_header`
/// then names none.
fn rules_without_7x_orc() -> Rules {
    let mut r = Rules::builtin();
    r.special.orc_format.retain(|f| f.since.is_none());
    r
}

#[test]
fn orc_of_linux_7_is_read_in_its_numbering() {
    let rules = Rules::builtin();
    for name in MODULES {
        let bytes = std::fs::read(path(name)).unwrap();
        let f = findings(name, &bytes, &rules);
        assert!(f.is_empty(), "{name}: {f:#?}");
        // Every row objtool 7.3 wrote agrees with the state objlint computes.
        let obj = Object::parse(&bytes).unwrap();
        let m = Model::build(&obj, &rules);
        let computed = unwind::computed_orc(&m, &rules, &Options::default(), Some(16));
        let reference = unwind::reference_orc(&obj, &rules, m.kernel).unwrap();
        let a = unwind::compare_orc(&m, &computed, &reference, 5);
        assert!(a.reference_rows >= 20, "{name}: {a:?}");
        assert_eq!(a.disagree, 0, "{name}: {a:#?}");
        // Read in 6.12's numbering, `sp:sp+8` is `sp:di+8`: every function
        // disagrees (488,868 findings on the 4,225 modules).
        let mut old = Rules::builtin();
        old.special.orc_format.retain(|f| f.since.is_none());
        old.special.orc_format[0].hash = "137c36ad7627c4dd55932176bb0ecdbd5041fc82".into();
        let f = findings(name, &bytes, &old);
        assert!(
            f.iter().filter(|(r, _)| r == "orc-mismatch").count() >= 5,
            "{name}: {f:#?}"
        );
    }
}

#[test]
fn an_orc_header_naming_no_known_numbering_is_not_compared_and_said() {
    let name = MODULES[0];
    let bytes = std::fs::read(path(name)).unwrap();
    let f = findings(name, &bytes, &rules_without_7x_orc());
    assert!(!f.iter().any(|(r, _)| r == "orc-mismatch"), "{f:#?}");
    assert!(
        f.iter().any(|(r, m)| r == "analysis-incomplete"
            && m.contains("ORC register numbering objlint does not know")
            && m.contains("137c36ad")),
        "{f:#?}"
    );
}

#[test]
fn bug_entries_with_a_format_are_read() {
    let rules = Rules::builtin();
    for name in MODULES {
        let bytes = std::fs::read(path(name)).unwrap();
        let obj = Object::parse(&bytes).unwrap();
        let m = Model::build(&obj, &rules);
        assert!(
            m.special().unread.is_empty(),
            "{name}: {:?}",
            m.special().unread
        );
        let resumes = (0..obj.sections.len())
            .filter_map(|s| Some((s, m.section_code(s)?)))
            .flat_map(|(s, c)| {
                let sp = m.special();
                (0..c.insns.len())
                    .filter(move |&i| sp.at(s, &c.insns[i]).is_some_and(|mk| mk.resumes))
            })
            .count();
        // tcp_hybla: five WARN_ONCE; ts_kmp: one WARN with arguments.
        assert!(resumes >= 1, "{name}");
        // Without the layouts of 7.x the table is said unread, not guessed.
        let mut old = Rules::builtin();
        old.special.bug_table.x86_64.retain(|l| l.format.is_none());
        let f = findings(name, &bytes, &old);
        assert!(
            f.iter()
                .any(|(r, m)| r == "analysis-incomplete" && m.contains("fits no struct bug_entry")),
            "{name}: {f:#?}"
        );
    }
}

#[test]
fn a_bug_entry_layout_is_not_tried_on_a_kernel_outside_it() {
    // A 12-byte entry: 6.12's with file and line, or 7.x's with format and
    // no file. Their relocations are at the same places; the kernel tells.
    let rules = Rules::builtin();
    let l = &rules.special.bug_table.x86_64;
    let v = |s| objlint::rules::KernelVersion::parse(s);
    let twelve = |k| {
        l.iter()
            .filter(|l| l.size == 12 && l.fits_kernel(k))
            .map(|l| l.name.as_str())
            .collect::<Vec<_>>()
    };
    assert_eq!(twelve(v("6.12")), ["bug_entry with DEBUG_BUGVERBOSE"]);
    assert_eq!(twelve(v("7.3")), ["bug_entry with format"]);
    assert_eq!(twelve(None).len(), 2);
}

fn kbuild(name: &str) -> Vec<u8> {
    std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("testdata/real7/kbuild")
            .join(name),
    )
    .unwrap()
}

/// Objects kbuild 7.3 built (x86-gcc-noibt) as the compiler left them, with
/// the ORC objtool 7.3 wrote into each (`NAME.orc.o`): their hints name
/// registers in 7.x's numbering, and objtool 7.3 gives the padding before
/// a function a state only where `__patchable_function_entries` lists it
/// (none of these assembly functions).
#[test]
fn kbuild_objects_of_linux_7_agree_with_the_orc_objtool_7_wrote() {
    let rules = Rules::builtin();
    let v73 = objlint::rules::KernelVersion::parse("7.3");
    let orc = |rules: &Rules, name: &str, kernel| {
        let pre = kbuild(&format!("{name}.o"));
        let post = kbuild(&format!("{name}.orc.o"));
        let obj = Object::parse(&pre).unwrap();
        let robj = Object::parse(&post).unwrap();
        let m = Model::build_then(&obj, rules, kernel, &|| {});
        let computed = unwind::computed_orc(&m, rules, &Options::default(), Some(16));
        let reference = unwind::reference_orc(&robj, rules, m.kernel).unwrap();
        unwind::compare_orc(&m, &computed, &reference, 5)
    };
    for name in ["rethook", "ftrace_64", "entry_64_compat", "entry", "thunk"] {
        let a = orc(&rules, name, v73);
        assert!(a.reference_rows >= 3, "{name}: {a:?}");
        assert_eq!(a.disagree, 0, "{name}: {a:#?}");
        // objtool 7.3 printed nothing on these; nor does objlint.
        let f = findings(name, &kbuild(&format!("{name}.o")), &rules);
        assert!(f.is_empty(), "{name}: {f:#?}");
    }
    // The hints' registers are read in 7.x's numbering because the
    // object's own hints say the stack pointer is 3: in 6.12's, where 3 is
    // DI, the rows after them disagree and the stack rules report returns
    // with a modified frame.
    let old = rules_without_7x_orc();
    assert!(orc(&old, "entry_64_compat", v73).disagree > 0);
    let f = findings("rethook", &kbuild("rethook.o"), &old);
    assert!(f.iter().any(|(r, _)| r.starts_with("stack-")), "{f:#?}");
    // Padding before assembly functions: objtool 6.12 gave it the entry
    // state, 7.x does not; the kernel (here --kernel) says which.
    assert!(
        orc(
            &rules,
            "thunk",
            objlint::rules::KernelVersion::parse("6.12")
        )
        .disagree
            > 0
    );
}

#[test]
fn what_linux_7_changed_in_code_is_read_as_objtool_7_reads_it() {
    let rules = Rules::builtin();
    // UDB (0xd6) traps like ud2: the paranoid thunks' `1: UDB; jne 1b`.
    let f = findings("retpoline", &kbuild("retpoline.o"), &rules);
    assert!(f.is_empty(), "{f:#?}");
    // smap_save() writes ANNOTATE_IGNORE_ALTERNATIVE inside its (empty)
    // original: that version is not walked, the `clac` of the replacement
    // is, so __stack_chk_fail calls panic() with user access closed.
    let f = findings("panic", &kbuild("panic.o"), &rules);
    assert!(f.is_empty(), "{f:#?}");
    // Read with 6.12's meaning (`.discard.ignore_alts`: the original only,
    // its alternatives not followed), the path keeps user access open.
    let mut as_612 = Rules::builtin();
    as_612.special.annotations.ignore_alts = as_612.special.annotations.typed.section.clone();
    as_612.special.annotations.typed.ignore_alts = u32::MAX;
    let f = findings("panic", &kbuild("panic.o"), &as_612);
    assert!(
        f.iter()
            .any(|(r, m)| r == "uaccess-call" && m.contains("panic()")),
        "{f:#?}"
    );
    // mwait_play_dead() is noreturn on 7.x's list, not 6.12's.
    let f = findings("cstate", &kbuild("cstate.o"), &rules);
    assert!(f.is_empty(), "{f:#?}");
    let opts = Options {
        kernel: objlint::rules::KernelVersion::parse("6.12"),
        ..Options::default()
    };
    let r = check_bytes("cstate", &kbuild("cstate.o"), &rules, &opts);
    assert!(
        r.findings.iter().any(|f| f.rule == "fallthrough"),
        "{:#?}",
        r.findings
    );
}
