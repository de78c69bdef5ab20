//! Findings as LSP diagnostics, grouped by the file they point into: the
//! source line DWARF maps them to (a header for inlined code), or the
//! translation unit's first line when the object has no line information.

use super::{location, target_location};
use crate::compdb::Unit;
use crate::paths::normalize;
use crate::report::object::ObjectReport;
use crate::rules::Severity;
use lsp_types::{
    CodeDescription, Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity, Location,
    NumberOrString, Position, Range, Uri,
};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// Where `codeDescription` links: a template with `{rule}` for the rule id.
pub type DocsLink<'a> = Option<&'a str>;

/// Diagnostics of one object's findings, per absolute source path.
/// `unit` is the translation unit the object was built from.
pub fn diagnostics(
    rep: &ObjectReport,
    unit: &Unit,
    docs: DocsLink,
) -> BTreeMap<PathBuf, Vec<Diagnostic>> {
    let mut out: BTreeMap<PathBuf, Vec<Diagnostic>> = BTreeMap::new();
    let object_name = unit
        .object
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    for f in &rep.findings {
        let severity = match f.severity {
            Severity::Off => continue,
            Severity::Note => DiagnosticSeverity::INFORMATION,
            Severity::Warning => DiagnosticSeverity::WARNING,
            Severity::Error => DiagnosticSeverity::ERROR,
        };
        let site = location(f.symbol.as_deref(), f.symbol_offset, &f.section, f.offset);
        let (path, range) = match &f.source {
            Some(s) if s.line > 0 => {
                let p = normalize(&unit.directory.join(&s.file));
                let r = line_range(&p, s.line - 1, s.column);
                (p, r)
            }
            _ => (unit.source.clone(), Range::default()),
        };
        let mut message = format!("{}\n{object_name}: {site}", f.message);
        for n in &f.notes {
            message.push('\n');
            message.push_str(n);
        }
        let related = f.target.as_ref().map(|t| {
            vec![DiagnosticRelatedInformation {
                location: Location::new(file_uri(&unit.object), Range::default()),
                message: format!("target {} in {object_name}", target_location(t)),
            }]
        });
        let code_description = docs
            .and_then(|d| Uri::from_str(&d.replace("{rule}", f.rule)).ok())
            .map(|href| CodeDescription { href });
        // The fix travels with the diagnostic; the code action reads it back.
        let data = f
            .fix
            .as_ref()
            .map(|x| serde_json::json!({ "fix": { "key": x.key, "name": x.name } }));
        out.entry(path).or_default().push(Diagnostic {
            range,
            severity: Some(severity),
            code: Some(NumberOrString::String(f.rule.to_string())),
            code_description,
            source: Some("objlint".into()),
            message,
            related_information: related,
            tags: None,
            data,
        });
    }
    out
}

/// The range from DWARF's (1-based byte) column, or the first non-blank
/// character, to the end of line `line` (0-based), in UTF-16 units as LSP
/// counts by default. Without the file, an empty range at the column.
fn line_range(path: &Path, line: u32, column: u32) -> Range {
    let text = std::fs::read(path).ok();
    let Some(l) = text
        .as_deref()
        .and_then(|t| t.split(|&b| b == b'\n').nth(line as usize))
    else {
        let c = column.saturating_sub(1);
        return Range::new(Position::new(line, c), Position::new(line, c));
    };
    let l = String::from_utf8_lossy(l);
    let l = l.trim_end_matches('\r');
    let start_byte = if column > 0 {
        (column as usize - 1).min(l.len())
    } else {
        l.len() - l.trim_start().len()
    };
    let utf16 = |s: &str| s.encode_utf16().count() as u32;
    let start = l.get(..start_byte).map_or(0, utf16);
    Range::new(Position::new(line, start), Position::new(line, utf16(l)))
}

/// `file://` URI of an absolute path, percent-encoding all but unreserved
/// characters and `/`.
pub fn file_uri(path: &Path) -> Uri {
    use std::os::unix::ffi::OsStrExt;
    let mut s = String::from("file://");
    for &b in path.as_os_str().as_bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~".contains(&b) {
            s.push(b as char);
        } else {
            s.push_str(&format!("%{b:02X}"));
        }
    }
    Uri::from_str(&s).expect("percent-encoded file URI is valid")
}

/// The path of a `file://` URI (`file:///p` or `file://localhost/p`).
pub fn uri_path(uri: &Uri) -> Option<PathBuf> {
    use std::os::unix::ffi::OsStringExt;
    let rest = uri.as_str().strip_prefix("file://")?;
    let rest = rest.strip_prefix("localhost").unwrap_or(rest);
    if !rest.starts_with('/') {
        return None;
    }
    let b = rest.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        match (
            b[i],
            b.get(i + 1).copied().and_then(hex),
            b.get(i + 2).copied().and_then(hex),
        ) {
            (b'%', Some(h), Some(l)) => {
                out.push((h * 16 + l) as u8);
                i += 3;
            }
            (c, _, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    Some(normalize(Path::new(&std::ffi::OsString::from_vec(out))))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::{Finding, SourceLoc, Target};

    fn finding(source: Option<SourceLoc>, target: Option<Target>) -> Finding {
        Finding {
            rule: "fallthrough",
            severity: Severity::Warning,
            section_index: 1,
            section: ".text".into(),
            offset: 0x14,
            symbol: Some("f".into()),
            symbol_offset: 4,
            message: "f() falls through to next function g()".into(),
            target,
            notes: vec!["a note".into()],
            context: Vec::new(),
            source,
            path: None,
            path_omitted: 0,
            fix: None,
            cause: None,
        }
    }

    #[test]
    fn diagnostics_per_file_with_ranges_and_target() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::create_dir_all(d.join("inc")).unwrap();
        std::fs::write(d.join("inc/h.h"), "x\n\tcall(\"ä\");\n").unwrap();
        let unit = Unit {
            source: d.join("a.c"),
            object: d.join("out/a.o"),
            directory: d.join("out"),
        };
        let target = Target {
            section_index: 1,
            section: ".text".into(),
            offset: 0x20,
            symbol: Some("g".into()),
            symbol_offset: 0,
        };
        let rep = ObjectReport {
            file: "a.o".into(),
            findings: vec![
                finding(
                    Some(SourceLoc {
                        file: "../inc/h.h".into(),
                        line: 2,
                        column: 0,
                    }),
                    Some(target),
                ),
                finding(None, None),
            ],
            ..Default::default()
        };
        let got = diagnostics(&rep, &unit, Some("https://d/{rule}"));
        let files: Vec<_> = got.keys().cloned().collect();
        assert_eq!(files, [d.join("a.c"), d.join("inc/h.h")]);
        let h = &got[&d.join("inc/h.h")][0];
        // Tab skipped; "ä" is one UTF-16 unit but two bytes.
        assert_eq!(
            h.range,
            Range::new(Position::new(1, 1), Position::new(1, 11))
        );
        assert_eq!(h.severity, Some(DiagnosticSeverity::WARNING));
        assert_eq!(
            h.message,
            "f() falls through to next function g()\na.o: f+0x4\na note"
        );
        assert_eq!(
            h.code_description.as_ref().unwrap().href.as_str(),
            "https://d/fallthrough"
        );
        let rel = &h.related_information.as_ref().unwrap()[0];
        assert_eq!(rel.location.uri, file_uri(&d.join("out/a.o")));
        assert_eq!(rel.message, "target g+0x0 in a.o");
        let c = &got[&d.join("a.c")][0];
        assert_eq!(c.range, Range::default());
        assert!(c.related_information.is_none());
    }

    #[test]
    fn uri_round_trip() {
        let p = Path::new("/tmp/a b/ü%x.c");
        let u = file_uri(p);
        assert_eq!(u.as_str(), "file:///tmp/a%20b/%C3%BC%25x.c");
        assert_eq!(uri_path(&u).as_deref(), Some(p));
        let u = Uri::from_str("file://localhost/x/./y.c").unwrap();
        assert_eq!(uri_path(&u).as_deref(), Some(Path::new("/x/y.c")));
    }
}
