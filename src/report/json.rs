//! JSON Lines: one finding per line (the contract in DESIGN.md), then one
//! record per object.

use super::Emitter;
use crate::engine::ObjectReport;
use serde_json::{Value, json};
use std::io::{self, Write};

pub struct Json;

/// A place in the object: a finding's target, an edge's ends.
fn place(t: &crate::checks::Target) -> Value {
    json!({
        "section": t.section,
        "offset": t.offset,
        "symbol": t.symbol,
        "symbol_offset": t.symbol_offset,
    })
}

pub fn finding_value(rep: &ObjectReport, f: &crate::checks::Finding) -> Value {
    let mut v = json!({
        "type": "finding",
        "rule": f.rule,
        "severity": f.severity.name(),
        "file": rep.file,
        "arch": rep.arch.map(|a| a.name()),
        "section": f.section,
        "offset": f.offset,
        "symbol": f.symbol,
        "symbol_offset": f.symbol_offset,
        "message": f.message,
    });
    if let Some(c) = f.cause {
        v["cause"] = json!(c);
    }
    if let Some(t) = &f.target {
        v["target"] = place(t);
    }
    if let Some(s) = &f.source {
        v["source"] = json!({ "file": s.file, "line": s.line, "column": s.column });
    }
    if !f.notes.is_empty() {
        v["notes"] = json!(f.notes);
    }
    if let Some(path) = &f.path {
        v["path"] = path
            .iter()
            .map(|p| json!({ "from": place(&p.from), "to": place(&p.to), "edge": p.edge }))
            .collect();
        if f.path_omitted > 0 {
            v["path_omitted"] = json!(f.path_omitted);
        }
    }
    v
}

/// The record that closes an object's findings: what was checked, what
/// was not (the causes of its analysis-incomplete findings), or why the
/// object could not be read.
pub fn object_value(rep: &ObjectReport) -> Value {
    let mut v = json!({
        "type": "object",
        "file": rep.file,
        "arch": rep.arch.map(|a| a.name()),
    });
    match &rep.error {
        Some(e) => v["error"] = json!(e),
        None => {
            let causes: Vec<&str> = rep.findings.iter().filter_map(|f| f.cause).collect();
            v["functions"] = json!(rep.functions);
            v["findings"] = json!(rep.findings.len());
            v["incomplete"] = json!(causes);
        }
    }
    v
}

impl Emitter for Json {
    fn object(&mut self, rep: &ObjectReport, w: &mut dyn Write) -> io::Result<()> {
        for f in &rep.findings {
            serde_json::to_writer(&mut *w, &finding_value(rep, f))?;
            w.write_all(b"\n")?;
        }
        serde_json::to_writer(&mut *w, &object_value(rep))?;
        w.write_all(b"\n")
    }
}
