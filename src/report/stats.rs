//! Rendering of `objlint stats`: a table (human), one line per object
//! (short), or JSON Lines (a `stats` record per object, unreadable ones with
//! `error`, then a `stats-total` record per arch), and the records it renders
//! (counted by [`crate::stats`]).

use super::Format;
use super::json::record;
use crate::arch::Pad;
use crate::elf::Machine;
use crate::model::patchable::LayoutSummary;
use serde::Serialize;
use serde_json::{Value, json};
use std::io::{self, Write};

/// The landing-pad kinds counted, in column order.
pub const KINDS: [Pad; 6] = [
    Pad::Endbr64,
    Pad::BtiC,
    Pad::BtiJ,
    Pad::BtiJc,
    Pad::Paciasp,
    Pad::Pacibsp,
];

/// Counts per landing-pad kind, in [`KINDS`] order.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PadCounts(pub [usize; 6]);

impl PadCounts {
    pub fn add(&mut self, p: Pad) {
        if let Some(i) = KINDS.iter().position(|&k| k == p) {
            self.0[i] += 1;
        }
    }
    pub fn total(&self) -> usize {
        self.0.iter().sum()
    }
    pub(crate) fn merge(&mut self, o: &PadCounts) {
        for (a, b) in self.0.iter_mut().zip(o.0) {
            *a += b;
        }
    }
}

impl Serialize for PadCounts {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(KINDS.len()))?;
        for (k, n) in KINDS.iter().zip(self.0) {
            m.serialize_entry(k.name(), &n)?;
        }
        m.end()
    }
}

/// Landing-pad facts of one object, or of a total.
#[derive(Debug, Clone, Default, Serialize)]
pub struct PadStats {
    pub objects: usize,
    /// Functions (preamble symbols `__pfx_`/`__cfi_` not counted).
    pub functions: usize,
    /// Functions whose entry a non-exempt reference takes.
    pub address_taken: usize,
    /// Of those, referenced from an export table (`__ksymtab*`).
    pub exported: usize,
    /// Functions whose first instruction is a landing pad.
    pub entry_pads: usize,
    /// Every landing-pad instruction in the code, by kind (what `objdump | grep` counts).
    pub pads: PadCounts,
    /// Pads in the entry regions of functions provably never reached indirectly.
    pub unneeded: PadCounts,
    /// Pads in the entry regions of global functions that other objects may
    /// still reach (per-object scope; 0 with `--link`).
    pub undecided: usize,
    /// Non-exempt references whose target has no fitting landing pad.
    pub missing: usize,
    /// Address-taking references to undefined symbols (outside the object).
    pub external_refs: usize,
    /// Entries of `.ibt_endbr_seal` (pads objtool already listed for sealing).
    pub sealed: usize,
    /// Switch tables without relocations (arm64) read from the code's
    /// dispatch, and their distinct case targets.
    pub jump_tables: usize,
    pub jump_table_targets: usize,
    /// Dispatches through such a table whose extent or place was not found
    /// (their targets go unchecked).
    pub jump_tables_unread: usize,
    /// Tables among `jump_tables` without a bounds check objlint could tie to
    /// the index, read up to the next referenced address or symbol.
    pub jump_tables_sized_by_next: usize,
}

impl PadStats {
    pub(crate) fn merge(&mut self, o: &PadStats) {
        self.objects += o.objects;
        self.functions += o.functions;
        self.address_taken += o.address_taken;
        self.exported += o.exported;
        self.entry_pads += o.entry_pads;
        self.pads.merge(&o.pads);
        self.unneeded.merge(&o.unneeded);
        self.undecided += o.undecided;
        self.missing += o.missing;
        self.external_refs += o.external_refs;
        self.sealed += o.sealed;
        self.jump_tables += o.jump_tables;
        self.jump_table_targets += o.jump_table_targets;
        self.jump_tables_unread += o.jump_tables_unread;
        self.jump_tables_sized_by_next += o.jump_tables_sized_by_next;
    }
}

/// The stats of one object (a file or an archive member).
#[derive(Debug, Clone, Serialize)]
pub struct ObjectStats {
    pub file: String,
    pub arch: Option<Machine>,
    #[serde(flatten)]
    pub stats: PadStats,
    pub error: Option<String>,
    /// With `--list`: `function+0xoff kind` of every unneeded pad.
    #[serde(skip)]
    pub unneeded_list: Vec<String>,
    /// Patchable-entry and kCFI layout (M, N, hash offset, entries).
    pub layout: Option<LayoutSummary>,
}

impl ObjectStats {
    pub(crate) fn failed(file: String, error: String) -> ObjectStats {
        ObjectStats {
            file,
            arch: None,
            stats: PadStats::default(),
            error: Some(error),
            unneeded_list: Vec::new(),
            layout: None,
        }
    }

    /// `M,N` (and `kcfi -K`) of the object, or `-`.
    pub fn layout_text(&self) -> String {
        let Some(l) = &self.layout else {
            return "-".into();
        };
        let mut s = match (l.m, l.n) {
            (Some(m), Some(n)) => format!("{m},{n}"),
            _ => "-".into(),
        };
        if let Some(k) = l.hash_offset {
            s.push_str(&format!(" kcfi -{k:#x}"));
        }
        s
    }
}

/// `endbr64 12/7` per kind present: pads / unneeded.
fn by_kind(pads: &PadCounts, unneeded: &PadCounts) -> String {
    let mut parts = Vec::new();
    for (i, k) in KINDS.iter().enumerate() {
        if pads.0[i] > 0 || unneeded.0[i] > 0 {
            parts.push(format!("{} {}/{}", k.name(), pads.0[i], unneeded.0[i]));
        }
    }
    if parts.is_empty() {
        "-".to_string()
    } else {
        parts.join(", ")
    }
}

fn row(w: &mut dyn Write, name: &str, arch: &str, layout: &str, s: &PadStats) -> io::Result<()> {
    writeln!(
        w,
        "{name:<40} {arch:<8} {layout:<10} {:>8} {:>7} {:>8} {:>8} {:>9} {:>9} {:>7} {:>7}  {}",
        s.functions,
        s.address_taken,
        s.pads.total(),
        s.unneeded.total(),
        s.undecided,
        s.missing,
        s.external_refs,
        s.sealed,
        by_kind(&s.pads, &s.unneeded)
    )
}

pub fn write(
    format: Format,
    objs: &[&ObjectStats],
    totals: &[(Machine, PadStats)],
    link: bool,
    w: &mut dyn Write,
) -> io::Result<()> {
    let scope = if link { "link" } else { "object" };
    match format {
        Format::Json => {
            for o in objs {
                let mut v = serde_json::to_value(o)?;
                if o.error.is_some() {
                    // Nothing was counted: every count is null, not 0.
                    for k in serde_json::to_value(PadStats::default())?
                        .as_object()
                        .into_iter()
                        .flat_map(|m| m.keys())
                    {
                        v[k] = Value::Null;
                    }
                }
                serde_json::to_writer(&mut *w, &record("stats", v))?;
                w.write_all(b"\n")?;
            }
            for (arch, t) in totals {
                let mut v = serde_json::to_value(t)?;
                v["arch"] = json!(arch.name());
                v["scope"] = json!(scope);
                serde_json::to_writer(&mut *w, &record("stats-total", v))?;
                w.write_all(b"\n")?;
            }
        }
        Format::Short => {
            for o in objs.iter().filter(|o| o.error.is_none()) {
                let arch = o.arch.map(|a| a.name()).unwrap_or("?");
                short(w, &o.file, arch, &o.stats)?;
                if o.layout_text() != "-" {
                    writeln!(
                        w,
                        "{}: {arch}: patchable layout {}",
                        o.file,
                        o.layout_text()
                    )?;
                }
            }
            for (arch, t) in totals {
                short(w, &format!("total ({} objects)", t.objects), arch.name(), t)?;
            }
        }
        _ => {
            writeln!(
                w,
                "{:<40} {:<8} {:<10} {:>8} {:>7} {:>8} {:>8} {:>9} {:>9} {:>7} {:>7}  by kind (pads/unneeded)",
                "object",
                "arch",
                "patchable",
                "funcs",
                "taken",
                "pads",
                "unneeded",
                "undecided",
                "missing",
                "extern",
                "sealed"
            )?;
            for o in objs.iter().filter(|o| o.error.is_none()) {
                let arch = o.arch.map(|a| a.name()).unwrap_or("?");
                row(w, &o.file, arch, &o.layout_text(), &o.stats)?;
            }
            for (arch, t) in totals {
                row(
                    w,
                    &format!("TOTAL ({} objects)", t.objects),
                    arch.name(),
                    "",
                    t,
                )?;
                let mut layouts = std::collections::BTreeMap::new();
                for o in objs
                    .iter()
                    .filter(|o| o.arch == Some(*arch) && o.error.is_none())
                {
                    *layouts.entry(o.layout_text()).or_insert(0usize) += 1;
                }
                let l: Vec<String> = layouts.iter().map(|(k, n)| format!("{k} x{n}")).collect();
                writeln!(
                    w,
                    "{:<40} {:<8} patchable layouts: {}",
                    "",
                    arch.name(),
                    l.join(", ")
                )?;
            }
            writeln!(
                w,
                "scope: {scope}; unneeded = pads at entries of functions no reference can reach indirectly{}",
                if link {
                    ""
                } else {
                    " (local functions only; undecided = global ones, use --link for a linked whole)"
                }
            )?;
        }
    }
    Ok(())
}

fn short(w: &mut dyn Write, name: &str, arch: &str, s: &PadStats) -> io::Result<()> {
    writeln!(
        w,
        "{name}: {arch}: {} functions, {} address-taken ({} exported), pads {} ({} unneeded, {} undecided): {}; {} missing, {} external references, {} sealed",
        s.functions,
        s.address_taken,
        s.exported,
        s.pads.total(),
        s.unneeded.total(),
        s.undecided,
        by_kind(&s.pads, &s.unneeded),
        s.missing,
        s.external_refs,
        s.sealed
    )
}
