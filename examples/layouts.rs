//! Prints the patchable/kCFI layout of each object (the API `objlint stats`
//! can show): `file M,N entries with/without hash-offset hashes/checks`, then
//! a tally of layouts.
//!
//! cargo run --release --example layouts -- PATH...

use objlint::elf::Object;
use objlint::model::Model;
use objlint::model::patchable::layout;
use objlint::rules::Rules;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::path::PathBuf;

fn main() {
    let paths: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    let (inputs, _) = objlint::input::expand(&paths);
    let rules = Rules::builtin();
    let lines: Vec<(String, String)> = inputs
        .par_iter()
        .flat_map_iter(|inp| {
            let mut out = Vec::new();
            let Ok(l) = objlint::input::load(&inp.path) else {
                return out;
            };
            for (_, r) in &l.members {
                let Ok(obj) = Object::parse(&l.bytes[r.clone()]) else {
                    continue;
                };
                let model = Model::build(&obj, &rules);
                let s = layout(&model, &rules.patchable);
                let key = format!(
                    "{} {} hash-{}",
                    obj.machine,
                    match (s.m, s.n) {
                        (Some(m), Some(n)) => format!("{m},{n}"),
                        _ => "none".into(),
                    },
                    s.hash_offset
                        .map(|k| format!("{k:#x}"))
                        .unwrap_or("none".into())
                );
                out.push((
                    key.clone(),
                    format!(
                        "{}: {key} entries={} unnamed={} with={} without={} hashes={} checks={}",
                        inp.path.display(),
                        s.entries,
                        s.entries_without_symbol,
                        s.functions_with_entry,
                        s.functions_without_entry,
                        s.hashes,
                        s.hash_checks
                    ),
                ));
            }
            out
        })
        .collect();
    let mut tally: BTreeMap<String, usize> = BTreeMap::new();
    for (k, line) in &lines {
        println!("{line}");
        *tally.entry(k.clone()).or_default() += 1;
    }
    for (k, n) in tally {
        println!("# {n:6} {k}");
    }
}
