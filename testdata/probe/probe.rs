// rustc probes frames over a page inline (LLVM's `probe-stack=inline-asm`):
// the same loop as clang's, in every Rust object with a large frame.
#[inline(never)]
pub fn big(n: usize, f: fn(&mut [u8; 70000])) -> u8 {
    let mut buf = [0u8; 70000];
    f(&mut buf);
    buf[n % 70000]
}
