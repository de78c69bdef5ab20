//! How much of decoding is the branch predictor's: the x86 decoder over the
//! same instructions in three orders (as compiled; grouped by their bytes,
//! so that every branch on the opcode goes the way it went last time;
//! shuffled), one thread, the fastest of 15 passes each.
//!
//! `cargo run --release --example decode_order -- DIR...` (x86-64 objects).
//! On the 2026-12-06 machine, every 20th of objtool's inputs (1.26 M
//! instructions): 19.9 ns an instruction as compiled, 7.8 grouped, 27-31
//! shuffled: three fifths of the decoder's time is mispredicted branches.

use objlint::arch::{Kind, decoder};
use objlint::elf::{Machine, Object};
use std::path::PathBuf;

fn main() {
    let paths: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    let (inputs, _) = objlint::input::expand(&paths);
    // Each instruction's bytes, in the order of the code.
    let mut insns: Vec<Vec<u8>> = Vec::new();
    for input in inputs.iter() {
        let Ok(l) = objlint::input::load(&input.path) else {
            continue;
        };
        for (_, r) in &l.members {
            let Ok(o) = Object::parse(&l.bytes[r.clone()]) else {
                continue;
            };
            if o.machine != Machine::X86_64 {
                continue;
            }
            let dec = decoder(o.machine);
            for s in o.sections.iter().filter(|s| s.is_exec()) {
                let d = o.section_data(s.index);
                for (lo, hi) in o.code_ranges(s.index) {
                    let mut out = Vec::new();
                    dec.decode(&d[lo as usize..hi as usize], lo, &mut out);
                    for ins in out.iter().filter(|i| i.kind != Kind::Invalid) {
                        let (a, b) = (ins.offset() as usize, ins.end() as usize);
                        if let Some(bytes) = d.get(a..b) {
                            insns.push(bytes.to_vec());
                        }
                    }
                }
            }
        }
    }
    let dec = decoder(Machine::X86_64);
    let time = |name: &str, order: &[Vec<u8>]| {
        let bytes: Vec<u8> = order.iter().flatten().copied().collect();
        let mut out = Vec::with_capacity(order.len() + 16);
        let mut best = f64::MAX;
        for _ in 0..15 {
            out.clear();
            let t = std::time::Instant::now();
            dec.decode(&bytes, 0, &mut out);
            best = best.min(t.elapsed().as_secs_f64());
        }
        println!(
            "{name:9} {} instructions: {:.2} ns each",
            out.len(),
            best * 1e9 / out.len().max(1) as f64
        );
    };
    time("compiled", &insns);
    let mut grouped = insns.clone();
    grouped.sort_unstable();
    time("grouped", &grouped);
    // xorshift: the same order every run.
    let mut shuffled = insns;
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    for i in (1..shuffled.len()).rev() {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        shuffled.swap(i, (x % (i as u64 + 1)) as usize);
    }
    time("shuffled", &shuffled);
}
