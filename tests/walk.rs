//! Directory walks report what they cannot read: a folder that cannot be
//! listed, and an object in a folder that can be listed but not entered
//! (which the walk once dropped without a word). Permissions do not bind
//! root, so as root the run drops to `nobody` with util-linux's setpriv.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;

fn chmod(p: &Path, mode: u32) {
    std::fs::set_permissions(p, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// objlint, as an unprivileged user when this runs as root.
fn objlint_unprivileged(args: &[&str]) -> Option<std::process::Output> {
    let bin = env!("CARGO_BIN_EXE_objlint");
    let root = unsafe { libc::geteuid() } == 0;
    let mut c = if root {
        let mut c = Command::new("setpriv");
        c.args([
            "--reuid=65534",
            "--regid=65534",
            "--clear-groups",
            "--",
            bin,
        ]);
        c
    } else {
        Command::new(bin)
    };
    let out = c.args(args).current_dir("/").output().ok()?;
    // No setpriv, or not allowed to use it here.
    if root && out.status.code() != Some(1) && out.status.code() != Some(2) {
        return None;
    }
    Some(out)
}

#[test]
fn unreadable_entries_are_reported() {
    let t = tempfile::tempdir().unwrap();
    let tree = t.path().join("tree");
    for d in ["open", "noexec", "closed"] {
        std::fs::create_dir_all(tree.join(d)).unwrap();
    }
    let obj = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/examples/fallthrough-dwarf.o");
    for d in ["open", "noexec", "closed"] {
        std::fs::copy(&obj, tree.join(d).join("a.o")).unwrap();
        chmod(&tree.join(d).join("a.o"), 0o644);
    }
    chmod(t.path(), 0o755);
    chmod(&tree, 0o755);
    chmod(&tree.join("open"), 0o755);
    // Listed but not entered: the names are there, the files cannot be opened.
    chmod(&tree.join("noexec"), 0o644);
    // Not even listed.
    chmod(&tree.join("closed"), 0o000);
    let Some(out) = objlint_unprivileged(&["check", "--format", "short", tree.to_str().unwrap()])
    else {
        eprintln!("skipped: cannot run as an unprivileged user");
        return;
    };
    chmod(&tree.join("noexec"), 0o755);
    chmod(&tree.join("closed"), 0o755);
    let err = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(2), "{err}");
    let t = tree.display();
    assert!(
        err.contains(&format!("objlint: {t}/closed: Permission denied")),
        "{err}"
    );
    assert!(
        err.contains(&format!("objlint: {t}/noexec/a.o: Permission denied")),
        "{err}"
    );
    assert!(err.contains(", 2 unreadable, "), "{err}");
    // The readable object is still checked.
    assert_eq!(stdout.matches("[fallthrough]").count(), 2, "{stdout}");
    assert!(stdout.contains(&format!("{t}/open/a.o")), "{stdout}");
}
