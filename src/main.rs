fn main() {
    malloc_thresholds();
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
/// Smaller blocks come from the heaps, whose free top glibc gives back past
/// 128 KiB: each object's memory then faults in anew, page by page (the
/// x86 modules: 78,000 faults, a seventh of the run's CPU time on this VM).
/// Kept up to 64 MiB per heap, the next object reuses it: 38,000 faults.
fn malloc_thresholds() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets a tunable; called before any thread starts.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 1 << 20);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 64 << 20);
    }
}
