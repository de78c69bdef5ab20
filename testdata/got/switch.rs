// rustc -C opt-level=0 output (cargo builds proc-macro crates for the host
// so): a match over every variant of an enum, compiled to a jump table with
// LLVM's TrapUnreachable `ud2` after the dispatch, where no path goes.
#[derive(Clone, Copy)]
pub enum Op {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Shl,
}
#[inline(never)]
pub fn cost(op: Op) -> u32 {
    match op {
        Op::Add => 10,
        Op::Sub => 27,
        Op::Mul => 3,
        Op::Div => 44,
        Op::Rem => 5,
        Op::Shl => 61,
    }
}
