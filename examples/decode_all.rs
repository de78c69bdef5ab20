//! Baseline for the end-to-end benchmark: read every object under the given
//! paths and decode all executable bytes once, nothing else. objlint's full
//! check should stay within a small factor of this.

use objlint::arch::decoder;
use objlint::elf::Object;
use rayon::prelude::*;
use std::path::PathBuf;

fn main() {
    let paths: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    let (inputs, _) = objlint::input::expand(&paths);
    let t0 = std::time::Instant::now();
    let (bytes, insns) = inputs
        .par_iter()
        .map(|i| {
            let Ok(l) = objlint::input::load(&i.path) else {
                return (0u64, 0usize);
            };
            let mut acc = (0u64, 0usize);
            for (_, r) in &l.members {
                let Ok(o) = Object::parse(&l.bytes[r.clone()]) else {
                    continue;
                };
                let dec = decoder(o.machine);
                let mut out = Vec::new();
                for s in o.sections.iter().filter(|s| s.is_exec()) {
                    for (lo, hi) in o.code_ranges(s.index) {
                        let d = o.section_data(s.index);
                        dec.decode(&d[lo as usize..hi as usize], lo, &mut out);
                    }
                    acc.0 += s.size;
                }
                acc.1 += out.len();
            }
            acc
        })
        .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    let dt = t0.elapsed().as_secs_f64();
    eprintln!(
        "decode_all: {} files, {:.1} MB text, {insns} instructions, {dt:.2}s ({:.0} MB/s)",
        inputs.len(),
        bytes as f64 / 1e6,
        bytes as f64 / 1e6 / dt
    );
}
