//! codespan-reporting diagnostics; the snippet is the disassembly around the
//! site with the offending instruction labelled.

use super::{Emitter, location};
use crate::engine::ObjectReport;
use crate::rules::Severity;
use codespan_reporting::diagnostic::{Diagnostic, Label, Severity as CsSeverity};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{self, Config, Styles, StylesWriter, termcolor};
use std::io::{self, Write};

pub struct Human {
    pub color: bool,
}

impl Emitter for Human {
    fn object(&mut self, rep: &ObjectReport, w: &mut dyn Write) -> io::Result<()> {
        let config = Config {
            before_label_lines: 6,
            after_label_lines: 2,
            ..Config::default()
        };
        for f in &rep.findings {
            let mut text = String::new();
            let mut primary = None;
            for l in &f.context {
                let start = text.len();
                text.push_str(&format!("{:>8x}:  {}\n", l.offset, l.text));
                if l.primary {
                    primary = Some(start + 11..text.len() - 1);
                }
            }
            let loc = location(f.symbol.as_deref(), f.symbol_offset, &f.section, f.offset);
            let file = SimpleFile::new(format!("{} {} ({})", rep.file, f.section, loc), text);
            let sev = match f.severity {
                Severity::Error => CsSeverity::Error,
                _ => CsSeverity::Warning,
            };
            let mut d = Diagnostic::new(sev)
                .with_message(format!("{loc}: {}", f.message))
                .with_code(f.rule);
            if let Some(r) = primary {
                d = d.with_labels(vec![Label::primary((), r).with_message("here")]);
            }
            let mut notes = f.notes.clone();
            if let Some(t) = &f.target {
                notes.push(format!(
                    "target: {}",
                    location(t.symbol.as_deref(), t.symbol_offset, &t.section, t.offset)
                ));
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
