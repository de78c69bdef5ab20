// A public function that never returns and its caller in the same crate:
// rustc calls it through its GOT slot (`call *die@GOTPCREL(%rip)`), as it
// does generic instances of other crates' functions (core's `assert_failed`).
// The call goes to the function defined here, which objlint proves never
// returns: nothing falls through after it.
#[inline(never)]
pub fn die(line: u32) -> ! {
    panic!("mismatch at line {line}")
}

pub fn pick(v: &[u32], i: usize) -> u32 {
    if i >= v.len() {
        die(line!());
    }
    v[i] * 3
}
