//! codespan-reporting diagnostics. The snippet is the source line when DWARF
//! maps the site and the file is on disk, the disassembly around the site
//! otherwise; either way the offending place is labelled.

use super::{Emitter, location, source_position, target_location};
use crate::checks::Finding;
use crate::engine::ObjectReport;
use crate::rules::Severity;
use codespan_reporting::diagnostic::{Diagnostic, Label, Severity as CsSeverity};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{self, Config, Styles, StylesWriter, termcolor};
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

impl Emitter for Human {
    fn object(&mut self, rep: &ObjectReport, w: &mut dyn Write) -> io::Result<()> {
        for f in &rep.findings {
            let mut config = Config {
                before_label_lines: 6,
                after_label_lines: 2,
                ..Config::default()
            };
            let loc = location(f.symbol.as_deref(), f.symbol_offset, &f.section, f.offset);
            let primary_insn = f.context.iter().find(|l| l.primary);
            let mut notes = Vec::new();
            let (name, text, primary): (String, Rc<str>, Option<Range<usize>>) =
                match self.source_snippet(rep, f) {
                    Some((name, text, range)) => {
                        let insn = primary_insn.map_or(String::new(), |l| format!(": {}", l.text));
                        notes.push(format!("in {} {} at {loc}{insn}", rep.file, f.section));
                        if let Some(s) = &f.source {
                            config.after_label_lines = context_after(s.line, 2);
                        }
                        (name, text, Some(range))
                    }
                    None => {
                        let mut text = String::new();
                        let mut primary = None;
                        for l in &f.context {
                            let start = text.len();
                            text.push_str(&format!("{:>8x}:  {}\n", l.offset, l.text));
                            if l.primary {
                                primary = Some(start + 11..text.len() - 1);
                            }
                        }
                        if let Some(s) = &f.source {
                            notes.push(format!("source: {}", source_position(s)));
                        }
                        (
                            format!("{} {} ({})", rep.file, f.section, loc),
                            Rc::from(text),
                            primary,
                        )
                    }
                };
            let file = SimpleFile::new(name, &*text);
            let sev = match f.severity {
                Severity::Error => CsSeverity::Error,
                Severity::Note => CsSeverity::Note,
                _ => CsSeverity::Warning,
            };
            let mut d = Diagnostic::new(sev)
                .with_message(format!("{loc}: {}", f.message))
                .with_code(f.rule);
            if let Some(r) = primary {
                d = d.with_labels(vec![Label::primary((), r).with_message("here")]);
            }
            notes.extend(f.notes.iter().cloned());
            if let Some(t) = &f.target {
                notes.push(format!("target: {}", target_location(t)));
            }
            if let Some(path) = &f.path {
                notes.push(path_note(path, f.path_omitted));
            }
            d = d.with_notes(notes);
            let res = if self.color {
                let styles = Styles::default();
                let mut buf = termcolor::Buffer::ansi();
                let r = term::emit_to_write_style(
                    &mut StylesWriter::new(&mut buf, &styles),
                    &config,
                    &file,
                    &d,
                );
                w.write_all(buf.as_slice())?;
                r
            } else {
                term::emit_to_io_write(w, &config, &file, &d)
            };
            res.map_err(io::Error::other)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::{context_after, line_range};

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
