//! `objlint unwind`: the unwind tables objlint computes, and how they agree
//! with the ground truth objects carry — the ORC rows objtool wrote (x86)
//! and the compiler's DWARF CFI (both arches).

use crate::checks::{Ctx, flow};
use crate::config::Options;
use crate::elf::Object;
use crate::elf::orc::OrcEntry;
use crate::model::Model;
use crate::model::cfi::{Cfi, Frame, StateMap};
use crate::model::orc;
use crate::rules::Rules;
use rustc_hash::FxHashMap;
use serde::Serialize;
use std::collections::BTreeMap;

/// Computed ORC rows per section, and states ORC cannot express.
pub struct Computed {
    pub rows: Vec<Vec<(u64, OrcEntry)>>,
    pub unexpressible: usize,
    /// Alternative sites whose versions disagree on a row (sorted).
    pub conflicts: Vec<crate::model::special::At>,
    pub walked: usize,
    /// The stack state before every instruction walked.
    pub states: StateMap,
}

/// The ORC objtool would write for this object, from objlint's walk.
pub fn computed_orc(m: &Model, rules: &Rules, opts: &Options, prefix: Option<u64>) -> Computed {
    let cx = Ctx::new(m, rules, opts);
    let facts = flow::analyze(&cx, true);
    let states = facts.states.by_place();
    let mut ends: FxHashMap<_, Cfi> = FxHashMap::default();
    for (at, c) in facts.replacement_ends {
        ends.entry(at).or_insert(c);
    }
    let frame = Frame::new(m.dec.frame());
    // objtool 7.x names (and gives the entry state to) the padding of the
    // functions a patch site lies exactly `prefix` bytes before.
    let patchable_only = match (
        m.kernel.or(m.orc_since),
        rules.stack.orc_prefix.patchable_only_since,
    ) {
        (Some(k), Some(since)) => k >= since,
        _ => false,
    };
    let only: Option<rustc_hash::FxHashSet<usize>> = prefix.filter(|_| patchable_only).map(|n| {
        m.patchable(&rules.patchable)
            .sites()
            .filter(|s| s.offset + n == m.functions[s.func].start)
            .map(|s| s.func)
            .collect()
    });
    let g = orc::generate(m, &frame, &states, &ends, prefix, only.as_ref());
    Computed {
        rows: g.rows,
        unexpressible: g.unexpressible,
        conflicts: g.conflicts,
        walked: states.len(),
        states,
    }
}

/// How the computed stack states agree with the object's DWARF CFI.
#[derive(Debug, Default, Clone, Serialize)]
pub struct CfiAgreement {
    pub source: Option<String>,
    pub fdes: usize,
    /// Instructions walked and covered by a row, compared.
    pub compared: usize,
    pub agree: usize,
    pub disagree: usize,
    /// Covered instructions the model cannot compare (an expression, a state
    /// from an unwind hint).
    pub not_comparable: usize,
    /// Covered instructions no path reaches.
    pub not_walked: usize,
    /// Why no path reaches them, by class.
    pub not_walked_classes: BTreeMap<&'static str, usize>,
    pub not_walked_examples: Vec<String>,
    pub classes: BTreeMap<String, usize>,
    pub examples: Vec<String>,
    pub errors: Vec<String>,
}

/// Compare the walk's states with the object's DWARF CFI at every
/// instruction a row covers.
///
/// `all_paths` are the rules with every alternative's original followed too
/// (none replacement-only): the model built with them tells code reached
/// only through such an original from dead code.
pub fn compare_cfi(
    m: &Model,
    states: &StateMap,
    examples: usize,
    all_paths: &Rules,
) -> CfiAgreement {
    let other = std::cell::OnceCell::new();
    let mut reach: FxHashMap<usize, Vec<bool>> = FxHashMap::default();
    let mut last_example = None;
    let frame = Frame::new(m.dec.frame());
    let abi = m.dec.frame();
    let t = m.obj.cfi_tables(abi.dwarf_ra, abi.dwarf[abi.fp as usize]);
    let mut a = CfiAgreement {
        source: t.source.clone(),
        fdes: t.fdes,
        errors: t.errors.clone(),
        ..Default::default()
    };
    for (sec, rows) in t.rows.iter().enumerate() {
        let Some(code) = m.section_code(sec) else {
            continue;
        };
        for row in rows {
            let lo = code.lower_bound(row.start);
            for i in lo..code.insns.len() {
                if code.insns[i].offset() >= row.end {
                    break;
                }
                let Some(c) = states.get(&(sec, i)) else {
                    a.not_walked += 1;
                    let mut class = not_walked_class(m, states, code, sec, i);
                    if class == UNREACHED
                        && let Some(fi) = m.function_containing(sec, code.insns[i].offset())
                    {
                        let m2 = other.get_or_init(|| Model::build(m.obj, all_paths));
                        let seen = reach.entry(fi).or_insert_with(|| {
                            m2.functions
                                .get(fi)
                                .filter(|g| g.start == m.functions[fi].start)
                                .map(|g| m2.reachable(g))
                                .unwrap_or_default()
                        });
                        let k = i - m.insn_range(&m.functions[fi]).start;
                        if seen.get(k).copied().unwrap_or(false) {
                            class = "only through the original of a replacement-only alternative (rules/alternatives.toml)";
                        } else if let Some(c) = indirect_class(m, fi) {
                            class = c;
                        }
                    }
                    *a.not_walked_classes.entry(class).or_default() += 1;
                    // The first of each function's, by class.
                    let fi = m.function_containing(sec, code.insns[i].offset());
                    if a.not_walked_examples.len() < examples && last_example != Some((class, fi)) {
                        last_example = Some((class, fi));
                        a.not_walked_examples.push(format!(
                            "{}: {class}",
                            m.place_name(sec, code.insns[i].offset())
                        ));
                    }
                    continue;
                };
                if row.cfa.is_none()
                    || c.ty != crate::model::special::Hint::CALL
                    || c.follow != crate::model::cfi::Follow::Yes
                {
                    a.not_comparable += 1;
                    continue;
                }
                a.compared += 1;
                match frame.cfi_diff(c, row) {
                    None => a.agree += 1,
                    Some(d) => {
                        a.disagree += 1;
                        let class = match d {
                            crate::model::cfi::CfiDiff::Cfa
                                if crate::model::cfi::undescribed_push(code, i, row.start) =>
                            {
                                "cfa: a push in inline assembly the compiler's CFI does not describe"
                                    .to_string()
                            }
                            d => format!("{d:?}"),
                        };
                        *a.classes.entry(class).or_default() += 1;
                        if a.examples.len() < examples {
                            a.examples.push(format!(
                                "{}: {} | {}",
                                m.place_name(sec, code.insns[i].offset()),
                                frame.cfi_row_text(row),
                                frame.describe(c)
                            ));
                        }
                    }
                }
            }
        }
    }
    a
}

const UNREACHED: &str = "inside a walked function, no path reaches it";

/// Why paths of function `fi` may end early: a switch table that could not
/// be read, an indirect jump that is no table.
fn indirect_class(m: &Model, fi: usize) -> Option<&'static str> {
    use crate::arch::Kind;
    let f = &m.functions[fi];
    let code = m.section_code(f.section)?;
    let jumps: Vec<u64> = m
        .insn_range(f)
        .filter(|&j| code.insns[j].kind == Kind::IndirectJump)
        .map(|j| code.insns[j].offset())
        .collect();
    let t = m.jump_tables();
    if jumps.iter().any(|&o| t.unread(f.section, o)) {
        Some("in a function with a switch table objlint could not read")
    } else if jumps.iter().any(|&o| t.cases(f.section, o).is_none()) {
        Some("in a function with an indirect jump that is no switch table")
    } else {
        None
    }
}

/// Why the walk has no state for a covered instruction.
fn not_walked_class(
    m: &Model,
    states: &StateMap,
    code: &crate::model::SectionCode,
    sec: usize,
    i: usize,
) -> &'static str {
    use crate::arch::Kind;
    let ins = &code.insns[i];
    if matches!(ins.kind, Kind::Nop | Kind::Trap | Kind::Breakpoint) {
        return "padding, trap or breakpoint";
    }
    let Some(fi) = m.function_containing(sec, ins.offset()) else {
        return "outside any function symbol";
    };
    let f = &m.functions[fi];
    if !m.insn_range(f).any(|j| states.contains_key(&(sec, j))) {
        if m.special()
            .non_standard
            .binary_search(&(sec, f.start))
            .is_ok()
        {
            return "in a STACK_FRAME_NON_STANDARD function";
        }
        return "in a function the walk does not follow";
    }
    // Dead code after a call that does not return.
    let range = m.insn_range(f);
    if let Some(j) = (range.start..i)
        .rev()
        .find(|&j| states.contains_key(&(sec, j)))
        && code.insns[j].kind == Kind::Call
    {
        return "after a call that does not return";
    }
    UNREACHED
}

/// How two ORC tables of one object's code agree.
#[derive(Debug, Default, Clone, Serialize)]
pub struct OrcAgreement {
    /// Row addresses of either table, compared.
    pub compared: usize,
    pub agree: usize,
    pub disagree: usize,
    /// Rows in the reference table, in the computed one.
    pub reference_rows: usize,
    pub computed_rows: usize,
    /// Disagreements by what differs.
    pub classes: BTreeMap<String, usize>,
    /// A few disagreements: `function+0xoff: reference | computed`.
    pub examples: Vec<String>,
}

fn effective(rows: &[(u64, OrcEntry)], at: u64) -> OrcEntry {
    let i = rows.partition_point(|r| r.0 <= at);
    i.checked_sub(1)
        .map_or_else(OrcEntry::undefined, |i| rows[i].1)
}

/// Why the two tables differ at a row address, as far as the object tells.
fn class(
    m: &Model,
    conflicts: &[crate::model::special::At],
    reference: &[(u64, OrcEntry)],
    sec: usize,
    ip: u64,
    r: &OrcEntry,
    c: &OrcEntry,
) -> String {
    let und = |e: &OrcEntry| e.ty == 0;
    // A final module: the link dropped objtool's `.discard.*` annotations.
    let linked = !m.special().annotated
        && ["__ksymtab", ".gnu.linkonce.this_module", ".modinfo"]
            .iter()
            .any(|s| !m.obj.sections_named(s).is_empty());
    if und(c) && !und(r) {
        // The instruction before: a call objlint knows never returns?
        if let Some(code) = m.section_code(sec) {
            let i = code.lower_bound(ip);
            if let Some(p) = i.checked_sub(1)
                && code.insns[p].kind == crate::arch::Kind::Call
                && m.call_is_noreturn(code, p)
            {
                return "after a call objlint proves never returns".into();
            }
        }
        return if linked {
            "not walked by objlint: reached through annotations the module link dropped".into()
        } else {
            "not walked by objlint".into()
        };
    }
    if und(r) && !und(c) {
        // objtool wrote nothing for the whole function: it was told not to
        // follow it (STACK_FRAME_NON_STANDARD), in an annotation now gone.
        if let Some(fi) = m.function_containing(sec, ip) {
            let f = &m.functions[fi];
            let lo = reference
                .partition_point(|x| x.0 <= f.start)
                .saturating_sub(1);
            let silent = reference[lo..]
                .iter()
                .take_while(|x| x.0 < f.end)
                .all(|x| und(&x.1));
            if silent && linked {
                return "not walked by objtool: a function objtool does not follow (annotation dropped at link)".into();
            }
        }
        return "not walked by objtool".into();
    }
    if let Some(site) = m.alts.site_containing(sec, ip) {
        // Versions of the code that disagree at one byte: no table is right
        // for all of them (objtool: "stack layout conflict in alternatives").
        if conflicts.binary_search(&(sec, site.start)).is_ok() {
            return "in a site whose alternatives conflict (stack-mismatch there)".into();
        }
        // ALTERNATIVE_2 and _3: objtool before Linux 6.3 ("objtool: Fix
        // overlapping alternatives") kept one group per entry and wrote the
        // states of the last entry's replacement only.
        if site.repls.len() > 1 {
            return "in a site with several alternatives (objtool before 6.3 writes the last one's states only)".into();
        }
    }
    let mut what = Vec::new();
    if r.ty != c.ty {
        what.push("type");
    }
    if r.sp_reg != c.sp_reg || r.sp_offset != c.sp_offset {
        what.push("sp");
    }
    if r.bp_reg != c.bp_reg || r.bp_offset != c.bp_offset {
        what.push("bp");
    }
    if r.signal != c.signal {
        what.push("signal");
    }
    what.join("+")
}

/// Compare a computed table with a reference one, at every row address of
/// either, section by section (sections are matched by index: the
/// reference is the same object, or the same object after objtool, whose
/// code sections keep their indexes).
pub fn compare_orc(
    m: &Model,
    computed: &Computed,
    reference: &[Vec<(u64, OrcEntry)>],
    examples: usize,
) -> OrcAgreement {
    let (conflicts, computed) = (&computed.conflicts, &computed.rows);
    let mut a = OrcAgreement::default();
    for sec in 0..computed.len().max(reference.len()) {
        let ours = computed.get(sec).map_or(&[][..], Vec::as_slice);
        let theirs = reference.get(sec).map_or(&[][..], Vec::as_slice);
        a.reference_rows += theirs.len();
        a.computed_rows += ours.len();
        let mut ips: Vec<u64> = ours.iter().chain(theirs).map(|r| r.0).collect();
        ips.sort_unstable();
        ips.dedup();
        for ip in ips {
            a.compared += 1;
            let (r, c) = (effective(theirs, ip), effective(ours, ip));
            if r == c {
                a.agree += 1;
                continue;
            }
            a.disagree += 1;
            *a.classes
                .entry(class(m, conflicts, theirs, sec, ip, &r, &c))
                .or_default() += 1;
            if a.examples.len() < examples {
                a.examples.push(format!(
                    "{}: {} | {}",
                    m.place_name(sec, ip),
                    r.text(),
                    c.text()
                ));
            }
        }
    }
    a
}

/// The ORC rows of a reference object, by section index (none when it
/// has no ORC sections: objtool writes none for an object without code),
/// read with its numbering (its `.orc_header`, else `kernel`'s).
pub fn reference_orc(
    obj: &Object,
    rules: &Rules,
    kernel: Option<crate::rules::KernelVersion>,
) -> Result<Vec<Vec<(u64, OrcEntry)>>, String> {
    let (numbering, _) = orc::numbering(obj, &rules.special, kernel)?;
    let t = obj.orc_table(Ok(&numbering));
    if let Some(e) = t.error {
        return Err(e);
    }
    Ok(t.rows)
}
