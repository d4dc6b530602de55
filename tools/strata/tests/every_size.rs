//! One library for every batch size: shape-polymorphic JAX exports
//! (`tests/e2e/every_size_*.mlir`, from `gen_every_size.py` and
//! `gen_every_size_cnn.py`) compiled
//! without `--dim`, called from C with b = 1, 7, 13, 64 and 100 against
//! XLA:CPU's results (`every_size.c`), b = 0 refused with JAX's message;
//! programs whose rows along b are not independent are refused at compile
//! time with the op's location.

use std::process::Command;

mod common;
use common::*;

#[test]
fn one_library_for_every_batch_size_matches_xla() {
    let e2e = repo().join("tests/e2e");
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let hpp = dir.join("mlp.hpp");
    compile_with(
        &e2e.join("every_size_mlp.mlir"),
        dir,
        "libmlp.so",
        "mlp.h",
        &["--header-cpp", hpp.to_str().unwrap()],
    );
    // The other models, each `every_size_NAME.mlir` as libNAME.so with NAME.h.
    let models = [
        "tf", "cols", "flat", "unnamed", "tied", "cnn", "sig", "scat", "rnn", "lin", "shared",
        "lm", "pairs",
    ];
    for name in models {
        let input = e2e.join(format!("every_size_{name}.mlir"));
        compile(&input, dir, &format!("lib{name}.so"), &format!("{name}.h"));
    }
    let header = std::fs::read_to_string(dir.join("mlp.h")).unwrap();
    for needle in [
        "int32_t mlp_main(int64_t b, const float *arg0, const float *arg1, const float *arg2, \
         const float *arg3, const float *arg4, float *result);",
        "#define MLP_MAIN_ARG0_COUNT(b) ((int64_t)(b) * 24)",
        "#define MLP_MAIN_ARG1_COUNT(b) 768",
        "#define MLP_MAIN_RES0_COUNT(b) ((int64_t)(b) * 10)",
        "int32_t mlp_main_packed(const int64_t *dims, void *const *buffers);",
        "tensor<bx24xf32>",
    ] {
        assert!(header.contains(needle), "{needle} not in\n{header}");
    }
    let exe = dir.join("every_size");
    run_ok(
        cc().args(["-O2", "-Wall", "-Werror", "-o"])
            .arg(&exe)
            .arg(e2e.join("every_size.c"))
            .arg(format!("-I{}", dir.display()))
            .arg(format!("-I{}", e2e.display()))
            .arg(format!("-L{}", dir.display()))
            .arg("-lmlp")
            .args(models.map(|name| format!("-l{name}")))
            .arg(format!("-Wl,-rpath,{}", dir.display()))
            .arg("-lm"),
    );
    // `?` dimensions without names: one parameter per `?` argument dimension.
    let header = std::fs::read_to_string(dir.join("unnamed.h")).unwrap();
    for needle in [
        "int32_t unnamed_main(int64_t arg0_dim0, const float *arg0, const float *arg1, \
         const float *arg2, const float *arg3, const float *arg4, float *res0);",
        "#define UNNAMED_MAIN_RES0_COUNT(arg0_dim0) ((int64_t)(arg0_dim0) * 10)",
        "A negative arg0_dim0 returns non-zero.",
    ] {
        assert!(header.contains(needle), "{needle} not in\n{header}");
    }
    // Two `?` arguments the program requires equal: one size parameter.
    let header = std::fs::read_to_string(dir.join("tied.h")).unwrap();
    for needle in [
        "int32_t tied_main(int64_t arg0_dim0, const float *arg0, const float *arg1, ",
        "#define TIED_MAIN_ARG1_COUNT(arg0_dim0) ((int64_t)(arg0_dim0) * 24)",
        "The program requires arg1_dim0 to equal arg0_dim0",
    ] {
        assert!(header.contains(needle), "{needle} not in\n{header}");
    }
    // Batch dimensions that are multiples of b: counts and shapes say so.
    let lm = std::fs::read_to_string(dir.join("lm.h")).unwrap();
    let pairs = std::fs::read_to_string(dir.join("pairs.h")).unwrap();
    for (header, needle) in [
        (&lm, "#define LM_MAIN_RES0_COUNT(b) ((int64_t)(b) * 72)"),
        (&lm, "tensor<(6*b)x12xf32>"),
        (
            &pairs,
            "#define PAIRS_MAIN_ARG0_COUNT(b) ((int64_t)(b) * 16)",
        ),
        (&pairs, "tensor<(2*b)x8xf32>"),
        (
            &pairs,
            "#define PAIRS_MAIN_ARG1_COUNT(b) ((int64_t)(b) * 5)",
        ),
    ] {
        assert!(header.contains(needle), "{needle} not in\n{header}");
    }
    let stdout = run_ok(&mut Command::new(&exe));
    assert!(stdout.contains("every_size: all checks passed"), "{stdout}");
    // The C++ header takes b first and checks spans against its formulas.
    let stdout = build_and_run_cpp(dir, "every_size.cpp", &["mlp"]);
    assert!(
        stdout.contains("every_size C++: all checks passed"),
        "{stdout}"
    );
    let info = run_ok(
        Command::new(env!("CARGO_BIN_EXE_strata"))
            .arg("info")
            .arg(dir.join("libmlp.so"))
            .args(["--name", "mlp"]),
    );
    assert!(
        info.contains("f32[b,24]") && info.contains("f32[b,10]"),
        "{info}"
    );
}

#[test]
fn rows_that_depend_on_each_other_are_refused() {
    let e2e = repo().join("tests/e2e");
    let tmp = tempfile::tempdir().unwrap();
    for (model, want) in [
        (
            "every_size_refused_sum.mlir",
            "'xla.reduce' op does not keep the rows along dimension variable b apart (a reduction over b)",
        ),
        (
            "every_size_refused_iota.mlir",
            "'xla.iota' op does not keep the rows along dimension variable b apart (an iota along b)",
        ),
        (
            "every_size_refused_gather.mlir",
            "'xla.gather' op does not keep the rows along dimension variable b apart (the gather \
             does not take whole rows of a batched operand)",
        ),
        (
            "every_size_refused_scatter.mlir",
            "'xla.scatter' op does not keep the rows along dimension variable b apart (the batch \
             dimension is indexed)",
        ),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_strata"))
            .arg("compile")
            .arg(e2e.join(model))
            .arg("-o")
            .arg(tmp.path().join("lib.so"))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert!(
            stderr.contains(&format!("{model}:")) && stderr.contains(want),
            "{stderr}"
        );
        assert!(
            stderr.contains("compile for one size with --dim b=N"),
            "{stderr}"
        );
        // The note names the Python line JAX recorded for the op.
        assert!(
            stderr.contains("note: in the model's source: ") && stderr.contains("/gen_every_size"),
            "{stderr}"
        );
        // With a size it compiles.
        run_ok(
            Command::new(env!("CARGO_BIN_EXE_strata"))
                .arg("compile")
                .arg(e2e.join(model))
                .args(["--dim", "b=3", "-o"])
                .arg(tmp.path().join("lib.so")),
        );
    }
}

/// A dimension variable's name comes from the model file, which is
/// untrusted: it reaches the generated C, C++ and Rust only as an
/// identifier (the rule of parameter names), and a buffer the model names
/// like it is renamed, so the header compiles.
#[test]
fn dimension_variable_names_reach_generated_code_as_identifiers() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let mlp = std::fs::read_to_string(repo().join("tests/e2e/every_size_mlp.mlir")).unwrap();
    let evil = mlp.replace(
        "jax.global_constant = \"b\"",
        "jax.global_constant = \"b);system(1 */\"",
    );
    assert_ne!(evil, mlp);
    let input = dir.join("evil.mlir");
    std::fs::write(&input, evil).unwrap();
    let hpp = dir.join("evil.hpp");
    let rs = dir.join("evil.rs");
    compile_with(
        &input,
        dir,
        "libevil.so",
        "evil.h",
        &[
            "--header-cpp",
            hpp.to_str().unwrap(),
            "--rust-bindings",
            rs.to_str().unwrap(),
        ],
    );
    let header = std::fs::read_to_string(dir.join("evil.h")).unwrap();
    assert!(
        header.contains("int32_t evil_main(int64_t b_system_1, const float *arg0,"),
        "{header}"
    );
    for file in ["evil.h", "evil.hpp", "evil.rs"] {
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        assert!(!text.contains("system("), "{file}:\n{text}");
    }
    // The argument named like the size parameter (loc("arg0_dim0")).
    let clash = dir.join("clash.mlir");
    std::fs::write(
        &clash,
        "func.func @main(%arg0: tensor<?x4xf32> loc(\"arg0_dim0\")) -> tensor<?x4xf32> {\n  \
         %0 = stablehlo.exponential %arg0 : tensor<?x4xf32>\n  return %0 : tensor<?x4xf32>\n}\n",
    )
    .unwrap();
    compile(&clash, dir, "libclash.so", "clash.h");
    let header = std::fs::read_to_string(dir.join("clash.h")).unwrap();
    assert!(
        header.contains("int32_t clash_main(int64_t arg0_dim0, const float *arg0_dim0_buf,"),
        "{header}"
    );
    let c = dir.join("use.c");
    std::fs::write(
        &c,
        "#include \"evil.h\"\n#include \"clash.h\"\nint main(void) { return 0; }\n",
    )
    .unwrap();
    run_ok(
        cc().args(["-Wall", "-Werror", "-c", "-o"])
            .arg(dir.join("use.o"))
            .arg(&c)
            .arg(format!("-I{}", dir.display())),
    );
}
