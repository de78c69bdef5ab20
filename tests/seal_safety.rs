//! `seal` on hostile inputs and in awkward places: it must never panic or
//! allocate by a number the file makes up, and never leave a file in a bad
//! state. Crafted objects in testdata/seal_safety/ (from the bad-input
//! repro set); everything else is built from fixtures at test time.

use objlint::elf::Object;
use objlint::seal::SealMode;
use objlint::seal::{seal_object, verify_sealed};
use std::os::unix::fs::{FileTypeExt, MetadataExt, symlink};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant, SystemTime};

const BIN: &str = env!("CARGO_BIN_EXE_objlint");

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn fixture(rel: &str) -> PathBuf {
    root().join("testdata").join(rel)
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn objlint(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("run objlint")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The names in a folder, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

fn temp_files(dir: &Path) -> Vec<String> {
    names(dir)
        .into_iter()
        .filter(|n| n.contains(".objlint-"))
        .collect()
}

/// A copy of a fixture in `dir`.
fn copy_to(dir: &Path, rel: &str, name: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::copy(fixture(rel), &p).unwrap();
    p
}

/// What a sealed x86 fixture must look like: readable, and nothing left to seal.
fn assert_sealed_x86(p: &Path) {
    let data = std::fs::read(p).unwrap();
    let obj = Object::parse(&data).expect("the sealed file reads back");
    let again = seal_object(&obj, SealMode::Nop, false).unwrap();
    assert_eq!(again.sealed, 0, "{} is not sealed", p.display());
    let o = objlint(&[
        "symdiff",
        "--format",
        "short",
        s(&fixture("symtab/seal_x86.o")),
        s(p),
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
}

/// One error line naming the file, exit 2, no output and no temporary file.
fn assert_refused(o: &Output, input: &Path, dir: &Path, out: &Path, want: &[&str]) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(2), "{}: {err}", input.display());
    assert_eq!(err.lines().count(), 1, "one error line: {err}");
    assert!(err.contains(s(input)), "names the file: {err}");
    for w in want {
        assert!(err.contains(w), "{w:?} in {err}");
    }
    assert!(!out.exists(), "{} was written", out.display());
    assert!(temp_files(dir).is_empty(), "{:?}", names(dir));
}

/// `sh` with the address space capped, so an allocation by an untrusted
/// size fails the test instead of the machine.
fn objlint_capped(args: &[&str]) -> Output {
    let mut cmd = String::from("ulimit -v 1048576; exec \"$0\"");
    for i in 1..=args.len() {
        cmd.push_str(&format!(" \"${i}\""));
    }
    Command::new("sh")
        .arg("-c")
        .arg(cmd)
        .arg(BIN)
        .args(args)
        .output()
        .expect("run objlint")
}

#[test]
fn alignment_from_the_file_is_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.o");
    for (f, align) in [
        ("D2_seal_align_2p63.elf", "0x8000000000000000"),
        ("D2_seal_align_2p34.elf", "0x400000000"),
    ] {
        let input = fixture(&format!("seal_safety/{f}"));
        for mode in ["nop", "section"] {
            let o = objlint_capped(&["seal", "--mode", mode, s(&input), "-o", s(&out)]);
            assert_refused(
                &o,
                &input,
                dir.path(),
                &out,
                &[".data", "sh_addralign", align],
            );
        }
    }

    // Built from a fixture: the limit, above it, and not a power of two.
    let data = std::fs::read(fixture("symtab/seal_x86.o")).unwrap();
    let text = Object::parse(&data).unwrap().sections_named(".text")[0];
    for (align, ok) in [(1u64 << 16, true), (1 << 17, false), (24, false), (0, true)] {
        let mut d = data.clone();
        set_shdr(&mut d, text, SH_ADDRALIGN, 8, align);
        let obj = Object::parse(&d).unwrap();
        let r = seal_object(&obj, SealMode::Section, true);
        match (r, ok) {
            (Ok(sealed), true) => verify_sealed(&obj, &sealed.rewritten.bytes, &sealed).unwrap(),
            (Err(e), false) => assert!(e.contains(".text") && e.contains("sh_addralign"), "{e}"),
            (r, _) => panic!("align {align:#x}: {:?}", r.map(|x| x.sealed)),
        }
    }

    // Alignments each within the limit must not add up to an output far
    // beyond the input: 200 sections of one byte, each 64 KiB aligned.
    let d = with_extra_sections(&data, 200, 1 << 16);
    let obj = Object::parse(&d).unwrap();
    let e = seal_object(&obj, SealMode::Nop, true)
        .map(|_| ())
        .unwrap_err();
    assert!(e.contains("pad the output"), "{e}");
}

#[test]
fn symtab_in_section_zero_is_one_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.o");
    let input = fixture("seal_safety/D5_seal_symtab_in_section0.elf");
    for mode in ["nop", "section"] {
        let o = objlint(&["seal", "--mode", mode, s(&input), "-o", s(&out)]);
        assert_refused(&o, &input, dir.path(), &out, &["section 0", "symbol table"]);
    }
}

#[test]
fn in_place_with_nothing_to_seal_leaves_the_file_alone() {
    let dir = tempfile::tempdir().unwrap();
    let orig = fixture("real/x86_64/xen-privcmd.ko");
    let f = copy_to(dir.path(), "real/x86_64/xen-privcmd.ko", "xen-privcmd.ko");
    let old = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000_000);
    std::fs::File::options()
        .write(true)
        .open(&f)
        .unwrap()
        .set_modified(old)
        .unwrap();
    let before = std::fs::metadata(&f).unwrap();
    // Every pad is needed (or already listed by objtool): no mode has work.
    for args in [
        ["nop", ""],
        ["section", ""],
        ["nop", "--link"],
        ["section", "--link"],
    ] {
        let mut a = vec!["seal", "--mode", args[0], "--in-place", s(&f)];
        if !args[1].is_empty() {
            a.push(args[1]);
        }
        let o = objlint(&a);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(0), "{err}");
        assert!(
            err.contains("nothing to seal") && err.contains("left unchanged"),
            "{err}"
        );
        assert_eq!(std::fs::read(&f).unwrap(), std::fs::read(&orig).unwrap());
        let now = std::fs::metadata(&f).unwrap();
        assert_eq!(now.modified().unwrap(), old);
        assert_eq!((now.ino(), now.len()), (before.ino(), 52_968));
    }
    assert_eq!(names(dir.path()), ["xen-privcmd.ko"]);

    // With -o, the output is the input as it was: the signature still matches.
    let out = dir.path().join("out.ko");
    let o = objlint(&["seal", "--mode", "nop", s(&f), "-o", s(&out)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains("copy of the input"), "{}", stderr(&o));
    assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(&orig).unwrap());
}

#[test]
fn in_place_through_a_symlink_seals_the_file_it_names() {
    let dir = tempfile::tempdir().unwrap();
    let real_dir = dir.path().join("real");
    let link_dir = dir.path().join("links");
    std::fs::create_dir_all(&real_dir).unwrap();
    std::fs::create_dir_all(&link_dir).unwrap();
    let real = copy_to(&real_dir, "symtab/seal_x86.o", "x.o");
    // A relative link, resolved from its own folder, through a second link.
    let link = link_dir.join("x.o");
    symlink("../real/x.o", &link).unwrap();
    let link2 = dir.path().join("y.o");
    symlink("links/x.o", &link2).unwrap();

    let o = objlint(&["seal", "--mode", "nop", "--in-place", s(&link2)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains("3 sealed"), "{}", stderr(&o));
    for (l, to) in [(&link, "../real/x.o"), (&link2, "links/x.o")] {
        assert!(
            std::fs::symlink_metadata(l)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(std::fs::read_link(l).unwrap(), Path::new(to));
    }
    assert_sealed_x86(&real);
    assert_eq!(names(&real_dir), ["x.o"]);
    assert_eq!(names(&link_dir), ["x.o"]);

    // -o naming a link writes the file it names; naming the input through
    // a link is sealing in place (here: nothing left to do).
    let other = copy_to(&real_dir, "symtab/seal_x86.o", "other.o");
    let out_real = real_dir.join("out.o");
    let out_link = link_dir.join("out.o");
    symlink("../real/out.o", &out_link).unwrap();
    let o = objlint(&["seal", "--mode", "nop", s(&other), "-o", s(&out_link)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        std::fs::symlink_metadata(&out_link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_sealed_x86(&out_real);
    let sealed = std::fs::read(&real).unwrap();
    let o = objlint(&["seal", "--mode", "nop", s(&real), "-o", s(&link)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains("left unchanged"), "{}", stderr(&o));
    assert_eq!(std::fs::read(&real).unwrap(), sealed);
}

#[test]
fn compressed_outputs_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let elf = std::fs::read(fixture("symtab/seal_x86.o")).unwrap();
    let zst = zstd::encode_all(&elf[..], 3).unwrap();
    let m = dir.path().join("m.ko.zst");
    std::fs::write(&m, &zst).unwrap();

    // The output is the compressed input.
    let o = objlint(&["seal", "--mode", "nop", s(&m), "-o", s(&m)]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("compressed"), "{}", stderr(&o));
    let o = objlint(&["seal", "--mode", "nop", "--in-place", s(&m)]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    // ... under a name without a compressed extension, or by another path.
    let plain = dir.path().join("m.bin");
    std::fs::write(&plain, &zst).unwrap();
    let o = objlint(&["seal", "--mode", "nop", s(&plain), "-o", s(&plain)]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("compressed"), "{}", stderr(&o));
    let again = dir.path().join(".").join("m.bin");
    let o = objlint(&["seal", "--mode", "nop", s(&plain), "-o", s(&again)]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));

    // An output name with a compressed extension, whatever the input.
    for out in ["new.ko.zst", "new.ko.xz", "new.ko.gz", "NEW.O.ZST"] {
        let out = dir.path().join(out);
        for input in [&m, &fixture("symtab/seal_x86.o")] {
            let o = objlint(&["seal", "--mode", "nop", s(input), "-o", s(&out)]);
            let err = stderr(&o);
            assert_eq!(o.status.code(), Some(2), "{err}");
            assert!(
                err.contains(s(&out)) && err.contains("uncompressed"),
                "{err}"
            );
            assert!(!out.exists());
        }
    }
    assert_eq!(std::fs::read(&m).unwrap(), zst);
    assert_eq!(std::fs::read(&plain).unwrap(), zst);
    assert_eq!(names(dir.path()), ["m.bin", "m.ko.zst"]);

    // Sealing a compressed module into an uncompressed object still works.
    let out = dir.path().join("m.ko");
    let o = objlint(&["seal", "--mode", "nop", s(&m), "-o", s(&out)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_sealed_x86(&out);
}

#[test]
fn stale_temporary_files_of_killed_runs_are_removed() {
    let dir = tempfile::tempdir().unwrap();
    let f = copy_to(dir.path(), "symtab/seal_x86.o", "x.o");
    // A process id that is gone: a child that has been waited for.
    let mut child = Command::new("true").spawn().unwrap();
    let dead = child.id();
    child.wait().unwrap();
    let stale = [
        format!(".x.o.objlint-{dead}-0.tmp"),
        format!(".other.ko.objlint-{dead}-3.tmp"),
    ];
    // A live process's file, and names that only look alike, stay.
    let keep = [
        format!(".x.o.objlint-{}-0.tmp", std::process::id()),
        ".x.o.objlint-abc-0.tmp".to_string(),
        format!("x.o.objlint-{dead}-0.tmp"),
        format!(".x.o.objlint-{dead}-0.tmp.orig"),
    ];
    for n in stale.iter().chain(&keep) {
        std::fs::write(dir.path().join(n), b"partial").unwrap();
    }
    let o = objlint(&["seal", "--mode", "nop", "--in-place", s(&f)]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(err.contains("removed 2 temporary file(s)"), "{err}");
    let mut want: Vec<String> = keep.to_vec();
    want.push("x.o".into());
    want.sort();
    assert_eq!(names(dir.path()), want);
    assert_sealed_x86(&f);

    // With nothing left to seal the file is not rewritten, but stale files go.
    std::fs::write(dir.path().join(&stale[0]), b"partial").unwrap();
    let o = objlint(&["seal", "--mode", "nop", "--in-place", s(&f)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("removed 1 temporary file(s)"),
        "{}",
        stderr(&o)
    );
    assert_eq!(names(dir.path()), want);
}

/// Wait for a child at most `limit`, killing it after.
fn wait_output(mut c: std::process::Child, limit: Duration) -> Output {
    let t = Instant::now();
    while c.try_wait().unwrap().is_none() {
        if t.elapsed() > limit {
            c.kill().unwrap();
            panic!("objlint did not finish in {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    c.wait_with_output().unwrap()
}

fn spawn_seal(f: &Path) -> std::process::Child {
    Command::new(BIN)
        .args(["seal", "--mode", "nop", "--in-place", s(f)])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

#[test]
fn concurrent_in_place_seals_take_turns() {
    let dir = tempfile::tempdir().unwrap();

    // While another holds the lock, seal waits, and says so.
    let f = copy_to(dir.path(), "symtab/seal_x86.o", "held.o");
    let holder = std::fs::File::open(&f).unwrap();
    holder.lock().unwrap();
    let mut c = spawn_seal(&f);
    std::thread::sleep(Duration::from_millis(700));
    assert!(
        c.try_wait().unwrap().is_none(),
        "seal did not wait for the lock"
    );
    assert_eq!(
        std::fs::read(&f).unwrap(),
        std::fs::read(fixture("symtab/seal_x86.o")).unwrap()
    );
    drop(holder);
    let o = wait_output(c, Duration::from_secs(60));
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(err.contains("waiting") && err.contains("3 sealed"), "{err}");
    assert_sealed_x86(&f);

    // Two runs at once: one seals, the other then finds nothing to do.
    for round in 0..3 {
        let f = copy_to(dir.path(), "symtab/seal_x86.o", &format!("both{round}.o"));
        let (a, b) = (spawn_seal(&f), spawn_seal(&f));
        let outs = [
            wait_output(a, Duration::from_secs(60)),
            wait_output(b, Duration::from_secs(60)),
        ];
        let errs: Vec<String> = outs.iter().map(stderr).collect();
        for o in &outs {
            assert_eq!(o.status.code(), Some(0), "{errs:?}");
        }
        let sealing = errs.iter().filter(|e| e.contains("3 sealed")).count();
        let idle = errs.iter().filter(|e| e.contains("left unchanged")).count();
        assert_eq!((sealing, idle), (1, 1), "{errs:?}");
        assert_sealed_x86(&f);
    }
    assert!(temp_files(dir.path()).is_empty(), "{:?}", names(dir.path()));
}

#[test]
fn non_regular_files_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe.o");
    let ok = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(ok.success());
    let input = fixture("symtab/seal_x86.o");
    // A FIFO as output would be replaced by a regular file; as input it blocks.
    for args in [
        vec!["seal", "--mode", "nop", s(&input), "-o", s(&fifo)],
        vec![
            "seal",
            "--mode",
            "nop",
            s(&fifo),
            "-o",
            "/nonexistent/out.o",
        ],
        vec!["seal", "--mode", "nop", "--in-place", s(&fifo)],
    ] {
        let c = Command::new(BIN)
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let o = wait_output(c, Duration::from_secs(30));
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("not a regular file"), "{}", stderr(&o));
        assert!(
            std::fs::symlink_metadata(&fifo)
                .unwrap()
                .file_type()
                .is_fifo()
        );
    }
    assert_eq!(names(dir.path()), ["pipe.o"]);
}

#[test]
fn read_only_folder_is_a_clear_error_and_leaves_nothing() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let ro = dir.path().join("ro");
    std::fs::create_dir(&ro).unwrap();
    let f = copy_to(&ro, "symtab/seal_x86.o", "x.o");
    std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o555)).unwrap();
    // root writes anyway: nothing to test then.
    let probe = ro.join("probe");
    if std::fs::write(&probe, b"").is_ok() {
        std::fs::remove_file(&probe).unwrap();
        std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o755)).unwrap();
        eprintln!("skipped: the folder is writable anyway (root)");
        return;
    }
    let o = objlint(&["seal", "--mode", "nop", "--in-place", s(&f)]);
    std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o755)).unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("x.o"), "{}", stderr(&o));
    assert_eq!(names(&ro), ["x.o"]);
    assert_eq!(
        std::fs::read(&f).unwrap(),
        std::fs::read(fixture("symtab/seal_x86.o")).unwrap()
    );
}

// Section header fields: offset in the header, width.
const SH_NAME: usize = 0;
const SH_TYPE: usize = 4;
const SH_FLAGS: usize = 8;
const SH_OFFSET: usize = 24;
const SH_SIZE: usize = 32;
const SH_LINK: usize = 40;
const SH_INFO: usize = 44;
const SH_ADDRALIGN: usize = 48;
const SH_ENTSIZE: usize = 56;

fn shoff(d: &[u8]) -> usize {
    u64::from_le_bytes(d[0x28..0x30].try_into().unwrap()) as usize
}

fn set_shdr(d: &mut [u8], sec: usize, field: usize, width: usize, v: u64) {
    let p = shoff(d) + 64 * sec + field;
    d[p..p + width].copy_from_slice(&v.to_le_bytes()[..width]);
}

/// `data` with `n` more sections of one byte each (the first byte of
/// section 1), aligned to `align`; the section table moves to the end.
fn with_extra_sections(data: &[u8], n: usize, align: u64) -> Vec<u8> {
    let nsec = u16::from_le_bytes(data[0x3c..0x3e].try_into().unwrap()) as usize;
    let table = data[shoff(data)..shoff(data) + 64 * nsec].to_vec();
    let text_off = u64::from_le_bytes(table[64 + 24..64 + 32].try_into().unwrap());
    let mut d = data.to_vec();
    d.resize(d.len().next_multiple_of(8), 0);
    let new_shoff = d.len();
    d.extend_from_slice(&table);
    for _ in 0..n {
        let mut h = [0u8; 64];
        h[4..8].copy_from_slice(&1u32.to_le_bytes()); // SHT_PROGBITS
        h[24..32].copy_from_slice(&text_off.to_le_bytes());
        h[32..40].copy_from_slice(&1u64.to_le_bytes());
        h[48..56].copy_from_slice(&align.to_le_bytes());
        d.extend_from_slice(&h);
    }
    d[0x28..0x30].copy_from_slice(&(new_shoff as u64).to_le_bytes());
    d[0x3c..0x3e].copy_from_slice(&((nsec + n) as u16).to_le_bytes());
    d
}

/// Seal every way; whatever the header says, an error or a verified result.
fn seal_every_way(d: &[u8]) -> usize {
    let Ok(obj) = Object::parse(d) else {
        return 0;
    };
    let mut ok = 0;
    for mode in [SealMode::Nop, SealMode::Section] {
        for link in [false, true] {
            if let Ok(sealed) = seal_object(&obj, mode, link)
                && verify_sealed(&obj, &sealed.rewritten.bytes, &sealed).is_ok()
            {
                Object::parse(&sealed.rewritten.bytes).unwrap();
                ok += 1;
            }
        }
    }
    ok
}

#[test]
fn mutated_headers_never_panic() {
    for f in ["symtab/seal_x86.o", "symtab/seal_arm64.o"] {
        let data = std::fs::read(fixture(f)).unwrap();
        let nsec = Object::parse(&data).unwrap().sections.len() as u64;
        let values = [
            0,
            1,
            2,
            3,
            8,
            17,
            18,
            nsec - 1,
            nsec,
            0xff00,
            0xffff,
            data.len() as u64,
            u32::MAX as u64,
            1 << 34,
            1 << 63,
            u64::MAX,
        ];
        let fields = [
            (SH_NAME, 4),
            (SH_TYPE, 4),
            (SH_FLAGS, 8),
            (SH_OFFSET, 8),
            (SH_SIZE, 8),
            (SH_LINK, 4),
            (SH_INFO, 4),
            (SH_ADDRALIGN, 8),
            (SH_ENTSIZE, 8),
        ];
        let mut sealed = 0;
        for sec in 0..nsec as usize {
            for &(field, width) in &fields {
                for &v in &values {
                    let mut d = data.clone();
                    set_shdr(&mut d, sec, field, width, v);
                    sealed += seal_every_way(&d);
                }
            }
        }
        // The section name table index, and each symbol's st_shndx and st_info.
        for v in [0u64, 1, nsec - 1, nsec, 0xff00, 0xffff] {
            let mut d = data.clone();
            d[0x3e..0x40].copy_from_slice(&(v as u16).to_le_bytes());
            sealed += seal_every_way(&d);
        }
        let obj = Object::parse(&data).unwrap();
        let st = &obj.sections[obj.symtab.unwrap()];
        let (off, n) = (st.offset as usize, st.size as usize / 24);
        for i in 0..n {
            for v in [0u16, 1, 0xff00, 0xfff1, 0xfff2, 0xffff, nsec as u16] {
                let mut d = data.clone();
                d[off + 24 * i + 6..off + 24 * i + 8].copy_from_slice(&v.to_le_bytes());
                sealed += seal_every_way(&d);
            }
            for v in [0u8, 0x03, 0x12, 0x13] {
                let mut d = data.clone();
                d[off + 24 * i + 4] = v;
                sealed += seal_every_way(&d);
            }
        }
        assert!(sealed > 0, "{f}: no variant sealed at all");
    }
}

/// One model serves every way of sealing (the seal fuzz target builds it
/// once): `seal_model` writes byte for byte what `seal_object` writes, in
/// both modes, with and without --link, whatever order they run in.
#[test]
fn one_model_seals_as_a_fresh_one_does() {
    use objlint::config::Profile;
    use objlint::model::Model;
    use objlint::rules::Rules;
    use objlint::seal::{seal_model_as, seal_object_as};
    // As kernel code: the fixtures carry no kernel section to be detected
    // by, and user space refuses --mode section.
    let kernel = Some(Profile::Kernel);
    for f in [
        "symtab/seal_x86.o",
        "symtab/seal_arm64.o",
        "landing/fnptr-ibt.o",
    ] {
        let bytes = std::fs::read(fixture(f)).unwrap();
        let obj = Object::parse(&bytes).unwrap();
        let model = Model::build(&obj, Rules::builtin_shared());
        for mode in [SealMode::Section, SealMode::Nop] {
            for link in [true, false] {
                let fresh = seal_object_as(&obj, mode, link, kernel).unwrap();
                let shared = seal_model_as(&model, mode, link, kernel).unwrap();
                assert_eq!(
                    fresh.rewritten.bytes, shared.rewritten.bytes,
                    "{f} {mode:?} link={link}"
                );
                assert_eq!(fresh.sealed, shared.sealed, "{f}");
            }
        }
    }
}

/// `seal --rules DIR` reads its policy as every subcommand reads rules: a
/// `seal.toml` there replaces the built-in one (here, the section's name).
#[test]
fn seal_reads_seal_toml_from_the_rules_folder() {
    let dir = tempfile::tempdir().unwrap();
    let rules = dir.path().join("rules");
    std::fs::create_dir(&rules).unwrap();
    let ours = std::fs::read_to_string(root().join("rules/seal.toml")).unwrap();
    std::fs::write(
        rules.join("seal.toml"),
        ours.replace("\".ibt_endbr_seal\"", "\".my_endbr_seal\""),
    )
    .unwrap();
    let input = fixture("symtab/seal_x86.o");
    for (extra, want) in [(None, ".ibt_endbr_seal"), (Some(&rules), ".my_endbr_seal")] {
        let out = dir.path().join("out.o");
        let mut a = vec!["seal", "--mode", "section", "--profile", "kernel"];
        if let Some(r) = extra {
            a.extend(["--rules", s(r)]);
        }
        a.extend([s(&input), "-o", s(&out)]);
        let o = objlint(&a);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let bytes = std::fs::read(&out).unwrap();
        let obj = Object::parse(&bytes).unwrap();
        assert!(!obj.sections_named(want).is_empty(), "{want} missing");
    }
    // A bad seal.toml is a usage error, as any bad rule file is.
    std::fs::write(rules.join("seal.toml"), "[section]\n").unwrap();
    let out = dir.path().join("bad.o");
    let o = objlint(&[
        "seal",
        "--mode",
        "nop",
        "--rules",
        s(&rules),
        s(&input),
        "-o",
        s(&out),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("seal.toml"), "{}", stderr(&o));
    assert!(!out.exists());
}
