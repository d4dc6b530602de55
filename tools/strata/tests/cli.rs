//! CLI snapshot cases (trycmd): every `tests/cli/*.toml` runs the `strata` binary with the given
//! arguments and compares exit status, stdout and stderr (`...` matches any lines, `[..]` any
//! text within a line). A `NAME.in/` directory next to `NAME.toml` is the working directory.
//! After an intended output change, regenerate with `TRYCMD=overwrite cargo test -p strata --test
//! cli` and review the diff.

#[test]
fn cli() {
    trycmd::TestCases::new()
        .register_bin("strata", std::path::Path::new(env!("CARGO_BIN_EXE_strata")))
        .case("../../tests/cli/*.toml");
}
