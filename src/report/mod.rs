//! Renderers: one per output format, behind one trait. Nothing else knows a format.

pub mod fingerprint;
pub mod human;
pub mod json;
pub mod lsp;
pub mod man;
pub mod object;
pub mod objtool;
pub mod progress;
pub mod rules_md;
pub mod sarif;
pub mod short;
pub mod stats;
pub mod timings;

use crate::report::object::ObjectReport;
pub use codespan_reporting::term::termcolor::ColorChoice;
use std::io::{self, Write};

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Human,
    Short,
    Json,
    /// SARIF 2.1.0, one log for the whole run.
    Sarif,
    /// objtool's lines: `file: warning: objtool: sym+0xoff: message`.
    Objtool,
}

/// Writes findings in one format. `object` is called once per object, in
/// input order (also for objects that could not be read: `rep.error` is set
/// and there are no findings); `finish` once at the end.
pub trait Emitter {
    fn object(&mut self, rep: &ObjectReport, w: &mut dyn Write) -> io::Result<()>;
    fn finish(&mut self, _w: &mut dyn Write) -> io::Result<()> {
        Ok(())
    }
}

impl Format {
    /// The name `--format` takes.
    pub fn name(self) -> &'static str {
        match self {
            Format::Human => "human",
            Format::Short => "short",
            Format::Json => "json",
            Format::Sarif => "sarif",
            Format::Objtool => "objtool",
        }
    }
}

/// `Err(usage message)` when `format` is not among those `subcommand` renders.
pub fn require_format(
    subcommand: &str,
    format: Option<Format>,
    supported: &[Format],
) -> Result<(), String> {
    match format {
        Some(f) if !supported.contains(&f) => {
            let names: Vec<&str> = supported.iter().map(|f| f.name()).collect();
            Err(format!(
                "{subcommand} cannot write --format {}; it writes {}",
                f.name(),
                names.join(", ")
            ))
        }
        _ => Ok(()),
    }
}

/// `--color`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum ColorWhen {
    /// Colour on a terminal, unless NO_COLOR or TERM=dumb; CLICOLOR_FORCE forces it.
    #[default]
    Auto,
    Always,
    Never,
}

/// Whether to colour output on stdout: the one place that decides.
pub fn use_color(when: ColorWhen, stdout_is_terminal: bool) -> bool {
    color_choice_with(when, stdout_is_terminal, |k| std::env::var_os(k)) != ColorChoice::Never
}

fn color_choice_with(
    when: ColorWhen,
    stdout_is_terminal: bool,
    var: impl Fn(&str) -> Option<std::ffi::OsString>,
) -> ColorChoice {
    let value = |k: &str| var(k).filter(|v| !v.is_empty());
    match when {
        ColorWhen::Always => ColorChoice::Always,
        ColorWhen::Never => ColorChoice::Never,
        // NO_COLOR wins over CLICOLOR_FORCE, as in anstream (cargo, clap).
        ColorWhen::Auto if value("NO_COLOR").is_some() => ColorChoice::Never,
        ColorWhen::Auto if value("CLICOLOR_FORCE").is_some_and(|v| v != "0") => ColorChoice::Always,
        ColorWhen::Auto if stdout_is_terminal && value("TERM").is_none_or(|t| t != "dumb") => {
            ColorChoice::Always
        }
        ColorWhen::Auto => ColorChoice::Never,
    }
}

pub fn emitter(format: Format, color: bool) -> Box<dyn Emitter> {
    emitter_for(format, color, &crate::rules::Rules::builtin(), None)
}

/// An emitter that documents `rules` (SARIF lists them in the log), linking
/// each to `docs` (a URL template, `{rule}` for the id) where given.
pub fn emitter_for(
    format: Format,
    color: bool,
    rules: &crate::rules::Rules,
    docs: Option<&str>,
) -> Box<dyn Emitter> {
    match format {
        Format::Human => Box::new(human::Human::new(color)),
        Format::Short => Box::new(short::Short),
        Format::Json => Box::new(json::Json),
        Format::Sarif => Box::new(sarif::Sarif::new(rules, docs)),
        Format::Objtool => Box::new(objtool::Objtool),
    }
}

/// Where rule documentation is when no config says: docs/RULES.md of this
/// version in the package's repository (Cargo.toml `repository`), if set.
pub fn default_rules_doc_url() -> Option<String> {
    let repo = env!("CARGO_PKG_REPOSITORY").trim_end_matches('/');
    (!repo.is_empty()).then(|| {
        format!(
            "{repo}/blob/v{}/docs/RULES.md#{{rule}}",
            env!("CARGO_PKG_VERSION")
        )
    })
}

/// A rule documentation URL template: absolute (a scheme, then `:`), no
/// spaces.
pub fn is_doc_url(u: &str) -> bool {
    let scheme = u.split_once(':').map_or("", |(s, _)| s);
    !scheme.is_empty()
        && scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
        && !u.contains(char::is_whitespace)
}

/// `file:line:column`, or `file:line` when the column is unknown.
pub fn source_position(s: &crate::checks::SourceLoc) -> String {
    position(&s.file, s.line, s.column)
}

fn position(file: &str, line: u32, column: u32) -> String {
    if column == 0 {
        format!("{file}:{line}")
    } else {
        format!("{file}:{line}:{column}")
    }
}

/// The source file as found from the working directory (so an editor opens
/// it), else as DWARF names it.
pub fn source_file_from_here(object_file: &str, source_file: &str) -> String {
    crate::source::find_on_disk(object_file, source_file).map_or_else(
        || source_file.to_string(),
        |p| p.to_string_lossy().into_owned(),
    )
}

/// [`source_position`] with the file as found from here.
pub fn source_position_from_here(object_file: &str, s: &crate::checks::SourceLoc) -> String {
    position(
        &source_file_from_here(object_file, &s.file),
        s.line,
        s.column,
    )
}

/// `sym+0xoff`, or `section+0xoff` outside any symbol.
/// A place named as the renderers name it.
pub fn target_location(t: &crate::checks::Target) -> String {
    location(t.symbol.as_deref(), t.symbol_offset, &t.section, t.offset)
}

pub fn location(symbol: Option<&str>, symbol_offset: u64, section: &str, offset: u64) -> String {
    match symbol {
        Some(s) => format!("{s}+{symbol_offset:#x}"),
        None => format!("{section}+{offset:#x}"),
    }
}

#[cfg(test)]
mod tests {
    use super::{ColorChoice, ColorWhen, color_choice_with};
    use std::ffi::OsString;

    fn choice(when: ColorWhen, tty: bool, env: &[(&str, &str)]) -> ColorChoice {
        color_choice_with(when, tty, |k| {
            env.iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| OsString::from(v))
        })
    }

    #[test]
    fn color_follows_the_terminal_and_the_environment() {
        use ColorChoice::{Always, Never};
        use ColorWhen::Auto;
        assert_eq!(choice(Auto, true, &[]), Always);
        assert_eq!(choice(Auto, false, &[]), Never);
        assert_eq!(choice(Auto, true, &[("TERM", "dumb")]), Never);
        assert_eq!(choice(Auto, true, &[("NO_COLOR", "1")]), Never);
        assert_eq!(choice(Auto, true, &[("NO_COLOR", "")]), Always);
        assert_eq!(choice(Auto, false, &[("CLICOLOR_FORCE", "1")]), Always);
        assert_eq!(choice(Auto, false, &[("CLICOLOR_FORCE", "0")]), Never);
        assert_eq!(choice(Auto, false, &[("CLICOLOR_FORCE", "")]), Never);
        let both = [("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")];
        assert_eq!(choice(Auto, true, &both), Never);
        assert_eq!(
            choice(ColorWhen::Always, false, &[("NO_COLOR", "1")]),
            Always
        );
        assert_eq!(
            choice(ColorWhen::Never, true, &[("CLICOLOR_FORCE", "1")]),
            Never
        );
    }
}
