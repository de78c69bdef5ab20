// rustc -O output (a library crate): calls to the standard library through
// the GOT, panics that never return (`panic_bounds_check`, then `ud2`), and
// exception landing pads (.gcc_except_table) that run the drops when a call
// unwinds.
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
pub fn f(x: u32, v: &Vec<u32>) -> u32 {
    let _d = D(x);
    let y = v[x as usize];
    let _e = D(y);
    g(y) + 1
}
#[inline(never)]
pub fn g(x: u32) -> u32 {
    if x > 3 {
        panic!("big {}", x)
    }
    x
}
#[inline(never)]
pub fn grow(n: usize) -> Vec<u64> {
    Vec::with_capacity(n)
}
