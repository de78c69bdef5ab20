//! Baselines: the findings a project has accepted, so that a check reports
//! only new ones (`--write-baseline FILE`, `--baseline FILE`).
//!
//! A finding is recorded by a fingerprint that survives unrelated rebuilds:
//! rule, object path, symbol and message, with what moves between builds
//! taken out (hex offsets and addresses, plain numbers, the numeric suffixes
//! of compiler clones such as `f.isra.0`, `f.cold.12`). Offsets, sections and
//! source lines are not part of it. Equal fingerprints are counted: a
//! baseline holding a fingerprint twice accepts two such findings, and a
//! third is new.

use crate::checks::Finding;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

pub const VERSION: u32 = 1;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    pub fingerprint: String,
    pub rule: String,
    pub file: String,
    pub symbol: Option<String>,
    /// The message with numbers normalised (what the fingerprint hashes).
    pub message: String,
    pub count: usize,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Baseline {
    pub version: u32,
    pub findings: Vec<Entry>,
}

/// Replace what changes between builds of the same code: `0x…` numbers,
/// decimal numbers that stand alone (not part of an identifier), and the
/// numbers of compiler clone suffixes (`.isra.0`, `.constprop.3`, `.cold.12`,
/// `.llvm.123`).
pub fn normalise(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        let prev_ident = i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_');
        if !prev_ident && b[i] == b'0' && matches!(b.get(i + 1), Some(b'x' | b'X')) {
            let mut j = i + 2;
            while j < b.len() && b[j].is_ascii_hexdigit() {
                j += 1;
            }
            if j > i + 2 {
                out.push_str("0x#");
                i = j;
                continue;
            }
        }
        if b[i].is_ascii_digit() && !prev_ident {
            let mut j = i;
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
            // `12abc` is part of a name, not a number.
            if !b
                .get(j)
                .is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_')
            {
                out.push('#');
                i = j;
                continue;
            }
        }
        let c = text[i..].chars().next().unwrap();
        out.push(c);
        i += c.len_utf8();
    }
    out
}

/// The object path as recorded: relative to `root` (the baseline file's
/// folder) when it lies below it, so a baseline works from any working
/// directory; archive members keep their `(member)`.
pub fn object_key(file: &str, root: Option<&Path>) -> String {
    let (path, member) = match file.strip_suffix(')').and_then(|s| s.rfind('(')) {
        Some(i) => (&file[..i], &file[i..]),
        None => (file, ""),
    };
    let p = Path::new(path);
    let rel = root.and_then(|r| {
        let abs = std::fs::canonicalize(p)
            .or_else(|_| std::path::absolute(p).map(|a| clean(&a)))
            .ok()?;
        Some(abs.strip_prefix(r).ok()?.to_path_buf())
    });
    let shown = rel.unwrap_or_else(|| clean(p));
    format!("{}{member}", shown.to_string_lossy())
}

/// Lexically drop `.` and resolve `..` where it can (`./a/b.o`, `a/../a/b.o`
/// and `a/b.o` are the same object).
fn clean(p: &Path) -> PathBuf {
    use std::path::Component;
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir
                if matches!(out.components().next_back(), Some(Component::Normal(_))) =>
            {
                out.pop();
            }
            c => out.push(c),
        }
    }
    out
}

/// 64-bit FNV-1a: stable across Rust versions and platforms, unlike `Hash`.
fn fnv1a(parts: &[&str]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for p in parts {
        for &c in p.as_bytes().iter().chain(std::iter::once(&0u8)) {
            h ^= u64::from(c);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

/// The baseline entry (count 1) of a finding in `file`.
pub fn entry(file: &str, f: &Finding, root: Option<&Path>) -> Entry {
    let file = object_key(file, root);
    let symbol = f.symbol.as_deref().map(normalise);
    let message = normalise(&f.message);
    let fp = fnv1a(&[f.rule, &file, symbol.as_deref().unwrap_or(""), &message]);
    Entry {
        fingerprint: format!("{fp:016x}"),
        rule: f.rule.to_string(),
        file,
        symbol,
        message,
        count: 1,
    }
}

/// Just the fingerprint (for SARIF's `partialFingerprints`).
pub fn fingerprint(file: &str, f: &Finding) -> String {
    entry(file, f, None).fingerprint
}

/// The folder a baseline file's object paths are relative to.
pub fn root_of(baseline_file: &Path) -> Option<PathBuf> {
    let abs = std::path::absolute(baseline_file).ok()?;
    std::fs::canonicalize(abs.parent()?).ok()
}

impl Baseline {
    /// Record findings: one entry per fingerprint, with its count; sorted.
    pub fn record<'a>(
        findings: impl IntoIterator<Item = (&'a str, &'a Finding)>,
        root: Option<&Path>,
    ) -> Baseline {
        let mut by_fp: BTreeMap<String, Entry> = BTreeMap::new();
        for (file, f) in findings {
            let e = entry(file, f, root);
            by_fp
                .entry(e.fingerprint.clone())
                .and_modify(|x| x.count += 1)
                .or_insert(e);
        }
        let mut findings: Vec<Entry> = by_fp.into_values().collect();
        findings.sort_by(|a, b| {
            (&a.file, &a.symbol, &a.rule, &a.message)
                .cmp(&(&b.file, &b.symbol, &b.rule, &b.message))
        });
        Baseline {
            version: VERSION,
            findings,
        }
    }

    pub fn read(path: &Path) -> Result<Baseline, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let b: Baseline =
            serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        if b.version != VERSION {
            return Err(format!(
                "{}: baseline version {} (this objlint writes {VERSION})",
                path.display(),
                b.version
            ));
        }
        Ok(b)
    }

    pub fn write(&self, path: &Path) -> Result<(), String> {
        let mut text = serde_json::to_string_pretty(self).map_err(|e| e.to_string())?;
        text.push('\n');
        std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// How many findings of each fingerprint are accepted.
    pub fn allowance(&self) -> HashMap<String, usize> {
        let mut m = HashMap::new();
        for e in &self.findings {
            *m.entry(e.fingerprint.clone()).or_insert(0) += e.count;
        }
        m
    }
}

/// Removes baselined findings from per-object lists, in order: the first
/// `count` findings of a fingerprint are accepted, later ones are new.
pub struct Filter {
    left: HashMap<String, usize>,
    root: Option<PathBuf>,
    /// Findings removed so far.
    pub suppressed: usize,
}

impl Filter {
    pub fn new(b: &Baseline, root: Option<PathBuf>) -> Filter {
        Filter {
            left: b.allowance(),
            root,
            suppressed: 0,
        }
    }

    /// Keep only the findings of `file` that the baseline does not accept.
    pub fn retain_new(&mut self, file: &str, findings: &mut Vec<Finding>) {
        findings.retain(|f| {
            let fp = entry(file, f, self.root.as_deref()).fingerprint;
            match self.left.get_mut(&fp) {
                Some(n) if *n > 0 => {
                    *n -= 1;
                    self.suppressed += 1;
                    false
                }
                _ => true,
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Severity;

    fn finding(sym: &str, off: u64, msg: &str) -> Finding {
        Finding {
            rule: "fallthrough",
            severity: Severity::Error,
            section_index: 3,
            section: ".text".into(),
            offset: off,
            symbol: Some(sym.into()),
            symbol_offset: off,
            message: msg.into(),
            target: None,
            notes: vec![],
            context: vec![],
            source: None,
            path: None,
            path_omitted: 0,
            fix: None,
            cause: None,
        }
    }

    #[test]
    fn normalises_what_moves() {
        assert_eq!(
            normalise("f.isra.0() runs off its end at 0x1c into 12 bytes before g2()"),
            "f.isra.#() runs off its end at 0x# into # bytes before g2()"
        );
        assert_eq!(normalise("ext4_foo x86_64 0x"), "ext4_foo x86_64 0x");
        assert_eq!(normalise("3com"), "3com");
        assert_eq!(normalise("héllo 7"), "héllo #");
    }

    #[test]
    fn fingerprints_ignore_offsets_and_clone_numbers() {
        let a = finding(
            "f.constprop.0",
            0x10,
            "f.constprop.0() runs off its end at 0x10",
        );
        let b = finding(
            "f.constprop.3",
            0x48,
            "f.constprop.3() runs off its end at 0x48",
        );
        let c = finding("g", 0x10, "g() runs off its end at 0x10");
        assert_eq!(fingerprint("a.o", &a), fingerprint("a.o", &b));
        assert_ne!(fingerprint("a.o", &a), fingerprint("a.o", &c));
        assert_ne!(fingerprint("a.o", &a), fingerprint("b.o", &a));
        assert_eq!(fingerprint("./a.o", &a), fingerprint("a.o", &a));
    }

    #[test]
    fn counts_duplicates() {
        let a = finding("f", 0x10, "f() bad at 0x10");
        let b = finding("f", 0x20, "f() bad at 0x20");
        let base = Baseline::record([("x.o", &a), ("x.o", &b)], None);
        assert_eq!(base.findings.len(), 1);
        assert_eq!(base.findings[0].count, 2);
        // Two accepted, the third of the same fingerprint is new.
        let mut flt = Filter::new(&base, None);
        let mut v = vec![a.clone(), b.clone(), finding("f", 0x30, "f() bad at 0x30")];
        flt.retain_new("x.o", &mut v);
        assert_eq!(v.len(), 1);
        assert_eq!(v[0].offset, 0x30);
        assert_eq!(flt.suppressed, 2);
    }

    #[test]
    fn object_keys_are_relative_to_the_baseline() {
        let root = std::fs::canonicalize(std::env::current_dir().unwrap()).unwrap();
        assert_eq!(object_key("./d/x.o", Some(&root)), "d/x.o");
        assert_eq!(object_key("d/lib.a(m.o)", Some(&root)), "d/lib.a(m.o)");
        let abs = root.join("d/x.o");
        assert_eq!(object_key(abs.to_str().unwrap(), Some(&root)), "d/x.o");
        let up = root.join("d/../d/x.o");
        assert_eq!(object_key(up.to_str().unwrap(), Some(&root)), "d/x.o");
        assert_eq!(object_key("/elsewhere/x.o", Some(&root)), "/elsewhere/x.o");
    }
}
