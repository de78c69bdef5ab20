//! Rendering of `objlint stats`: a table (human), one line per object
//! (short), or JSON Lines (a `stats` record per object, unreadable ones with
//! `error`, then a `stats-total` record per arch).

use super::Format;
use super::json::record;
use crate::elf::Machine;
use crate::stats::{KINDS, ObjectStats, PadCounts, PadStats};
use serde_json::{Value, json};
use std::io::{self, Write};

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
