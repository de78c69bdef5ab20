//! `file: sym+0xoff: severity: message [rule]`, one line per finding, as
//! compilers print, so editors' error parsers and build logs work.

use super::{Emitter, location};
use crate::engine::ObjectReport;
use std::io::{self, Write};

pub struct Short;

impl Emitter for Short {
    fn object(&mut self, rep: &ObjectReport, w: &mut dyn Write) -> io::Result<()> {
        for f in &rep.findings {
            let loc = location(f.symbol.as_deref(), f.symbol_offset, &f.section, f.offset);
            writeln!(
                w,
                "{}: {loc}: {}: {} [{}]",
                rep.file,
                f.severity.name(),
                f.message,
                f.rule
            )?;
        }
        Ok(())
    }
}
