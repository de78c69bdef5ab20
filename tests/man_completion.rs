//! The man pages' own sections, read by groff as `man` does, and shell
//! completion of rule ids, run in bash as the shell runs it.

use std::path::Path;
use std::process::{Command, Stdio};

fn objlint(args: &[&str]) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_objlint"))
        .args(args)
        .output()
        .unwrap();
    assert!(o.status.success(), "{args:?}: {o:?}");
    String::from_utf8(o.stdout).unwrap()
}

/// groff's rendering of a man page, with its warnings (`-ww`) on stderr.
fn groff(page: &str) -> Option<(String, String)> {
    let mut child = Command::new("groff")
        .args(["-man", "-Tutf8", "-ww", "-P-cbou", "-rLL=200n"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .ok()?;
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(page.as_bytes())
        .unwrap();
    let o = child.wait_with_output().unwrap();
    // Drop the overstrike and SGR sequences of bold text.
    let plain = String::from_utf8_lossy(&o.stdout)
        .replace("\x1b[1m", "")
        .replace("\x1b[0m", "")
        .replace("\x1b[22m", "")
        .replace("\x1b[4m", "")
        .replace("\x1b[24m", "");
    Some((plain, String::from_utf8_lossy(&o.stderr).into_owned()))
}

#[test]
fn man_pages_have_exit_status_environment_files_examples() {
    for args in [&["man"][..], &["man", "check"]] {
        let page = objlint(args);
        let heads: Vec<&str> = page.lines().filter(|l| l.starts_with(".SH")).collect();
        let at = |h: &str| {
            heads
                .iter()
                .position(|l| l.contains(h))
                .unwrap_or_else(|| panic!("{args:?}: no {h} in {heads:?}"))
        };
        assert!(at("OPTIONS") < at("EXIT STATUS"));
        assert!(at("EXIT STATUS") < at("ENVIRONMENT"));
        assert!(at("ENVIRONMENT") < at("FILES"));
        assert!(at("FILES") < at("EXAMPLES"));
        assert!(at("EXAMPLES") < at("VERSION"));
        let Some((text, warnings)) = groff(&page) else {
            continue;
        };
        assert_eq!(warnings, "", "groff warns on {args:?}");
        for want in [
            "EXIT STATUS",
            "2: an input could not be read",
            "NO_COLOR: when set and not empty",
            "CLICOLOR_FORCE",
            "objlint.toml: the configuration",
            "objlint check --format sarif build/ > objlint.sarif",
            "objlint rules --explain fallthrough",
        ] {
            assert!(text.contains(want), "{args:?}: no {want:?} in\n{text}");
        }
    }
}

/// What bash completes for the words typed so far (the generated script's
/// `_objlint` called as `complete -F` calls it).
fn bash_complete(script: &Path, words: &[&str]) -> Option<Vec<String>> {
    let line = words.join(" ");
    let program = format!(
        "source {}\nCOMP_WORDS=({})\nCOMP_CWORD={}\nCOMP_LINE='{line}'\nCOMP_POINT=${{#COMP_LINE}}\n_objlint objlint '{}' '{}' 2>/dev/null\nprintf '%s\\n' \"${{COMPREPLY[@]}}\"\n",
        script.display(),
        words
            .iter()
            .map(|w| format!("'{w}'"))
            .collect::<Vec<_>>()
            .join(" "),
        words.len() - 1,
        words[words.len() - 1],
        words[words.len() - 2],
    );
    let o = Command::new("bash")
        .args(["--norc", "-c", &program])
        .output()
        .ok()?;
    Some(
        String::from_utf8(o.stdout)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect(),
    )
}

#[test]
fn bash_completes_rule_ids() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("objlint.bash");
    std::fs::write(&script, objlint(&["completions", "bash"])).unwrap();
    let Some(got) = bash_complete(&script, &["objlint", "check", "--enable", "fall"]) else {
        return; // no bash
    };
    assert_eq!(got, ["fallthrough"]);
    let got = bash_complete(&script, &["objlint", "check", "--disable", "uaccess-r"]).unwrap();
    assert_eq!(got, ["uaccess-return", "uaccess-redundant"]);
    let got = bash_complete(&script, &["objlint", "rules", "--explain", "symtab-"]).unwrap();
    assert_eq!(got, ["symtab-shndx", "symtab-changed"]);
    // Every rule is offered after --enable.
    let got = bash_complete(&script, &["objlint", "check", "--enable", ""]).unwrap();
    assert_eq!(got.len(), objlint::checks::ids().len());
    // Other shells' scripts carry the ids too.
    for shell in ["zsh", "fish"] {
        let s = objlint(&["completions", shell]);
        assert!(s.contains("stack-modified-sibling-call"), "{shell}");
    }
}

/// Offering ids does not make clap judge them: an unknown id still gets
/// objlint's own error with a suggestion, and `--help` stays short.
#[test]
fn unknown_rule_ids_keep_the_suggestion() {
    let o = Command::new(env!("CARGO_BIN_EXE_objlint"))
        .args(["check", "--enable", "fallthru", "testdata/examples"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("did you mean fallthrough?"), "{err}");
    let help = objlint(&["check", "--help"]);
    assert!(!help.contains("fallthrough"), "{help}");
}
