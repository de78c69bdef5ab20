//! objlint: a static validator for ELF objects built for the Linux kernel
//! and other low-level code, on x86-64 and arm64.
//!
//! Layers, one direction: [`elf`] (bytes) → [`arch`] (instructions) →
//! [`model`] (functions, flow) → [`checks`] (findings) → [`report`] (formats,
//! and the per-object result they read).
//! Above the core: [`engine`] runs the checks over inputs; [`stats`],
//! [`symdiff`], [`seal`] and [`unwind`] are the other analyses; [`driver`]
//! is the one set of entry points, with typed options, that every subcommand
//! and the language server call; [`app`] is the command line (clap, output,
//! exit codes), which nothing else imports. `src/main.rs` only calls
//! [`app::main`].

pub mod app;
pub mod arch;
pub mod baseline;
pub mod checks;
pub mod compdb;
pub mod config;
pub mod driver;
pub mod elf;
pub mod engine;
pub mod input;
pub mod model;
pub mod paths;
pub mod report;
pub mod rules;
pub mod seal;
pub mod source;
pub mod stats;
pub mod symdiff;
pub mod timing;
pub mod unwind;

/// A mutex's guard even when another thread panicked holding it: the data
/// guarded here (work queues, logs of what matched) stays whole whatever
/// point a panic left it at, and a panic is reported per input anyway.
pub(crate) fn lock<T>(m: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// `n` values made by `make`, written by every thread when there are many:
/// a large table filled on one thread (vmlinux.o's `.text` index: 5 MB, a
/// page fault every 4 KB) held the others idle. (Zeros of a primitive need
/// none of this: `vec!` has the allocator's zeroed pages.)
pub(crate) fn filled_with<T: Send>(n: usize, make: impl Fn() -> T + Sync + Send) -> Vec<T> {
    use rayon::prelude::*;
    if n <= FILL_CHUNK {
        return (0..n).map(|_| make()).collect();
    }
    let mut out = Vec::new();
    (0..n)
        .into_par_iter()
        .with_min_len(FILL_CHUNK)
        .map(|_| make())
        .collect_into_vec(&mut out);
    out
}

/// Elements per job of [`filled_with`].
const FILL_CHUNK: usize = 1 << 16;
