// rustc -O output: calls with arguments pushed on the stack (more than six)
// inside the call-site ranges of exception landing pads. The unwinder pops
// the pushed arguments before it enters a landing pad
// (`DW_CFA_GNU_args_size` in .eh_frame says how many bytes), so each pad is
// entered with the stack as between calls.
pub struct D(pub u32);
impl Drop for D {
    fn drop(&mut self) {
        unsafe { ext(self.0) }
    }
}
extern "C" {
    fn ext(x: u32);
}
#[inline(never)]
pub fn many(a: u64, b: u64, c: u64, d: u64, e: u64, f: u64, g: u64, h: u64) -> u64 {
    if a > 3 {
        panic!("a")
    }
    a + b + c + d + e + f + g + h
}
pub fn caller(x: u64, v: &[u64]) -> u64 {
    let _d = D(x as u32);
    let s = many(x, v[1], x, x, x, x, v[0], x);
    let _e = D(s as u32);
    many(s, x, s, x, s, x, v[2], s) + 1
}
