//! `symtab-shndx`: every symbol's `st_shndx` names a real section or a
//! special index the object can honour.
//!
//! Rewriting tools break symbol tables in the corners (seed 003: objtool's
//! `elf_update_symbol` turned `SHN_ABS` into `SHN_UNDEF`). Checked here: an
//! index below the section count; reserved indexes only `SHN_ABS`,
//! `SHN_COMMON` (and x86-64's `SHN_X86_64_LCOMMON`) or `SHN_XINDEX` with a
//! `.symtab_shndx` entry naming a real section; no local symbol left
//! undefined; `STT_SECTION` symbols in, and named after, their own section;
//! `.symtab_shndx` with one entry per symbol, linked to the symbol table.

use super::{Check, Ctx, Finding};
use crate::elf::{
    Machine, Object, SHN_ABS, SHN_COMMON, SHN_LORESERVE, SHN_UNDEF, SHN_XINDEX, STB_LOCAL,
    STT_FUNC, STT_OBJECT, STT_SECTION, SymSection, Symbol,
};

/// `SHN_X86_64_LCOMMON`: large common symbols (x86-64 psABI).
pub const SHN_X86_64_LCOMMON: u16 = 0xff02;
const SHT_SYMTAB_SHNDX: u32 = 18;

pub struct SymtabShndx;

/// What is wrong, and with which symbol (None: the table itself).
pub struct Problem {
    pub sym: Option<usize>,
    pub message: String,
}

/// The name a finding shows for a symbol (section symbols have none).
pub fn display_name(obj: &Object, s: &Symbol) -> String {
    if !s.name.is_empty() {
        return s.name.to_string();
    }
    match s.section {
        SymSection::Section(i) if s.st_type == STT_SECTION => {
            format!("{} (section symbol #{})", obj.section_name(i), s.index)
        }
        _ => format!("#{}", s.index),
    }
}

/// Whether a raw reserved `st_shndx` is one this machine defines.
pub fn is_known_special(machine: Machine, shndx: u16) -> bool {
    matches!(shndx, SHN_ABS | SHN_COMMON | SHN_XINDEX)
        || (machine == Machine::X86_64 && shndx == SHN_X86_64_LCOMMON)
}

/// All symbol-table problems of an object, in symbol order.
pub fn problems(obj: &Object) -> Vec<Problem> {
    let mut out = Vec::new();
    let Some(symtab) = obj.symtab else {
        return out;
    };
    let nsec = obj.sections.len();
    let nsyms = obj.symbols.len();
    let shndx_secs: Vec<usize> = obj
        .sections
        .iter()
        .filter(|s| s.sh_type == SHT_SYMTAB_SHNDX)
        .map(|s| s.index)
        .collect();
    for &i in &shndx_secs {
        let s = &obj.sections[i];
        if s.link as usize != symtab {
            out.push(Problem {
                sym: None,
                message: format!(
                    "{} (section {i}) links to section {}, not the symbol table (section {symtab}); its entries are ignored",
                    s.name, s.link
                ),
            });
        }
    }
    if let Some(i) = obj.symtab_shndx {
        let s = &obj.sections[i];
        let entries = s.size / 4;
        if !s.size.is_multiple_of(4) || entries != nsyms as u64 {
            out.push(Problem {
                sym: None,
                message: format!(
                    "{} has {entries} entries ({:#x} bytes) for {nsyms} symbols; it needs exactly one 4-byte entry per symbol",
                    s.name, s.size
                ),
            });
        }
    }
    for s in obj.symbols.iter().skip(1) {
        let message = match (s.raw_shndx, s.section) {
            (SHN_XINDEX, SymSection::Invalid(v)) => Some(match obj.symtab_shndx {
                None => "st_shndx is SHN_XINDEX but no .symtab_shndx section holds its real index"
                    .to_string(),
                Some(_) if v == u32::from(SHN_XINDEX) => {
                    "st_shndx is SHN_XINDEX but .symtab_shndx has no entry for it".to_string()
                }
                Some(_) if v == 0 => {
                    "st_shndx is SHN_XINDEX and its .symtab_shndx entry is 0 (the null section)"
                        .to_string()
                }
                Some(_) => format!(
                    "st_shndx is SHN_XINDEX and its .symtab_shndx entry {v} is out of range ({nsec} sections)"
                ),
            }),
            (raw, SymSection::Invalid(_)) if raw >= SHN_LORESERVE => {
                (!is_known_special(obj.machine, raw)).then(|| {
                    format!(
                        "st_shndx {raw:#x} is a reserved index that is not SHN_ABS, SHN_COMMON or SHN_XINDEX"
                    )
                })
            }
            (raw, SymSection::Invalid(_)) => Some(format!(
                "st_shndx {raw} is out of range ({nsec} sections)"
            )),
            (SHN_UNDEF, _) if s.bind == STB_LOCAL => Some(
                "local symbol is undefined (SHN_UNDEF): a local symbol must be defined; was it SHN_ABS or SHN_COMMON before a rewrite?"
                    .to_string(),
            ),
            _ => None,
        };
        if let Some(message) = message {
            out.push(Problem {
                sym: Some(s.index),
                message,
            });
            continue;
        }
        // A function or object must lie inside its section: one past the
        // end is not checked (the model has no code for it) and points at
        // whatever the link puts after the section.
        if matches!(s.st_type, STT_FUNC | STT_OBJECT)
            && let SymSection::Section(i) = s.section
            && let Some(sec) = obj.sections.get(i)
            && (s.value > sec.size || s.value.saturating_add(s.size) > sec.size)
        {
            out.push(Problem {
                sym: Some(s.index),
                message: format!(
                    "lies outside its section {}: value {:#x}, size {:#x}, but the section has {:#x} bytes",
                    sec.name, s.value, s.size, sec.size
                ),
            });
            continue;
        }
        if s.st_type == STT_SECTION {
            let message = match s.section {
                SymSection::Section(i) if !s.name.is_empty() && s.name != obj.sections[i].name => {
                    Some(format!(
                        "section symbol is named {} but points at section {i} ({})",
                        s.name, obj.sections[i].name
                    ))
                }
                SymSection::Section(_) => None,
                _ => Some(format!(
                    "section symbol has st_shndx {:#x}, not a section index",
                    s.raw_shndx
                )),
            };
            if let Some(message) = message {
                out.push(Problem {
                    sym: Some(s.index),
                    message,
                });
            }
        }
    }
    out
}

/// A symbol-table finding: located at the symbol's entry in `.symtab`.
pub fn finding(
    obj: &Object,
    rule: &'static str,
    severity: crate::rules::Severity,
    sym: Option<usize>,
    message: String,
) -> Finding {
    let symtab = obj.symtab.unwrap_or(0);
    let (symbol, offset, message) = match sym {
        Some(i) => {
            let name = display_name(obj, &obj.symbols[i]);
            let message = format!("symbol {name}: {message}");
            (Some(name), i as u64 * SYM_SIZE, message)
        }
        None => (None, 0, message),
    };
    Finding {
        rule,
        severity,
        section_index: symtab,
        section: obj.section_name(symtab).to_string(),
        offset,
        symbol,
        symbol_offset: 0,
        message,
        target: None,
        notes: Vec::new(),
        context: Vec::new(),
        source: None,
        path: None,
        path_omitted: 0,
        fix: None,
        cause: None,
    }
}

const SYM_SIZE: u64 = 24;

impl Check for SymtabShndx {
    fn id(&self) -> &'static str {
        "symtab-shndx"
    }

    fn check_object(&self, cx: &Ctx, out: &mut Vec<Finding>) {
        let obj = cx.model.obj;
        let severity = cx.opts.severity(self.id(), cx.rules);
        for p in problems(obj) {
            out.push(finding(obj, self.id(), severity, p.sym, p.message));
        }
    }
}
