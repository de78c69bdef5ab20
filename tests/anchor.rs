//! objlint against objtool's own output. testdata/anchor/objtool-faults.tsv
//! holds, for each fault injected into the real x86 objects of testdata/real,
//! the bytes changed and the warnings objtool 6.12 printed for the faulted
//! object and not for the original (made by scripts/objtool-anchor.py with
//! kbuild's module arguments). Each faulted object is rebuilt here and checked
//! with every rule on; per class of finding, what objtool reports for the
//! fault objlint must report too, at the faulted function. "Elsewhere": objtool reports the
//! class but names another place (an alias such as `nf_conntrack_tftp_init` for
//! `init_module`, `.altinstr_replacement+0x6`, `.text: unexpected end of
//! section`). The table is printed (`--nocapture`); objtool has no check for
//! the patchable-entry faults.

use objlint::config::Options;
use objlint::engine::check_bytes;
use objlint::rules::Rules;
use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// How objtool words each class of problem.
fn objtool_class(msg: &str) -> Option<&'static str> {
    let classes: [(&str, &[&str]); 8] = [
        (
            "fallthrough",
            &["falls through", "unexpected end of section"],
        ),
        ("ibt-missing-endbr", &["relocation to !ENDBR"]),
        ("uaccess", &["UACCESS"]),
        (
            "stack-",
            &[
                "stack state mismatch",
                "modified stack frame",
                "undefined stack state",
                "unsupported stack",
            ],
        ),
        ("symtab-shndx", &["couldn't find section for symbol"]),
        ("retpoline", &["found in MITIGATION_RETPOLINE build"]),
        ("rethunk", &["found in MITIGATION_RETHUNK build"]),
        ("sls", &["missing int3 after"]),
    ];
    classes
        .iter()
        .find(|(_, words)| words.iter().any(|w| msg.contains(w)))
        .map(|(c, _)| *c)
}

/// Whether objtool's line names `sym` (as `sym+0x..`, `sym()` or a word).
fn names_symbol(line: &str, sym: &str) -> bool {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '.';
    line.match_indices(sym).any(|(i, _)| {
        let before = line[..i].chars().next_back();
        let after = line[i + sym.len()..].chars().next();
        !before.is_some_and(ident) && !after.is_some_and(ident)
    })
}

/// An original object's bytes, its findings' `(rule, message)` (to tell a
/// faulted copy's new findings from the ones it had) and its options.
type Original = (Vec<u8>, Vec<(String, String)>, Options);

struct Fault {
    kind: String,
    original: String,
    bytes: Vec<(usize, Vec<u8>)>,
    rule: String,
    function: String,
    objtool: Vec<String>,
}

fn faults() -> Vec<Fault> {
    let text = std::fs::read_to_string(root().join("testdata/anchor/objtool-faults.tsv")).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let bytes = f[2]
                .split(',')
                .map(|p| {
                    let (at, hex) = p.split_once(':').unwrap();
                    let at = usize::from_str_radix(at.trim_start_matches("0x"), 16).unwrap();
                    let b = (0..hex.len())
                        .step_by(2)
                        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
                        .collect();
                    (at, b)
                })
                .collect();
            Fault {
                kind: f[0].into(),
                original: f[1].into(),
                bytes,
                rule: f[3].into(),
                function: f[4].into(),
                objtool: f
                    .get(5)
                    .filter(|s| !s.is_empty())
                    .map(|s| s.split(" | ").map(String::from).collect())
                    .unwrap_or_default(),
            }
        })
        .collect()
}

/// The options for an object and its faulted copies: every rule on, with
/// the mitigations of the build as the original shows them (kbuild tells
/// objtool; a fault must not change the build, as with few sites it could
/// change the vote).
fn options(original: &[u8], rules: &Rules) -> Options {
    let mut opts = Options::default();
    let obj = objlint::elf::Object::parse(original).unwrap();
    let model = objlint::model::Model::build(&obj, rules);
    opts.mitigations = Some(
        objlint::checks::Ctx::new(&model, rules, &opts)
            .speculation()
            .build
            .on,
    );
    opts
}

#[test]
fn objlint_reports_what_objtool_reports_class_by_class() {
    let rules = Rules::builtin();
    let all = faults();
    assert!(all.len() > 300, "{} faults", all.len());
    let mut originals: HashMap<String, Original> = HashMap::new();
    // kind -> [both, only objlint, objlint + objtool elsewhere, only objtool, neither]
    let mut table: BTreeMap<String, [usize; 5]> = BTreeMap::new();
    let mut missed = Vec::new();
    for f in &all {
        let (orig, before, opts) = originals.entry(f.original.clone()).or_insert_with(|| {
            let b = std::fs::read(root().join(&f.original)).unwrap();
            let opts = options(&b, &rules);
            let seen = check_bytes(&f.original, &b, &rules, &opts)
                .findings
                .into_iter()
                .map(|x| (x.rule.to_string(), x.message))
                .collect();
            (b, seen, opts)
        });
        let mut b = orig.clone();
        for (at, bytes) in &f.bytes {
            b[*at..*at + bytes.len()].copy_from_slice(bytes);
        }
        let new: Vec<_> = check_bytes(&f.original, &b, &rules, opts)
            .findings
            .into_iter()
            .filter(|x| !before.contains(&(x.rule.to_string(), x.message.clone())))
            .collect();
        let names = |x: &objlint::checks::Finding| {
            x.symbol.as_deref() == Some(f.function.as_str())
                || x.target
                    .as_ref()
                    .is_some_and(|t| t.symbol.as_deref() == Some(f.function.as_str()))
                || x.message.contains(&f.function)
        };
        let ours = new
            .iter()
            .any(|x| x.rule.starts_with(f.rule.as_str()) && names(x));
        let of_class = |w: &&String| objtool_class(w) == Some(f.rule.as_str());
        let theirs = f
            .objtool
            .iter()
            .filter(of_class)
            .any(|w| names_symbol(w, &f.function));
        // objtool names a place with no symbol (`.altinstr_replacement+0x6`).
        let elsewhere = !theirs && f.objtool.iter().any(|w| of_class(&w));
        let row = table.entry(f.kind.clone()).or_default();
        row[match (ours, theirs, elsewhere) {
            (true, true, _) => 0,
            (true, false, false) => 1,
            (true, false, true) => 2,
            (false, true, _) | (false, false, true) => 3,
            (false, false, false) => 4,
        }] += 1;
        if ours && !theirs && !elsewhere && std::env::var_os("ANCHOR_VERBOSE").is_some() {
            println!("only objlint: {} {} {:?}", f.kind, f.function, f.objtool);
        }
        if (theirs || elsewhere) && !ours {
            missed.push(format!(
                "{} {} in {}: objtool says {:?}",
                f.kind, f.function, f.original, f.objtool
            ));
        }
    }
    println!("kind: both / only objlint / objlint, objtool elsewhere / only objtool / neither");
    for (k, r) in &table {
        println!("{k}: {} / {} / {} / {} / {}", r[0], r[1], r[2], r[3], r[4]);
    }
    assert!(
        missed.is_empty(),
        "objtool reports what objlint does not:\n{}",
        missed.join("\n")
    );
    // What objtool itself does on these faults (its output, recorded): the
    // anchor must keep showing the classes it checks.
    for kind in [
        "drop-final-return",
        "drop-pop",
        "change-add-rsp",
        "wipe-endbr",
        "clac-to-stac",
        "damage-st-shndx",
    ] {
        assert!(
            table.get(kind).is_some_and(|r| r[0] + r[2] > 0),
            "{kind}: {table:?}"
        );
    }
}
