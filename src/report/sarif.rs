//! SARIF 2.1.0: one log for the whole run, written in `finish`.
//!
//! Each result has up to two locations: the source line when DWARF maps the
//! site (artifact = the source file, found on disk as `human` does, region =
//! line/column), and always the
//! object itself (artifact = the object, `address` = the offset in its
//! section, with the section as the address's parent in `run.addresses`).
//! The function is the logical location. A target (e.g. the function fallen
//! into) is a related location. Objects that could not be read are tool
//! execution notifications of the one invocation.

use super::{Emitter, location};
use crate::checks::Finding;
use crate::report::object::ObjectReport;
use crate::rules::{Rules, Severity};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::io::{self, Write};
use std::path::{Component, Path, PathBuf};

pub const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// The base relative artifact URIs are resolved against: the working
/// directory, named in `run.originalUriBaseIds`.
pub const SRCROOT: &str = "%SRCROOT%";

pub struct Sarif {
    rules: Vec<Value>,
    rule_index: HashMap<String, usize>,
    artifacts: Vec<Value>,
    artifact_index: HashMap<String, usize>,
    addresses: Vec<Value>,
    address_index: HashMap<(usize, String), usize>,
    results: Vec<Value>,
    /// Objects that could not be checked, as tool notifications.
    failures: Vec<Value>,
    /// What could not be checked (analysis-incomplete findings).
    notifications: Vec<Value>,
    /// The working directory, which relative paths are relative to.
    root: Option<PathBuf>,
    /// File offsets of the sections of the object being reported.
    section_offsets: Vec<Option<u64>>,
}

/// `{rule}` in a documentation URL template replaced by the rule id.
pub fn rule_doc_url(template: &str, rule: &str) -> String {
    template.replace("{rule}", rule)
}

/// A URI reference for a path: relative paths stay relative, absolute ones
/// become `file://` URIs; bytes outside the unreserved set are %-encoded.
pub fn path_uri(path: &str) -> String {
    let mut out = String::with_capacity(path.len() + 8);
    if path.starts_with('/') {
        out.push_str("file://");
    }
    for &b in path.as_bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/()+,;=@!$&'*".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

fn level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "note",
        Severity::Off => "none",
    }
}

impl Sarif {
    /// `docs`: the rules' documentation URL template (`{rule}` for the id),
    /// for `helpUri`.
    pub fn new(rules: &Rules, docs: Option<&str>) -> Sarif {
        let mut rule_index = HashMap::new();
        let rules: Vec<Value> = rules
            .docs
            .iter()
            .enumerate()
            .map(|(i, d)| {
                rule_index.insert(d.id.clone(), i);
                let mut help = format!(
                    "{}\n\n{}\n\nHow to fix:\n{}",
                    d.what.trim(),
                    d.why.trim(),
                    d.fix.trim()
                );
                let mut markdown = format!(
                    "{}\n\n## Why it matters\n{}\n\n## How to fix\n{}",
                    d.what.trim(),
                    d.why.trim(),
                    d.fix.trim()
                );
                if !d.example.trim().is_empty() {
                    let ex = d.example.trim_matches('\n');
                    help.push_str(&format!("\n\nExample:\n{ex}"));
                    markdown.push_str(&format!("\n\n## Example\n```\n{ex}\n```"));
                }
                // No `name`: SARIF wants one people read, different from the
                // id (the multitool's SARIF1001), and the id is that already.
                let mut r = json!({
                    "id": d.id,
                    "shortDescription": { "text": d.summary },
                    "fullDescription": { "text": d.what.trim() },
                    "help": { "text": help, "markdown": markdown },
                    "defaultConfiguration": { "level": level(d.severity) },
                    "properties": { "arch": d.arch, "tags": d.tags },
                });
                if let Some(t) = docs {
                    r["helpUri"] = json!(rule_doc_url(t, &d.id));
                }
                if let Some(s) = d.security_severity {
                    // GitHub reads a string holding a number.
                    r["properties"]["security-severity"] = json!(format!("{s:.1}"));
                }
                r
            })
            .collect();
        Sarif {
            rules,
            rule_index,
            artifacts: Vec::new(),
            artifact_index: HashMap::new(),
            addresses: Vec::new(),
            address_index: HashMap::new(),
            results: Vec::new(),
            failures: Vec::new(),
            notifications: Vec::new(),
            root: std::env::current_dir().ok(),
            section_offsets: Vec::new(),
        }
    }

    /// An artifact location for a path as objlint names it: relative to the
    /// working directory (`uriBaseId` %SRCROOT%) when it lies under it, else
    /// an absolute `file://` URI.
    fn artifact_location(&self, path: &str) -> Value {
        let p = Path::new(path);
        let Some(root) = &self.root else {
            return json!({ "uri": path_uri(path) });
        };
        let abs = crate::paths::normalize(&root.join(p));
        let rel = if p.is_absolute() || p.components().any(|c| c == Component::ParentDir) {
            abs.strip_prefix(root).ok().map(Path::to_path_buf)
        } else {
            Some(crate::paths::normalize(p))
        };
        match rel {
            Some(r) if !r.as_os_str().is_empty() => {
                json!({ "uri": path_uri(&r.to_string_lossy()), "uriBaseId": SRCROOT })
            }
            _ => json!({ "uri": path_uri(&abs.to_string_lossy()) }),
        }
    }

    fn artifact(&mut self, path: &str, roles: &str) -> usize {
        if let Some(&i) = self.artifact_index.get(path) {
            return i;
        }
        let i = self.artifacts.len();
        self.artifacts.push(json!({
            "location": self.artifact_location(path),
            "roles": [roles],
        }));
        self.artifact_index.insert(path.to_string(), i);
        i
    }

    /// The section as a top-level address of kind "section".
    fn section_address(&mut self, object: usize, section: &str) -> usize {
        let key = (object, section.to_string());
        if let Some(&i) = self.address_index.get(&key) {
            return i;
        }
        let i = self.addresses.len();
        self.addresses.push(json!({
            "index": i,
            "kind": "section",
            "name": section,
        }));
        self.address_index.insert(key, i);
        i
    }

    /// The object as artifact with the address `section+offset`, and the
    /// byte region of the place in the object.
    fn object_location(&mut self, object: usize, at: &crate::checks::Target) -> Value {
        let parent = self.section_address(object, &at.section);
        let name = location(
            at.symbol.as_deref(),
            at.symbol_offset,
            &at.section,
            at.offset,
        );
        let mut artifact = self.artifacts[object]["location"].clone();
        artifact["index"] = json!(object);
        let mut l = json!({
            "physicalLocation": {
                "artifactLocation": artifact,
                "address": {
                    "kind": "instruction",
                    "name": name,
                    "fullyQualifiedName": format!("{}+{:#x}", at.section, at.offset),
                    "relativeAddress": at.offset,
                    "offsetFromParent": at.offset,
                    "parentIndex": parent,
                },
            },
        });
        // An offset a damaged table gives can be past any file (a place
        // of -5): then no byte offset.
        if let Some(Some(base)) = self.section_offsets.get(at.section_index)
            && let Some(at) = base.checked_add(at.offset)
        {
            l["physicalLocation"]["region"] = json!({ "byteOffset": at });
        }
        l
    }

    fn result(&mut self, rep: &ObjectReport, f: &Finding) -> Value {
        let object = self.artifact(&rep.file, "analysisTarget");
        let site = site(f);
        let mut obj_loc = self.object_location(object, &site);
        let logical = f.symbol.as_ref().map(|s| {
            json!([{ "name": s, "kind": "function", "fullyQualifiedName": format!("{}!{s}", rep.file) }])
        });
        let mut locations = Vec::new();
        if let Some(s) = &f.source {
            // The file as found from here (like the object's path), else as DWARF names it.
            let path = super::source_file_from_here(&rep.file, &s.file);
            let src = self.artifact(&path, "resultFile");
            let mut region = json!({ "startLine": s.line });
            if s.column > 0 {
                region["startColumn"] = json!(s.column);
            }
            let mut artifact = self.artifacts[src]["location"].clone();
            artifact["index"] = json!(src);
            let mut l = json!({
                "physicalLocation": { "artifactLocation": artifact, "region": region },
            });
            if let Some(lg) = &logical {
                l["logicalLocations"] = lg.clone();
            }
            locations.push(l);
        }
        if let Some(lg) = logical {
            obj_loc["logicalLocations"] = lg;
        }
        locations.push(obj_loc);
        let mut r = json!({
            "ruleId": f.rule,
            "level": level(f.severity),
            "message": { "text": f.message },
            "locations": locations,
            "partialFingerprints": {
                "objlint/v1": super::fingerprint::fingerprint(&rep.file, f),
            },
            "properties": { "arch": rep.arch.map(|a| a.name()) },
        });
        if let Some(&i) = self.rule_index.get(f.rule) {
            r["ruleIndex"] = json!(i);
        }
        if let Some(t) = &f.target {
            let mut rl = self.object_location(object, t);
            rl["id"] = json!(1);
            rl["message"] = json!({ "text": "target" });
            r["relatedLocations"] = json!([rl]);
        }
        if !f.notes.is_empty() {
            r["properties"]["notes"] = json!(f.notes);
        }
        if f.path.as_ref().is_some_and(|p| !p.is_empty()) {
            r["codeFlows"] = json!([self.code_flow(object, f)]);
        }
        r
    }

    /// The path to a finding as a SARIF code flow: each edge's source, then
    /// the site.
    fn code_flow(&mut self, object: usize, f: &Finding) -> Value {
        let mut locations = Vec::new();
        for p in f.path.iter().flatten() {
            let mut l = self.object_location(object, &p.from);
            l["message"] = json!({
                "text": format!("{} to {}", p.edge, super::target_location(&p.to))
            });
            locations.push(json!({ "location": l }));
        }
        let mut site = self.object_location(object, &site(f));
        site["message"] = json!({ "text": f.message });
        locations.push(json!({ "location": site }));
        let mut flow = json!({ "threadFlows": [{ "locations": locations }] });
        if f.path_omitted > 0 {
            flow["message"] = json!({
                "text": format!(
                    "the last {} edges of the path; {} earlier not shown",
                    locations.len() - 1,
                    f.path_omitted
                )
            });
        }
        flow
    }

    /// The whole log.
    pub fn log(&self) -> Value {
        let bases = self.root.as_ref().map(|r| {
            let mut uri = path_uri(&r.to_string_lossy());
            if !uri.ends_with('/') {
                uri.push('/');
            }
            json!({ SRCROOT: { "uri": uri } })
        });
        let mut log = json!({
            "$schema": SCHEMA,
            "version": "2.1.0",
            "runs": [{
                "tool": {
                    "driver": {
                        "name": "objlint",
                        "version": env!("CARGO_PKG_VERSION"),
                        "semanticVersion": env!("CARGO_PKG_VERSION"),
                        "rules": self.rules,
                    },
                },
                "invocations": [{
                    "executionSuccessful": self.failures.is_empty(),
                    "toolExecutionNotifications": self.failures.iter().chain(&self.notifications).collect::<Vec<_>>(),
                }],
                "artifacts": self.artifacts,
                "addresses": self.addresses,
                "results": self.results,
                "columnKind": "unicodeCodePoints",
            }],
        });
        if let Some(b) = bases {
            log["runs"][0]["originalUriBaseIds"] = b;
        }
        let home = env!("CARGO_PKG_REPOSITORY");
        if !home.is_empty() {
            log["runs"][0]["tool"]["driver"]["informationUri"] = json!(home);
        }
        log
    }
}

impl Emitter for Sarif {
    fn object(&mut self, rep: &ObjectReport, _w: &mut dyn Write) -> io::Result<()> {
        self.section_offsets.clone_from(&rep.section_offsets);
        if let Some(e) = &rep.error {
            self.failures.push(json!({
                "level": "error",
                "message": { "text": format!("{}: {e}", rep.file) },
                "locations": [{ "physicalLocation": { "artifactLocation": self.artifact_location(&rep.file) } }],
            }));
        }
        for f in &rep.findings {
            let r = self.result(rep, f);
            if f.cause.is_some() {
                // Not checked is also how the run went.
                self.notifications.push(json!({
                    "level": "warning",
                    "descriptor": { "id": f.rule },
                    "message": r["message"],
                    "locations": r["locations"],
                    "properties": { "cause": f.cause },
                }));
            }
            self.results.push(r);
        }
        Ok(())
    }

    fn finish(&mut self, w: &mut dyn Write) -> io::Result<()> {
        serde_json::to_writer_pretty(&mut *w, &self.log())?;
        w.write_all(b"\n")
    }
}

/// A finding's own place.
fn site(f: &Finding) -> crate::checks::Target {
    crate::checks::Target {
        section_index: f.section_index,
        section: f.section.clone(),
        offset: f.offset,
        symbol: f.symbol.clone(),
        symbol_offset: f.symbol_offset,
    }
}

#[cfg(test)]
mod tests {
    use super::path_uri;

    #[test]
    fn uris() {
        assert_eq!(path_uri("a/b c.o"), "a/b%20c.o");
        assert_eq!(path_uri("/x/lib.a(m.o)"), "file:///x/lib.a(m.o)");
        assert_eq!(path_uri("ü.c"), "%C3%BC.c");
    }
}
