//! `objlint stats`: landing pads needed vs unneeded, per object and in total
//! per architecture (seed 000 counted BTI gadgets with `objdump | grep`; this
//! tells which of them nothing can reach indirectly).

use crate::arch::Kind;
use crate::elf::{Machine, Object};
use crate::input;
use crate::model::Model;
use crate::model::address_taken::{AddressTaken, entry_pads, pad_at};
use crate::model::patchable::layout;
use crate::rules::Rules;
// The records themselves belong to their report, which sits below this.
pub use crate::report::stats::{KINDS, ObjectStats, PadCounts, PadStats};
use rayon::prelude::*;

/// Landing-pad stats of a built model. `link`: the object is a linked whole,
/// so global functions can be proven unneeded too.
pub fn pad_stats(m: &Model, at: &AddressTaken, link: bool) -> PadStats {
    let mut s = PadStats {
        objects: 1,
        external_refs: at.external,
        ..Default::default()
    };
    for code in m.code.iter().flatten() {
        for i in &code.insns {
            if let Kind::Pad(p) = i.kind {
                s.pads.add(p);
            }
        }
    }
    for (fi, f) in m.functions.iter().enumerate() {
        if f.prefix {
            continue;
        }
        s.functions += 1;
        s.address_taken += usize::from(at.is_taken(fi));
        s.exported += usize::from(at.exported[fi]);
        s.entry_pads += usize::from(pad_at(m, f.section, f.start).is_some());
        if !link && (f.global || f.weak) && !at.is_taken(fi) {
            s.undecided += entry_pads(m, fi).len();
        }
    }
    for e in at.unneeded_entry_pads(m, link) {
        s.unneeded.add(e.pad);
    }
    s.missing = at
        .needing_pad()
        .filter(|r| !crate::checks::pads::pad_ok(m, r))
        .count();
    s.sealed = m
        .obj
        .sections_named(".ibt_endbr_seal")
        .iter()
        .map(|&i| m.obj.relocs(i).len())
        .sum();
    let jt = m.jump_tables();
    s.jump_tables = jt.tables.len();
    s.jump_table_targets = jt
        .tables
        .iter()
        .map(|t| {
            let mut v: Vec<u64> = t.entries().map(|e| e.1).collect();
            v.sort_unstable();
            v.dedup();
            v.len()
        })
        .sum();
    s.jump_tables_unread = jt.unbounded + jt.rejected;
    s.jump_tables_sized_by_next = jt.sized_by_next;
    s
}

/// The stats of one object held in memory.
pub fn object_stats(
    file: String,
    data: &[u8],
    rules: &Rules,
    link: bool,
    list: bool,
) -> ObjectStats {
    let mut out = ObjectStats::failed(file, String::new());
    out.error = None;
    // Under the guard `check` uses: a bug is this object's error only.
    let obj = match std::panic::catch_unwind(|| Object::parse(data)) {
        Ok(Ok(mut o)) => {
            o.mark_code_sections(rules.special.code_sections.get(o.machine));
            o
        }
        Ok(Err(e)) => {
            out.error = Some(e.0);
            return out;
        }
        Err(_) => {
            out.error = Some("internal error while reading (a bug in objlint)".into());
            return out;
        }
    };
    out.arch = Some(obj.machine);
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let m = Model::build(&obj, rules);
        let at = m.address_taken(&rules.landing_pads);
        let names = if list {
            at.unneeded_entry_pads(&m, link)
                .iter()
                .map(|e| {
                    let f = &m.functions[e.function];
                    format!("{}+{:#x}: {}", f.name, e.offset - f.start, e.pad.name())
                })
                .collect()
        } else {
            Vec::new()
        };
        let layout = layout(&m, &rules.patchable);
        (pad_stats(&m, at, link), names, layout)
    }));
    match r {
        Ok((s, names, layout)) => {
            out.stats = s;
            out.unneeded_list = names;
            out.layout = Some(layout);
        }
        Err(_) => out.error = Some("internal error while analysing (a bug in objlint)".into()),
    }
    out
}

/// Stats of every object under `paths`, in input order (unwalkable paths
/// first), through the input loop `check` uses.
pub fn collect(
    paths: &[std::path::PathBuf],
    rules: &Rules,
    link: bool,
    list: bool,
) -> Vec<ObjectStats> {
    let (inputs, errs) = input::expand(paths);
    let mut out: Vec<ObjectStats> = errs
        .into_iter()
        .map(|(p, e)| ObjectStats::failed(p, e))
        .collect();
    crate::engine::for_each_input(
        &inputs,
        &|_, inp| input_stats(inp, rules, link, list),
        &mut |_, s| out.extend(s),
    );
    out
}

/// The stats of every object of one input (a thin archive's member files
/// each read on their own).
fn input_stats(inp: &input::Input, rules: &Rules, link: bool, list: bool) -> Vec<ObjectStats> {
    inp.files()
        .par_iter()
        .flat_map_iter(|(name, path)| match input::load(path) {
            Err(e) => vec![ObjectStats::failed(name.clone(), e)],
            Ok(l) => l
                .members
                .par_iter()
                .map(|(member, range)| {
                    let file = input::member_name(name, member.as_deref());
                    object_stats(file, &l.bytes[range.clone()], rules, link, list)
                })
                .collect(),
        })
        .collect()
}

/// Totals per architecture, x86_64 first.
pub fn totals(objs: &[ObjectStats]) -> Vec<(Machine, PadStats)> {
    let mut out = Vec::new();
    for arch in [Machine::X86_64, Machine::Aarch64] {
        let mut t = PadStats::default();
        for o in objs
            .iter()
            .filter(|o| o.arch == Some(arch) && o.error.is_none())
        {
            t.merge(&o.stats);
        }
        if t.objects > 0 {
            out.push((arch, t));
        }
    }
    out
}
