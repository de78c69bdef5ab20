//! Which calls never return: listed by the rules or DWARF, or proven by
//! walking the callee (a least fixed point over the object's call graph),
//! and linked across the members of an archive.

use super::{Dest, Function, Model, SectionCode, walk};
use crate::arch::Kind;
use crate::elf::{Object, STB_GLOBAL};
use crate::rules::{NameSet, RenamePrefix};
use rayon::prelude::*;

/// Per symbol: named noreturn by the rules, or by the object's own DWARF
/// (`declared`, sorted: `DW_AT_noreturn` on a declaration or definition),
/// also under a prefix objcopy gave it (`renamed`: vmlinux.o's
/// `__kvm_nvhe___hyp_do_panic` is DWARF's `__hyp_do_panic`).
pub(super) fn listed_noreturn(
    obj: &Object,
    names: &NameSet,
    declared: &[String],
    renamed: &[RenamePrefix],
) -> Vec<bool> {
    let listed = |name: &str| {
        names.contains(name) || declared.binary_search_by(|d| d.as_str().cmp(name)).is_ok()
    };
    obj.symbols
        .iter()
        .map(|s| {
            let candidate = match s.section {
                crate::elf::SymSection::Undef => s.index != 0,
                // Functions, and the global labels of hand-written code
                // (SYM_CODE_START: vmlinux.o's rewind_stack_and_make_dead).
                crate::elf::SymSection::Section(_) => {
                    (s.is_func() || s.st_type == crate::elf::STT_NOTYPE) && s.is_global()
                }
                _ => false,
            };
            candidate
                && (listed(&s.name)
                    || renamed.iter().any(|r| {
                        s.name
                            .strip_prefix(r.prefix.as_str())
                            .is_some_and(|rest| !rest.is_empty() && listed(rest))
                    }))
        })
        .collect()
}

/// Where the listed labels of code that are no function of the model start
/// (`STT_NOTYPE` symbols: Linux's SYM_CODE_START), sorted.
pub(super) fn listed_labels(obj: &Object, listed: &[bool]) -> Vec<(usize, u64)> {
    let mut out: Vec<(usize, u64)> = obj
        .symbols
        .iter()
        .filter(|s| s.st_type == crate::elf::STT_NOTYPE && listed[s.index])
        .filter_map(|s| Some((s.section_index()?, s.value)))
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// The undefined symbols named in `names` (rules/noreturn.toml `markers`).
pub(super) fn markers(obj: &Object, names: &[String]) -> Vec<usize> {
    if names.is_empty() {
        return Vec::new();
    }
    obj.symbols
        .iter()
        .filter(|s| {
            s.index != 0
                && matches!(s.section, crate::elf::SymSection::Undef)
                && names.iter().any(|n| *n == *s.name)
        })
        .map(|s| s.index)
        .collect()
}

/// How far back from a call its marker may be (the arguments set up between).
const MARKER_WINDOW: usize = 12;

/// Functions per parallel chunk when collecting callers.
const CALLER_CHUNK: usize = 512;
/// Sections a job of [`Model::transfers_outside_functions`] looks at (a
/// ThinLTO vmlinux.o has 284,616, most without code).
const SECTIONS_PER_JOB: usize = 512;
/// Functions of one section a job of [`Model::transfers_outside_functions`]
/// looks at (gcc's vmlinux.o has 40 K in `.text`: one job was 2-4 ms with
/// the other thread idle).
const FUNCTIONS_PER_JOB: usize = 4096;

/// Per function, the functions of the object that branch to its start
/// (compressed rows: `by[start[f]..start[f + 1]]`, in caller order; a caller
/// branching twice is listed twice).
struct Callers {
    start: Vec<u32>,
    by: Vec<u32>,
}

impl Callers {
    fn of(&self, f: usize) -> &[u32] {
        &self.by[self.start[f] as usize..self.start[f + 1] as usize]
    }
}

impl<'a> Model<'a> {
    /// Whether a call to `dest` never returns.
    pub fn is_noreturn(&self, dest: Dest) -> bool {
        match dest {
            Dest::External { sym } => self.listed_noreturn[sym],
            Dest::Local { section, offset } => {
                self.function_at_start(section, offset)
                    .is_some_and(|i| self.function_noreturn(i))
                    || self.listed_label(section, offset)
            }
            Dest::None => false,
        }
    }

    /// Whether a listed noreturn label that is no function starts here.
    fn listed_label(&self, section: usize, offset: u64) -> bool {
        !self.noreturn_labels.is_empty()
            && self
                .noreturn_labels
                .binary_search(&(section, offset))
                .is_ok()
    }

    /// Whether the direct call at index `i` never returns.
    pub fn call_is_noreturn(&self, code: &SectionCode, i: usize) -> bool {
        let (dest, link) = code.dest_link(i);
        self.goes_to_noreturn(dest, link)
    }

    /// The conditional branches of `code.insns[range]` by target, and its
    /// calls the rules or declarations say never return: known before
    /// noreturn inference, which reads the switch tables these help find.
    pub fn cond_targets(
        &self,
        code: &SectionCode,
        range: std::ops::Range<usize>,
    ) -> crate::arch::CondTargets {
        let start = range.start;
        let dead = range
            .clone()
            // Calls through a GOT slot (`call *sym@GOTPCREL(%rip)`) have
            // their symbol as destination.
            .filter(|&k| matches!(code.insns[k].kind, Kind::Call | Kind::IndirectCall))
            .filter(|&k| match code.dest_link(k) {
                (Dest::External { sym }, _) => self.listed_noreturn[sym],
                (Dest::Local { section, offset }, link) => {
                    link.is_some_and(|c| self.declared_noreturn(c) || self.ends_in_trap(c))
                        || self.listed_label(section, offset)
                }
                (Dest::None, _) => false,
            })
            .map(|k| k - start)
            .collect();
        let resuming: Vec<usize> = range
            .clone()
            .filter(|&k| code.insns[k].kind == Kind::Trap && self.resumes_after(code, k))
            .map(|k| k - start)
            .collect();
        let mut t = crate::arch::CondTargets::new(&code.insns[range], dead);
        t.set_resuming(resuming);
        t
    }

    /// [`Model::call_is_noreturn`] from the call's destination and link.
    pub(super) fn goes_to_noreturn(&self, dest: Dest, link: Option<usize>) -> bool {
        match dest {
            Dest::External { sym } => self.listed_noreturn[sym],
            Dest::Local { section, offset } => {
                link.is_some_and(|c| self.function_noreturn(c))
                    || self.listed_label(section, offset)
            }
            Dest::None => false,
        }
    }

    /// Whether `ins`, an indirect call, is the last instruction of `owner`
    /// and `owner` is declared noreturn (DWARF's `DW_AT_noreturn` or the
    /// rules, not inferred): the compiler put nothing after the call because
    /// the pointer's type is noreturn (the arm64 EFI stub's
    /// `efi_enter_kernel`), a fact the object has no other place for.
    pub fn ends_declared_noreturn(&self, owner: Option<usize>, ins: &crate::arch::Insn) -> bool {
        owner.is_some_and(|o| ins.end() == self.functions[o].end && self.declared_noreturn(o))
    }

    /// Whether the call at `i` follows a call to a noreturn marker with
    /// nothing but straight-line code between: KASAN instruments every call
    /// that never returns with `__asan_handle_no_return()` just before it,
    /// also one through a pointer whose type is noreturn (arm64
    /// hibernate.c's `hibernate_exit`), which nothing else in the object
    /// says.
    pub fn marked_noreturn(&self, code: &SectionCode, i: usize) -> bool {
        if self.noreturn_markers.is_empty() {
            return false;
        }
        for k in (i.saturating_sub(MARKER_WINDOW)..i).rev() {
            let ins = &code.insns[k];
            if ins.kind == Kind::Call {
                return matches!(code.dest(k), Dest::External { sym }
                    if self.noreturn_markers.binary_search(&sym).is_ok());
            }
            if ins.kind.bit() & Kind::TRANSFERS != 0 || ins.kind.ends_flow() {
                return false;
            }
            if k > 0 && code.insns[k - 1].end() != ins.offset() {
                return false;
            }
        }
        false
    }

    /// Function `i` runs straight to a trap that is its last instruction
    /// and that no table says execution resumes after: a BUG() split off
    /// by gcc (`__offset_PIPE.part.0`, msm.ko in Linux 7.2), noreturn
    /// whether or not anything declares it so.
    fn ends_in_trap(&self, i: usize) -> bool {
        let f = &self.functions[i];
        let Some(code) = self.section_code(f.section) else {
            return false;
        };
        let range = self.insn_range(f);
        let start = range.start;
        let insns = &code.insns[range];
        let Some(last) = insns
            .iter()
            .rposition(|i| !matches!(i.kind, Kind::Nop | Kind::Pad(_)))
        else {
            return false;
        };
        insns[last].kind == Kind::Trap
            && !insns[last].is_kcfi_trap()
            && !self.resumes_after(code, start + last)
            && insns[..last]
                .iter()
                .all(|i| i.kind.is_straight() || matches!(i.kind, Kind::Pad(_)))
    }

    /// Whether a table or annotation says execution resumes after
    /// instruction `k` of `code` (a WARN's trap, `.discard.reachable`).
    fn resumes_after(&self, code: &SectionCode, k: usize) -> bool {
        self.special()
            .at(code.section, &code.insns[k])
            .is_some_and(|m| m.resumes)
    }

    fn function_noreturn(&self, i: usize) -> bool {
        self.noreturn[i] || self.declared_noreturn(i)
    }

    /// Function `i` is named noreturn by the rules or DWARF (not inferred).
    /// A weak definition that can return is what this object's calls reach
    /// unless the link replaces it: Linux 6.1's empty `arch_cpu_idle_dead()`
    /// default returns where 6.12's (listed, `__noreturn`) loops, and objtool
    /// 6.1 never took a weak symbol from its list.
    fn declared_noreturn(&self, i: usize) -> bool {
        let f = &self.functions[i];
        self.listed_noreturn[f.sym] && (f.global || f.weak && !self.may_return(f))
    }

    /// Whether some path through `f` may return to its caller. A return
    /// instruction anywhere in its own range counts, reached or not (as
    /// objtool's `dead_end_function`): one no path reaches is entered some way
    /// the walk does not see (vmlinux.o's `__efi64_thunk` comes back from
    /// 32-bit code by a far jump to its `ret`).
    pub fn may_return(&self, f: &Function) -> bool {
        // By place among the transfers: the destination without a search
        // for the instruction's place.
        if let Some(code) = self.section_code(f.section)
            && code.transfer_places(self.insn_range(f)).any(|k| {
                let ins = &code.insns[code.transfers()[k] as usize];
                ins.kind == Kind::Return
                    || (ins.kind == Kind::Jump && self.is_return_thunk(code.dest_at(k)))
            })
        {
            return true;
        }
        let mut v = walk::MayReturn::new(self, f);
        walk::Walker::new(self).walk(f, (), &mut v);
        // Nothing reached: no instruction at the entry.
        v.returns || !v.entered
    }

    /// Every global, non-weak function symbol this object defines (aliases
    /// included), and whether the function never returns (listed, declared
    /// or proven here): what other members of its archive may rely on.
    pub fn strong_definitions(&self) -> Vec<(&'a str, bool)> {
        self.obj
            .symbols
            .iter()
            .filter(|s| s.is_func() && s.bind == STB_GLOBAL && !s.name.is_empty())
            .filter_map(|s| {
                let i = self.function_at_start(s.section_index()?, s.value)?;
                Some((&*s.name, self.function_noreturn(i)))
            })
            .collect()
    }

    /// Proves which global functions never return, also those nothing in
    /// this object calls (by default only functions some branch here goes
    /// to are asked): other members of its archive call them.
    pub fn prove_exports(&mut self) {
        if !self.exports_asked {
            self.exports_asked = true;
            self.infer_noreturn();
        }
    }

    /// Takes the functions named in `names` as noreturn where this object
    /// calls them undefined: the other members of its archive define them and
    /// none of their paths returns, as a link of the archive would show.
    /// Inference runs again from the new facts. Whether any call changed.
    pub fn link_noreturn(&mut self, names: &rustc_hash::FxHashSet<String>) -> bool {
        let mut changed = false;
        for s in &self.obj.symbols {
            if s.index != 0
                && s.section == crate::elf::SymSection::Undef
                && !self.listed_noreturn[s.index]
                && names.contains(&*s.name)
            {
                self.listed_noreturn[s.index] = true;
                changed = true;
            }
        }
        if changed {
            self.infer_noreturn();
        }
        changed
    }

    /// Least fixed point: a function is noreturn once none of its paths can
    /// return given the noreturn functions known so far.
    pub(super) fn infer_noreturn(&mut self) {
        let eligible =
            |m: &Self, i: usize| !m.noreturn[i] && !m.functions[i].weak && !m.functions[i].prefix;
        // Only callers (and tail-callers) of a function found noreturn can
        // change their answer, so later rounds re-walk just those.
        let callers = self.local_callers();
        // A function's own answer is only ever asked through a branch to its
        // start, so functions nothing in this object branches to are skipped.
        let mut consulted = self.branched_to(&callers);
        // In an archive, other members ask about global functions too.
        if self.exports_asked {
            for (i, f) in self.functions.iter().enumerate() {
                consulted[i] |= f.global;
            }
        }
        let mut cand: Vec<usize> = (0..self.functions.len())
            .filter(|&i| consulted[i] && eligible(self, i))
            .collect();
        while !cand.is_empty() {
            let found: Vec<usize> = cand
                .par_iter()
                .copied()
                .filter(|&i| !self.may_return(&self.functions[i]))
                .collect();
            for &i in &found {
                self.noreturn[i] = true;
            }
            let mut next: Vec<usize> = found
                .iter()
                .flat_map(|&f| callers.of(f).iter().map(|&by| by as usize))
                .filter(|&i| eligible(self, i))
                .collect();
            next.sort_unstable();
            next.dedup();
            cand = next;
        }
    }

    /// The callers (and tail-callers) of each function: its direct calls and
    /// jumps to function starts from within functions of this object
    /// (recursion included). Functions are scanned in parallel chunks and
    /// bucketed by callee, so each caller list is sorted without a sort.
    fn local_callers(&self) -> Callers {
        let chunks: Vec<Vec<(u32, u32)>> = self
            .functions
            .par_chunks(CALLER_CHUNK)
            .with_max_len(4)
            .enumerate()
            .map(|(k, fs)| {
                let mut out = Vec::new();
                for (j, f) in fs.iter().enumerate() {
                    let Some(code) = self.section_code(f.section) else {
                        continue;
                    };
                    let fi = (k * CALLER_CHUNK + j) as u32;
                    for t in code.transfer_places(self.insn_range(f)) {
                        if let Some(callee) = self.branch_callee(code, t) {
                            out.push((callee as u32, fi));
                        }
                    }
                }
                out
            })
            .collect();
        let mut start = vec![0u32; self.functions.len() + 1];
        for &(callee, _) in chunks.iter().flatten() {
            start[callee as usize + 1] += 1;
        }
        for i in 1..start.len() {
            start[i] += start[i - 1];
        }
        let mut fill = start.clone();
        let mut by = vec![0u32; *start.last().unwrap_or(&0) as usize];
        // Chunks and their pairs in function order: each bucket fills in
        // caller order, repeats adjacent.
        for &(callee, caller) in chunks.iter().flatten() {
            let at = &mut fill[callee as usize];
            by[*at as usize] = caller;
            *at += 1;
        }
        Callers { start, by }
    }

    /// The function the transfer at place `k` of
    /// [`SectionCode::transfers`] goes to the start of.
    fn branch_callee(&self, code: &SectionCode, k: usize) -> Option<usize> {
        if !code.may_go_local(k) {
            return None;
        }
        let i = code.transfers()[k] as usize;
        match code.dest_at(k) {
            Dest::Local { .. } if code.insns[i].kind == Kind::Call => code.link_at(k),
            // A jump's link is the instruction at its target in this
            // section (a call's, through a GOT slot too, is a function):
            // most start no function.
            Dest::Local { section, .. }
                if section == code.section
                    && matches!(code.insns[i].kind, Kind::Jump | Kind::CondJump)
                    && code.link_at(k).is_some_and(|j| !code.may_start_function(j)) =>
            {
                None
            }
            Dest::Local { section, offset } => self.function_at_start(section, offset),
            _ => None,
        }
    }

    /// The function starting at `dest`, where the branch at index `i` of
    /// `code` goes: [`Model::branch_callee`] (a call's link, found when the
    /// section was decoded) when that is the branch's destination, else
    /// looked up by place.
    pub(crate) fn function_at_branch_dest(
        &self,
        code: &SectionCode,
        i: usize,
        dest: Dest,
    ) -> Option<usize> {
        let Dest::Local { section, offset } = dest else {
            return None;
        };
        match code.transfer(i) {
            Some(k) if code.dest_at(k) == dest => self.branch_callee(code, k),
            _ => self.function_at_start(section, offset),
        }
    }

    /// Functions some branch in this object goes to: the callees in
    /// `callers`, and the targets of branches outside every function
    /// (alternative replacements, code between functions).
    fn branched_to(&self, callers: &Callers) -> Vec<bool> {
        let mut out: Vec<bool> = (0..self.functions.len())
            .map(|f| !callers.of(f).is_empty())
            .collect();
        for (sec, k) in self.transfers_outside_functions() {
            if let Some(code) = self.section_code(sec)
                && let Some(callee) = self.branch_callee(code, k)
            {
                out[callee] = true;
            }
        }
        out
    }

    /// The transfers (section, index among its transfers) outside every
    /// function: per section, those before its first function, in each gap
    /// between the farthest end of the functions so far and the next start,
    /// and after the last, found by search (a scan of every transfer cost a
    /// ThinLTO vmlinux.o 43 ms of CPU for its 3,622).
    fn transfers_outside_functions(&self) -> Vec<(usize, usize)> {
        self.transfers_outside_functions_by(FUNCTIONS_PER_JOB)
    }

    /// [`Model::transfers_outside_functions`], a section's functions looked
    /// at `per_job` at a time.
    fn transfers_outside_functions_by(&self, per_job: usize) -> Vec<(usize, usize)> {
        let n = self.functions.len();
        let found: Vec<Vec<(usize, usize)>> = self
            .code
            .par_chunks(SECTIONS_PER_JOB)
            .enumerate()
            .map(|(j, chunk)| {
                let mut out = Vec::new();
                // Functions are in section order: a search for the first
                // section, then steps (one search per section cost the
                // ThinLTO vmlinux.o's 61 K sections of code 40 ms).
                let base = j * SECTIONS_PER_JOB;
                let mut lo = self.functions.partition_point(|f| f.section < base);
                for (k, c) in chunk.iter().enumerate() {
                    let sec = base + k;
                    while lo < n && self.functions[lo].section < sec {
                        lo += 1;
                    }
                    let mut hi = lo;
                    while hi < n && self.functions[hi].section == sec {
                        hi += 1;
                    }
                    match c.as_deref() {
                        Some(code) if hi - lo > per_job => {
                            let starts: Vec<usize> = (lo..hi).step_by(per_job).collect();
                            let parts: Vec<Vec<(usize, usize)>> = starts
                                .par_iter()
                                .map(|&p| {
                                    let mut part = Vec::new();
                                    let piece = p..(p + per_job).min(hi);
                                    self.transfers_outside_in(sec, code, piece, lo..hi, &mut part);
                                    part
                                })
                                .collect();
                            out.extend(parts.into_iter().flatten());
                        }
                        Some(code) => {
                            self.transfers_outside_in(sec, code, lo..hi, lo..hi, &mut out)
                        }
                        None => {}
                    }
                    lo = hi;
                }
                out
            })
            .collect();
        found.concat()
    }

    /// [`Model::transfers_outside_functions`] of section `sec`, whose
    /// functions are `all`, into `out`: those in the gaps before the
    /// functions of `piece` (and after the last, when it is the section's).
    fn transfers_outside_in(
        &self,
        sec: usize,
        code: &SectionCode,
        piece: std::ops::Range<usize>,
        all: std::ops::Range<usize>,
        out: &mut Vec<(usize, usize)>,
    ) {
        let transfers = code.transfers();
        if transfers.is_empty() {
            return;
        }
        // Gaps come in order: each search goes on from where the last ended.
        let mut next = 0;
        let mut gap = |from: u64, to: u64| {
            let (a, b) = (code.lower_bound(from) as u32, code.lower_bound(to) as u32);
            let first = gallop(transfers, next, a);
            next = gallop(transfers, first, b);
            out.extend((first..next).map(|k| (sec, k)));
        };
        // The farthest end of the section's functions before the piece.
        let mut from = match piece.start.checked_sub(1) {
            Some(p) if p >= all.start => self.reach[p],
            _ => 0,
        };
        let last = piece.end == all.end;
        for p in piece {
            let start = self.functions[p].start;
            if from < start {
                gap(from, start);
            }
            from = self.reach[p];
        }
        if last {
            gap(from, u64::MAX);
        }
    }
}

/// The first index from `from` on whose value is at least `x`, in sorted
/// `all`: steps that double from `from`, then a search in the last.
fn gallop(all: &[u32], from: usize, x: u32) -> usize {
    let (mut lo, mut step) = (from, 1);
    while lo + step <= all.len() && all[lo + step - 1] < x {
        lo += step;
        step *= 2;
    }
    let hi = (lo + step).min(all.len());
    lo + all[lo..hi].partition_point(|&i| i < x)
}

#[cfg(test)]
mod tests {

    /// The galloping search finds what a search of the whole rest finds,
    /// from any start, in runs of repeats and gaps.
    #[test]
    fn gallop_finds_the_first_at_least() {
        let all: Vec<u32> = (0..300u32)
            .map(|i| i / 3 * 2 + u32::from(i % 7 == 0))
            .collect();
        let mut sorted = all.clone();
        sorted.sort_unstable();
        for from in 0..=sorted.len() {
            for x in 0..=sorted[sorted.len() - 1] + 2 {
                let want = from + sorted[from..].partition_point(|&v| v < x);
                assert_eq!(super::gallop(&sorted, from, x), want, "{from} {x}");
            }
        }
    }

    /// The transfers outside every function, found through the farthest end
    /// of the functions before each, are the ones a map of every function's
    /// instructions gives, on every object under testdata (functions nested
    /// in others, aliases of other sizes, padding between functions).
    #[test]
    fn transfers_outside_functions_match_a_map_of_function_instructions() {
        let (mut outside, mut between) = (0, 0);
        crate::model::each_fixture_model(&["testdata"], |_, _, m| {
            let mut want = Vec::new();
            for (sec, code) in m.code.iter().enumerate() {
                let Some(code) = code else { continue };
                let mut inside = vec![false; code.insns.len()];
                for f in m.functions.iter().filter(|f| f.section == sec) {
                    inside[f.insns.clone()].fill(true);
                }
                for (k, &i) in code.transfers().iter().enumerate() {
                    if !inside[i as usize] {
                        want.push((sec, k));
                        // Past a function of its section: not only
                        // code before the first.
                        let at = code.insns[i as usize].offset();
                        between += usize::from(
                            m.functions.iter().any(|f| f.section == sec && f.start < at),
                        );
                    }
                }
            }
            outside += want.len();
            assert_eq!(m.transfers_outside_functions(), want);
            // A section's functions a few at a time, as a large one's are.
            for per_job in 1..4 {
                assert_eq!(m.transfers_outside_functions_by(per_job), want);
            }
        });
        assert!(
            between > 0 && outside > between,
            "{outside} outside, {between} between functions"
        );
    }
}
