//! Baselines: the findings a project has accepted, so that a check reports
//! only new ones (`--write-baseline FILE`, `--baseline FILE`).
//!
//! A finding is recorded by its fingerprint ([`crate::report::fingerprint`],
//! which SARIF's `partialFingerprints` share). Equal fingerprints are counted: a
//! baseline holding a fingerprint twice accepts two such findings, and a
//! third is new.

use crate::checks::Finding;
use crate::report::fingerprint;
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

/// The baseline entry (count 1) of a finding in `file`.
pub fn entry(file: &str, f: &Finding, root: Option<&Path>) -> Entry {
    let k = fingerprint::key(file, f, root);
    Entry {
        fingerprint: k.fingerprint,
        rule: f.rule.to_string(),
        file: k.file,
        symbol: k.symbol,
        message: k.message,
        count: 1,
    }
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
    use crate::report::fingerprint::tests::finding;

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
}
