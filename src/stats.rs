//! `objlint stats`: landing pads needed vs unneeded, per object and in total
//! per architecture (seed 000 counted BTI gadgets with `objdump | grep`; this
//! tells which of them nothing can reach indirectly).

use crate::arch::{Kind, Pad};
use crate::cli::{StatsArgs, usage_error};
use crate::elf::{Machine, Object};
use crate::input;
use crate::model::Model;
use crate::model::address_taken::{AddressTaken, entry_pads, pad_at};
use crate::model::patchable::{LayoutSummary, layout};
use crate::report::{self, Format};
use crate::rules::Rules;
use rayon::prelude::*;
use serde::Serialize;
use std::io::Write;

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
    fn merge(&mut self, o: &PadCounts) {
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
    fn merge(&mut self, o: &PadStats) {
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
    fn failed(file: String, error: String) -> ObjectStats {
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
        .filter(|r| !crate::checks::landing::pad_ok(m, r))
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
        Ok(Ok(o)) => o,
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

/// Stats of every object under `paths`, in input order.
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
    let per: Vec<ObjectStats> = inputs
        .par_iter()
        .flat_map_iter(|inp| inp.files())
        .flat_map_iter(|(name, path)| match input::load(path) {
            Err(e) => vec![ObjectStats::failed(name, e)],
            Ok(l) => l
                .members
                .par_iter()
                .map(|(member, range)| {
                    let file = input::member_name(&name, member.as_deref());
                    object_stats(file, &l.bytes[range.clone()], rules, link, list)
                })
                .collect(),
        })
        .collect();
    out.extend(per);
    out
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

pub fn run(a: &StatsArgs) -> i32 {
    let formats = [Format::Human, Format::Short, Format::Json];
    if let Err(e) = report::require_format("stats", a.format, &formats) {
        return usage_error(&e);
    }
    if let Err(e) = crate::cli::set_jobs(a.jobs) {
        return usage_error(&e);
    }
    let rules = match Rules::load(a.rules.as_deref()) {
        Ok(r) => r,
        Err(e) => return usage_error(&e),
    };
    let objs = collect(&a.paths, &rules, a.link, a.list);
    let totals = totals(&objs);
    let mut bad = 0;
    for o in &objs {
        if let Some(e) = &o.error {
            eprintln!("objlint: {}: {e}", o.file);
            bad += 1;
        }
    }
    let format = a.format.unwrap_or(Format::Human);
    // Unreadable objects are JSON records too (the text formats leave them
    // to stderr), also under --summary.
    let shown: Vec<&ObjectStats> = objs
        .iter()
        .filter(|o| if a.summary { o.error.is_some() } else { true })
        .collect();
    let stdout = std::io::stdout();
    let mut w = std::io::BufWriter::new(stdout.lock());
    if a.list {
        for o in &shown {
            for l in &o.unneeded_list {
                if writeln!(w, "{}: {l}", o.file).is_err() {
                    return 2;
                }
            }
        }
        return if w.flush().is_err() || bad > 0 { 2 } else { 0 };
    }
    let res = report::stats::write(format, &shown, &totals, a.link, &mut w).and_then(|_| w.flush());
    if res.is_err() {
        return 2;
    }
    if bad > 0 { 2 } else { 0 }
}
