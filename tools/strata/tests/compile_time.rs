//! Compile time stays linear in program size: a chain of 2,000 multi-use
//! 64x64 element-wise ops must compile (to an object, all of LLVM included)
//! in less than 25 times the time of a 200-op chain (linear is 10x; the
//! quadratic passes this guards against took 100x and more). Wall-clock
//! ratios on a loaded machine are noisy, hence the margin; the test fails
//! loudly when compile time goes superlinear again.

use std::process::Command;
use std::time::Instant;

const STRATA: &str = env!("CARGO_BIN_EXE_strata");

/// `ops` element-wise ops, each using the previous two results (so every
/// value has two uses and none fuses away entirely).
fn chain(ops: usize) -> String {
    let ty = "tensor<64x64xf32>";
    let mut s = format!("func.func @main(%a: {ty}, %b: {ty}) -> {ty} {{\n");
    s.push_str(&format!(
        "  %v0 = stablehlo.add %a, %b : {ty}\n  %v1 = stablehlo.multiply %a, %b : {ty}\n"
    ));
    for i in 2..ops {
        let op = ["add", "multiply", "subtract", "maximum"][i % 4];
        s.push_str(&format!(
            "  %v{i} = stablehlo.{op} %v{}, %v{} : {ty}\n",
            i - 1,
            i - 2
        ));
    }
    s.push_str(&format!("  return %v{} : {ty}\n}}\n", ops - 1));
    s
}

fn compile_seconds(ops: usize, dir: &std::path::Path) -> f64 {
    let input = dir.join(format!("chain{ops}.mlir"));
    std::fs::write(&input, chain(ops)).unwrap();
    let start = Instant::now();
    let out = Command::new(STRATA)
        .arg("compile")
        .arg(&input)
        .arg("-o")
        .arg(dir.join(format!("chain{ops}.o")))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    start.elapsed().as_secs_f64()
}

#[test]
fn compile_time_is_linear_in_program_size() {
    let tmp = tempfile::tempdir().unwrap();
    let small = compile_seconds(200, tmp.path());
    let large = compile_seconds(2000, tmp.path());
    let ratio = large / small.max(1e-3);
    eprintln!("200 ops: {small:.2} s, 2,000 ops: {large:.2} s, ratio {ratio:.1}");
    assert!(
        ratio < 25.0,
        "compile time grew {ratio:.1}x for 10x the ops (200 ops: {small:.2} s, 2,000: {large:.2} s)"
    );
}
