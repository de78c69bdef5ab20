//! Alternatives: code the kernel patches over an original instruction range
//! at boot when a CPU feature is present. For the path walks each
//! replacement is a path of its own that starts at the original site and,
//! when it runs off its end, continues after the site.

use super::SectionCode;
use crate::arch::Kind;
use crate::elf::special_sections::AltEntry;
use crate::elf::{Object, Place};

/// One replacement of a site.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Replacement {
    pub section: usize,
    pub start: u64,
    pub end: u64,
    pub feature: u16,
    /// Paths go through this replacement only, never the original: its
    /// feature is applied everywhere or nowhere (x86 SMAP, arm64 PAN), so
    /// mixing one site's original with another's replacement is no real path.
    pub exclusive: bool,
    /// The kernel patches the original into a direct call
    /// (`ALT_FLAG_DIRECT_CALL`): an indirect call there never runs as one.
    pub direct_call: bool,
}

/// An original instruction range with its replacements.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AltSite {
    pub section: usize,
    pub start: u64,
    /// End of the original range (the longest of nested alternatives).
    pub end: u64,
    pub repls: Vec<Replacement>,
}

impl AltSite {
    /// Whether paths skip the original instructions.
    pub fn exclusive(&self) -> bool {
        self.repls.iter().any(|r| r.exclusive)
    }
    /// Whether the kernel makes the original a direct call.
    pub fn direct_call(&self) -> bool {
        self.repls.iter().any(|r| r.direct_call)
    }
}

/// All alternative sites of an object.
#[derive(Debug, Clone, Default)]
pub struct Alternatives {
    /// Sorted by (section, start).
    pub sites: Vec<AltSite>,
    /// (section, start, end, site index, replacement index), sorted.
    by_repl: Vec<(usize, u64, u64, usize, usize)>,
    /// (section, end) of originals a callback rewrites in place at boot
    /// (not a NOP callback): the original is followed as it is, but what
    /// the callback writes is unknown, so the code after the site may run
    /// even when the original never falls through to it.
    pub in_place: Vec<(usize, u64)>,
    /// Why `.altinstructions` could not be read, if it could not.
    pub error: Option<String>,
    /// Entries left out: their original or replacement is no place in
    /// this object (the entry's place in its table).
    pub dangling: Vec<(usize, u64)>,
}

impl Alternatives {
    /// Group entries by their original site. Entries that do not resolve
    /// to places in this object are left out, and kept in `dangling` to be
    /// reported. A callback entry is a site
    /// with an empty replacement when its callback is one of `nop_callbacks`
    /// (it patches the original into NOPs); other callbacks rewrite the
    /// original in place with the same control flow, which is followed as is.
    pub fn build(
        obj: &Object,
        entries: &[AltEntry],
        exclusive_features: &[u16],
        nop_callbacks: &[String],
        direct_call_flag: u16,
        functions: &[super::Function],
    ) -> Alternatives {
        let mut sites: Vec<AltSite> = Vec::new();
        let mut in_place = Vec::new();
        let mut dangling = Vec::new();
        // Callbacks by where they start, made at the first callback entry
        // (arm64 vmlinux.o: thousands of entries, 76,000 functions).
        let mut by_start: Option<rustc_hash::FxHashMap<(usize, u64), &str>> = None;
        for e in entries {
            let mut e = *e;
            if e.callback {
                let name = match e.repl {
                    Place::External { sym, .. } => obj.symbols.get(sym).map(|s| &*s.name),
                    Place::Local { section, offset } => by_start
                        .get_or_insert_with(|| {
                            let mut m = rustc_hash::FxHashMap::default();
                            // The first function starting at a place, as a
                            // search in order would find it.
                            for f in functions.iter().rev() {
                                m.insert((f.section, f.start), f.name);
                            }
                            m
                        })
                        .get(&(section, offset))
                        .copied(),
                    Place::Other => None,
                };
                if !name.is_some_and(|n| nop_callbacks.iter().any(|c| c == n)) {
                    match e.orig {
                        Place::Local { section, offset } => {
                            in_place.push((section, offset.saturating_add(u64::from(e.orig_len))))
                        }
                        _ => dangling.push(e.at),
                    }
                    continue;
                }
                e.repl = Place::Other;
                e.repl_len = 0;
            }
            let Place::Local {
                section,
                offset: start,
            } = e.orig
            else {
                dangling.push(e.at);
                continue;
            };
            let size = obj.sections.get(section).map_or(0, |s| s.size);
            let end = start.saturating_add(u64::from(e.orig_len)).min(size);
            let repl = match e.repl {
                // A symbol's value can put it anywhere (fuzzing found
                // `offset + len` past u64::MAX): out-of-section places
                // start no instruction and the walk skips them.
                Place::Local { section, offset } if e.repl_len > 0 => Replacement {
                    section,
                    start: offset,
                    end: offset.saturating_add(u64::from(e.repl_len)),
                    feature: e.feature,
                    exclusive: exclusive_features.contains(&e.feature),
                    direct_call: direct_call_flag != 0 && e.flags & direct_call_flag != 0,
                },
                // An empty replacement: the original becomes NOPs.
                _ if e.repl_len == 0 => Replacement {
                    section,
                    start: end,
                    end,
                    feature: e.feature,
                    exclusive: exclusive_features.contains(&e.feature),
                    direct_call: direct_call_flag != 0 && e.flags & direct_call_flag != 0,
                },
                _ => {
                    dangling.push(e.at);
                    continue;
                }
            };
            sites.push(AltSite {
                section,
                start,
                end,
                repls: vec![repl],
            });
        }
        sites.sort_by_key(|s| (s.section, s.start));
        // Nested ALTERNATIVE_2/3 share a start; all replacements then resume
        // after the longest original.
        let mut merged: Vec<AltSite> = Vec::with_capacity(sites.len());
        for s in sites {
            match merged.last_mut() {
                Some(m) if m.section == s.section && m.start == s.start => {
                    m.end = m.end.max(s.end);
                    m.repls.extend(s.repls);
                }
                _ => merged.push(s),
            }
        }
        for m in merged.iter_mut() {
            let end = m.end;
            for r in m.repls.iter_mut().filter(|r| r.start == r.end) {
                r.section = m.section;
                r.start = end;
                r.end = end;
            }
        }
        let mut by_repl = Vec::new();
        for (si, s) in merged.iter().enumerate() {
            for (ri, r) in s.repls.iter().enumerate() {
                if r.end > r.start {
                    by_repl.push((r.section, r.start, r.end, si, ri));
                }
            }
        }
        by_repl.sort_unstable();
        in_place.sort_unstable();
        in_place.dedup();
        Alternatives {
            sites: merged,
            by_repl,
            in_place,
            error: None,
            dangling,
        }
    }

    /// Start offsets of replacements per section (decoding restarts there).
    pub fn replacement_starts(&self) -> impl Iterator<Item = (usize, u64, u64)> + '_ {
        self.by_repl.iter().map(|&(s, a, b, _, _)| (s, a, b))
    }

    /// Replacements (site, replacement) that open or close user access:
    /// exclusive too, whatever their feature number (it differs between
    /// kernel versions).
    pub fn uaccess_exclusive(&self, code: &[Option<Box<SectionCode>>]) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for &(sec, start, end, si, ri) in &self.by_repl {
            let Some(c) = code.get(sec).and_then(Option::as_deref) else {
                continue;
            };
            let lo = c.lower_bound(start);
            let hi = c.lower_bound(end);
            if c.insns[lo..hi]
                .iter()
                .any(|i| matches!(i.kind, Kind::UaccessOpen | Kind::UaccessClose))
            {
                out.push((si, ri));
            }
        }
        out
    }

    /// Mark replacements (site, replacement) exclusive.
    pub fn mark_exclusive(&mut self, which: &[(usize, usize)]) {
        for &(si, ri) in which {
            self.sites[si].repls[ri].exclusive = true;
        }
    }

    pub fn is_empty(&self) -> bool {
        self.sites.is_empty()
    }

    /// The index of the site whose original range starts at a place.
    pub fn site_index_at(&self, section: usize, offset: u64) -> Option<usize> {
        self.sites
            .binary_search_by_key(&(section, offset), |s| (s.section, s.start))
            .ok()
    }

    /// The site whose original range starts at a place.
    pub fn site_at(&self, section: usize, offset: u64) -> Option<&AltSite> {
        let i = self
            .sites
            .binary_search_by_key(&(section, offset), |s| (s.section, s.start))
            .ok()?;
        Some(&self.sites[i])
    }

    /// The sites whose original ranges overlap `start..end` of a section,
    /// found by search (sites are sorted by start and do not overlap).
    pub fn sites_overlapping(&self, section: usize, start: u64, end: u64) -> &[AltSite] {
        let mut lo = self
            .sites
            .partition_point(|s| (s.section, s.start) < (section, start));
        while lo > 0 && self.sites[lo - 1].section == section && self.sites[lo - 1].end > start {
            lo -= 1;
        }
        let hi = self
            .sites
            .partition_point(|s| (s.section, s.start) < (section, end));
        &self.sites[lo..hi.max(lo)]
    }

    /// The site whose original range holds a place.
    pub fn site_containing(&self, section: usize, offset: u64) -> Option<&AltSite> {
        let i = self
            .sites
            .partition_point(|s| (s.section, s.start) <= (section, offset));
        let s = self.sites.get(i.checked_sub(1)?)?;
        (s.section == section && offset < s.end).then_some(s)
    }

    /// The site and replacement whose replacement code holds a place.
    pub fn replacement_containing(
        &self,
        section: usize,
        offset: u64,
    ) -> Option<(&AltSite, &Replacement)> {
        let i = self
            .by_repl
            .partition_point(|&(s, a, _, _, _)| (s, a) <= (section, offset));
        let &(s, _, end, si, ri) = self.by_repl.get(i.checked_sub(1)?)?;
        (s == section && offset < end).then(|| (&self.sites[si], &self.sites[si].repls[ri]))
    }
}
