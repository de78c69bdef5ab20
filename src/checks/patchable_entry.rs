//! `patchable-entry`: every entry of `__patchable_function_entries` (and the
//! `.discard.patchable_function_entries` variant) must point at the M-NOP patch
//! site of exactly one function, laid out as the object's
//! `-fpatchable-function-entry=M,N` (most sites, or `--patchable`/config).
//!
//! ftrace (and the arm64 CALL_OPS code) rewrites those NOPs at run time,
//! trusting the compiler's layout: a wrong entry makes it patch the middle of
//! an instruction stream, twice, or a site whose size differs from the rest.
//! Functions without an entry (notrace, `__exit`) are fine.

use super::{Check, Ctx, Finding};
use crate::model::patchable::{Patchable, Site, Target, nops, relative};
use rustc_hash::FxHashMap as HashMap;

pub struct PatchableEntry;

impl Check for PatchableEntry {
    fn id(&self) -> &'static str {
        "patchable-entry"
    }

    fn check_object(&self, cx: &Ctx, out: &mut Vec<Finding>) {
        let m = cx.model;
        let p = m.patchable(&cx.rules.patchable);
        if p.entries.is_empty() {
            return;
        }
        let configured = cx.opts.patchable.map(|(a, b)| (u64::from(a), u64::from(b)));
        let layout = configured.or(p.layout);
        let source = if configured.is_some() {
            "the configured layout is"
        } else {
            "most functions in this object use"
        };
        let mut first: HashMap<usize, (usize, u64)> = HashMap::default();
        for e in &p.entries {
            // Formatted only for a finding: most entries have none.
            let entry_name = || format!("{}+{:#x}", m.obj.section_name(e.section), e.offset);
            let fd = match &e.target {
                Target::Unrelocated => cx.finding(
                    self.id(),
                    e.section,
                    e.offset,
                    format!(
                        "patchable entry {} has no relocation, so it points at no function",
                        entry_name(),
                    ),
                ),
                Target::External { sym } => cx.finding(
                    self.id(),
                    e.section,
                    e.offset,
                    format!(
                        "patchable entry {} points at undefined symbol {}, not at a function of this object",
                        entry_name(),
                        m.obj.symbols[*sym].name,
                    ),
                ),
                Target::NotCode { section, offset } => {
                    let place = match section {
                        Some(s) => format!("{}+{offset:#x}", m.obj.section_name(*s)),
                        None => "an absolute address".to_string(),
                    };
                    cx.finding(
                        self.id(),
                        e.section,
                        e.offset,
                        format!(
                        "patchable entry {} points at {place}, which is not executable code",
                        entry_name(),
                    ),
                    )
                }
                Target::MidFunction {
                    section,
                    offset,
                    func,
                } => cx.finding(
                    self.id(),
                    *section,
                    *offset,
                    format!(
                        "patchable entry {} points into the middle of {}() ({}), not at a patch site",
                        entry_name(),
                        m.functions[*func].name,
                        relative(m, *func, *offset),
                    ),
                ),
                Target::NoFunction {
                    section, offset, ..
                } => cx.finding(
                    self.id(),
                    *section,
                    *offset,
                    format!(
                        "patchable entry {} points at {}+{offset:#x}, which is not the patch site of any function",
                        entry_name(),
                        m.obj.section_name(*section),
                    ),
                ),
                Target::Unnamed { .. } => continue,
                Target::Site(s) => {
                    if let Some(&(sec, off)) = first.get(&s.func) {
                        let mut fd = self.at(cx, s, format!(
                        "{}() has a second patchable entry ({}); the first is {}+{off:#x}",
                        m.functions[s.func].name,
                        entry_name(),
                        m.obj.section_name(sec),
                    ));
                        fd.target = Some(cx.target(s.section, s.offset));
                        out.push(fd);
                        continue;
                    }
                    first.insert(s.func, (e.section, e.offset));
                    self.check_site(cx, p, s, layout, source, out);
                    continue;
                }
            };
            out.push(fd);
        }
    }
}

impl PatchableEntry {
    /// A finding about function `s.func`'s patch site, reported at its entry.
    fn at(&self, cx: &Ctx, s: &Site, message: String) -> Finding {
        let f = &cx.model.functions[s.func];
        cx.finding(self.id(), f.section, f.start, message)
    }

    fn check_site(
        &self,
        cx: &Ctx,
        p: &Patchable,
        s: &Site,
        layout: Option<(u64, u64)>,
        source: &str,
        out: &mut Vec<Finding>,
    ) {
        let m = cx.model;
        let name = &m.functions[s.func].name;
        let unit = p.unit;
        // Formatted only for a finding: most sites have none.
        let site = || relative(m, s.func, s.offset);
        if let Some(bad) = s.non_nop {
            let text = code_text(cx, s.section, bad);
            let mut fd = self.at(
                cx,
                s,
                format!(
                    "patch site of {name}() at {} holds `{text}` at {}, not a NOP",
                    site(),
                    relative(m, s.func, bad)
                ),
            );
            fd.target = Some(cx.target(s.section, bad));
            out.push(fd);
            return;
        }
        let Some((lm, ln)) = layout else { return };
        let tail = lm.saturating_sub(ln);
        if s.before != ln {
            let mut fd = self.at(
                cx,
                s,
                format!(
                    "{name}() has {} before its entry and {} after (layout {},{}); {source} {lm},{ln}",
                    nops(unit, s.before),
                    s.after,
                    s.before + s.after,
                    s.before
                ),
            );
            fd.target = Some(cx.target(s.section, s.offset));
            out.push(fd);
        } else if s.after < tail {
            let bad = s.unit_offset(m, s.before + s.after, unit);
            let text = code_text(cx, s.section, bad);
            let mut fd = self.at(
                cx,
                s,
                format!(
                    "patch site of {name}() at {} is {} where layout {lm},{ln} needs {lm}: `{text}` at {} is not a NOP",
                    site(),
                    nops(unit, s.before + s.after),
                    relative(m, s.func, bad)
                ),
            );
            fd.target = Some(cx.target(s.section, bad));
            out.push(fd);
        }
        // ftrace must not find the same site in both tables (seed 003).
        let entry = s.entry(m);
        let end = entry + s.pad + tail * unit;
        let lo = p.mcount.partition_point(|&x| x < (s.section, s.offset));
        let hit = p
            .mcount
            .get(lo)
            .filter(|&&(sec, off)| sec == s.section && off < end.max(s.offset + 1))
            .map(|&(_, off)| off);
        if let Some(hit) = hit {
            let mut fd = self.at(
                cx,
                s,
                format!(
                    "patch site of {name}() at {} is also listed in {} ({}): ftrace would patch it twice",
                    site(),
                    cx.rules.patchable.mcount_sections.join("/"),
                    relative(m, s.func, hit)
                ),
            );
            fd.target = Some(cx.target(s.section, hit));
            out.push(fd);
        }
    }
}

/// Disassembly of the instruction at a place.
fn code_text(cx: &Ctx, section: usize, offset: u64) -> String {
    let data = cx.model.obj.section_data(section);
    match data.get(offset as usize..) {
        Some(b) if !b.is_empty() => cx.model.dec.disasm(&b[..b.len().min(16)], offset),
        _ => "(end of section)".to_string(),
    }
}
