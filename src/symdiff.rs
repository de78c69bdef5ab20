//! `objlint symdiff BEFORE AFTER`: compare symbol tables across a rewrite.
//!
//! Symbols are paired by (name, type, binding), in order among duplicates;
//! what is left is paired by name alone (a type or binding change), and what
//! is still left vanished (BEFORE only) or was added (AFTER only). Section
//! symbols go by the name of their section. A pair whose section changed —
//! a special index lost or changed (seed 003: `SHN_ABS` became `SHN_UNDEF`),
//! or a move to a section of another name — is `symtab-shndx`; other changes
//! (value, size, type, binding, visibility) and vanished symbols are
//! `symtab-changed`. Added symbols are not findings (`--verbose` lists them).

use crate::checks::Finding;
use crate::checks::symtab_shndx::{self, SHN_X86_64_LCOMMON};
use crate::elf::{Object, SHN_ABS, SHN_COMMON, SHN_UNDEF, STT_SECTION, SymSection, Symbol};
use crate::rules::{Rules, Severity};
use std::collections::HashMap;

/// The outcome of comparing two symbol tables.
#[derive(Debug, Default)]
pub struct Diff {
    pub findings: Vec<Finding>,
    /// Symbols only in AFTER (their indexes there).
    pub added: Vec<usize>,
}

fn key_name(obj: &Object, s: &Symbol) -> String {
    match s.section {
        SymSection::Section(i) if s.st_type == STT_SECTION && s.name.is_empty() => {
            obj.sections[i].name.to_string()
        }
        _ => s.name.to_string(),
    }
}

/// Where a symbol lives, in words that survive renumbering.
fn place(obj: &Object, s: &Symbol) -> String {
    match (s.raw_shndx, s.section) {
        (_, SymSection::Section(i)) => obj.sections[i].name.to_string(),
        (SHN_UNDEF, _) => "SHN_UNDEF".into(),
        (SHN_ABS, _) => "SHN_ABS".into(),
        (SHN_COMMON, _) => "SHN_COMMON".into(),
        (SHN_X86_64_LCOMMON, _) => "SHN_X86_64_LCOMMON".into(),
        (raw, SymSection::Invalid(v)) => format!("invalid index {raw:#x} ({v})"),
        (raw, _) => format!("{raw:#x}"),
    }
}

fn is_special(s: &Symbol) -> bool {
    matches!(s.section, SymSection::Abs | SymSection::Common) || s.raw_shndx == SHN_X86_64_LCOMMON
}

const TYPES: [&str; 7] = [
    "NOTYPE", "OBJECT", "FUNC", "SECTION", "FILE", "COMMON", "TLS",
];
const BINDS: [&str; 3] = ["LOCAL", "GLOBAL", "WEAK"];

fn type_name(t: u8) -> String {
    TYPES
        .get(usize::from(t))
        .map(|s| s.to_string())
        .unwrap_or_else(|| format!("type {t}"))
}
fn bind_name(b: u8) -> String {
    BINDS
        .get(usize::from(b))
        .map(|s| s.to_string())
        .unwrap_or_else(|| format!("binding {b}"))
}

/// Pair the symbols of `before` and `after`: (before index, after index).
fn pair(before: &Object, after: &Object) -> (Vec<(usize, usize)>, Vec<usize>, Vec<usize>) {
    let mut pairs = Vec::new();
    let mut a_used = vec![false; after.symbols.len()];
    let mut b_left = Vec::new();
    // Pass 1: exact (name, type, binding), in order.
    let mut exact: HashMap<(String, u8, u8), Vec<usize>> = HashMap::new();
    for s in after.symbols.iter().skip(1).rev() {
        exact
            .entry((key_name(after, s), s.st_type, s.bind))
            .or_default()
            .push(s.index);
    }
    for s in before.symbols.iter().skip(1) {
        match exact
            .get_mut(&(key_name(before, s), s.st_type, s.bind))
            .and_then(Vec::pop)
        {
            Some(j) => {
                a_used[j] = true;
                pairs.push((s.index, j));
            }
            None => b_left.push(s.index),
        }
    }
    // Pass 2: by name alone, for type or binding changes.
    let mut by_name: HashMap<String, Vec<usize>> = HashMap::new();
    for s in after.symbols.iter().skip(1).rev() {
        if !a_used[s.index] {
            by_name.entry(key_name(after, s)).or_default().push(s.index);
        }
    }
    let mut vanished = Vec::new();
    for i in b_left {
        let name = key_name(before, &before.symbols[i]);
        match by_name.get_mut(&name).and_then(Vec::pop) {
            Some(j) if !name.is_empty() => {
                a_used[j] = true;
                pairs.push((i, j));
            }
            _ => vanished.push(i),
        }
    }
    pairs.sort_unstable();
    let added = (1..after.symbols.len()).filter(|&j| !a_used[j]).collect();
    (pairs, vanished, added)
}

/// Compare the symbol tables of two versions of an object.
pub fn diff(before: &Object, after: &Object, rules: &Rules) -> Diff {
    let sev = |r: &str| rules.doc(r).map(|d| d.severity).unwrap_or(Severity::Error);
    let (pairs, vanished, added) = pair(before, after);
    let mut out = Diff {
        added,
        ..Default::default()
    };
    let mut events: Vec<(usize, Finding)> = Vec::new();
    for &(i, j) in &pairs {
        let (b, a) = (&before.symbols[i], &after.symbols[j]);
        let (pb, pa) = (place(before, b), place(after, a));
        if pb != pa {
            let what = if is_special(b) {
                format!("lost its special index {pb}: st_shndx is now {pa}")
            } else if is_special(a) {
                format!("changed from section {pb} to special index {pa}")
            } else {
                format!("moved from {pb} to {pa}")
            };
            let msg = format!("{what} (value {:#x})", b.value);
            events.push((
                i,
                symtab_shndx::finding(after, "symtab-shndx", sev("symtab-shndx"), Some(j), msg),
            ));
        }
        let mut changes = Vec::new();
        if b.value != a.value {
            changes.push(format!("value {:#x} -> {:#x}", b.value, a.value));
        }
        if b.size != a.size {
            changes.push(format!("size {} -> {}", b.size, a.size));
        }
        if b.st_type != a.st_type {
            changes.push(format!(
                "type {} -> {}",
                type_name(b.st_type),
                type_name(a.st_type)
            ));
        }
        if b.bind != a.bind {
            changes.push(format!(
                "binding {} -> {}",
                bind_name(b.bind),
                bind_name(a.bind)
            ));
        }
        if b.other != a.other {
            changes.push(format!("st_other {:#x} -> {:#x}", b.other, a.other));
        }
        if !changes.is_empty() {
            events.push((
                i,
                symtab_shndx::finding(
                    after,
                    "symtab-changed",
                    sev("symtab-changed"),
                    Some(j),
                    format!("changed: {}", changes.join(", ")),
                ),
            ));
        }
    }
    for i in vanished {
        let b = &before.symbols[i];
        let mut f = symtab_shndx::finding(
            before,
            "symtab-changed",
            sev("symtab-changed"),
            Some(i),
            format!(
                "vanished ({} {} in {}, value {:#x}, size {})",
                bind_name(b.bind),
                type_name(b.st_type),
                place(before, b),
                b.value,
                b.size
            ),
        );
        f.section = after
            .symtab
            .map(|s| after.section_name(s))
            .unwrap_or("?")
            .into();
        events.push((i, f));
    }
    events.sort_by_key(|e| e.0);
    out.findings = events.into_iter().map(|e| e.1).collect();
    out
}

/// How `--verbose` names a symbol only added: its binding, type, name, place,
/// value and size.
pub fn describe(after: &Object, j: usize) -> String {
    let s = &after.symbols[j];
    format!(
        "added {} {} {} in {} (value {:#x}, size {})",
        bind_name(s.bind),
        type_name(s.st_type),
        symtab_shndx::display_name(after, s),
        place(after, s),
        s.value,
        s.size
    )
}
