//! Renderers: one per output format, behind one trait. Nothing else knows a format.

pub mod human;
pub mod json;
pub mod lsp;
pub mod sarif;
pub mod short;
pub mod stats;
pub mod timings;

use crate::engine::ObjectReport;
use std::io::{self, Write};

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Human,
    Short,
    Json,
    /// SARIF 2.1.0, one log for the whole run.
    Sarif,
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

pub fn emitter(format: Format, color: bool) -> Box<dyn Emitter> {
    emitter_for(format, color, &crate::rules::Rules::builtin())
}

/// An emitter that documents `rules` (SARIF lists them in the log).
pub fn emitter_for(format: Format, color: bool, rules: &crate::rules::Rules) -> Box<dyn Emitter> {
    match format {
        Format::Human => Box::new(human::Human::new(color)),
        Format::Short => Box::new(short::Short),
        Format::Json => Box::new(json::Json),
        Format::Sarif => Box::new(sarif::Sarif::new(rules)),
    }
}

/// `file:line:column`, or `file:line` when the column is unknown.
pub fn source_position(s: &crate::checks::SourceLoc) -> String {
    if s.column == 0 {
        format!("{}:{}", s.file, s.line)
    } else {
        format!("{}:{}:{}", s.file, s.line, s.column)
    }
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
