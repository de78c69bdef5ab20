fn main() {
    std::process::exit(objlint::app::main());
}
