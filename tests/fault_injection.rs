//! Fault injection on real kernel modules (testdata/real): each fault kind
//! breaks one thing a rule exists for; objlint must report it, at the right
//! function, and nothing new elsewhere. Prints the detection rate per kind.

use objlint::arch::{Kind, Pad};
use objlint::checks::Finding;
use objlint::config::Options;
use objlint::elf::{Machine, Object};
use objlint::engine::check_bytes;
use objlint::model::Model;
use objlint::model::address_taken::pad_at;
use objlint::model::patchable::Target;
use objlint::rules::Rules;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Byte patches to apply, and the finding they must cause: a finding of
/// `rule` (or of a rule starting with it) naming `symbol` as its function,
/// its target, or in its message. Only such findings may be new.
struct Fault {
    patches: Vec<(usize, Vec<u8>)>,
    rule: &'static str,
    symbol: String,
}

/// Rules whose findings follow from another's fault: a missing ENDBR64 also
/// makes the object's IBT property claim untrue.
const CONSEQUENCES: &[(&str, &str)] = &[
    ("ibt-missing-endbr", "gnu-property"),
    // The object's ORC and DWARF CFI describe the code before the fault.
    ("stack-", "orc-mismatch"),
    ("stack-", "cfi-mismatch"),
    ("pac-ret", "cfi-mismatch"),
    // Code a return ended now runs on into code other paths reach.
    ("fallthrough", "stack-mismatch"),
];

impl Fault {
    fn is_hit(&self, f: &Finding) -> bool {
        f.rule.starts_with(self.rule) && self.names(f)
    }

    fn explains(&self, f: &Finding) -> bool {
        let follows = CONSEQUENCES
            .iter()
            .any(|&(r, c)| r == self.rule && c == f.rule);
        (f.rule.starts_with(self.rule) || follows) && self.names(f)
    }

    fn names(&self, f: &Finding) -> bool {
        f.symbol.as_deref() == Some(&self.symbol)
            || f.target.as_ref().and_then(|t| t.symbol.as_deref()) == Some(&self.symbol)
            || f.message.contains(&format!("{}(", self.symbol))
            || f.message.contains(&format!("{} ", self.symbol))
    }
}

fn nop_fill(machine: Machine, len: usize) -> Vec<u8> {
    match machine {
        Machine::X86_64 => vec![0x90; len],
        Machine::Aarch64 => [0x1f, 0x20, 0x03, 0xd5]
            .iter()
            .copied()
            .cycle()
            .take(len)
            .collect(),
    }
}

/// `fallthrough`: turn a function's final return or tail jump into NOPs, so
/// its last reachable path runs off the end.
fn drop_final_return(obj: &Object, m: &Model) -> Vec<Fault> {
    let mut out = Vec::new();
    for (fi, f) in m.functions.iter().enumerate() {
        if f.prefix || m.noreturn[fi] {
            continue;
        }
        let Some(code) = m.section_code(f.section) else {
            continue;
        };
        let range = m.insn_range(f);
        let seen = m.reachable(f);
        // Last instruction that is not trailing padding.
        let Some(last) = range.clone().rev().find(|&i| {
            !matches!(
                code.insns[i].kind,
                Kind::Nop | Kind::Trap | Kind::Breakpoint
            )
        }) else {
            continue;
        };
        let ins = code.insns[last];
        if !seen[last - range.start]
            || !matches!(ins.kind, Kind::Return | Kind::Jump | Kind::IndirectJump)
        {
            continue;
        }
        let sec = &obj.sections[f.section];
        let start = (sec.offset + ins.offset()) as usize;
        let len = (f.end - ins.offset()) as usize;
        out.push(Fault {
            patches: vec![(start, nop_fill(obj.machine, len))],
            rule: "fallthrough",
            symbol: f.name.to_string(),
        });
    }
    out
}

/// `ibt-missing-endbr`: replace the ENDBR64 of an address-taken function
/// with a 4-byte NOP.
fn wipe_endbr(obj: &Object, m: &Model) -> Vec<Fault> {
    let rules = Rules::builtin();
    let at = m.address_taken(&rules.landing_pads);
    let mut out = Vec::new();
    for (fi, f) in m.functions.iter().enumerate() {
        if f.prefix || !at.is_taken(fi) || pad_at(m, f.section, f.start) != Some(Pad::Endbr64) {
            continue;
        }
        let start = (obj.sections[f.section].offset + f.start) as usize;
        out.push(Fault {
            patches: vec![(start, vec![0x0f, 0x1f, 0x40, 0x00])],
            rule: "ibt-missing-endbr",
            symbol: f.name.to_string(),
        });
    }
    out
}

/// `uaccess-*`: turn the CLAC of an alternative replacement into STAC, so
/// user access stays open after the site.
fn clac_to_stac(obj: &Object, m: &Model) -> Vec<Fault> {
    let mut out = Vec::new();
    for site in &m.alts.sites {
        let Some(fi) = m.function_containing(site.section, site.start) else {
            continue;
        };
        for r in &site.repls {
            let Some(code) = m.section_code(r.section) else {
                continue;
            };
            for ins in &code.insns[code.lower_bound(r.start)..code.lower_bound(r.end)] {
                if ins.kind != Kind::UaccessClose || ins.len != 3 {
                    continue;
                }
                let at = (obj.sections[r.section].offset + ins.offset()) as usize;
                out.push(Fault {
                    patches: vec![(at, vec![0x0f, 0x01, 0xcb])],
                    rule: "uaccess",
                    symbol: m.functions[fi].name.to_string(),
                });
            }
        }
    }
    out
}

/// `patchable-entry`: put a non-NOP into a function's patchable prefix.
fn corrupt_patchable_nop(obj: &Object, m: &Model) -> Vec<Fault> {
    let rules = Rules::builtin();
    let p = m.patchable(&rules.patchable);
    let mut out = Vec::new();
    for site in p.sites() {
        if site.before == 0 || site.non_nop.is_some() {
            continue;
        }
        let at = (obj.sections[site.section].offset + site.offset) as usize;
        let bad = match obj.machine {
            Machine::X86_64 => vec![0xcc],
            Machine::Aarch64 => 0xaa0003e0u32.to_le_bytes().to_vec(), // mov x0, x0
        };
        out.push(Fault {
            patches: vec![(at, bad)],
            rule: "patchable-entry",
            symbol: m.functions[site.func].name.to_string(),
        });
    }
    out
}

/// `patchable-entry`: move one entry of `__patchable_function_entries` by one
/// NOP unit (its relocation addend), so it no longer names the site's start.
fn shift_patchable_entry(obj: &Object, m: &Model) -> Vec<Fault> {
    let rules = Rules::builtin();
    let p = m.patchable(&rules.patchable);
    let unit = p.unit as i64;
    let mut out = Vec::new();
    for site in p.sites() {
        if site.before == 0 {
            continue;
        }
        let Some(e) = p
            .entries
            .iter()
            .find(|e| matches!(&e.target, Target::Site(s) if s == site))
        else {
            continue;
        };
        // The RELA record of this entry: r_offset at +0, r_addend at +16.
        let Some(at) = obj
            .sections
            .iter()
            .filter(|s| s.sh_type == 4 && s.info as usize == e.section)
            .find_map(|rs| {
                (0..rs.size / 24)
                    .map(|k| (rs.offset + 24 * k) as usize)
                    .find(|&r| {
                        u64::from_le_bytes(obj.data[r..r + 8].try_into().unwrap()) == e.offset
                    })
            })
        else {
            continue;
        };
        let addend = i64::from_le_bytes(obj.data[at + 16..at + 24].try_into().unwrap()) + unit;
        out.push(Fault {
            patches: vec![(at + 16, addend.to_le_bytes().to_vec())],
            rule: "patchable-entry",
            symbol: m.functions[site.func].name.to_string(),
        });
    }
    out
}

/// `symtab-shndx`: point a data symbol's `st_shndx` past the section table
/// (what a rewriting tool that miscounts sections leaves behind).
fn damage_st_shndx(obj: &Object, _m: &Model) -> Vec<Fault> {
    let Some(symtab) = obj.symtab else {
        return Vec::new();
    };
    let base = obj.sections[symtab].offset as usize;
    let bad = (obj.sections.len() as u16 + 3).to_le_bytes().to_vec();
    obj.symbols
        .iter()
        .filter(|s| {
            s.st_type == objlint::elf::STT_OBJECT
                && s.section_index().is_some()
                && !s.name.is_empty()
        })
        .map(|s| Fault {
            patches: vec![(base + 24 * s.index + 6, bad.clone())],
            rule: "symtab-shndx",
            symbol: s.name.to_string(),
        })
        .collect()
}

/// The instruction before the function's final return (or return-thunk
/// jump), when it is one `want` accepts: (its index, the return's index).
fn before_return(
    m: &Model,
    f: &objlint::model::Function,
    want: impl Fn(&objlint::model::SectionCode, usize) -> bool,
) -> Vec<usize> {
    let Some(code) = m.section_code(f.section) else {
        return Vec::new();
    };
    let range = m.insn_range(f);
    let mut out = Vec::new();
    for i in range.clone().skip(1) {
        let ins = &code.insns[i];
        let ret = ins.kind == Kind::Return
            || (ins.kind == Kind::Jump
                && matches!(code.dest(i), objlint::model::Dest::External { sym }
                    if m.obj.symbols[sym].name == "__x86_return_thunk"));
        if ret && want(code, i - 1) {
            out.push(i - 1);
        }
    }
    out
}

/// `stack-*`: remove the `pop` of a callee-saved register right before a
/// return (x86), so the return leaves it on the stack.
fn drop_pop(obj: &Object, m: &Model) -> Vec<Fault> {
    use objlint::arch::{Dst, Op, Src};
    let mut out = Vec::new();
    for f in m.functions.iter().filter(|f| !f.prefix) {
        for k in before_return(m, f, |code, k| {
            code.ops(k).any(|op| {
                matches!(op, Op::Stack { src: Src::Pop, dst: Dst::Reg(r) } if [3, 5, 12, 13, 14, 15].contains(&r))
            })
        }) {
            let code = m.section_code(f.section).unwrap();
            let ins = &code.insns[k];
            let at = (obj.sections[f.section].offset + ins.offset()) as usize;
            out.push(Fault {
                patches: vec![(at, nop_fill(obj.machine, ins.len as usize))],
                rule: "stack-",
                symbol: f.name.to_string(),
            });
        }
    }
    out
}

/// `stack-*`: free 8 bytes more with the `add $n, %rsp` before a return
/// (x86: `48 83 c4 NN`).
fn change_add_rsp(obj: &Object, m: &Model) -> Vec<Fault> {
    let mut out = Vec::new();
    for f in m.functions.iter().filter(|f| !f.prefix) {
        let data = obj.section_data(f.section);
        let code = m.section_code(f.section);
        let Some(code) = code else { continue };
        // Any `add $imm8, %rsp` of the function, as the epilogue writes it.
        for i in m.insn_range(f) {
            let ins = &code.insns[i];
            let b = &data[ins.offset() as usize..ins.end() as usize];
            if b.len() == 4 && b[..3] == [0x48, 0x83, 0xc4] && b[3] < 0x70 {
                let at = (obj.sections[f.section].offset + ins.offset() + 3) as usize;
                out.push(Fault {
                    patches: vec![(at, vec![b[3] + 8])],
                    rule: "stack-",
                    symbol: f.name.to_string(),
                });
            }
        }
    }
    out
}

/// `stack-*`: remove the `ldp x29, x30, [sp], #n` before a return (arm64).
/// Where the function signs x30, the first thing wrong on the path is the
/// `autiasp` of an x30 a call overwrote: `pac-ret`.
fn drop_ldp(obj: &Object, m: &Model) -> Vec<Fault> {
    let mut out = Vec::new();
    for f in m.functions.iter().filter(|f| !f.prefix) {
        let data = obj.section_data(f.section);
        let Some(code) = m.section_code(f.section) else {
            continue;
        };
        let word = |i: usize| {
            let o = code.insns[i].offset() as usize;
            data.get(o..o + 4)
                .map(|b| u32::from_le_bytes(b.try_into().unwrap()))
        };
        // paciasp, pacibsp
        let signs = m
            .insn_range(f)
            .any(|i| matches!(word(i), Some(0xd503_233f | 0xd503_237f)));
        for i in m.insn_range(f) {
            let ins = &code.insns[i];
            let Some(w) = data
                .get(ins.offset() as usize..ins.offset() as usize + 4)
                .map(|b| u32::from_le_bytes(b.try_into().unwrap()))
            else {
                continue;
            };
            // ldp x29, x30, [sp], #imm (post-index, 64-bit)
            if w & 0xffc0_7fff != 0xa8c0_7bfd {
                continue;
            }
            // followed by autiasp/ret within two instructions
            let ends =
                (i + 1..(i + 3).min(code.insns.len())).any(|j| code.insns[j].kind == Kind::Return);
            if !ends {
                continue;
            }
            let at = (obj.sections[f.section].offset + ins.offset()) as usize;
            out.push(Fault {
                patches: vec![(at, nop_fill(obj.machine, 4))],
                rule: if signs { "pac-ret" } else { "stack-" },
                symbol: f.name.to_string(),
            });
        }
    }
    out
}

/// `pac-ret`: remove the `autiasp` before a return (arm64).
fn drop_autiasp(obj: &Object, m: &Model) -> Vec<Fault> {
    let mut out = Vec::new();
    for f in m.functions.iter().filter(|f| !f.prefix) {
        let data = obj.section_data(f.section);
        for k in before_return(m, f, |code, k| {
            let ins = &code.insns[k];
            data.get(ins.offset() as usize..ins.offset() as usize + 4)
                .is_some_and(|b| u32::from_le_bytes(b.try_into().unwrap()) == 0xd503_23bf)
        }) {
            let code = m.section_code(f.section).unwrap();
            let at = (obj.sections[f.section].offset + code.insns[k].offset()) as usize;
            out.push(Fault {
                patches: vec![(at, nop_fill(obj.machine, 4))],
                rule: "pac-ret",
                symbol: f.name.to_string(),
            });
        }
    }
    out
}

/// The rules with the walker's extra edges taken away: no exception fixups,
/// jump labels, WARN traps that resume, or alternatives. A fault placed
/// where only those edges lead shows the walker follows them.
fn edgeless_rules() -> &'static Rules {
    static R: std::sync::OnceLock<Rules> = std::sync::OnceLock::new();
    R.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("objlint-edgeless-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let special = std::fs::read_to_string(
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("rules/special.toml"),
        )
        .unwrap();
        let special = [
            "__ex_table",
            "__jump_table",
            "__bug_table",
            ".discard.reachable",
            ".discard.annotate_insn",
        ]
        .iter()
        .fold(special, |s, name| {
            s.replace(&format!("\"{name}\""), "\"absent\"")
        });
        std::fs::write(dir.join("special.toml"), special).unwrap();
        std::fs::write(dir.join("alternatives.toml"), "x86_64 = []\naarch64 = []\n").unwrap();
        let r = Rules::load(Some(&dir)).unwrap();
        std::fs::remove_dir_all(&dir).ok();
        r
    })
}

/// Per function, the instructions of its own range that a path reaches only
/// through a fixup, jump label, resuming trap or alternative.
fn edge_only(obj: &Object, m: &Model) -> Vec<(usize, Vec<usize>)> {
    let bare = Model::build(obj, edgeless_rules());
    let mut out = Vec::new();
    for (fi, f) in m.functions.iter().enumerate() {
        if f.prefix {
            continue;
        }
        let Some(g) = bare
            .functions
            .iter()
            .find(|g| g.section == f.section && g.start == f.start && g.name == f.name)
        else {
            continue;
        };
        let with = m.reachable(f);
        let without = bare.reachable(g);
        let only: Vec<usize> = (0..with.len())
            .filter(|&k| with[k] && !without.get(k).copied().unwrap_or(false))
            .map(|k| m.insn_range(f).start + k)
            .collect();
        if !only.is_empty() {
            out.push((fi, only));
        }
    }
    out
}

/// `fallthrough`: NOP out a function's final return where only an edge
/// of the walker's reaches it (after a WARN, a fixup, a jump label, an
/// alternative that NOPs a branch).
fn drop_edge_return(obj: &Object, m: &Model) -> Vec<Fault> {
    let mut out = Vec::new();
    for (fi, only) in edge_only(obj, m) {
        let f = &m.functions[fi];
        let code = m.section_code(f.section).unwrap();
        let range = m.insn_range(f);
        let Some(last) = range.clone().rev().find(|&i| {
            !matches!(
                code.insns[i].kind,
                Kind::Nop | Kind::Trap | Kind::Breakpoint
            )
        }) else {
            continue;
        };
        let ins = code.insns[last];
        if !only.contains(&last) || !matches!(ins.kind, Kind::Return | Kind::Jump) {
            continue;
        }
        let start = (obj.sections[f.section].offset + ins.offset()) as usize;
        out.push(Fault {
            patches: vec![(
                start,
                nop_fill(obj.machine, (f.end - ins.offset()) as usize),
            )],
            rule: "fallthrough",
            symbol: f.name.to_string(),
        });
    }
    out
}

/// `uaccess-*`: turn into NOPs the CLAC (x86) or `msr pan, #1` (arm64)
/// alternative of a site that only an edge of the walker's reaches: the exit
/// of an exception fixup (`user_access_end()` after a faulting access).
fn drop_edge_clac(obj: &Object, m: &Model) -> Vec<Fault> {
    let only = edge_only(obj, m);
    let mut out = Vec::new();
    for site in &m.alts.sites {
        let Some(fi) = m.function_containing(site.section, site.start) else {
            continue;
        };
        let f = &m.functions[fi];
        let code = m.section_code(f.section).unwrap();
        let at = code.lower_bound(site.start);
        if !only.iter().any(|(g, o)| *g == fi && o.contains(&at)) {
            continue;
        }
        for r in &site.repls {
            let Some(rc) = m.section_code(r.section) else {
                continue;
            };
            for ins in &rc.insns[rc.lower_bound(r.start)..rc.lower_bound(r.end)] {
                if ins.kind != Kind::UaccessClose {
                    continue;
                }
                let nop = match obj.machine {
                    Machine::X86_64 => vec![0x0f, 0x1f, 0x00],
                    Machine::Aarch64 => nop_fill(obj.machine, 4),
                };
                if nop.len() != ins.len as usize {
                    continue;
                }
                let at = (obj.sections[r.section].offset + ins.offset()) as usize;
                out.push(Fault {
                    patches: vec![(at, nop)],
                    rule: "uaccess",
                    symbol: f.name.to_string(),
                });
            }
        }
    }
    out
}

/// File offset of the `Elf64_Rela` entry that applies to `[at, end)` of
/// section `sec`.
fn rela_entry(obj: &Object, sec: usize, at: u64, end: u64) -> Option<usize> {
    const SHT_RELA: u32 = 4;
    obj.sections
        .iter()
        .filter(|s| s.sh_type == SHT_RELA && s.info as usize == sec)
        .find_map(|s| {
            let data = obj.section_data(s.index);
            (0..data.len() / 24).find_map(|j| {
                let r = u64::from_le_bytes(data[24 * j..24 * j + 8].try_into().unwrap());
                (at..end).contains(&r).then_some(s.offset as usize + 24 * j)
            })
        })
}

/// Branches of compiled code to a symbol `pick` accepts: (function,
/// section, instruction index, the symbol's name). Sites inside
/// alternatives are left out (the kernel picks among their forms), and so
/// are sections rules/speculation.toml exempts from `rule` (built-in
/// `.init.text`).
fn branches_to<'m>(
    m: &'m Model,
    rule: &str,
    pick: impl Fn(usize) -> bool,
) -> Vec<(&'m objlint::model::Function<'m>, usize, usize, &'m str)> {
    let rules = Rules::builtin();
    let opts = Options::default();
    let module = objlint::checks::Ctx::new(m, &rules, &opts)
        .speculation()
        .build
        .module;
    let exempt = |sec: usize| {
        rules
            .speculation
            .exempt_section
            .iter()
            .any(|e| e.exempts(m.obj.machine, rule, m.obj.section_name(sec), module))
    };
    let mut out = Vec::new();
    for f in m
        .functions
        .iter()
        .filter(|f| !f.prefix && !exempt(f.section))
    {
        let Some(code) = m.section_code(f.section) else {
            continue;
        };
        for k in m.insn_range(f) {
            let ins = &code.insns[k];
            if !matches!(ins.kind, Kind::Call | Kind::Jump)
                || m.alts.site_containing(f.section, ins.offset()).is_some()
                || m.alts
                    .replacement_containing(f.section, ins.offset())
                    .is_some()
            {
                continue;
            }
            if let Some(sym) = m.dest_sym(code.dest(k)).filter(|&s| pick(s)) {
                out.push((f, f.section, k, &*m.obj.symbols[sym].name));
            }
        }
    }
    out
}

/// `retpoline`: a call or jump through `__x86_indirect_thunk_<reg>` turned
/// into the bare `call *%reg` / `jmp *%reg` it stands for (NOPs after it,
/// its relocation made R_X86_64_NONE).
fn thunk_to_indirect(obj: &Object, m: &Model) -> Vec<Fault> {
    const REGS: [&str; 16] = [
        "rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi", "r8", "r9", "r10", "r11", "r12",
        "r13", "r14", "r15",
    ];
    let mut out = Vec::new();
    for (f, sec, k, name) in branches_to(m, "retpoline", |s| m.is_indirect_thunk_sym(s)) {
        let Some(n) = name
            .rsplit('_')
            .next()
            .and_then(|r| REGS.iter().position(|&x| x == r))
        else {
            continue;
        };
        let ins = &m.section_code(sec).unwrap().insns[k];
        let modrm = if ins.kind == Kind::Call { 0xd0 } else { 0xe0 } + (n as u8 & 7);
        let mut b = if n >= 8 {
            vec![0x41, 0xff, modrm]
        } else {
            vec![0xff, modrm]
        };
        b.resize(ins.len as usize, 0x90);
        let Some(rela) = rela_entry(obj, sec, ins.offset(), ins.offset() + u64::from(ins.len))
        else {
            continue;
        };
        let at = (obj.sections[sec].offset + ins.offset()) as usize;
        out.push(Fault {
            patches: vec![(at, b), (rela + 8, vec![0; 4])],
            rule: "retpoline",
            symbol: f.name.to_string(),
        });
    }
    out
}

/// `rethunk`: a `jmp __x86_return_thunk` turned into `ret; int3` (int3 after
/// it, its relocation made R_X86_64_NONE).
fn rethunk_to_ret(obj: &Object, m: &Model) -> Vec<Fault> {
    let mut out = Vec::new();
    for (f, sec, k, _) in branches_to(m, "rethunk", |s| m.is_return_thunk_sym(s)) {
        let ins = &m.section_code(sec).unwrap().insns[k];
        let at = (obj.sections[sec].offset + ins.offset()) as usize;
        if ins.kind != Kind::Jump || ins.len != 5 || obj.data[at] != 0xe9 {
            continue;
        }
        let Some(rela) = rela_entry(obj, sec, ins.offset(), ins.offset() + 5) else {
            continue;
        };
        out.push(Fault {
            patches: vec![
                (at, vec![0xc3, 0xcc, 0xcc, 0xcc, 0xcc]),
                (rela + 8, vec![0; 4]),
            ],
            rule: "rethunk",
            symbol: f.name.to_string(),
        });
    }
    out
}

/// `sls`: the speculation barrier after a return or indirect jump (x86
/// `int3`; arm64 `sb`, or `dsb sy; isb`) turned into NOPs.
fn drop_sls_barrier(obj: &Object, m: &Model) -> Vec<Fault> {
    let mut out = Vec::new();
    for f in m.functions.iter().filter(|f| !f.prefix) {
        let Some(code) = m.section_code(f.section) else {
            continue;
        };
        let data = obj.section_data(f.section);
        for k in m.insn_range(f) {
            // ANNOTATE_RETPOLINE_SAFE sites need no barrier (objtool's
            // retpoline_safe).
            let safe = m
                .special()
                .at(f.section, &code.insns[k])
                .is_some_and(|mk| mk.retpoline_safe);
            if safe
                || !matches!(code.insns[k].kind, Kind::Return | Kind::IndirectJump)
                || !m.barrier_after(f.section, k)
                || k + 1 >= code.insns.len()
            {
                continue;
            }
            let next = &code.insns[k + 1];
            let first = m.dec.speculation_barrier(&data[next.offset() as usize..]);
            let len = match first {
                Some(objlint::arch::Barrier::NeedsIsb) => 8,
                _ => next.len as usize,
            };
            if next.offset() + len as u64 > f.end {
                continue;
            }
            let at = (obj.sections[f.section].offset + next.offset()) as usize;
            out.push(Fault {
                patches: vec![(at, nop_fill(obj.machine, len))],
                rule: "sls",
                symbol: f.name.to_string(),
            });
        }
    }
    out
}

type Injector = fn(&Object, &Model) -> Vec<Fault>;

fn kinds() -> Vec<(&'static str, Injector)> {
    vec![
        ("drop-final-return", drop_final_return),
        ("wipe-endbr", wipe_endbr),
        ("clac-to-stac", clac_to_stac),
        ("corrupt-patchable-nop", corrupt_patchable_nop),
        ("shift-patchable-entry", shift_patchable_entry),
        ("damage-st-shndx", damage_st_shndx),
        ("drop-pop", drop_pop),
        ("change-add-rsp", change_add_rsp),
        ("drop-ldp", drop_ldp),
        ("drop-autiasp", drop_autiasp),
        ("drop-edge-return", drop_edge_return),
        ("drop-edge-clac", drop_edge_clac),
        ("thunk-to-indirect", thunk_to_indirect),
        ("rethunk-to-ret", rethunk_to_ret),
        ("drop-sls-barrier", drop_sls_barrier),
    ]
}

/// testdata/real, or the directory `OBJLINT_FAULT_OBJECTS` names (to look
/// for sites or measure rates on a corpus).
/// `kinds()`, or those `OBJLINT_FAULT_KINDS` lists (comma-separated).
fn kinds_selected() -> Vec<(&'static str, Injector)> {
    let want = std::env::var("OBJLINT_FAULT_KINDS").ok();
    kinds()
        .into_iter()
        .filter(|(k, _)| {
            want.as_deref()
                .is_none_or(|w| w.split(',').any(|x| x == *k))
        })
        .collect()
}

fn real_objects() -> Vec<PathBuf> {
    let root = std::env::var_os("OBJLINT_FAULT_OBJECTS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testdata/real"));
    let (inputs, errs) = objlint::input::expand(&[root]);
    assert!(errs.is_empty());
    inputs.iter().map(|i| i.path).collect()
}

fn key(f: &objlint::checks::Finding) -> (String, Option<String>, String) {
    (f.rule.to_string(), f.symbol.clone(), f.message.clone())
}

/// With `OBJLINT_FAULT_DIR=DIR`, every faulted object is also written to DIR
/// with a line in DIR/manifest.tsv (kind, file, rule, symbol), so other
/// tools can be measured on the same faults (`scripts/fault-objtool.py`).
fn dump_fault(
    dir: &std::path::Path,
    orig: &std::path::Path,
    kind: &str,
    fault: &Fault,
    bytes: &[u8],
) {
    use std::io::Write;
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let arch = orig
        .parent()
        .and_then(|p| p.file_name())
        .unwrap()
        .to_string_lossy();
    let file = dir.join(format!(
        "{arch}-{kind}-{n}-{}",
        orig.file_name().unwrap().to_string_lossy()
    ));
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(&file, bytes).unwrap();
    let mut m = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(dir.join("manifest.tsv"))
        .unwrap();
    writeln!(
        m,
        "{kind}\t{}\t{}\t{}\t{}",
        file.display(),
        orig.display(),
        fault.rule,
        fault.symbol
    )
    .unwrap();
}

#[test]
fn injected_faults_are_reported() {
    let dump = std::env::var_os("OBJLINT_FAULT_DIR").map(PathBuf::from);
    let rules = Rules::builtin();
    let opts = Options::default();
    let mut rate: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let objects = real_objects();
    assert!(objects.len() >= 8, "testdata/real holds the real modules");
    for path in objects {
        let bytes = std::fs::read(&path).unwrap();
        let name = path.display().to_string();
        let obj = Object::parse(&bytes).unwrap();
        let model = Model::build(&obj, &rules);
        // The build's patchable layout is known, as a project's config would
        // say: with few sites, one shifted entry could otherwise win the vote.
        let mut opts = opts.clone();
        opts.patchable = model
            .patchable(&rules.patchable)
            .layout
            .map(|(m, n)| (m as u32, n as u32));
        // So are its mitigations (kbuild passes objtool --retpoline,
        // --rethunk, --sls): with few sites, one fault could otherwise turn
        // the object's vote. OBJLINT_FAULT_DETECT=1 measures the vote alone
        // (and counts misses instead of failing).
        if std::env::var_os("OBJLINT_FAULT_DETECT").is_none() {
            opts.mitigations = Some(
                objlint::checks::Ctx::new(&model, &rules, &opts)
                    .speculation()
                    .build
                    .on,
            );
        }
        let opts = &opts;
        let base = check_bytes(&name, &bytes, &rules, opts);
        assert!(base.error.is_none(), "{name}: {:?}", base.error);
        let before: Vec<_> = base.findings.iter().map(key).collect();
        for (kind, inject) in kinds_selected() {
            let faults = inject(&obj, &model);
            // Spread over the object, at most 25 per object and kind.
            // A function that already has a finding of the rule is skipped:
            // paths stop at their first finding, so a second fault on the
            // same path is masked (objtool behaves the same).
            let faults: Vec<_> = faults
                .into_iter()
                .filter(|f| !base.findings.iter().any(|b| f.is_hit(b)))
                .collect();
            let step = faults.len().div_ceil(25).max(1);
            for fault in faults.into_iter().step_by(step) {
                let mut b = bytes.clone();
                for (at, p) in &fault.patches {
                    b[*at..*at + p.len()].copy_from_slice(p);
                }
                if let Some(dir) = &dump {
                    dump_fault(dir, &path, kind, &fault, &b);
                }
                let rep = check_bytes(&name, &b, &rules, opts);
                assert!(rep.error.is_none());
                let new: Vec<_> = rep
                    .findings
                    .iter()
                    .filter(|f| !before.contains(&key(f)))
                    .collect();
                let hit = new.iter().any(|f| fault.is_hit(f));
                let e = rate.entry(kind).or_default();
                e.0 += 1;
                e.1 += hit as usize;
                // Measuring the mitigation vote: misses are counted, not fatal.
                assert!(
                    hit || std::env::var_os("OBJLINT_FAULT_DETECT").is_some(),
                    "{name}: {kind} in {} not reported; new findings: {new:?}",
                    fault.symbol
                );
                assert!(
                    new.iter().all(|f| fault.explains(f)),
                    "{name}: {kind} in {} caused unrelated findings: {new:?}",
                    fault.symbol
                );
            }
        }
    }
    for (kind, (n, hit)) in &rate {
        eprintln!("fault {kind}: {hit}/{n} detected");
    }
    for (kind, _) in kinds_selected() {
        assert!(
            rate.contains_key(kind),
            "no site for {kind} in the real objects"
        );
    }
}
