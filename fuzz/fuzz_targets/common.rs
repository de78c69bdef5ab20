//! Set-up shared by the targets, run once per process (`fuzz_target!`'s
//! `init`).

/// objlint parallelises inside one check with rayon's global pool. A fuzzer
/// process runs one input at a time (and many processes share the cores), so
/// the pool is the calling thread alone: the same code runs, without
/// handing each parallel step to a worker thread and back (10-20% of an
/// execution's time on the seeds). The targets call `init` first, before
/// anything can build the default pool.
pub fn init() {
    rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .use_current_thread()
        .build_global()
        .expect("the global pool is built once, first");
}
