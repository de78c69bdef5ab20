//! Fingerprints of findings that survive unrelated rebuilds: rule, object
//! path, symbol and message, with what moves between builds taken out (hex
//! offsets and addresses, plain numbers, the numeric suffixes of compiler
//! clones such as `f.isra.0`, `f.cold.12`). Offsets, sections and source
//! lines are not part of one. SARIF's `partialFingerprints` and baselines
//! both key findings by them.

use crate::checks::Finding;
use crate::paths::normalize;
use std::path::Path;

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
            .or_else(|_| std::path::absolute(p).map(|a| normalize(&a)))
            .ok()?;
        Some(abs.strip_prefix(r).ok()?.to_path_buf())
    });
    let shown = rel.unwrap_or_else(|| normalize(p));
    format!("{}{member}", shown.to_string_lossy())
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

/// What a fingerprint hashes, as a baseline records it.
pub struct Key {
    pub fingerprint: String,
    /// [`object_key`] of the file.
    pub file: String,
    pub symbol: Option<String>,
    pub message: String,
}

/// The fingerprint of a finding in `file` and what it hashes; object paths
/// relative to `root` ([`object_key`]).
pub fn key(file: &str, f: &Finding, root: Option<&Path>) -> Key {
    let file = object_key(file, root);
    let symbol = f.symbol.as_deref().map(normalise);
    let message = normalise(&f.message);
    let fp = fnv1a(&[f.rule, &file, symbol.as_deref().unwrap_or(""), &message]);
    Key {
        fingerprint: format!("{fp:016x}"),
        file,
        symbol,
        message,
    }
}

/// Just the fingerprint (for SARIF's `partialFingerprints`).
pub fn fingerprint(file: &str, f: &Finding) -> String {
    key(file, f, None).fingerprint
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::rules::Severity;

    /// A finding of `fallthrough` in `sym` at `off`.
    pub(crate) fn finding(sym: &str, off: u64, msg: &str) -> Finding {
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
