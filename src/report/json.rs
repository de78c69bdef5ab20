//! JSON Lines: one finding per line (the contract in DESIGN.md), then one
//! record per object. Every record carries `schema_version` and `type`; a
//! field that is unknown or does not apply is left out, never `null`
//! (docs/objlint.schema.json is the contract).

use super::Emitter;
use crate::engine::ObjectReport;
use serde_json::{Map, Value, json};
use std::io::{self, Write};

/// The version of docs/objlint.schema.json the records follow. Raised when
/// a field changes meaning or goes away; new optional fields keep it.
pub const SCHEMA_VERSION: u32 = 1;

pub struct Json;

/// A record of `kind` with the version first, then `fields`.
pub fn record(kind: &str, fields: Value) -> Value {
    let mut m = Map::new();
    m.insert("schema_version".into(), json!(SCHEMA_VERSION));
    m.insert("type".into(), json!(kind));
    if let Value::Object(f) = fields {
        m.extend(f);
    }
    without_nulls(Value::Object(m))
}

/// `v` with every `null` member of an object left out, at any depth.
fn without_nulls(v: Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            m.into_iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k, without_nulls(v)))
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.into_iter().map(without_nulls).collect()),
        v => v,
    }
}

/// `symbol` and `symbol_offset`, or neither outside any symbol.
fn put_symbol(v: &mut Value, symbol: Option<&str>, symbol_offset: u64) {
    if let Some(s) = symbol {
        v["symbol"] = json!(s);
        v["symbol_offset"] = json!(symbol_offset);
    }
}

/// A place in the object: a finding's target, an edge's ends.
fn place(t: &crate::checks::Target) -> Value {
    let mut v = json!({ "section": t.section, "offset": t.offset });
    put_symbol(&mut v, t.symbol.as_deref(), t.symbol_offset);
    v
}

pub fn finding_value(rep: &ObjectReport, f: &crate::checks::Finding) -> Value {
    let mut v = json!({
        "rule": f.rule,
        "severity": f.severity.name(),
        "file": rep.file,
        "arch": rep.arch.map(|a| a.name()),
        "section": f.section,
        "offset": f.offset,
    });
    put_symbol(&mut v, f.symbol.as_deref(), f.symbol_offset);
    v["message"] = json!(f.message);
    if let Some(c) = f.cause {
        v["cause"] = json!(c);
    }
    if let Some(t) = &f.target {
        v["target"] = place(t);
    }
    if let Some(s) = &f.source {
        let mut src = json!({ "file": s.file, "line": s.line });
        if s.column > 0 {
            src["column"] = json!(s.column);
        }
        v["source"] = src;
    }
    if !f.notes.is_empty() {
        v["notes"] = json!(f.notes);
    }
    if let Some(x) = &f.fix {
        v["fix"] = json!({ "key": x.key, "name": x.name });
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
    record("finding", v)
}

/// The record that closes an object's findings: what was checked, what
/// was not (the causes of its analysis-incomplete findings), or why the
/// object could not be read.
pub fn object_value(rep: &ObjectReport) -> Value {
    let mut v = json!({
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
    record("object", v)
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
