//! The same input compiles to the same bytes: the loop-level IR, the
//! object and the shared library do not depend on the run (a map's
//! random iteration order once decided the order of buffer frees, and
//! with it which buffers the memory plan shared: four compilations of one
//! model gave four different libraries).

use std::path::Path;
use std::process::Command;

const STRATA: &str = env!("CARGO_BIN_EXE_strata");

fn compile(input: &Path, output: &Path) -> Vec<u8> {
    let out = Command::new(STRATA)
        .arg("compile")
        .arg(input)
        .arg("-o")
        .arg(output)
        .output()
        .expect("run strata");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::read(output).expect("read the output")
}

#[test]
fn the_same_model_compiles_to_the_same_bytes() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let tmp = tempfile::tempdir().unwrap();
    // Libraries for every batch size (eleven copies of each program): four
    // compilations of each gave four different outputs.
    let runs = [
        ("tests/e2e/every_size_lin.mlir", "mlir", 4),
        ("tests/e2e/every_size_tf.mlir", "mlir", 4),
        ("tests/e2e/every_size_lin.mlir", "o", 2),
        ("tests/e2e/every_size_lin.mlir", "so", 2),
    ];
    for (model, ext, times) in runs {
        // One output name: the library's prefix comes from it.
        let output = tmp.path().join(format!("libmodel.{ext}"));
        let first = compile(&root.join(model), &output);
        for _ in 1..times {
            assert!(
                compile(&root.join(model), &output) == first,
                "{model} compiled to different {ext} bytes"
            );
        }
    }
}
