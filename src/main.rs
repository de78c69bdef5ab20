fn main() {
    std::process::exit(objlint::cli::main());
}
