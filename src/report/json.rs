//! JSON Lines: one finding per line (the contract in DESIGN.md), then one
//! record per object. Every record carries `schema_version` and `type`, and
//! every field its type documents: one that is unknown or does not apply is
//! `null`, never left out (docs/objlint.schema.json is the contract).

use super::Emitter;
use crate::report::object::ObjectReport;
use serde_json::{Map, Value, json};
use std::io::{self, Write};

/// The version of docs/objlint.schema.json the records follow. Raised when
/// a field changes meaning or goes away; new fields keep it.
pub const SCHEMA_VERSION: u32 = 1;

pub struct Json;

/// A record of `kind`: the version, the type, then `fields`.
pub fn record(kind: &str, fields: Value) -> Value {
    let mut m = Map::new();
    m.insert("schema_version".into(), json!(SCHEMA_VERSION));
    m.insert("type".into(), json!(kind));
    if let Value::Object(f) = fields {
        m.extend(f);
    }
    Value::Object(m)
}

/// A place in the object: a finding's target, an edge's ends. Outside any
/// symbol, `symbol` and `symbol_offset` are null.
fn place(t: &crate::checks::Target) -> Value {
    json!({
        "section": t.section,
        "offset": t.offset,
        "symbol": t.symbol,
        "symbol_offset": t.symbol.as_ref().map(|_| t.symbol_offset),
    })
}

pub fn finding_value(rep: &ObjectReport, f: &crate::checks::Finding) -> Value {
    let path = f.path.as_ref().map(|path| {
        path.iter()
            .map(|p| json!({ "from": place(&p.from), "to": place(&p.to), "edge": p.edge }))
            .collect::<Vec<_>>()
    });
    let v = json!({
        "rule": f.rule,
        "severity": f.severity.name(),
        "file": rep.file,
        "arch": rep.arch.map(|a| a.name()),
        "section": f.section,
        "offset": f.offset,
        "symbol": f.symbol,
        "symbol_offset": f.symbol.as_ref().map(|_| f.symbol_offset),
        "message": f.message,
        "source": f.source.as_ref().map(|s| json!({
            "file": s.file,
            "line": s.line,
            "column": (s.column > 0).then_some(s.column),
        })),
        "target": f.target.as_ref().map(place),
        "notes": f.notes,
        "cause": f.cause,
        "path": path,
        "path_omitted": f.path.as_ref().map(|_| f.path_omitted),
        "fix": f.fix.as_ref().map(|x| json!({ "key": x.key, "name": x.name })),
    });
    record("finding", v)
}

/// The record that closes an object's findings: what was checked, what
/// was not (the causes of its analysis-incomplete findings), or why the
/// object could not be read.
pub fn object_value(rep: &ObjectReport) -> Value {
    let read = rep.error.is_none();
    let causes: Vec<&str> = rep.findings.iter().filter_map(|f| f.cause).collect();
    record(
        "object",
        json!({
            "file": rep.file,
            "arch": rep.arch.map(|a| a.name()),
            "functions": read.then_some(rep.functions),
            "findings": read.then_some(rep.findings.len()),
            "incomplete": read.then_some(causes),
            "error": rep.error,
        }),
    )
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
