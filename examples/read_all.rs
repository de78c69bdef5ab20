//! The floor of reading: load every object under the given paths as
//! `check` does (read or mapped, `.ko.xz` / `.ko.zst` decompressed, archive
//! members found) and nothing else. On compressed modules this is the
//! decompressor's time, which no check can go below.
//!
//! `cargo run --release --example read_all -- DIR...` (threads: `RAYON_NUM_THREADS`).

use rayon::prelude::*;
use std::path::PathBuf;

fn main() {
    let paths: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    let (inputs, _) = objlint::input::expand(&paths);
    let t0 = std::time::Instant::now();
    let (files, bytes, failed) = inputs
        .par_iter()
        .map(|i| match objlint::input::load(&i.path) {
            Ok(l) => (1usize, l.bytes.len() as u64, 0usize),
            Err(_) => (1, 0, 1),
        })
        .reduce(|| (0, 0, 0), |a, b| (a.0 + b.0, a.1 + b.1, a.2 + b.2));
    let dt = t0.elapsed().as_secs_f64();
    eprintln!(
        "read_all: {files} files ({failed} unreadable), {:.1} MB as read, {dt:.2}s ({:.0} MB/s)",
        bytes as f64 / 1e6,
        bytes as f64 / 1e6 / dt
    );
}
