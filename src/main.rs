fn main() {
    fixed_mmap_threshold();
    std::process::exit(objlint::app::main());
}

/// Blocks of 1 MiB and more get mappings of their own, given back to the
/// system when freed. glibc's default raises that threshold to the largest
/// block freed so far (amdgpu.ko's 21 MB of instructions), after which large
/// blocks come from its heaps and stay resident once freed: a run over ten
/// copies of the x86 modules peaked at 1.3-1.5x one copy's memory; with the
/// threshold fixed, 1.11x (most of it the list of 42,300 inputs), in time
/// within the noise of the default's (2026-12-02).
///
/// The heaps' free top stays at glibc's default (given back past 128 KiB),
/// though each module's instructions and per-function results are then
/// faulted in anew, about 2 us a page on this kind of machine. Kept up to
/// 2 MiB, system time on the x86 modules fell from 0.32-0.40 s to
/// 0.26-0.35 s, but ten copies of them in one run peaked at 1.09-1.11x one
/// copy's memory (the default 1.08-1.10x; 4 MiB 1.11x, 8 MiB 1.11-1.12x,
/// 16 MiB 1.23x, 64 MiB 1.42-1.46x) against the 10% a run over many
/// objects may grow by (2026-12-03).
fn fixed_mmap_threshold() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets a tunable; called before any thread starts.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 1 << 20);
    }
}
