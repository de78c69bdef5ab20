//! User-space static archives and hand-written assembly (issue 17):
//! testdata/user, built by its build.sh. Every object's findings against
//! expected.txt (`OBJLINT_BLESS=1` rewrites it), and the cases spelled out.

#[path = "common/expected.rs"]
mod expected;

use std::path::{Path, PathBuf};
use std::process::Command;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/user")
}

/// `objlint ARGS` run in testdata/user: (stdout, exit status).
fn objlint(args: &[&str]) -> (String, i32) {
    let out = Command::new(env!("CARGO_BIN_EXE_objlint"))
        .current_dir(dir())
        .args(args)
        .output()
        .expect("run objlint");
    (
        String::from_utf8(out.stdout).expect("utf-8 output"),
        out.status.code().unwrap_or(-1),
    )
}

fn short(paths: &[&str]) -> String {
    let mut args = vec!["check", "--format", "short", "-q", "-j", "1"];
    args.extend_from_slice(paths);
    objlint(&args).0
}

/// Every object and archive of the folder, as the directory walk lists them.
#[test]
fn findings_match_expected() {
    let got = short(&["."]);
    let mut failures = Vec::new();
    expected::check(
        &dir().join("expected.txt"),
        &got,
        "testdata/user",
        &mut failures,
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// exit_group and rt_sigreturn end a path; write and an unknown number do
/// not (both arches, compiler output), nor a number another path may have
/// changed (hand-written).
#[test]
fn system_calls_that_never_return_end_paths() {
    for obj in ["syscall-x86_64.o", "syscall-arm64.o"] {
        let out = short(&["--enable", "fallthrough", obj]);
        assert!(!out.contains("exit_now"), "{out}");
        assert!(!out.contains("restore()"), "{out}");
        assert!(out.contains("write_and_stop() falls through"), "{out}");
        assert!(out.contains("any_call() falls through"), "{out}");
    }
    let out = short(&["--enable", "fallthrough", "syscall-asm-x86_64.o"]);
    assert!(!out.contains("restore_rt"), "{out}");
    assert!(out.contains("joined+0xe: error:"), "{out}");
    assert!(out.contains("clobbered+0x7: error:"), "{out}");
}

/// DW_AT_noreturn on a declaration ends the path after the call; without
/// DWARF the same code is reported.
#[test]
fn dwarf_noreturn_declarations_count() {
    for arch in ["x86_64", "arm64"] {
        let with = short(&[
            "--enable",
            "fallthrough",
            &format!("noreturn-decl-g-{arch}.o"),
        ]);
        assert_eq!(with, "", "{arch}");
        let without = short(&[
            "--enable",
            "fallthrough",
            &format!("noreturn-decl-{arch}.o"),
        ]);
        assert!(
            without.contains("check() falls through"),
            "{arch}: {without}"
        );
    }
}

/// An archive is checked as linked: user.o alone falls through after
/// my_die(); in the archive with die.o it does not, as in `ld -r` of the two;
/// a weak definition never counts.
#[test]
fn an_archive_is_a_unit() {
    let alone = short(&["--enable", "fallthrough", "archive/user.o"]);
    assert!(alone.contains("parse() falls through"), "{alone}");
    for unit in [
        "archive/libdie.a",
        "archive/linked.o",
        "archive/libdie-arm64.a",
    ] {
        assert_eq!(short(&["--enable", "fallthrough", unit]), "", "{unit}");
    }
    let weak = short(&["--enable", "fallthrough", "archive/libdie-weak.a"]);
    assert!(weak.contains("libdie-weak.a(user.o): parse+"), "{weak}");
}

/// Address-taken facts across an archive's members: table.o stores the
/// addresses of handlers.o's functions; `handler_bad` has no landing pad.
/// In the archive (both members built with IBT / BTI) it is reported in
/// handlers.o, once, naming the referencing member; the annotated handler
/// and the directly called one are not. Alone, handlers.o cannot tell;
/// with a C member built without IBT the link has none: nothing to say.
/// objtool on `ld -r` of the two (its vmlinux.o IBT check) names the same
/// one function (taken/objtool-linked-x86_64.txt, made by build.sh).
#[test]
fn address_taken_across_members() {
    for (arch, rule, pad) in [
        ("x86_64", "ibt-missing-endbr", "ENDBR"),
        ("arm64", "bti-missing-landing-pad", "BTI"),
    ] {
        let unit = format!("taken/libtaken-{arch}.a");
        let got = short(&["--enable", rule, &unit]);
        let handlers = format!("{unit}(handlers-{arch}.o)");
        let table = format!("{unit}(table-{arch}.o)");
        assert_eq!(
            got,
            format!(
                "{handlers}: handler_bad+0x0: error: relocation to !{pad}: handler_bad+0x0 from another member of the archive: {table}: setup+0x8 (and 1 more there) [{rule}]\n"
            ),
            "{unit}"
        );
    }
    for quiet in [
        "taken/handlers-x86_64.o",
        "taken/handlers-arm64.o",
        "taken/libtaken-plain-x86_64.a",
    ] {
        let got = short(&[
            "--enable",
            "ibt-missing-endbr,bti-missing-landing-pad",
            quiet,
        ]);
        assert_eq!(got, "", "{quiet}");
    }
    // objtool's targets on the linked whole are the functions the archive's
    // findings name.
    let objtool = std::fs::read_to_string(dir().join("taken/objtool-linked-x86_64.txt")).unwrap();
    let targets: std::collections::BTreeSet<&str> = objtool
        .lines()
        .filter_map(|l| l.split("to !ENDBR: ").nth(1))
        .filter_map(|t| t.split('+').next())
        .collect();
    assert_eq!(targets.into_iter().collect::<Vec<_>>(), ["handler_bad"]);
    let linked = short(&["--enable", "ibt-missing-endbr", "taken/linked-x86_64.o"]);
    assert!(linked.contains("to !ENDBR: handler_bad+0x0"), "{linked}");
}

/// References from one member into another member's code (`sym+off`) need
/// a pad at that instruction: of the ten in libinner-*.a (pads in a function
/// and at a routine's start, five places without one, two ends, the middle
/// of an instruction) the five without a pad are reported, the places
/// objtool names on the linked whole. Two land outside the function they
/// name (`handler_inner_bad-0x6`, `handler_inner_bad+0xe`) and are named
/// from the function they land in, as objtool names them; two are in
/// routines of hand-written code, global `STT_NOTYPE` symbols another
/// member defines (SYM_CODE_START), which the archive resolved only for
/// functions before. A routine's end (`code_routine+0xa`) is a range's end,
/// as a function's is, in the archive as in the linked whole.
#[test]
fn references_inside_another_members_function() {
    for (arch, rule, pad, before, code) in [
        (
            "x86_64",
            "ibt-missing-endbr",
            "ENDBR",
            "handler_inner+0xe",
            [".text+0x2c", ".text+0x38"],
        ),
        (
            "arm64",
            "bti-missing-landing-pad",
            "BTI",
            "handler_inner+0x10",
            [".text+0x34", ".text+0x44"],
        ),
    ] {
        let unit = format!("taken/libinner-{arch}.a");
        let got = short(&["--enable", rule, &unit]);
        let defs = format!("{unit}(inner-defs-{arch}.o)");
        let refs = format!("{unit}(inner-refs-{arch}.o)");
        let line = |at: &str, target: &str, from: &str| {
            format!(
                "{defs}: {at}: error: relocation to !{pad}: {target} from another member of the archive: {refs}: inner_table+{from} [{rule}]\n"
            )
        };
        assert_eq!(
            got,
            [
                line(before, before, "0x20"),
                line("handler_inner_bad+0x4", "handler_inner_bad+0x4", "0x8"),
                line("handler_third+0x4", "handler_third+0x4", "0x28"),
                line(code[0], "code_routine+0x4", "0x38"),
                line(code[1], "code_bad+0x0", "0x48"),
            ]
            .concat(),
            "{unit}"
        );
        // The linked whole reports the same targets, from the one object.
        let linked = short(&["--enable", rule, &format!("taken/linked-inner-{arch}.o")]);
        let places = [
            before,
            "handler_inner_bad+0x4",
            "handler_third+0x4",
            "code_routine+0x4",
            "code_bad+0x0",
        ];
        assert_eq!(linked.matches(&format!("[{rule}]")).count(), 5, "{linked}");
        for place in places {
            assert!(linked.contains(&format!("to !{pad}: {place}")), "{linked}");
        }
    }
    let objtool =
        std::fs::read_to_string(dir().join("taken/objtool-linked-inner-x86_64.txt")).unwrap();
    let targets: Vec<&str> = objtool
        .lines()
        .filter_map(|l| l.split("to !ENDBR: ").nth(1))
        .collect();
    // objtool also names `handler_direct+0x0`, reached as
    // `code_routine+0xa`: it has no exception for a range's end, objlint
    // does (docs/ACCURACY.md, range ends).
    assert_eq!(
        targets,
        [
            "handler_inner_bad+0x4",
            "handler_inner+0xe",
            "handler_third+0x4",
            "code_routine+0x4",
            "handler_direct+0x0",
            "code_bad+0x0"
        ]
    );
}

/// A thin archive (`ar rcT`) is a unit too: its members, read from their
/// paths relative to the archive, are checked together (user.o's
/// fall-through goes, as in libdie.a); a member also checked on its own is
/// checked there, alone.
#[test]
fn a_thin_archive_is_a_unit() {
    assert_eq!(short(&["--enable", "fallthrough", "thin/libdie.a"]), "");
    let both = short(&["--enable", "fallthrough", "thin/libdie.a", "archive/user.o"]);
    assert!(
        both.starts_with("archive/user.o: parse+0x14: error:"),
        "{both}"
    );
    assert!(!both.contains("thin/libdie.a"), "{both}");
}

/// A member file of a thin archive that is not there is one error naming
/// it (exit 2); the other members are checked as a unit without it, and
/// the other files of the run as usual.
#[test]
fn a_missing_thin_member_is_one_error() {
    let tmp = tempfile::tempdir().unwrap();
    let lib = tmp.path().join("lib");
    std::fs::create_dir(&lib).unwrap();
    for m in ["user.o", "die.o"] {
        std::fs::copy(dir().join("archive").join(m), lib.join(m)).unwrap();
    }
    std::fs::write(lib.join("gone.o"), b"").unwrap();
    let ar = Command::new("ar")
        .current_dir(&lib)
        .args(["rcTD", "libthin.a", "user.o", "gone.o", "die.o"])
        .status()
        .expect("run ar");
    assert!(ar.success());
    std::fs::remove_file(lib.join("gone.o")).unwrap();
    let other = dir().join("syscall-x86_64.o");
    let out = Command::new(env!("CARGO_BIN_EXE_objlint"))
        .current_dir(tmp.path())
        .args([
            "check",
            "--format",
            "short",
            "-j",
            "1",
            "--enable",
            "fallthrough",
        ])
        .arg("lib/libthin.a")
        .arg(&other)
        .output()
        .unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert_eq!(out.status.code(), Some(2), "{stdout}{stderr}");
    let errors: Vec<&str> = stderr.lines().filter(|l| l.contains("gone.o")).collect();
    assert_eq!(errors.len(), 1, "{stderr}");
    assert!(
        errors[0].starts_with(
            "objlint: lib/libthin.a(gone.o): member lib/gone.o of the thin archive cannot be read:"
        ),
        "{stderr}"
    );
    // user.o is checked with die.o: no fall-through after my_die().
    assert!(!stdout.contains("libthin.a(user.o)"), "{stdout}");
    assert!(
        stdout.contains("write_and_stop() falls through"),
        "{stdout}"
    );
    assert!(stderr.contains("3 objects"), "{stderr}");
}

/// Second entries that run on into their sibling are notes; the annotation
/// silences one; running into int3 padding stays an error.
#[test]
fn deliberate_fall_through() {
    let (out, code) = objlint(&["check", "--format", "short", "-q", "entries-x86_64.o"]);
    assert!(out.contains("__memcpy_chk_erms+0x3: note:"), "{out}");
    assert!(out.contains("__strcasecmp_x+0x7: note:"), "{out}");
    assert!(out.contains("int3_padded+0x0: error:"), "{out}");
    assert!(!out.contains("annotated_chk"), "{out}");
    assert_eq!(code, 1);
    let (out, code) = objlint(&["check", "--format", "short", "-q", "entries-arm64.o"]);
    assert_eq!(
        out,
        "entries-arm64.o: __memmove_x+0xc: note: __memmove_x() falls through to next function __memcpy_x() [fallthrough]\n"
    );
    assert_eq!(code, 0, "a note does not fail the run");
    let (_, code) = objlint(&["check", "-q", "--deny-warnings", "entries-arm64.o"]);
    assert_eq!(code, 0, "nor with --deny-warnings");
}

/// Constant tables in .text are data (an STT_OBJECT, a local label or none
/// outside every function): only the real missing ENDBR64s are reported (a
/// global label without a type is an entry point), "reference" where the
/// assembler left no relocation.
#[test]
fn tables_in_text_are_not_landing_pad_cases() {
    let out = short(&["--enable", "ibt-missing-endbr", "tables-x86_64.o"]);
    assert_eq!(
        out,
        "tables-x86_64.o: sha_block+0x27: error: relocation to !ENDBR: untyped_entry+0x0 [ibt-missing-endbr]\n\
         tables-x86_64.o: set_funcs+0x4: error: reference to !ENDBR: blocks+0x0 [ibt-missing-endbr]\n\
         tables-x86_64.o: set_funcs+0xe: error: relocation to !ENDBR: emit+0x0 [ibt-missing-endbr]\n"
    );
}

/// Kernel-only rules stay off in user space unless the profile says kernel;
/// a kernel object under `--profile user` loses them.
#[test]
fn profiles() {
    let (out, code) = objlint(&["check", "--format", "short", "-q", "stack_chk-x86_64.o"]);
    assert_eq!((out.as_str(), code), ("", 0));
    let (out, code) = objlint(&[
        "check",
        "--format",
        "short",
        "-q",
        "--profile",
        "kernel",
        "stack_chk-x86_64.o",
    ]);
    assert!(
        out.contains("call to __fortify_fail() with UACCESS enabled [uaccess-call]"),
        "{out}"
    );
    assert_eq!(code, 1);
    // The config file's key does the same.
    let d = tempfile::tempdir().unwrap();
    let cfg = d.path().join("objlint.toml");
    std::fs::write(&cfg, "profile = \"kernel\"\n").unwrap();
    let (out, _) = objlint(&[
        "check",
        "--format",
        "short",
        "-q",
        "--config",
        cfg.to_str().unwrap(),
        "stack_chk-x86_64.o",
    ]);
    assert!(out.contains("[uaccess-call]"), "{out}");
    // A kernel object (STAC/CLAC) is detected as one; --profile user turns
    // its kernel rules off.
    let kernel = "../examples/uaccess-x86_64.o";
    let (out, _) = objlint(&["check", "--format", "short", "-q", kernel]);
    assert!(out.contains("[uaccess-call]"), "{out}");
    let (out, _) = objlint(&[
        "check",
        "--format",
        "short",
        "-q",
        "--profile",
        "user",
        kernel,
    ]);
    assert!(!out.contains("[uaccess-"), "{out}");
    let (_, code) = objlint(&["check", "--profile", "bogus", kernel]);
    assert_eq!(code, 2);
}

/// GCS: returns that do not go back to the caller break the claim; in an
/// archive, the members that lack a property the others claim are named.
#[test]
fn gnu_property_gcs_and_archives() {
    let out = short(&["--enable", "gnu-property", "gcs-arm64.o"]);
    assert!(
        out.contains("claims GCS, but 2 return(s) go to an address other than the one the call left in x30 (first: jumps_by_ret+0x8)"),
        "{out}"
    );
    let out = short(&["--enable", "gnu-property", "props/libmixed-x86_64.a"]);
    assert_eq!(
        out,
        "props/libmixed-x86_64.a(syscall-asm-x86_64.o): restore_rt+0x0: warning: does not claim IBT or SHSTK, which other objects of this archive claim (IBT: 2 of 3, SHSTK: 2 of 3 objects with code) [gnu-property]\n"
    );
    let out = short(&["--enable", "gnu-property", "props/libmixed-arm64.a"]);
    assert!(
        out.contains("(asm-arm64.o): __memmove_x+0x0: warning: does not claim BTI or PAC,"),
        "{out}"
    );
    // Each object alone: nothing to compare with.
    assert_eq!(
        short(&["--enable", "gnu-property", "syscall-asm-x86_64.o"]),
        ""
    );
}

/// A folder named on the command line is a link set too: its user-space
/// objects with code that lack a property most of the others claim are
/// named (the hand-written assembly among the compiled fixtures); the same
/// objects named one by one, or a minority's claim, say nothing; archive
/// members count in their archive, not in the folder.
#[test]
fn folder_property_report() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    for (from, to) in [
        ("archive/user.o", "a/user.o"),
        ("archive/die.o", "a/die.o"),
        ("syscall-asm-x86_64.o", "a/sub/asm.o"),
        ("props/libmixed-x86_64.a", "a/libmixed.a"),
        ("archive/user.o", "b/user.o"),
        ("syscall-asm-x86_64.o", "b/asm.o"),
        ("entries-x86_64.o", "b/entries.o"),
    ] {
        std::fs::create_dir_all(d.join(to).parent().unwrap()).unwrap();
        std::fs::copy(dir().join(from), d.join(to)).unwrap();
    }
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_objlint"))
            .current_dir(d)
            .args(["check", "--format", "short", "-q", "-j", "2"])
            .args(["--enable", "gnu-property"])
            .args(args)
            .output()
            .unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    let warn = |file: &str, at: &str| {
        format!(
            "{file}: {at}+0x0: warning: does not claim IBT or SHSTK, which other objects of this folder claim (IBT: 2 of 3, SHSTK: 2 of 3 objects with code) [gnu-property]\n"
        )
    };
    // a/sub/asm.o lacks what a/user.o and a/die.o claim; the archive's
    // member says so of its archive.
    assert_eq!(
        run(&["a"]),
        "a/libmixed.a(syscall-asm-x86_64.o): restore_rt+0x0: warning: does not claim IBT or SHSTK, which other objects of this archive claim (IBT: 2 of 3, SHSTK: 2 of 3 objects with code) [gnu-property]\n"
            .to_string()
            + &warn("a/sub/asm.o", "restore_rt")
    );
    // Named one by one: no folder.
    assert_eq!(run(&["a/user.o", "a/die.o", "a/sub/asm.o"]), "");
    // In b only one of three claims IBT and SHSTK: nothing to say.
    assert_eq!(run(&["b"]), "");
    // Each folder on its own.
    assert_eq!(run(&["b", "a/user.o", "a/sub/asm.o"]), "");
}

/// Landing pads of -fexceptions code are entered by the unwinder: the
/// cleanup is not unreachable (it was, at with_cleanup.cold+0x0).
#[test]
fn exception_landing_pads_are_reached() {
    for obj in ["cleanup-x86_64.o", "cleanup-arm64.o"] {
        assert_eq!(short(&[obj]), "", "{obj}");
    }
}

/// arm64 `mov x12, #0x1030; sub sp, sp, x12` (a frame over 4 KiB under
/// -fstack-clash-protection) is followed: it was stack-undefined.
#[test]
fn arm64_large_frames_are_followed() {
    assert_eq!(short(&["bigframe-arm64.o"]), "");
}

/// GCS: `ret xN` and `br x30` in an object that claims GCS are reported
/// (not as returns through a modified x30: `ret x15` after `mov x15, x30`
/// does not use x30); without the claim, and for `ret` through x30, nothing.
#[test]
fn gcs_returns_not_through_x30() {
    let out = short(&["--enable", "gnu-property", "gcs-ret-arm64.o"]);
    assert_eq!(
        out,
        "gcs-ret-arm64.o: .note.gnu.property+0x0: warning: claims GCS, but 3 return(s) do not go through x30 (first: `ret x15` at keeps_lr+0xc) [gnu-property]\n"
    );
    assert_eq!(
        short(&["--enable", "gnu-property", "gcs-ret-nogcs-arm64.o"]),
        ""
    );
    // The returns through a modified x30 keep their own finding.
    let out = short(&["--enable", "gnu-property", "gcs-arm64.o"]);
    assert!(!out.contains("do not go through x30"), "{out}");
}

/// `objlint seal` keeps the kernel's policies to kernel code. In user space
/// (seal-names-arm64.o; testdata/symtab/seal_arm64.o, a kernel fixture
/// without kernel marks): a name the kernel's no-pad targets list exempts
/// nothing, `--link` keeps the pads of global functions (the dynamic linker
/// exports them), and `--mode section` (a list only the kernel reads) is
/// refused; `--profile kernel` applies the kernel's.
#[test]
fn seal_keeps_kernel_policies_to_kernel_code() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out.o");
    let seal = |args: &[&str]| {
        let o = Command::new(env!("CARGO_BIN_EXE_objlint"))
            .current_dir(dir())
            .arg("seal")
            .args(args)
            .arg("-o")
            .arg(&out)
            .output()
            .unwrap();
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    for link in [&[][..], &["--link"][..]] {
        let mut a = vec!["--mode", "nop", "seal-names-arm64.o"];
        a.extend_from_slice(link);
        let (code, err) = seal(&a);
        assert_eq!(code, Some(0), "{err}");
        assert!(
            err.contains(": 0 of 2 function-entry landing pads are unneeded"),
            "{err}"
        );
    }
    let (code, err) = seal(&["--mode", "nop", "--profile", "kernel", "seal-names-arm64.o"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains(": 1 of 2 function-entry landing pads are unneeded"),
        "{err}"
    );

    let kfix = "../symtab/seal_arm64.o";
    let (code, err) = seal(&["--mode", "nop", "--link", kfix]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains(": 3 of 7 function-entry landing pads are unneeded"),
        "{err}"
    );
    let (code, err) = seal(&["--mode", "nop", "--link", "--profile", "kernel", kfix]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains(": 4 of 7 function-entry landing pads are unneeded"),
        "{err}"
    );
    let (code, err) = seal(&["--mode", "section", kfix]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("user-space code: only the kernel reads .bti_seal"),
        "{err}"
    );
    let (code, err) = seal(&["--mode", "section", "--profile", "kernel", kfix]);
    assert_eq!(code, Some(0), "{err}");
}

/// A call through a symbol's GOT slot (`call *sym@GOTPCREL(%rip)`: gcc
/// -fno-plt, and rustc's calls to other crates) is a call to the symbol:
/// `exit`, `abort` and Rust's panics end the path (each was a false "falls
/// through" when taken for an indirect call that returns), and a landing
/// pad reached only when such a call unwinds is walked. LLVM's
/// TrapUnreachable `ud2` after a switch's jump (rustc at opt-level 0, as
/// cargo builds proc-macro crates) is no unreachable code. A landing pad of
/// a call that pushed arguments is entered with them popped
/// (`DW_CFA_GNU_args_size`): each was a false stack-mismatch. A call
/// through the GOT slot of a function the object defines goes to it, and
/// counts as noreturn when that function is proven so (local.rs: a false
/// "falls through" before).
#[test]
fn calls_through_the_got_go_to_their_symbol() {
    let out = short(&[
        "../got/noplt-x86_64.o",
        "../got/panics-x86_64.o",
        "../got/switch-x86_64.o",
        "../got/args-x86_64.o",
        "../got/local-x86_64.o",
    ]);
    assert_eq!(out, "", "{out}");
}

/// Frames over a page are probed a page at a time in a loop (gcc and clang
/// `-fstack-clash-protection`, rustc always): `sub $4096,%rsp; orq
/// $0,(%rsp); cmp %r11,%rsp; jne` down to %r11, set to the stack pointer
/// less the frame before the loop (arm64: `sub sp, sp, #P; cmp sp, xR; str
/// xzr, [sp]; b.ne`). The loop is followed as the compilers' CFI describes
/// it (the frame address found from %r11 in it, or from x29 throughout),
/// and leaves the stack pointer at %r11: each was a false stack-mismatch,
/// return with modified frame and CFI disagreement before. An epilogue
/// that gives back 8 bytes too few is still found.
#[test]
fn stack_probe_loops_move_the_stack_by_the_frame() {
    let out = short(&[
        "../probe/probe-gcc-x86_64.o",
        "../probe/probe-clang-x86_64.o",
        "../probe/probe-rust-x86_64.o",
        "../probe/probe-gcc-aarch64.o",
        "../probe/probe-clang-aarch64.o",
    ]);
    assert_eq!(out, "", "{out}");
    let out = short(&["../probe/probe-gcc-fault-x86_64.o"]);
    assert!(
        out.contains("big+0x38: error: return with modified stack frame"),
        "{out}"
    );
    assert!(!out.contains("stack-mismatch"), "{out}");
}
