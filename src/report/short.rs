//! One line per finding, as compilers print, so editors' error parsers (Vim's
//! quickfix with its default errorformat, Emacs compilation-mode) and build
//! logs work. When DWARF maps the site to a source line the line leads with it
//! and the object place follows in parentheses:
//! `src.c:line:column: severity: message [rule] (file: sym+0xoff)`;
//! otherwise `file: sym+0xoff: severity: message [rule]`.

use super::{Emitter, location, source_position_from_here};
use crate::report::object::ObjectReport;
use std::io::{self, Write};

pub struct Short;

impl Emitter for Short {
    fn object(&mut self, rep: &ObjectReport, w: &mut dyn Write) -> io::Result<()> {
        for f in &rep.findings {
            let loc = location(f.symbol.as_deref(), f.symbol_offset, &f.section, f.offset);
            let (sev, msg, rule) = (f.severity.name(), &f.message, f.rule);
            match &f.source {
                Some(s) => {
                    let pos = source_position_from_here(&rep.file, s);
                    writeln!(w, "{pos}: {sev}: {msg} [{rule}] ({}: {loc})", rep.file)?
                }
                None => writeln!(w, "{}: {loc}: {sev}: {msg} [{rule}]", rep.file)?,
            }
        }
        Ok(())
    }
}
