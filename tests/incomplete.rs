//! analysis-incomplete: what objlint could not check is said, once per cause
//! per object, and a clean object says nothing. The broken cases are
//! hand-written (testdata/incomplete), real (a module's switch table), or made
//! here from committed objects by one edit each, the edits issue 15 found
//! silent.

mod common;
use common::elf::{rd, section, symbol, wr};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn run(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_objlint"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("run objlint")
}

/// (file, rule, place, cause) of a finding.
type Row = (String, String, String, String);

/// Every finding as a [`Row`], and the object records.
fn findings(dir: &Path, args: &[&str]) -> (Vec<Row>, Vec<Value>) {
    let mut a = vec!["check", "--format", "json", "-q"];
    a.extend_from_slice(args);
    let out = run(dir, &a);
    let lines: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let found = lines
        .iter()
        .filter(|v| v["type"] == "finding")
        .map(|v| {
            let place = match v["symbol"].as_str() {
                Some(s) => format!("{s}+{:#x}", v["symbol_offset"].as_u64().unwrap()),
                None => format!(
                    "{}+{:#x}",
                    v["section"].as_str().unwrap(),
                    v["offset"].as_u64().unwrap()
                ),
            };
            (
                v["file"].as_str().unwrap().to_string(),
                v["rule"].as_str().unwrap().to_string(),
                place,
                v["cause"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    let records = lines
        .into_iter()
        .filter(|v| v["type"] == "object")
        .collect();
    (found, records)
}

/// The first finding of `obj` (in `dir`), as JSON.
fn first_finding(dir: &Path, obj: &str) -> Value {
    let out = run(dir, &["check", "--format", "json", "-q", obj]);
    let text = String::from_utf8(out.stdout).unwrap();
    serde_json::from_str(text.lines().next().unwrap()).unwrap()
}

/// objtool's warnings in a committed verdict file (its header a `#` line).
fn objtool_warnings(dir: &Path, file: &str) -> Vec<String> {
    std::fs::read_to_string(dir.join(file))
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

fn row(f: &str, r: &str, p: &str, c: &str) -> Row {
    (f.into(), r.into(), p.into(), c.into())
}

#[test]
fn each_cause_is_reported_once_at_its_first_place() {
    let dir = root().join("testdata/incomplete");
    let objs = [
        "arm64-patchable-unnamed.o",
        "x86-ex-table.o",
        "x86-noinstr-linked.o",
        "x86-undecodable.o",
        "x86-unwalked-label.o",
        "x86-jump-target.o",
        "arm64-jump-past-end.o",
        // The same after `objcopy --prefix-symbols=__kvm_nvhe_`, which
        // renames the mapping symbols too: `__kvm_nvhe_$d` still marks data
        // (taken for code, the data after next_fn's return was a NOP that
        // fell off the section, and the branch to it no gap).
        "arm64-jump-past-end-prefixed.o",
        "x86-branch-reloc.o",
        // A module: code no symbol covers is a replaced weak definition, dead,
        // unless code points into it (aes-modes.S's computed branch).
        "arm64-linked-hole.o",
    ];
    let (got, records) = findings(&dir, &objs);
    let ai = "analysis-incomplete";
    assert_eq!(
        got,
        [
            // The code between `a` and the unnamed entry, and the unnamed
            // function's own, belong to no function: no path reached them.
            row(objs[0], ai, ".text+0x14", "unwalked-code"),
            row(objs[0], ai, ".text+0x20", "patchable-unnamed"),
            row(objs[1], ai, "__ex_table+0x0", "special-section"),
            row(objs[2], ai, "enter_traced+0x0", "annotations-lost"),
            // data_after_ret's bytes are on no path: nothing said.
            row(objs[3], ai, "decode_gap+0x7", "undecodable"),
            // goto_visible's table is read: nothing said.
            row(objs[4], ai, "goto_hidden+0x11", "unwalked-label"),
            // retbleed_untrain_ret's jump into its own first instruction is
            // a return (retbleed_return_thunk): nothing said.
            row(objs[5], ai, "mid_jump+0x5", "branch-target"),
            // bounded_switch's branch past its end is a dead edge.
            row(objs[6], ai, "next_fn+0x4", "branch-target"),
            row(objs[7], ai, "__kvm_nvhe_next_fn+0x4", "branch-target"),
            // plain_branches' relocations are a branch's: nothing said.
            row(objs[8], ai, "odd_jump+0x2", "branch-target"),
            // The cases of `br x16` past mac_update; the dead weak
            // definition after `after`: nothing said.
            row(objs[9], ai, ".text+0x30", "unwalked-code"),
        ]
    );
    for (r, o) in records.iter().zip(objs) {
        assert_eq!(r["file"], o);
        let causes = if o == objs[0] { 2 } else { 1 };
        assert_eq!(r["incomplete"].as_array().unwrap().len(), causes, "{r}");
    }
}

/// Code no path reached is code no flow rule checked: the cause stands
/// whichever of them is on, not only with `unreachable` (it did not, until
/// 2026-12-04).
#[test]
fn unwalked_labels_are_said_without_unreachable() {
    let dir = root().join("testdata/incomplete");
    let obj = "x86-unwalked-label.o";
    let want = [row(
        obj,
        "analysis-incomplete",
        "goto_hidden+0x11",
        "unwalked-label",
    )];
    for args in [
        ["--disable", "unreachable"],
        ["--enable", "stack-mismatch"],
        ["--enable", "fallthrough"],
    ] {
        let mut a = args.to_vec();
        a.push(obj);
        assert_eq!(findings(&dir, &a).0, want, "{args:?}");
    }
}

/// A fixture of testdata/incomplete whose one finding is an
/// analysis-incomplete place at `place` of `cause`, the one cause its object
/// record lists.
fn one_gap(obj: &str, place: &str, cause: &str) {
    let dir = root().join("testdata/incomplete");
    let (got, records) = findings(&dir, &[obj]);
    assert_eq!(got, [row(obj, "analysis-incomplete", place, cause)]);
    assert_eq!(records[0]["incomplete"], serde_json::json!([cause]));
}

/// x86 position-independent dispatch whose table address is loaded from
/// memory: its jump was taken for a tail call through a register, and with
/// the frame restored nothing was said. Now a switch table not read.
#[test]
fn a_pie_dispatch_without_its_table_is_reported() {
    one_gap(
        "x86-switch-pie-unread.o",
        "loaded_table+0xd",
        "switch-table",
    );
}

#[test]
fn a_switch_table_not_read_is_reported() {
    one_gap(
        "arm64-switch-unread.o",
        "dispatch_unread+0x18",
        "switch-table",
    );
}

/// A switch fixture of testdata/incomplete read and walked: `NAME.o` has no
/// finding (its table read, nothing unread said), and `NAME-fault.o`, whose
/// fault only a walk of the cases finds, exactly the stack-mismatch at
/// `place`.
fn table_read_and_cases_walked(name: &str, place: &str) {
    let dir = root().join("testdata/incomplete");
    let (got, _) = findings(&dir, &[&format!("{name}.o")]);
    assert!(got.is_empty(), "{name}: {got:?}");
    let fault = format!("{name}-fault.o");
    let (got, _) = findings(&dir, &[&fault]);
    assert_eq!(got, [row(&fault, "stack-mismatch", place, "")]);
}

/// A switch whose table address was set once before its loop, a case of
/// it placed after a call that never returns (Linux 6.1 jfs.ko's
/// `parse_options`, gcc 12): looking back for the table register through
/// that call reached the entry, and the table went unread. Calls listed as
/// noreturn end such paths: the table is read, and a fault that only a walk
/// of the case shows is found.
#[test]
fn a_table_base_behind_a_noreturn_call_is_read() {
    table_read_and_cases_walked("arm64-switch-after-noreturn", "parse_options+0x34");
}

/// Returns through another register than x30 (Linux 6.1 head.S
/// `create_idmap`'s `ret x28`, the BPF JIT's `dummy_tramp`'s `ret x10`): not
/// judged, and said so once for both, where each was once "return with
/// modified stack frame" (and then an exemption by name, which also took
/// out a C function of one of the names).
#[test]
fn a_return_through_another_register_is_not_judged() {
    one_gap("arm64-ret-register.o", "dummy_tramp+0xc", "return-register");
}

/// A conditional compare on a case's way back to a loop's switch
/// (`ccmp w2, #0x0, #0x4, ne`: its nzcv sits where a destination register
/// would) was taken for a write of the table register x4, and ice.ko's
/// table in Linux 7.3 went unread: read, and its cases walked.
#[test]
fn a_conditional_compare_writes_no_register() {
    table_read_and_cases_walked("arm64-switch-ccmp", "ccmp_loop+0x18");
}

/// A table address set before its loop, spilled with another register
/// around a call in one case and reloaded by an `ldp` before going round
/// again (Linux 7.2's nfp.ko, gcc 16): the reload is followed back to the
/// stores of its slot; read, and its cases walked. A case that stores
/// another register in that slot leaves the table unread, said so: what
/// a case's code holds on the way in is not known.
#[test]
fn a_table_address_reloaded_from_its_spill_slot_is_read() {
    table_read_and_cases_walked("arm64-switch-slot-reload", "slot_reload+0x18");
    one_gap(
        "arm64-switch-slot-reload-other.o",
        "slot_reload+0x30",
        "switch-table",
    );
    // A 32-bit store over half of the slot between spill and reload.
    one_gap(
        "arm64-switch-slot-reload-narrow.o",
        "slot_reload+0x30",
        "switch-table",
    );
}

/// A bounds check that jumps over a call to a local function that is only
/// a BUG trap (gcc 16's `__offset_PIPE.part.0`, not declared noreturn:
/// msm.ko's `write_smp_fifo_regs` in Linux 7.2): the search back for the
/// table register no longer goes through that call; read, and its cases
/// walked.
#[test]
fn a_table_behind_a_call_to_a_bug_trap_is_read() {
    table_read_and_cases_walked("arm64-switch-trap-callee", "trap_callee+0x48");
}

/// A table address reloaded from two stack slots on the ways back to a
/// loop's dispatch, one of them after a WARN's `brk` that `__bug_table`
/// says execution resumes after (xe.ko's `rule_match_and`, Linux 7.2): each
/// reload followed to its spill, through the WARN; read, and its cases
/// walked.
#[test]
fn a_table_address_reloaded_from_two_slots_through_a_warn_is_read() {
    table_read_and_cases_walked("arm64-switch-respilled", "respilled+0x18");
}

/// A table address spilled as one register of an `stp` (be2iscsi.ko,
/// Linux 6.1) and reloaded at the dispatch: read, and its cases walked.
#[test]
fn a_table_address_spilled_by_a_pair_is_read() {
    table_read_and_cases_walked("arm64-switch-pair-spill", "pair_spill+0x5c");
}

/// Two switches in one loop, the second dispatched only from the first's
/// cases (msm.ko's `write_smp_fifo_regs`, Linux 6.12): once the first table
/// is read, its cases lead back to where the second's address was set, and
/// the second is read too (unread before).
#[test]
fn a_table_reached_only_through_another_table_is_read() {
    table_read_and_cases_walked("arm64-switch-two-in-loop", "two_switches+0x20");
}

/// A table address kept in another register across one case and moved
/// back (clang-19's `bstr_printf` with KASAN, Linux 6.12): followed through
/// the copies to its `adrp`/`add` (unread before).
#[test]
fn a_table_address_moved_between_registers_is_read() {
    table_read_and_cases_walked("arm64-switch-moved", "moved+0x24");
}

/// x86 position-independent code: both tables' `lea .Ltable(%rip)` hoisted
/// to the function's entry (gcc 12 -O2 -fPIE, two switches in loops;
/// kconfig's `zconfdump`, a host program of every kbuild tree). The second
/// dispatch's table register was set before the first dispatch, where the
/// search back stopped: its table went unread and its jump was taken for a
/// sibling call with a modified frame, and the first table's read ran on
/// into the second's entries. The register is now followed back to its
/// `lea` past other dispatches.
#[test]
fn a_pie_table_register_set_before_another_dispatch_is_read() {
    table_read_and_cases_walked("x86-switch-pie-loop", "dump+0xa0");
}

/// gcc -fPIE with both switches' table registers set at the entry, the
/// second table's nearer the first dispatch: the first dispatch read the
/// second table (its case 4 an "unreachable instruction", never walked; so
/// too glibc's `_dl_tunable_set_hwcaps` and OpenSSL's `DES_cfb_encrypt`).
/// Now the table its register was set to.
#[test]
fn a_pie_dispatch_reads_the_table_its_register_holds() {
    table_read_and_cases_walked("x86-switch-pie-two-tables", "two_tables+0x50");
}

/// rustc's PIE dispatch with a `mov` scheduled between the `add` and the
/// `jmp` (`movslq (%r14,%rcx,4),%rdx; add %r14,%rdx; movb $2,%cl; jmpq
/// *%rdx`), its table register set at an earlier dispatch of the same
/// table: the jump was taken for a sibling call with a modified frame (32
/// in this build's own crates). Now read: clean, and a word pushed before
/// the dispatch is a stack-mismatch at the cases, no sibling call.
#[test]
fn a_pie_dispatch_with_a_scheduled_instruction_is_read() {
    let dir = root().join("testdata/incomplete");
    let (got, _) = findings(&dir, &["x86-switch-pie-scheduled.o"]);
    assert!(got.is_empty(), "{got:?}");
    let fault = "x86-switch-pie-scheduled-fault.o";
    let (got, _) = findings(
        &dir,
        &[
            "--enable",
            "stack-mismatch",
            "--disable",
            "cfi-mismatch",
            fault,
        ],
    );
    let f = "_ZN1t5kinds17h5312d1d0eb81a03aE";
    let rows: Vec<(&str, &str)> = got.iter().map(|r| (r.1.as_str(), r.2.as_str())).collect();
    assert!(
        !rows.is_empty() && rows.iter().all(|(rule, _)| *rule == "stack-mismatch"),
        "{got:?}"
    );
    assert!(
        rows.contains(&("stack-mismatch", &format!("{f}+0x90"))),
        "{got:?}"
    );
}

/// A table address in x17 with a `prfm pstl1strm` (whose Rt field is 17)
/// on the way back to it (Linux 6.1 ice.ko's `ice_flow_add_prof`): a
/// prefetch writes no register, so the table is read (unread before).
#[test]
fn a_prefetch_is_no_write_of_the_table_register() {
    table_read_and_cases_walked("arm64-switch-prefetch", "prefetching+0x18");
}

/// A table address spilled once, reloaded in a loop whose cases include one
/// after a call to a local function that never returns (not declared so):
/// the spills reaching the reload cannot be told along the paths, and the
/// function's one store to the slot is taken (msm.ko, Linux 6.12).
#[test]
fn a_table_address_spilled_once_is_read_when_paths_say_nothing() {
    table_read_and_cases_walked("arm64-switch-one-spill", "one_spill+0x1c");
}

/// altera-stapl.ko's `altera_init` reloads its table's address from a stack
/// slot that another spill wrote earlier on the way (gcc 12): the spill that
/// reaches the reload names the table (.rodata+0xa0, 193 two-byte entries
/// from `cmp w27, #0xc0`), which was once taken as unreadable.
#[test]
fn a_table_address_reloaded_from_a_reused_slot_is_read() {
    let dir = root().join("testdata/real/arm64");
    let (got, _) = findings(&dir, &["altera-stapl.ko"]);
    assert!(got.is_empty(), "{got:?}");
}

/// What an unread table keeps from `unreachable` is said with it, when
/// that rule runs.
#[test]
fn unreachable_not_judged_behind_an_unread_table_is_said() {
    let dir = root().join("testdata/incomplete");
    let short = |extra: &[&str]| {
        let mut a = vec!["check", "--format", "short", "-q"];
        a.extend_from_slice(extra);
        a.push("arm64-switch-unread.o");
        String::from_utf8(run(&dir, &a).stdout).unwrap()
    };
    assert!(
        short(&[])
            .contains("the cases were not followed, nor unreachable code judged in its function"),
        "{}",
        short(&[])
    );
    let without = short(&["--enable", "fallthrough,analysis-incomplete"]);
    assert!(
        without.contains("the cases were not followed [analysis-incomplete]"),
        "{without}"
    );
}

/// Issue 15: moving one relocation of xen-privcmd's `.altinstructions` by a
/// byte made its two uaccess-call findings vanish with exit 0.
#[test]
fn alternatives_that_fit_no_layout_are_reported() {
    let tmp = tempfile::tempdir().unwrap();
    let mut b = std::fs::read(root().join("testdata/real/x86_64/xen-privcmd.ko")).unwrap();
    let (_, rela, _) = section(&b, ".rela.altinstructions");
    let r = rd(&b, rela, 8);
    wr(&mut b, rela, 8, r + 1);
    std::fs::write(tmp.path().join("moved.ko"), &b).unwrap();
    let (got, _) = findings(tmp.path(), &["moved.ko"]);
    assert_eq!(
        got,
        [row(
            "moved.ko",
            "analysis-incomplete",
            ".altinstructions+0x0",
            "alternatives"
        )]
    );
}

/// Issue 15: two bytes of a function patched into `06 06` hid its
/// fall-through.
#[test]
fn undecodable_bytes_on_a_path_are_reported() {
    let tmp = tempfile::tempdir().unwrap();
    let mut b = std::fs::read(root().join("testdata/core/x86/missing-ret.o")).unwrap();
    let (_, text, _) = section(&b, ".text");
    let f = symbol(&b, "f");
    let at = text + rd(&b, f + 8, 8) as usize;
    b[at..at + 2].copy_from_slice(&[0x06, 0x06]);
    std::fs::write(tmp.path().join("patched.o"), &b).unwrap();
    let (got, _) = findings(tmp.path(), &["--enable", "fallthrough", "patched.o"]);
    assert!(
        got.contains(&row(
            "patched.o",
            "analysis-incomplete",
            "f+0x0",
            "undecodable"
        )),
        "{got:?}"
    );
    // What was checked still is: g's fall-through.
    assert!(
        got.iter()
            .any(|g| g.1 == "fallthrough" && g.2.starts_with("g+")),
        "{got:?}"
    );
    // A rule that does not walk paths lost nothing.
    let (none, _) = findings(tmp.path(), &["--enable", "ibt-missing-endbr", "patched.o"]);
    assert_eq!(none, []);
    let (off, _) = findings(
        tmp.path(),
        &["--disable", "analysis-incomplete", "patched.o"],
    );
    assert!(off.iter().all(|g| g.1 != "analysis-incomplete"), "{off:?}");
}

/// Linux 6.1's paravirt calls in a shipped module: the link dropped their
/// ANNOTATE_RETPOLINE_SAFE, `.parainstructions` still lists them
/// (rules/special.toml `retpoline_safe_sites`), so they are judged. With the
/// table renamed away the same call is one place not judged.
#[test]
fn paravirt_sites_a_module_still_lists_are_judged() {
    let dir = root().join("testdata/incomplete");
    let (got, _) = findings(&dir, &["x86-paravirt-linked.o"]);
    assert_eq!(got, []);
    let tmp = tempfile::tempdir().unwrap();
    let mut b = std::fs::read(dir.join("x86-paravirt-linked.o")).unwrap();
    let (_, strtab, size) = section(&b, ".shstrtab");
    let names = &mut b[strtab..strtab + size];
    let at = names
        .windows(18)
        .position(|w| w == b".parainstructions\0")
        .unwrap();
    names[at + 16] = b'X';
    std::fs::write(tmp.path().join("unlisted.o"), &b).unwrap();
    let (got, _) = findings(tmp.path(), &["unlisted.o"]);
    assert_eq!(
        got,
        [row(
            "unlisted.o",
            "analysis-incomplete",
            "pv_irq_save+0x6",
            "annotations-lost"
        )]
    );
}

/// An `.orc_unwind` one byte short: orc-mismatch cannot compare.
#[test]
fn unreadable_orc_is_reported() {
    let tmp = tempfile::tempdir().unwrap();
    let mut b = std::fs::read(root().join("testdata/stack/x86-gcc.orc.o")).unwrap();
    let (h, _, size) = section(&b, ".orc_unwind");
    wr(&mut b, h + 0x20, 8, size as u64 - 1);
    std::fs::write(tmp.path().join("short.o"), &b).unwrap();
    let (got, _) = findings(tmp.path(), &["--enable", "orc-mismatch", "short.o"]);
    assert_eq!(
        got,
        [row(
            "short.o",
            "analysis-incomplete",
            ".orc_unwind+0x0",
            "unwind-table"
        )]
    );
    let (clean, _) = findings(
        &root().join("testdata/stack"),
        &["--enable", "orc-mismatch", "x86-gcc.orc.o"],
    );
    assert_eq!(clean, []);
}

#[test]
fn the_summary_and_sarif_say_what_was_not_checked() {
    let dir = root().join("testdata/incomplete");
    let out = run(&dir, &["check", "--format", "short", "x86-undecodable.o"]);
    assert_eq!(out.status.code(), Some(0), "a warning: the build goes on");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("1 finding (0 errors), 1 not fully checked, 0 unreadable"),
        "{err}"
    );
    let out = run(&dir, &["check", "--format", "sarif", "x86-undecodable.o"]);
    let log: Value = serde_json::from_slice(&out.stdout).unwrap();
    let inv = &log["runs"][0]["invocations"][0];
    assert_eq!(inv["executionSuccessful"], true);
    let n = &inv["toolExecutionNotifications"][0];
    assert_eq!(n["level"], "warning");
    assert_eq!(n["descriptor"]["id"], "analysis-incomplete");
    assert_eq!(n["properties"]["cause"], "undecodable");
    // A path that cannot be read fails the run, in SARIF too.
    let out = run(
        &dir,
        &[
            "check",
            "--format",
            "sarif",
            "x86-undecodable.o",
            "missing.o",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    let log: Value = serde_json::from_slice(&out.stdout).unwrap();
    let inv = &log["runs"][0]["invocations"][0];
    assert_eq!(inv["executionSuccessful"], false);
    assert!(
        inv["toolExecutionNotifications"][0]["message"]["text"]
            .as_str()
            .unwrap()
            .starts_with("missing.o: ")
    );
}

#[test]
fn no_objects_is_an_error() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("notes.txt"), "not an object").unwrap();
    let out = run(tmp.path(), &["check", "."]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "objlint: no objects found in .\n"
    );
}

/// objtool's own verdict on the mid-instruction jump ("can't find jump dest
/// instruction", testdata/incomplete/x86-jump-target.objtool.txt) is
/// objlint's branch-target gap, at the same place; objtool says nothing of
/// retbleed_untrain_ret, and neither does objlint.
#[test]
fn jump_targets_objtool_cannot_find_are_gaps() {
    let dir = root().join("testdata/incomplete");
    let text = std::fs::read_to_string(dir.join("x86-jump-target.objtool.txt")).unwrap();
    let want: Vec<Row> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let rest = l.split("warning: objtool: ").nth(1)?;
            let (place, msg) = rest.split_once(": ")?;
            msg.starts_with("can't find jump dest instruction")
                .then(|| {
                    row(
                        "x86-jump-target.o",
                        "analysis-incomplete",
                        place,
                        "branch-target",
                    )
                })
        })
        .collect();
    assert_eq!(want.len(), 1, "{text}");
    let (got, _) = findings(&dir, &["x86-jump-target.o"]);
    assert_eq!(got, want);
    // One place in all (a jump into retbleed_return_thunk would be a second).
    let first = first_finding(&dir, "x86-jump-target.o");
    assert_eq!(
        first["notes"],
        serde_json::json!(["mid_jump+0x5: jump to .text+0xb, which is no instruction"])
    );
}

/// A branch whose relocation is of a type no branch takes goes somewhere
/// unknown: both the jump and the call are said (they used to go where the
/// unrelocated bytes pointed, the next instruction: a false intra-function
/// call and a false modified-stack return), the plain branches are not.
#[test]
fn branches_with_relocations_not_understood_are_gaps() {
    let dir = root().join("testdata/incomplete");
    let out = run(
        &dir,
        &["check", "--format", "json", "-q", "x86-branch-reloc.o"],
    );
    let lines: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let findings: Vec<&Value> = lines.iter().filter(|v| v["type"] == "finding").collect();
    assert_eq!(findings.len(), 1, "{lines:?}");
    assert_eq!(findings[0]["cause"], "branch-target");
    assert_eq!(
        findings[0]["notes"],
        serde_json::json!([
            "odd_jump+0x2: the jump's destination could not be resolved",
            "odd_call+0x0: the call's destination could not be resolved"
        ])
    );
}

/// Table entries that name no instruction (a fixup or a jump label's target
/// inside an instruction, an alternative ending inside one or whose original
/// is another object's, a `.discard.reachable` with no trap before its
/// place): the edges and marks
/// they describe cannot be applied, and are said, once per object with a
/// note per entry; they were dropped without a word until 2026-12-05. Their
/// consequences are not reported as findings (no unreachable code, no
/// replacement "falling through" to the next function). The same source
/// with every entry right says nothing.
#[test]
fn table_entries_naming_no_instruction_are_said() {
    one_gap("x86-table-entry.o", "get_user_like+0x0", "table-entry");
    let dir = root().join("testdata/incomplete");
    let v = first_finding(&dir, "x86-table-entry.o");
    let notes: Vec<&str> = v["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap())
        .collect();
    assert_eq!(
        notes,
        [
            "get_user_like+0x0: .discard.reachable+0x0 names the instruction after a trap here, but none precedes it",
            "get_user_like+0xd: __ex_table+0x0 names this place, which is no instruction",
            "keyed+0xd: __jump_table+0x0 names this place, which is no instruction",
            "alt_user+0x7: the alternative at alt_user+0x0 ends here (.altinstructions), which is no instruction",
            ".altinstructions+0xe: names a place outside this object",
        ]
    );
    let (got, _) = findings(&dir, &["x86-table-entry-clean.o"]);
    assert!(got.is_empty(), "{got:?}");
    // objtool 6.12 refuses the object at the first such entry it reads:
    // the alternative whose original is in another object.
    let warnings = objtool_warnings(&dir, "x86-table-entry.objtool.txt");
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0].ends_with("special: can't find orig instruction"),
        "{warnings:?}"
    );
}

/// A call to a place that is no instruction and that no symbol names: into
/// its own function (also an unannotated intra-function call, where objtool
/// stops) or into another one's middle (taken for a call that returns,
/// without a word, until 2026-12-05): not followed, and said. A call to a
/// symbol that starts inside another instruction (`srso_safe_ret`) is a
/// call to that symbol.
#[test]
fn calls_to_no_instruction_are_said() {
    let dir = root().join("testdata/incomplete");
    let obj = "x86-call-target.o";
    let (got, _) = findings(&dir, &[obj]);
    assert_eq!(
        got,
        [
            row(obj, "analysis-incomplete", "own_mid+0x1", "branch-target"),
            row(obj, "intra-function-call", "own_mid+0x1", ""),
        ]
    );
    let v = first_finding(&dir, obj);
    assert_eq!(
        v["notes"],
        serde_json::json!([
            "own_mid+0x1: call to .text+0x9, which is no instruction",
            "other_mid+0x0: call to .text+0x16, which is no instruction",
        ])
    );
    assert_eq!(
        objtool_warnings(&dir, "x86-call-target.objtool.txt"),
        ["x86-call-target.o: warning: objtool: own_mid+0x1: unannotated intra-function call"]
    );
}

/// A computed goto whose slot address is computed apart from the load
/// (`add x20, x22, w27, uxtw #3; ldr x8, [x20]; br x8`: clang-19's
/// ___bpf_prog_run in a Linux 6.12 KASAN build) is a dispatch through its
/// table, not a tail call with the frame set up; its handlers are walked.
#[test]
fn a_computed_goto_with_the_slot_address_apart_is_read() {
    table_read_and_cases_walked("arm64-goto-split", "interp+0x1c");
}

/// A computed goto whose table register is derived from the register
/// holding `.rodata`'s address (`add x21, x23, #0x2e0`: gcc 12's
/// ___bpf_prog_run in Linux 7.3 arm64) is read at that offset, not at
/// `.rodata` itself; its handlers are walked (a sibling call with the frame
/// set up before).
#[test]
fn a_computed_goto_through_a_derived_table_register_is_read() {
    table_read_and_cases_walked("arm64-goto-derived", "interp+0x20");
}

/// An unwind hint whose frame address the model does not follow
/// (UNWIND_HINT_REGS off `bp_indirect`): it was dropped without a word and
/// the walk went on with the state before it (a false "return with
/// modified stack frame"). Now the place is said, where objtool stops
/// ("unsupported unwind_hint sp base reg"), and nothing after it is judged.
#[test]
fn a_hint_the_model_does_not_follow_is_said() {
    one_gap("x86-hint-unfollowed.o", "indirect_frame+0x4", "unwind-hint");
    let dir = root().join("testdata/incomplete");
    assert_eq!(
        first_finding(&dir, "x86-hint-unfollowed.o")["notes"],
        serde_json::json!(["indirect_frame+0x4: UNWIND_HINT_REGS based on bp_indirect"])
    );
    assert_eq!(
        objtool_warnings(&dir, "x86-hint-unfollowed.objtool.txt"),
        [
            "x86-hint-unfollowed.o: warning: objtool: indirect_frame+0x4: unsupported unwind_hint sp base reg 8"
        ]
    );
}
