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
/// though each object then faults its memory in anew: kept up to 64 MiB
/// per heap, the x86 modules took 38,000 page faults instead of 78,000, but
/// ten copies of them in one run peaked at 1.42-1.46x one copy's memory
/// (8 MiB: 53,000 faults, 1.13x; the default 1.10x) (2026-12-03).
fn fixed_mmap_threshold() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets a tunable; called before any thread starts.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 1 << 20);
    }
}
