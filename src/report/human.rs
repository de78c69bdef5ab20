//! codespan-reporting diagnostics. The snippet is the source line when DWARF
//! maps the site and the file is on disk, the disassembly around the site
//! otherwise; either way the offending place is labelled.

use super::{Emitter, location, source_position, target_location};
use crate::checks::Finding;
use crate::report::object::ObjectReport;
use crate::rules::Severity;
use codespan_reporting::diagnostic::{Diagnostic, Label, LabelStyle, Severity as CsSeverity};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::termcolor::{self, WriteColor};
use codespan_reporting::term::{self, Chars, Config, Styles, StylesWriter};
use std::collections::HashMap;
use std::io::{self, Write};
use std::ops::Range;
use std::path::PathBuf;
use std::rc::Rc;

#[derive(Default)]
pub struct Human {
    pub color: bool,
    /// Source files read so far (`None`: not readable as text).
    sources: HashMap<PathBuf, Option<Rc<str>>>,
}

impl Human {
    pub fn new(color: bool) -> Human {
        Human {
            color,
            sources: HashMap::new(),
        }
    }

    fn read(&mut self, path: PathBuf) -> Option<Rc<str>> {
        self.sources
            .entry(path)
            .or_insert_with_key(|p| std::fs::read_to_string(p).ok().map(Rc::from))
            .clone()
    }

    /// The source file and the range of the mapped line in it.
    fn source_snippet(
        &mut self,
        rep: &ObjectReport,
        f: &Finding,
    ) -> Option<(String, Rc<str>, Range<usize>)> {
        let s = f.source.as_ref()?;
        let path = crate::source::find_on_disk(&rep.file, &s.file)?;
        let text = self.read(path.clone())?;
        let range = line_range(&text, s.line, s.column)?;
        Some((path.display().to_string(), text, range))
    }
}

/// Byte range of line `line` (1-based) from `column` (1-based, 0 = start) to
/// its end, trailing blanks left out; `None` past the end of the file.
fn line_range(text: &str, line: u32, column: u32) -> Option<Range<usize>> {
    let start = if line <= 1 {
        0
    } else {
        text.match_indices('\n').nth(line as usize - 2)?.0 + 1
    };
    if start >= text.len() && line > 1 {
        return None;
    }
    let rest = &text[start..];
    let end = start + rest.find('\n').unwrap_or(rest.len());
    let body = text[start..end].trim_end();
    let indent = body.len() - body.trim_start().len();
    let mut from = start + indent;
    if column > 1 {
        let c = start + column as usize - 1;
        if c < start + body.len() && text.is_char_boundary(c) {
            from = c;
        }
    }
    Some(from..(start + body.len()).max(from))
}

/// The path that led to the finding, one edge a line.
fn path_note(path: &[crate::checks::PathStep], omitted: usize) -> String {
    if path.is_empty() {
        return "path: straight from the entry, no branch taken".to_string();
    }
    let n = path.len() + omitted;
    let mut s = format!(
        "path from the entry ({n} edge{}{}):",
        if n == 1 { "" } else { "s" },
        if omitted > 0 {
            format!(", the last {} shown", path.len())
        } else {
            String::new()
        }
    );
    for p in path {
        s.push_str(&format!(
            "\n  {} → {} ({})",
            target_location(&p.from),
            target_location(&p.to),
            p.edge
        ));
    }
    s
}

/// Lines of context after `line`, fewer when they would need a wider line
/// number: codespan-reporting sizes the gutter by the labelled lines only.
fn context_after(line: u32, want: usize) -> usize {
    let mut widest = 9u64;
    while widest < u64::from(line) {
        widest = widest * 10 + 9;
    }
    want.min((widest - u64::from(line)) as usize)
}

/// The disassembly snippet of a finding without a source line: a header
/// that names the object and section (no `:line:column`, since there are no
/// lines), section offsets in the gutter as objdump prints them, the
/// instruction the finding is about marked, then the notes. Drawn with
/// codespan-reporting's characters and styles so it reads like its
/// source snippets.
struct Disassembly<'a> {
    severity: CsSeverity,
    code: &'a str,
    message: &'a str,
    /// What the snippet is: `disassembly of SECTION in FILE`.
    origin: String,
    lines: &'a [crate::checks::Line],
    notes: &'a [String],
}

impl Disassembly<'_> {
    fn render(&self, w: &mut dyn WriteColor, styles: &Styles, chars: &Chars) -> io::Result<()> {
        let gutter: Vec<String> = self
            .lines
            .iter()
            .map(|l| format!("{:#x}", l.offset))
            .collect();
        let pad = gutter.iter().map(String::len).max().unwrap_or(0);
        let bar = |w: &mut dyn WriteColor| -> io::Result<()> {
            w.set_color(&styles.source_border)?;
            write!(w, "{}", chars.source_border_left)?;
            w.reset()
        };
        let border = |w: &mut dyn WriteColor| -> io::Result<()> {
            write!(w, "{:pad$} ", "")?;
            bar(w)
        };
        // error[rule]: message
        w.set_color(styles.header(self.severity))?;
        write!(w, "{}[{}]", severity_name(self.severity), self.code)?;
        w.set_color(&styles.header_message)?;
        write!(w, ": {}", self.message)?;
        w.reset()?;
        writeln!(w)?;
        if !self.lines.is_empty() {
            //    ┌─ disassembly of .text in drv.o
            write!(w, "{:pad$} ", "")?;
            w.set_color(&styles.source_border)?;
            write!(w, "{}", chars.snippet_start)?;
            w.reset()?;
            writeln!(w, " {}", self.origin)?;
            border(w)?;
            writeln!(w)?;
            for (l, at) in self.lines.iter().zip(&gutter) {
                // 0x10 │ call ...
                w.set_color(&styles.line_number)?;
                write!(w, "{at:>pad$}")?;
                w.reset()?;
                write!(w, " ")?;
                bar(w)?;
                writeln!(w, " {}", l.text.trim_end())?;
                if l.primary {
                    //      │ ^^^^ here
                    border(w)?;
                    write!(w, " ")?;
                    w.set_color(styles.label(self.severity, LabelStyle::Primary))?;
                    let carets: String = std::iter::repeat_n(
                        chars.single_primary_caret,
                        l.text.trim_end().chars().count().max(1),
                    )
                    .collect();
                    write!(w, "{carets} here")?;
                    w.reset()?;
                    writeln!(w)?;
                }
            }
            if !self.notes.is_empty() {
                border(w)?;
                writeln!(w)?;
            }
        }
        //      = note
        for note in self.notes {
            for (i, line) in note.lines().enumerate() {
                write!(w, "{:pad$} ", "")?;
                if i == 0 {
                    w.set_color(&styles.note_bullet)?;
                    write!(w, "{}", chars.note_bullet)?;
                    w.reset()?;
                } else {
                    write!(w, " ")?;
                }
                writeln!(w, " {line}")?;
            }
        }
        writeln!(w)
    }
}

fn severity_name(s: CsSeverity) -> &'static str {
    match s {
        CsSeverity::Bug => "bug",
        CsSeverity::Error => "error",
        CsSeverity::Warning => "warning",
        CsSeverity::Help => "help",
        CsSeverity::Note => "note",
    }
}

impl Emitter for Human {
    fn object(&mut self, rep: &ObjectReport, w: &mut dyn Write) -> io::Result<()> {
        for f in &rep.findings {
            let loc = location(f.symbol.as_deref(), f.symbol_offset, &f.section, f.offset);
            let sev = match f.severity {
                Severity::Error => CsSeverity::Error,
                Severity::Note => CsSeverity::Note,
                _ => CsSeverity::Warning,
            };
            let message = format!("{loc}: {}", f.message);
            let mut notes = Vec::new();
            let source = self.source_snippet(rep, f);
            match &source {
                Some(_) => {
                    let insn = f
                        .context
                        .iter()
                        .find(|l| l.primary)
                        .map_or(String::new(), |l| format!(": {}", l.text));
                    notes.push(format!("in {} {} at {loc}{insn}", rep.file, f.section));
                }
                None => {
                    if let Some(s) = &f.source {
                        notes.push(format!("source: {}", source_position(s)));
                    }
                }
            }
            notes.extend(f.notes.iter().cloned());
            if let Some(t) = &f.target {
                notes.push(format!("target: {}", target_location(t)));
            }
            if let Some(path) = &f.path {
                notes.push(path_note(path, f.path_omitted));
            }
            let styles = Styles::default();
            let mut buf = if self.color {
                termcolor::Buffer::ansi()
            } else {
                termcolor::Buffer::no_color()
            };
            match source {
                Some((name, text, range)) => {
                    let config = Config {
                        before_label_lines: 6,
                        after_label_lines: f
                            .source
                            .as_ref()
                            .map_or(2, |s| context_after(s.line, 2)),
                        ..Config::default()
                    };
                    let file = SimpleFile::new(name, &*text);
                    let d = Diagnostic::new(sev)
                        .with_message(message)
                        .with_code(f.rule)
                        .with_labels(vec![Label::primary((), range).with_message("here")])
                        .with_notes(notes);
                    term::emit_to_write_style(
                        &mut StylesWriter::new(&mut buf, &styles),
                        &config,
                        &file,
                        &d,
                    )
                    .map_err(io::Error::other)?;
                }
                None => Disassembly {
                    severity: sev,
                    code: f.rule,
                    message: &message,
                    origin: format!("disassembly of {} in {}", f.section, rep.file),
                    lines: &f.context,
                    notes: &notes,
                }
                .render(&mut buf, &styles, &Config::default().chars)?,
            }
            w.write_all(buf.as_slice())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::{Human, context_after, line_range};
    use crate::checks::{Finding, Line, SourceLoc};
    use crate::report::Emitter;
    use crate::report::object::ObjectReport;
    use crate::rules::Severity;

    fn finding(source: Option<SourceLoc>) -> Finding {
        let line = |offset: u64, text: &str, primary: bool| Line {
            offset,
            text: text.to_string(),
            primary,
        };
        Finding {
            rule: "fallthrough",
            severity: Severity::Error,
            section_index: 2,
            section: ".text.inlined".into(),
            offset: 0x10,
            symbol: Some("inlined".into()),
            symbol_offset: 0x10,
            message: "inlined() falls through past the end of section .text.inlined".into(),
            target: None,
            notes: vec!["the last instruction calls fixture_die\nsecond line".into()],
            context: vec![
                line(0x4, "test    %edi,%edi", false),
                line(0x6, "jle     0x0000000000000010", false),
                line(0x10, "call    0x0000000000000015  <fixture_die>", true),
            ],
            source,
            path: None,
            path_omitted: 0,
            cause: None,
            fix: None,
        }
    }

    fn render(f: Finding) -> String {
        let rep = ObjectReport {
            file: "drv.o".into(),
            findings: vec![f],
            ..Default::default()
        };
        let mut out = Vec::new();
        Human::new(false).object(&rep, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    /// Disassembly is not source: the header names the section and object
    /// (no `:line:column`), the gutter holds section offsets, not line
    /// numbers of nothing.
    #[test]
    fn disassembly_snippet_has_offsets_in_the_gutter() {
        let src = SourceLoc {
            file: "/nonexistent/die.h".into(),
            line: 11,
            column: 3,
        };
        assert_eq!(
            render(finding(Some(src))),
            "\
error[fallthrough]: inlined+0x10: inlined() falls through past the end of section .text.inlined
     ┌─ disassembly of .text.inlined in drv.o
     │
 0x4 │ test    %edi,%edi
 0x6 │ jle     0x0000000000000010
0x10 │ call    0x0000000000000015  <fixture_die>
     │ ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ here
     │
     = source: /nonexistent/die.h:11:3
     = the last instruction calls fixture_die
       second line

"
        );
    }

    #[test]
    fn colored_disassembly_snippet() {
        let rep = ObjectReport {
            file: "drv.o".into(),
            findings: vec![finding(None)],
            ..Default::default()
        };
        let mut out = Vec::new();
        Human::new(true).object(&rep, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("\x1b["), "{text:?}");
        // The same text under the colours.
        let plain: String = strip_sgr(&text);
        assert_eq!(plain, render(finding(None)));
    }

    fn strip_sgr(s: &str) -> String {
        let mut out = String::new();
        let mut it = s.chars();
        while let Some(c) = it.next() {
            if c == '\x1b' {
                for d in it.by_ref() {
                    if d == 'm' {
                        break;
                    }
                }
            } else {
                out.push(c);
            }
        }
        out
    }

    /// A source line keeps codespan's own snippet, with real line numbers.
    #[test]
    fn source_snippet_has_line_numbers() {
        let dir = tempfile::tempdir().unwrap();
        let h = dir.path().join("die.h");
        // Line 6 is the empty one after the last newline.
        std::fs::write(&h, "a\nb\nif (x <= 0)\n\tfixture_die();\nz\n").unwrap();
        let src = SourceLoc {
            file: h.display().to_string(),
            line: 4,
            column: 2,
        };
        let text = render(finding(Some(src)));
        let want = format!(
            "\
error[fallthrough]: inlined+0x10: inlined() falls through past the end of section .text.inlined
  ┌─ {}:4:2
  │
1 │ a
2 │ b
3 │ if (x <= 0)
4 │     fixture_die();
  │     ^^^^^^^^^^^^^^ here
5 │ z
6 │ 
  │
  = in drv.o .text.inlined at inlined+0x10: call    0x0000000000000015  <fixture_die>
  = the last instruction calls fixture_die
    second line

",
            h.display()
        );
        assert_eq!(text, want);
    }

    #[test]
    fn context_keeps_the_gutter_width() {
        assert_eq!(context_after(8, 2), 1);
        assert_eq!(context_after(9, 2), 0);
        assert_eq!(context_after(10, 2), 2);
        assert_eq!(context_after(98, 2), 1);
        assert_eq!(context_after(1, 2), 2);
    }

    #[test]
    fn line_ranges() {
        let t = "a\n\tfoo(1);  \nlast";
        assert_eq!(&t[line_range(t, 1, 0).unwrap()], "a");
        assert_eq!(&t[line_range(t, 2, 0).unwrap()], "foo(1);");
        assert_eq!(&t[line_range(t, 2, 5).unwrap()], "(1);");
        assert_eq!(&t[line_range(t, 3, 0).unwrap()], "last");
        assert!(line_range(t, 4, 0).is_none());
        // A column past the end of the line falls back to the line.
        assert_eq!(&t[line_range(t, 2, 40).unwrap()], "foo(1);");
    }
}
