//! Functions: the object's function symbols, aliases merged, and the
//! lookups of a function by place.

use super::Model;
use crate::elf::{Object, STB_GLOBAL, STB_WEAK};
use crate::rules::Rules;
use rustc_hash::FxHashMap;

/// A function: an `STT_FUNC` symbol over a range of an executable section.
#[derive(Debug, Clone)]
pub struct Function<'a> {
    pub sym: usize,
    pub name: &'a str,
    pub section: usize,
    pub start: u64,
    pub end: u64,
    /// A preamble symbol (`__cfi_`, `__pfx_`): falls through by design.
    pub prefix: bool,
    pub weak: bool,
    pub global: bool,
    /// Its instructions: an index range into its section's
    /// [`SectionCode::insns`](super::SectionCode::insns), set once the
    /// section is decoded.
    pub(super) insns: std::ops::Range<usize>,
}

/// The functions of an object, sorted by (section, start).
pub(super) fn build_functions<'a>(obj: &'a Object, rules: &Rules) -> Vec<Function<'a>> {
    use rayon::prelude::*;
    let mut funcs: Vec<Function<'a>> = obj
        .symbols
        .par_iter()
        .filter(|s| s.is_func())
        .filter_map(|s| {
            let sec = s.section_index()?;
            let section = &obj.sections[sec];
            if !section.is_exec() || s.value > section.size {
                return None;
            }
            Some(Function {
                sym: s.index,
                name: &s.name,
                section: sec,
                start: s.value,
                end: s.value.saturating_add(s.size).min(section.size),
                prefix: rules.is_prefix_symbol(&s.name),
                weak: s.bind == STB_WEAK,
                global: s.bind == STB_GLOBAL,
                insns: 0..0,
            })
        })
        .collect();
    // Aliases (one start): the strongest name stands for them, the first
    // in the symbol table among equals, over the largest extent. A
    // preamble name never hides the function it shares a start with.
    let rank = |f: &Function| (!f.prefix, f.global, !f.weak);
    funcs.par_sort_unstable_by_key(|f| (f.section, f.start, std::cmp::Reverse(rank(f)), f.sym));
    funcs.dedup_by(|f, kept| {
        let alias = (f.section, f.start) == (kept.section, kept.start);
        if alias {
            kept.end = kept.end.max(f.end);
        }
        alias
    });
    // Functions without a size (hand-written assembly without .size) run to
    // the next function or the end of the section.
    for i in 0..funcs.len() {
        if funcs[i].end == funcs[i].start {
            let sec = funcs[i].section;
            let next = funcs
                .get(i + 1)
                .filter(|n| n.section == sec)
                .map(|n| n.start)
                .unwrap_or(obj.sections[sec].size);
            funcs[i].end = next;
        }
    }
    funcs
}

/// Places (section, offset), sorted, each in one word: the section in the
/// high half, the offset in the low. A search steps over 8 bytes a place
/// (a [`Function`] is 72), and a set of places takes 8 bytes each where a
/// hash set took about 32 with its empty buckets (vmlinux.o's code-symbol
/// starts: 2.2 MB, now 0.6 MB). Places that do not fit a word (offsets past
/// 4 GiB, in data sections only: code sections are at most 4 GiB) are kept
/// apart.
#[derive(Debug, Default)]
pub(super) struct Places {
    words: Vec<u64>,
    wide: Vec<(usize, u64)>,
}

impl Places {
    fn word(section: usize, offset: u64) -> Option<u64> {
        (section <= u32::MAX as usize && offset <= u64::from(u32::MAX))
            .then_some((section as u64) << 32 | offset)
    }

    pub(super) fn new(places: impl IntoIterator<Item = (usize, u64)>) -> Places {
        let mut p = Places::default();
        for (section, offset) in places {
            match Places::word(section, offset) {
                Some(w) => p.words.push(w),
                None => p.wide.push((section, offset)),
            }
        }
        p.words.sort_unstable();
        p.words.dedup();
        p.wide.sort_unstable();
        p.wide.dedup();
        p
    }

    pub(super) fn contains(&self, section: usize, offset: u64) -> bool {
        match Places::word(section, offset) {
            Some(w) => self.words.binary_search(&w).is_ok(),
            None => self.wide.binary_search(&(section, offset)).is_ok(),
        }
    }

    /// The offsets of the places of `section` that fit a word, in order.
    pub(super) fn offsets_in(&self, section: usize) -> impl Iterator<Item = u64> + '_ {
        let (lo, hi) = (
            self.count_before(section, 0, false),
            self.count_before(section, u64::MAX, true),
        );
        self.words[lo..hi.max(lo)]
            .iter()
            .map(|&w| w & u64::from(u32::MAX))
    }

    /// How many places that fit a word come before (section, offset), or
    /// also at it (`at`). A place past every word's offset in its section
    /// counts all of that section's.
    pub(super) fn count_before(&self, section: usize, offset: u64, at: bool) -> usize {
        let Ok(s) = u32::try_from(section) else {
            return self.words.len();
        };
        let w = u64::from(s) << 32 | offset.min(u64::from(u32::MAX));
        if at || offset > u64::from(u32::MAX) {
            self.words.partition_point(|&x| x <= w)
        } else {
            self.words.partition_point(|&x| x < w)
        }
    }
}

/// Where each function starts: in order, for the searches by place, and
/// by place, for the exact lookups every branch makes (a hash of one word:
/// a binary search there took 1.2% more instructions over the modules).
#[derive(Debug, Default)]
pub(super) struct FunctionStarts {
    order: Places,
    index: FxHashMap<u64, u32>,
}

impl FunctionStarts {
    /// `functions` sorted by (section, start), aliases merged: every start
    /// is unique and, in a section of code, fits a word.
    pub(super) fn new(functions: &[Function]) -> FunctionStarts {
        let order = Places::new(functions.iter().map(|f| (f.section, f.start)));
        debug_assert!(order.wide.is_empty() && order.words.len() == functions.len());
        let index = order
            .words
            .iter()
            .enumerate()
            .map(|(i, &w)| (w, i as u32))
            .collect();
        FunctionStarts { order, index }
    }

    /// [`SectionCode::function_starts`](super::SectionCode) of `code`.
    pub(super) fn bits_for(&self, code: &super::SectionCode) -> Vec<u64> {
        let mut bits = vec![0u64; code.insns.len().div_ceil(64)];
        for off in self.order.offsets_in(code.section) {
            if let Some(i) = code.index_at(off) {
                bits[i / 64] |= 1 << (i % 64);
            }
        }
        bits
    }

    /// The function starting exactly at a place.
    #[inline]
    pub(super) fn get(&self, section: usize, offset: u64) -> Option<usize> {
        let w = Places::word(section, offset)?;
        self.index.get(&w).map(|&i| i as usize)
    }
}

impl<'a> Model<'a> {
    /// Whether `name` is a `.cold` part of `f` (`f.cold`, `f.cold.1`) under
    /// any of its names: the one kept for aliases may not be the one the
    /// compiler named the part after (`module_init(virtio_init)` aliases
    /// `init_module` to `virtio_init`, whose part is `virtio_init.cold`).
    pub fn is_cold_part_of(&self, f: &Function, name: &str) -> bool {
        super::walk::is_cold_part(f.name, name) || self.is_cold_part_of_alias(f, name)
    }

    // Rare (a branch into a `.cold` part not named after the function):
    // kept out of the walk loop's code.
    #[cold]
    #[inline(never)]
    fn is_cold_part_of_alias(&self, f: &Function, name: &str) -> bool {
        let Some(parent) = name.find(".cold").map(|k| &name[..k]) else {
            return false;
        };
        self.obj.symbols.iter().any(|s| {
            s.is_func()
                && s.name == parent
                && s.section_index() == Some(f.section)
                && s.value == f.start
        })
    }

    /// Whether a place is code of `f`: in its range or in a `.cold` part of
    /// it (objtool's `pfunc`).
    pub fn in_function_or_cold_part(&self, f: &Function, section: usize, offset: u64) -> bool {
        (section == f.section && offset >= f.start && offset < f.end)
            || self
                .function_containing(section, offset)
                .is_some_and(|g| self.is_cold_part_of(f, self.functions[g].name))
    }

    /// The function starting exactly at a place.
    pub fn function_at_start(&self, section: usize, offset: u64) -> Option<usize> {
        self.starts.get(section, offset)
    }

    /// [`Model::function_at_start`] of `f`'s start: its index when `f` is
    /// one of this model's functions (no two start at one place), told
    /// from where it lies without a lookup (a miss in a map of every
    /// function's start on vmlinux.o), else looked up.
    pub fn function_index_of(&self, f: &Function) -> Option<usize> {
        let all = self.functions.as_ptr_range();
        let at = f as *const Function;
        if all.contains(&at) {
            return Some((at as usize - all.start as usize) / std::mem::size_of::<Function>());
        }
        self.function_at_start(f.section, f.start)
    }

    /// Whether a function ends exactly at a place (`sym+size`, the end of a
    /// range as range checks use it).
    pub fn function_ends_at(&self, section: usize, offset: u64) -> bool {
        offset > 0
            && self
                .function_containing(section, offset - 1)
                .is_some_and(|f| self.functions[f].end == offset)
    }

    /// Sized `STT_NOTYPE` symbols of code, hand-written routines
    /// (`SYM_CODE_START`): (section, start, end, symbol), sorted; built on
    /// first use.
    pub fn code_symbols(&self) -> &[(usize, u64, u64, usize)] {
        self.code_symbols.get_or_init(|| {
            let mut v: Vec<(usize, u64, u64, usize)> = self
                .obj
                .symbols
                .iter()
                .filter(|s| {
                    s.st_type == crate::elf::STT_NOTYPE && s.size > 0 && !s.name.starts_with('$')
                })
                .filter_map(|s| {
                    let sec = s.section_index()?;
                    self.section_code(sec)?;
                    Some((sec, s.value, s.value.saturating_add(s.size), s.index))
                })
                .collect();
            v.sort_unstable();
            v
        })
    }

    /// The symbol of a sized code routine ([`Model::code_symbols`]) that
    /// covers a place.
    pub fn code_symbol_containing(&self, section: usize, offset: u64) -> Option<usize> {
        self.code_symbols()
            .iter()
            .find(|&&(s, lo, hi, _)| s == section && lo <= offset && offset < hi)
            .map(|r| r.3)
    }

    /// Whether a sized code routine ([`Model::code_symbols`]) starts at a place.
    pub fn code_symbol_starts_at(&self, section: usize, offset: u64) -> bool {
        self.code_symbols()
            .iter()
            .any(|&(s, lo, _, _)| s == section && lo == offset)
    }

    /// Whether a function or a sized code routine ends exactly at a place
    /// (`sym+size`, the end of a range as range checks use it).
    pub fn range_ends_at(&self, section: usize, offset: u64) -> bool {
        self.function_ends_at(section, offset)
            || (offset > 0
                && self
                    .code_symbols()
                    .iter()
                    .any(|&(s, _, hi, _)| s == section && hi == offset))
    }

    /// The ranges of a section no function covers, in order; the last runs
    /// on to the end (`u64::MAX`).
    pub fn outside_functions(&self, section: usize) -> Vec<(u64, u64)> {
        let lo = self.functions.partition_point(|f| f.section < section);
        let hi = self.functions.partition_point(|f| f.section <= section);
        let mut out = Vec::new();
        let mut to = 0;
        for i in lo..hi {
            let f = &self.functions[i];
            if f.start > to {
                out.push((to, f.start));
            }
            to = self.reach[i];
        }
        out.push((to, u64::MAX));
        out
    }

    /// The function containing a place: the one starting last at or before
    /// it whose range covers it (a symbol nested in a larger function does
    /// not hide the outer one past its own end).
    pub fn function_containing(&self, section: usize, offset: u64) -> Option<usize> {
        let i = self.starts.order.count_before(section, offset, true);
        self.containing_before(i, section, offset)
    }

    /// [`Model::function_containing`], and the end of the span from
    /// `offset` on over which the answer stays the same (no function starts
    /// inside it, and the one found covers it): walks ask for every
    /// instruction they take outside their root.
    pub fn function_containing_span(&self, section: usize, offset: u64) -> (Option<usize>, u64) {
        let i = self.starts.order.count_before(section, offset, true);
        let next = self
            .functions
            .get(i)
            .filter(|f| f.section == section)
            .map_or(u64::MAX, |f| f.start);
        let found = self.containing_before(i, section, offset);
        let end = match found {
            Some(k) => next.min(self.functions[k].end),
            None => next,
        };
        (found, end.max(offset.saturating_add(1)))
    }

    /// The search of [`Model::function_containing`] back from the first
    /// function starting after the place.
    fn containing_before(&self, mut i: usize, section: usize, offset: u64) -> Option<usize> {
        while i > 0 {
            i -= 1;
            let f = &self.functions[i];
            if f.section != section || self.reach[i] <= offset && f.start != offset {
                return None;
            }
            if offset < f.end || f.start == offset {
                return Some(i);
            }
        }
        None
    }

    /// The first non-prefix function that starts at or after a place, in the same section.
    pub fn next_function(&self, section: usize, offset: u64) -> Option<usize> {
        let i = self.starts.order.count_before(section, offset, false);
        self.functions[i..]
            .iter()
            .position(|f| !f.prefix || f.section != section)
            .map(|k| i + k)
            .filter(|&k| self.functions[k].section == section)
    }

    /// Whether a symbol of code (a function or a label of hand-written
    /// code) starts at a place.
    pub fn symbol_starts_at(&self, section: usize, offset: u64) -> bool {
        self.symbol_starts.contains(section, offset)
    }

    /// A stand-in function of no extent at a place, to walk code outside
    /// every function from (entry code reached through unwind hints).
    pub fn pseudo_function(&self, section: usize, offset: u64) -> Function<'a> {
        Function {
            sym: 0,
            name: "",
            section,
            start: offset,
            end: offset,
            prefix: false,
            weak: false,
            global: false,
            insns: 0..0,
        }
    }
}

#[cfg(test)]
mod tests {
    /// `Places` answers as the sorted list of (section, offset) pairs it
    /// stands for: membership of every place, wide ones included, and the
    /// partition points of the places that fit a word, for offsets and
    /// sections past 32 bits too.
    #[test]
    fn places_answer_as_sorted_pairs() {
        let pairs = [
            (1, 16),
            (1, 0),
            (1, 0xffff_fff0),
            (1, 0xffff_fff0),
            (2, 5),
            (2, 0),
            (3, 1 << 40),
            (0, 7),
        ];
        let p = super::Places::new(pairs);
        let mut narrow: Vec<(usize, u64)> = pairs
            .iter()
            .copied()
            .filter(|&(_, o)| o <= u64::from(u32::MAX))
            .collect();
        narrow.sort_unstable();
        narrow.dedup();
        let offsets = [
            0,
            1,
            5,
            7,
            16,
            17,
            0xffff_fff0,
            0xffff_ffff,
            1 << 32,
            1 << 40,
            u64::MAX,
        ];
        for section in [0, 1, 2, 3, 4, u32::MAX as usize, usize::MAX] {
            for offset in offsets {
                let at = (section, offset);
                assert_eq!(p.contains(section, offset), pairs.contains(&at), "{at:?}");
                let le = narrow.partition_point(|&x| x <= at);
                let lt = narrow.partition_point(|&x| x < at);
                assert_eq!(p.count_before(section, offset, true), le, "{at:?} <=");
                assert_eq!(p.count_before(section, offset, false), lt, "{at:?} <");
            }
        }
    }

    /// The searches by place answer as a scan of every function would:
    /// containing, the last (by start) covering the place or starting at
    /// it; next, the first non-prefix one starting at or after it; starting
    /// exactly there; on every offset of every fixture's code (and one past
    /// each section's end).
    #[test]
    fn searches_by_place_agree_with_a_scan() {
        let mut asked = 0;
        crate::model::each_fixture_model(&["testdata"], |path, obj, m| {
            for sec in obj.sections.iter().filter(|s| s.is_exec()) {
                let own: Vec<usize> = (0..m.functions.len())
                    .filter(|&i| m.functions[i].section == sec.index)
                    .collect();
                for off in 0..=sec.size.min(1 << 14) {
                    let containing = own.iter().copied().rev().find(|&i| {
                        let f = &m.functions[i];
                        f.start <= off && (off < f.end || f.start == off)
                    });
                    let next = own.iter().copied().find(|&i| {
                        let f = &m.functions[i];
                        f.start >= off && !f.prefix
                    });
                    let start = own.iter().copied().find(|&i| m.functions[i].start == off);
                    let at = format!("{path}: section {} {off:#x}", sec.index);
                    assert_eq!(m.function_containing(sec.index, off), containing, "{at}");
                    assert_eq!(m.next_function(sec.index, off), next, "{at}");
                    assert_eq!(m.function_at_start(sec.index, off), start, "{at}");
                    asked += 1;
                }
            }
        });
        assert!(asked > 100_000, "{asked} places: too few to say anything");
    }

    /// What a walk asks of a call's callee by the call's link and the
    /// function's flags byte, and of its root by where the root lies, is
    /// what the lookups by place and symbol say: every function is the one
    /// starting where it does, every call's link (and every branch's
    /// callee by it) is the function starting at its destination, and
    /// every function's byte holds its symbol's thunk and frame-exempt
    /// flags and whether no instruction starts where it does (its section
    /// decoded), on every fixture.
    #[test]
    fn call_links_and_function_flags_agree_with_the_lookups() {
        use crate::arch::Kind;
        use crate::model::Dest;
        let (mut calls, mut funcs, mut undecoded_seen) = (0, 0, 0);
        let (mut jumps, mut tail_jumps) = (0, 0);
        crate::model::each_fixture_model(&["testdata"], |path, _obj, m| {
            for (i, f) in m.functions.iter().enumerate() {
                let undecoded = m
                    .section_code(f.section)
                    .is_some_and(|c| c.index_at(f.start).is_none());
                let at = format!("{path}: {}", f.name);
                assert_eq!(m.function_at_start(f.section, f.start), Some(i), "{at}");
                assert_eq!(m.function_index_of(f), Some(i), "{at}");
                let copy = f.clone();
                assert_eq!(m.function_index_of(&copy), Some(i), "{at}");
                undecoded_seen += usize::from(undecoded);
                assert_eq!(
                    m.is_special_callee_fn(i),
                    m.is_frame_exempt_sym(f.sym) || undecoded,
                    "{at}"
                );
                assert_eq!(
                    m.is_indirect_thunk_fn(i),
                    m.is_indirect_thunk_sym(f.sym),
                    "{at}"
                );
                funcs += 1;
            }
            for c in m.code.iter().flatten() {
                for (i, ins) in c.insns.iter().enumerate() {
                    let here = m.function_at_start(c.section, ins.offset());
                    assert_eq!(c.may_start_function(i), here.is_some(), "{path} #{i}");
                    jumps += usize::from(ins.kind.is_branch());
                    tail_jumps += usize::from(
                        ins.kind == Kind::Jump
                            && c.link(i).is_some_and(|j| c.may_start_function(j)),
                    );
                    let (dest, link) = c.dest_link(i);
                    let Dest::Local { section, offset } = dest else {
                        continue;
                    };
                    let at = format!("{path}: branch at {:#x}", ins.offset());
                    let start = m.function_at_start(section, offset);
                    assert_eq!(m.function_at_branch_dest(c, i, dest), start, "{at}");
                    if matches!(ins.kind, Kind::Call | Kind::IndirectCall) {
                        assert_eq!(link, start, "{at}");
                        calls += 1;
                    }
                }
            }
        });
        assert!(
            calls > 500 && funcs > 1000 && tail_jumps > 10 && jumps > 5000,
            "{calls} calls, {funcs} functions, {tail_jumps} of {jumps} jumps to a start: too few"
        );
        // testdata/stack/x86-call-to-end.s
        assert!(
            undecoded_seen > 0,
            "no function starts where no instruction does"
        );
    }

    /// Over every span it gives, `function_containing_span`'s answer is
    /// `function_containing`'s at each offset (nested and size-less
    /// functions, gaps and section ends included), on every fixture.
    #[test]
    fn spans_hold_the_answer_throughout() {
        let mut spans = 0;
        crate::model::each_fixture_model(&["testdata"], |path, obj, m| {
            for sec in obj.sections.iter().filter(|s| s.is_exec()) {
                let mut off = 0;
                while off < sec.size.min(1 << 16) {
                    let (found, end) = m.function_containing_span(sec.index, off);
                    assert_eq!(found, m.function_containing(sec.index, off), "{path}");
                    assert!(end > off, "{path} {off:#x}");
                    for o in off..end.min(sec.size + 1) {
                        assert_eq!(
                            m.function_containing(sec.index, o),
                            found,
                            "{path}: section {} {o:#x} in the span {off:#x}..{end:#x}",
                            sec.index
                        );
                    }
                    spans += 1;
                    off = end;
                }
            }
        });
        assert!(spans > 1000, "{spans} spans: too few to say anything");
    }
}
