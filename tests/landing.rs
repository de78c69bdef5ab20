//! Landing pads: ibt-missing-endbr, bti-missing-landing-pad, gnu-property and
//! `objlint stats` on the fixtures in testdata/landing (rebuilt by its
//! build.sh), compared with the expected output beside them.

use std::process::Command;

const DIR: &str = "testdata/landing";

/// Every fixture object, in a fixed order.
const OBJECTS: &[&str] = &[
    "bti-cases.o",
    "bti-kernel-asm.o",
    "fnptr-bti-clang.o",
    "fnptr-bti.o",
    "fnptr-ibt-clang.o",
    "fnptr-ibt-pie.o",
    "fnptr-ibt.o",
    "fnptr-noibt.o",
    "fnptr-pac.o",
    "gnuprop-noclaim.o",
    "gnuprop-nocode.o",
    "ibt-cases.o",
    "ibt-kernel-asm.o",
    "jt-tracked.o",
    "pe-header-arm64.o",
    "switch-bti.o",
    "switch-jt.o",
    "switch-nojt.o",
    "switch-table-clang.o",
    "switch-table-gcc.o",
    "switch-table-nobtij.o",
];

fn objlint(args: &[&str], objects: &[&str]) -> (String, i32) {
    let out = Command::new(env!("CARGO_BIN_EXE_objlint"))
        .args(args)
        .args(objects.iter().map(|o| format!("{DIR}/{o}")))
        .output()
        .expect("run objlint");
    (
        String::from_utf8(out.stdout).expect("utf-8 output"),
        out.status.code().unwrap_or(-1),
    )
}

fn expected(name: &str) -> String {
    std::fs::read_to_string(format!("{DIR}/{name}")).expect("expected file")
}

#[test]
fn findings_match_expected() {
    let (out, code) = objlint(
        &[
            "check",
            "--format",
            "short",
            "--enable",
            "ibt-missing-endbr,bti-missing-landing-pad,gnu-property",
        ],
        OBJECTS,
    );
    assert_eq!(out, expected("expected.txt"));
    assert_eq!(code, 1);
}

#[test]
fn forced_on_objects_without_pads() {
    // Built without IBT / with PAC only: silent unless --ibt forces the check,
    // and PACIASP then counts as an implicit BTI c (setup() is not reported).
    let objs = &["fnptr-noibt.o", "fnptr-pac.o"];
    let rules = "ibt-missing-endbr,bti-missing-landing-pad";
    let (quiet, code) = objlint(&["check", "--format", "short", "--enable", rules], objs);
    assert_eq!(quiet, "");
    assert_eq!(code, 0);
    let (out, _) = objlint(
        &["check", "--format", "short", "--ibt", "--enable", rules],
        objs,
    );
    assert_eq!(out, expected("expected-forced.txt"));
}

#[test]
fn no_ibt_turns_the_checks_off() {
    let (out, code) = objlint(
        &[
            "check",
            "--format",
            "short",
            "--no-ibt",
            "--enable",
            "ibt-missing-endbr,bti-missing-landing-pad",
        ],
        &["ibt-cases.o", "bti-cases.o"],
    );
    assert_eq!(out, "");
    assert_eq!(code, 0);
}

#[test]
fn json_names_the_target() {
    let (out, _) = objlint(
        &["check", "--format", "json", "--enable", "ibt-missing-endbr"],
        &["jt-tracked.o"],
    );
    let first: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(first["rule"], "ibt-missing-endbr");
    assert_eq!(first["section"], ".rodata");
    assert_eq!(first["target"]["symbol"], "sw");
    assert_eq!(first["target"]["symbol_offset"], 0x10);
}

/// arm64 switch tables: `br` through offsets in .rodata that no relocation
/// names. Every case target needs `bti j` (a `bti c` does not do).
#[test]
fn jump_table_targets_need_bti_j() {
    let rule = [
        "check",
        "--format",
        "json",
        "--enable",
        "bti-missing-landing-pad",
    ];
    let (clean, code) = objlint(&rule, &["switch-table-gcc.o", "switch-table-clang.o"]);
    assert!(!clean.contains(r#""type":"finding""#), "{clean}");
    assert_eq!(code, 0);
    let (out, code) = objlint(&rule, &["switch-table-nobtij.o"]);
    assert_eq!(code, 1);
    let found: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|v| v["type"] == "finding")
        .collect();
    let targets: Vec<_> = found
        .iter()
        .map(|f| {
            // Reported at the `br`, naming the case.
            assert_eq!(f["symbol"], "table_dispatch");
            assert_eq!(f["symbol_offset"], 0x30);
            assert_eq!(f["target"]["symbol"], "table_dispatch");
            assert!(
                f["message"]
                    .as_str()
                    .unwrap()
                    .starts_with("jump-table target !BTI J")
            );
            f["target"]["symbol_offset"].as_u64().unwrap()
        })
        .collect();
    // The case whose `bti j` became a NOP, and the one that became `bti c`.
    assert_eq!(targets, [0x60, 0x84]);
    // Each compiler's table is read whole: 16 cases.
    let (stats, _) = objlint(
        &["stats", "--format", "json"],
        &[
            "switch-table-gcc.o",
            "switch-table-clang.o",
            "switch-table-nobtij.o",
        ],
    );
    for l in stats.lines().take(3) {
        let v: serde_json::Value = serde_json::from_str(l).unwrap();
        assert_eq!(v["jump_tables"], 1, "{l}");
        assert_eq!(v["jump_table_targets"], 16, "{l}");
        assert_eq!(v["jump_tables_unread"], 0, "{l}");
    }
}

/// Kernel assembly shapes: vector tables, a SYM_CODE routine's own resume
/// label, ftrace patch sites, SDEI entry points and early boot (`__pi_`) code
/// need no pad; a routine starting where a function ends is not that
/// function's range end; a table without a bounds check is read up to the
/// next referenced address.
#[test]
fn kernel_asm_shapes() {
    let (out, _) = objlint(
        &[
            "check",
            "--format",
            "short",
            "--enable",
            "bti-missing-landing-pad",
        ],
        &["bti-kernel-asm.o"],
    );
    let lines: Vec<_> = out.lines().map(|l| l.split_once(": ").unwrap().1).collect();
    assert_eq!(
        lines,
        [
            "taker+0x4: error: reference to !BTI: other_code+0x4 [bti-missing-landing-pad]",
            "spilled_switch+0x1c: error: jump-table target !BTI J: spilled_switch+0x20 (entry at .rodata+0x0) [bti-missing-landing-pad]",
            ".data+0x8: error: data relocation to !BTI: other_code+0x0 [bti-missing-landing-pad]",
            ".data+0x20: error: data relocation to !BTI: after_func_code+0x0 [bti-missing-landing-pad]",
        ]
    );
    let (stats, _) = objlint(&["stats", "--format", "json"], &["bti-kernel-asm.o"]);
    let v: serde_json::Value = serde_json::from_str(stats.lines().next().unwrap()).unwrap();
    assert_eq!(v["jump_tables"], 1);
    assert_eq!(v["jump_tables_sized_by_next"], 1);
    assert_eq!(v["jump_tables_unread"], 0);
}

/// x86 kernel shapes (clang-19 kCFI + IBT, linked): objtool's `.cfi_sites`,
/// a zero-size `__end_*` label and `sym + size` range checks need no ENDBR64;
/// a routine named where a function ends does. An object without code gets
/// no SHSTK warning.
#[test]
fn x86_kernel_shapes() {
    let (out, _) = objlint(
        &[
            "check",
            "--format",
            "short",
            "--enable",
            "ibt-missing-endbr,gnu-property",
        ],
        &["ibt-kernel-asm.o", "gnuprop-nocode.o"],
    );
    let lines: Vec<_> = out.lines().map(|l| l.split_once(": ").unwrap().1).collect();
    assert_eq!(
        lines,
        [
            "user+0x12: error: relocation to !ENDBR: after_routine+0x0 [ibt-missing-endbr]",
            ".note.gnu.property+0x0: warning: claims IBT, but 1 address-taken place(s) have no ENDBR64 (first: after_routine+0x0) [gnu-property]",
        ]
    );
}

#[test]
fn stats_match_expected() {
    let (out, code) = objlint(&["stats", "--format", "short"], OBJECTS);
    assert_eq!(out, expected("stats.txt"));
    assert_eq!(code, 0);
    let (out, _) = objlint(&["stats", "--format", "short", "--link"], OBJECTS);
    assert_eq!(out, expected("stats-link.txt"));
    let (out, _) = objlint(&["stats", "--list", "--link"], OBJECTS);
    assert_eq!(out, expected("stats-list.txt"));
}

#[test]
fn stats_json_totals_per_arch() {
    let (out, _) = objlint(&["stats", "--format", "json", "--summary"], OBJECTS);
    let totals: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(totals.len(), 2);
    assert_eq!(totals[0]["arch"], "x86_64");
    assert_eq!(totals[1]["arch"], "aarch64");
    assert!(totals.iter().all(|t| t["type"] == "stats-total"));
    assert!(totals.iter().all(|t| t["scope"] == "object"));
    // clang-19 gives the direct-call-only static helper() a `bti c`: a gadget.
    let (one, _) = objlint(&["stats", "--format", "json"], &["fnptr-bti-clang.o"]);
    let v: serde_json::Value = serde_json::from_str(one.lines().next().unwrap()).unwrap();
    assert_eq!(v["unneeded"]["bti c"], 1);
    assert_eq!(v["address_taken"], 3);
}

#[test]
fn ibt_fixture_sources_still_assemble() {
    // The hand-written fixtures are the source of truth; rebuilding one with
    // the system assembler must give the committed object's findings.
    let Ok(st) = Command::new("as").arg("--version").output() else {
        return;
    };
    if !st.status.success() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let obj = dir.path().join("ibt-cases.o");
    let ok = Command::new("as")
        .arg(format!("{DIR}/ibt-cases.s"))
        .arg("-o")
        .arg(&obj)
        .status()
        .unwrap();
    assert!(ok.success());
    let fresh = Command::new(env!("CARGO_BIN_EXE_objlint"))
        .args([
            "check",
            "--format",
            "short",
            "--enable",
            "ibt-missing-endbr",
        ])
        .arg(&obj)
        .output()
        .unwrap();
    let fresh = String::from_utf8(fresh.stdout).unwrap();
    let committed = objlint(
        &[
            "check",
            "--format",
            "short",
            "--enable",
            "ibt-missing-endbr",
        ],
        &["ibt-cases.o"],
    )
    .0;
    let strip = |s: &str| -> Vec<String> {
        s.lines()
            .map(|l| l.split_once(": ").map(|x| x.1).unwrap_or(l).to_string())
            .collect()
    };
    assert_eq!(strip(&fresh), strip(&committed));
    assert_eq!(strip(&fresh).len(), 8);
}

mod real {
    //! The real Debian modules in testdata/real.
    use objlint::arch::Pad;
    use objlint::config::Options;
    use objlint::elf::{Machine, Object, Place};
    use objlint::engine::check_bytes;
    use objlint::model::Model;
    use objlint::model::address_taken::pad_at;
    use objlint::rules::Rules;
    use std::collections::BTreeSet;
    use std::path::PathBuf;

    const RULES: [&str; 3] = [
        "ibt-missing-endbr",
        "bti-missing-landing-pad",
        "gnu-property",
    ];

    fn modules() -> Vec<(String, Vec<u8>)> {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        let dirs = [
            root.join("testdata/real"),
            root.join("testdata/landing/real"),
        ];
        let (inputs, errs) = objlint::input::expand(&dirs);
        assert!(errs.is_empty());
        let v: Vec<_> = inputs
            .iter()
            .map(|i| {
                (
                    i.path.display().to_string(),
                    std::fs::read(&i.path).unwrap(),
                )
            })
            .collect();
        assert!(v.len() >= 10);
        v
    }

    fn opts() -> Options {
        Options {
            only: Some(RULES.iter().map(|r| r.to_string()).collect()),
            ..Default::default()
        }
    }

    #[test]
    fn clean_on_real_modules() {
        let rules = Rules::builtin();
        for (name, bytes) in modules() {
            let rep = check_bytes(&name, &bytes, &rules, &opts());
            assert!(rep.error.is_none());
            assert!(rep.findings.is_empty(), "{name}: {:?}", rep.findings);
        }
    }

    /// With `--link`, the unneeded ENDBR64s are exactly the ones objtool
    /// listed in `.ibt_endbr_seal` when it built the module.
    #[test]
    fn unneeded_pads_match_objtools_seal_list() {
        let rules = Rules::builtin();
        let mut compared = 0;
        for (name, bytes) in modules() {
            let obj = Object::parse(&bytes).unwrap();
            if obj.machine != Machine::X86_64 {
                continue;
            }
            let mut sealed = BTreeSet::new();
            for &s in obj.sections_named(".ibt_endbr_seal") {
                for r in obj.relocs(s) {
                    if let Place::Local { section, offset } = obj.resolve(r.sym(), obj.addend(r)) {
                        sealed.insert((section, offset));
                    }
                }
            }
            let m = Model::build(&obj, &rules);
            let at = m.address_taken(&rules.landing_pads);
            let ours: BTreeSet<_> = at
                .unneeded_entry_pads(&m, true)
                .iter()
                .filter(|e| e.pad.sealable())
                .map(|e| (e.section, e.offset))
                .collect();
            assert_eq!(ours, sealed, "{name}");
            compared += sealed.len();
        }
        assert!(
            compared >= 13,
            "the .ibt_endbr_seal lists of testdata/landing/real"
        );
    }

    /// arm64 kbuild objects (BTI, PAC, kCFI): wipe the `bti c` of
    /// address-taken functions and the `bti j` of switch-table cases; each
    /// must be reported, naming the place, and nothing else.
    #[test]
    fn removed_bti_is_reported() {
        let rules = Rules::builtin();
        let (mut calls, mut cases) = (0, 0);
        for (name, bytes) in modules() {
            let obj = Object::parse(&bytes).unwrap();
            if obj.machine != Machine::Aarch64 {
                continue;
            }
            let m = Model::build(&obj, &rules);
            let at = m.address_taken(&rules.landing_pads);
            let mut victims: Vec<(usize, u64, &str)> = (0..m.functions.len())
                .filter(|&f| {
                    let func = &m.functions[f];
                    at.is_taken(f) && pad_at(&m, func.section, func.start) == Some(Pad::BtiC)
                })
                .take(5)
                .map(|f| (m.functions[f].section, m.functions[f].start, "relocation"))
                .collect();
            // Cases that have a jump pad to wipe (a BTI build's).
            for t in &m.jump_tables().tables {
                for (_, target) in t
                    .entries()
                    .filter(|&(_, target)| {
                        pad_at(&m, t.section, target).is_some_and(|p| p.accepts_jump())
                    })
                    .take(3)
                {
                    victims.push((t.section, target, "jump-table target"));
                }
            }
            for (section, offset, kind) in victims {
                let at_file = (obj.sections[section].offset + offset) as usize;
                let mut b = bytes.clone();
                b[at_file..at_file + 4].copy_from_slice(&0xd503201fu32.to_le_bytes());
                let rep = check_bytes(&name, &b, &rules, &opts());
                let bti: Vec<_> = rep
                    .findings
                    .iter()
                    .filter(|x| x.rule == "bti-missing-landing-pad")
                    .collect();
                assert!(
                    !bti.is_empty(),
                    "{name}: {section}+{offset:#x} not reported"
                );
                for x in &bti {
                    let t = x.target.as_ref().unwrap();
                    assert_eq!(t.offset, offset, "{name}: {}", x.message);
                    assert!(x.message.contains(kind), "{}", x.message);
                }
                assert!(
                    rep.findings
                        .iter()
                        .all(|x| x.rule == "bti-missing-landing-pad" || x.rule == "gnu-property"),
                    "{name}: {:?}",
                    rep.findings
                );
                if kind == "relocation" {
                    calls += 1;
                } else {
                    cases += 1;
                }
            }
        }
        assert!(calls >= 5 && cases >= 3, "{calls} {cases}");
    }

    /// Overwrite the ENDBR64 of address-taken functions with a NOP: each must
    /// be reported at its references, naming it as the target, and nothing else.
    #[test]
    fn removed_endbr_is_reported() {
        let rules = Rules::builtin();
        let mut injected = 0;
        for (name, bytes) in modules() {
            let obj = Object::parse(&bytes).unwrap();
            if obj.machine != Machine::X86_64 {
                continue;
            }
            let m = Model::build(&obj, &rules);
            let at = m.address_taken(&rules.landing_pads);
            let victims: Vec<_> = (0..m.functions.len())
                .filter(|&f| {
                    let func = &m.functions[f];
                    at.is_taken(f) && pad_at(&m, func.section, func.start) == Some(Pad::Endbr64)
                })
                .take(5)
                .collect();
            for f in victims {
                let func = &m.functions[f];
                let at_file = (obj.sections[func.section].offset + func.start) as usize;
                let mut b = bytes.clone();
                b[at_file..at_file + 4].copy_from_slice(&[0x0f, 0x1f, 0x40, 0x00]);
                let rep = check_bytes(&name, &b, &rules, &opts());
                let endbr: Vec<_> = rep
                    .findings
                    .iter()
                    .filter(|x| x.rule == "ibt-missing-endbr")
                    .collect();
                assert!(!endbr.is_empty(), "{name}: {} not reported", func.name);
                for x in &endbr {
                    let t = x.target.as_ref().unwrap();
                    assert_eq!(t.symbol.as_deref(), Some(func.name));
                    assert_eq!(t.symbol_offset, 0);
                }
                assert!(
                    rep.findings
                        .iter()
                        .all(|x| x.rule == "ibt-missing-endbr" || x.rule == "gnu-property"),
                    "{name}: {:?}",
                    rep.findings
                );
                injected += 1;
            }
        }
        assert!(injected >= 10);
    }
}

/// Each `no_pad_target` of rules/landing_pads.toml is held against the
/// fixtures: with the built-in list the names where the kernel defines them
/// are not reported; without an entry, a symbol it names is; and a name in
/// another section or on the other architecture is reported (issue 15: an
/// x86 `vectors` was exempt).
#[test]
fn every_no_pad_target_matches_a_fixture_and_only_there() {
    use objlint::config::Options;
    use objlint::engine::check_bytes;
    use objlint::rules::Rules;
    let objs = ["no-pad-targets-arm64.o", "no-pad-targets-x86.o"];
    let bytes: Vec<Vec<u8>> = objs
        .iter()
        .map(|o| std::fs::read(format!("{DIR}/{o}")).unwrap())
        .collect();
    let opts = Options {
        only: Some(
            ["ibt-missing-endbr", "bti-missing-landing-pad"]
                .map(String::from)
                .into(),
        ),
        ..Default::default()
    };
    let reported = |rules: &Rules| -> Vec<String> {
        objs.iter()
            .zip(&bytes)
            .flat_map(|(o, b)| check_bytes(o, b, rules, &opts).findings)
            .filter_map(|f| f.target.and_then(|t| t.symbol))
            .collect()
    };
    let builtin = Rules::builtin();
    assert_eq!(
        reported(&builtin),
        ["__pi_misplaced", "__SCT__misplaced", "vectors"]
    );
    let all = builtin.landing_pads.no_pad_target.clone();
    for (k, p) in all.iter().enumerate() {
        let mut rules = Rules::builtin();
        rules.landing_pads.no_pad_target.remove(k);
        let got = reported(&rules);
        assert!(
            got.iter()
                .any(|s| p.matches(s) && !s.ends_with("misplaced")),
            "{} ({:?}) matches nothing in the fixtures: {got:?}",
            p.name,
            p.section
        );
    }
}
