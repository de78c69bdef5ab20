//! Man pages: clap_mangen's sections, then EXIT STATUS, ENVIRONMENT, FILES
//! and EXAMPLES, which clap knows nothing of.

use std::io::{self, Write};

/// (section title, paragraphs); a paragraph starting with `$ ` is a command
/// shown as typed, the next paragraph says what it does.
const SECTIONS: &[(&str, &[&str])] = &[
    (
        "EXIT STATUS",
        &[
            "0: no finding at error level (warnings may have been printed).",
            "1: at least one finding at error level, or at warning level under --deny-warnings or deny_warnings = true in objlint.toml.",
            "2: an input could not be read, no objects were found in the paths, or the command line, the config file or the baseline is wrong. A bad input never stops the others from being checked.",
        ],
    ),
    (
        "ENVIRONMENT",
        &[
            "NO_COLOR: when set and not empty, human output is not coloured under --color auto (the default), even where CLICOLOR_FORCE is set.",
            "CLICOLOR_FORCE: when set and not 0, human output is coloured under --color auto even when stdout is not a terminal.",
            "TERM: dumb turns colour off under --color auto.",
            "--color always and --color never override all three. No other variable changes what objlint does.",
        ],
    ),
    (
        "FILES",
        &[
            "objlint.toml: the configuration (severities, ignores per file and symbol, extra noreturn and uaccess-safe names, rules_doc_url, ...). Each object is checked under the objlint.toml nearest above it, else the one found from the working directory upward; --config FILE names one for all.",
            "rules/*.toml: the built-in policy lists and rule documentation, compiled in; --rules DIR or rules_dir in objlint.toml replace them file by file.",
            "compile_commands.json: how objlint lsp and objlint precommit find the object a source is built into (the workspace or repository root, then build/, or --build-dir).",
            "A baseline file (--baseline, --write-baseline): accepted findings as JSON, safe to commit.",
        ],
    ),
    (
        "EXAMPLES",
        &[
            "$ objlint check build/",
            "Check every object under build/ (.o, .ko, .ko.xz, .ko.zst, .a); exit 1 on errors.",
            "$ objlint check --format short --enable uaccess-call,uaccess-return drivers/foo.o",
            "Only the user-access rules, one line per finding, as compilers print (Vim's quickfix and Emacs' compilation-mode read it).",
            "$ objlint check --link --mitigations retpoline,rethunk,sls vmlinux.o",
            "A linked whole built with speculation mitigations.",
            "$ objlint check --format sarif build/ > objlint.sarif",
            "A SARIF 2.1.0 log for code-scanning services.",
            "$ objlint check --write-baseline objlint-baseline.json build/ && objlint check --baseline objlint-baseline.json build/",
            "Record today's findings, then report only new ones.",
            "$ objlint rules --explain fallthrough",
            "What a rule checks, why it matters and how to fix its findings.",
            "$ objlint completions bash > /etc/bash_completion.d/objlint",
            "Shell completion, rule ids after --enable, --disable and --explain included.",
        ],
    ),
];

/// Text safe in roff: backslashes and hyphens escaped, no leading control
/// character.
fn roff(s: &str) -> String {
    let t = s.replace('\\', "\\e").replace('-', "\\-");
    if t.starts_with(['.', '\'']) {
        format!("\\&{t}")
    } else {
        t
    }
}

/// The man page of `cmd`.
pub fn render(mut cmd: clap::Command, w: &mut dyn Write) -> io::Result<()> {
    // As clap_mangen does: the generated --help and --version count.
    cmd.build();
    let has_options = cmd.get_arguments().any(|a| !a.is_hide_set());
    let has_subcommands = cmd.has_subcommands();
    let has_version = cmd.get_version().is_some();
    let man = clap_mangen::Man::new(cmd);
    man.render_title(w)?;
    man.render_name_section(w)?;
    man.render_synopsis_section(w)?;
    man.render_description_section(w)?;
    if has_options {
        man.render_options_section(w)?;
    }
    if has_subcommands {
        man.render_subcommands_section(w)?;
    }
    for (title, paras) in SECTIONS {
        writeln!(w, ".SH \"{title}\"")?;
        for p in *paras {
            match p.strip_prefix("$ ") {
                Some(command) => writeln!(w, ".TP\n\\fB{}\\fR", roff(command))?,
                None if *title == "EXAMPLES" => writeln!(w, "{}", roff(p))?,
                None => writeln!(w, ".PP\n{}", roff(p))?,
            }
        }
    }
    if has_version {
        man.render_version_section(w)?;
    }
    Ok(())
}
