//! Renderers: one per output format, behind one trait. Nothing else knows a format.

pub mod human;
pub mod json;
pub mod lsp;
pub mod short;
pub mod stats;

use crate::engine::ObjectReport;
use std::io::{self, Write};

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Human,
    Short,
    Json,
}

/// Writes findings in one format. `object` is called once per object, in
/// input order; `finish` once at the end.
pub trait Emitter {
    fn object(&mut self, rep: &ObjectReport, w: &mut dyn Write) -> io::Result<()>;
    fn finish(&mut self, _w: &mut dyn Write) -> io::Result<()> {
        Ok(())
    }
}

pub fn emitter(format: Format, color: bool) -> Box<dyn Emitter> {
    match format {
        Format::Human => Box::new(human::Human { color }),
        Format::Short => Box::new(short::Short),
        Format::Json => Box::new(json::Json),
    }
}

/// `sym+0xoff`, or `section+0xoff` outside any symbol.
pub fn location(symbol: Option<&str>, symbol_offset: u64, section: &str, offset: u64) -> String {
    match symbol {
        Some(s) => format!("{s}+{symbol_offset:#x}"),
        None => format!("{section}+{offset:#x}"),
    }
}
