//! objtool's line shape, `file: warning: objtool: sym+0xoff: message`, one
//! line per finding and nothing else, so scripts that grep objtool's output
//! work on objlint's. objtool says `warning:` whatever the severity; so does
//! this (the exit status still tells errors). Places outside any symbol are
//! `section+0xoff`, as objtool names them.

use super::{Emitter, location};
use crate::report::object::ObjectReport;
use std::io::{self, Write};

pub struct Objtool;

impl Emitter for Objtool {
    fn object(&mut self, rep: &ObjectReport, w: &mut dyn Write) -> io::Result<()> {
        for f in &rep.findings {
            let loc = location(f.symbol.as_deref(), f.symbol_offset, &f.section, f.offset);
            writeln!(w, "{}: warning: objtool: {loc}: {}", rep.file, f.message)?;
        }
        Ok(())
    }
}
