//! `file: sym+0xoff: severity: message [rule]`, one line per finding, as
//! compilers print, so editors' error parsers and build logs work. When DWARF
//! maps the site to a source line, ` (file:line:column)` follows `[rule]`.

use super::{Emitter, location};
use crate::engine::ObjectReport;
use std::io::{self, Write};

pub struct Short;

impl Emitter for Short {
    fn object(&mut self, rep: &ObjectReport, w: &mut dyn Write) -> io::Result<()> {
        for f in &rep.findings {
            let loc = location(f.symbol.as_deref(), f.symbol_offset, &f.section, f.offset);
            write!(
                w,
                "{}: {loc}: {}: {} [{}]",
                rep.file,
                f.severity.name(),
                f.message,
                f.rule
            )?;
            match &f.source {
                Some(s) => writeln!(w, " ({})", super::source_position(s))?,
                None => writeln!(w)?,
            }
        }
        Ok(())
    }
}
