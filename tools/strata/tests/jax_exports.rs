//! JAX's exports end to end: serialized (`Exported.serialize()`) and
//! portable artifacts, shape-polymorphic exports compiled for a size,
//! multi-platform exports, and the model's names (pytree paths, dropped
//! arguments) in the header, the signature and `strata info`.

use std::path::Path;
use std::process::Command;

mod common;
use common::*;

/// The same model as JAX's serialized export (`Exported.serialize()`, read
/// by content whatever the extension) and as the StableHLO portable
/// artifact inside it (`.mlirbc`): same C program, same results.
#[test]
fn mlp_from_serialized_jax_export_and_portable_artifact_matches_xla() {
    for model in ["model.jax", "model.mlirbc"] {
        let tmp = tempfile::tempdir().unwrap();
        mlp_c_program_matches_xla(model, tmp.path());
    }
}

/// The same model exported shape-polymorphic in the batch
/// (`symbolic_shape("b")`), as text and serialized, compiled for the
/// example's batch with `--dim b=4`: same C program, same results; with a
/// value JAX's constraints reject (b >= 1), a located error. (Without a
/// value it is one library for every b: `tests/every_size.rs`.)
#[test]
fn shape_polymorphic_mlp_compiled_for_a_batch_matches_xla() {
    for model in ["model.poly.mlir", "model.poly.jax"] {
        let tmp = tempfile::tempdir().unwrap();
        mlp_c_program_built_with_matches_xla(model, tmp.path(), &["--dim", "b=4"]);
    }
    let tmp = tempfile::tempdir().unwrap();
    for (dims, message) in [(
        &["--dim", "b=0"][..],
        "Expected value >= 1 for dimension variable 'b'",
    )] {
        let out = Command::new(env!("CARGO_BIN_EXE_strata"))
            .arg("compile")
            .arg(mlp_dir().join("model.poly.mlir"))
            .arg("-o")
            .arg(tmp.path().join("m.o"))
            .args(dims)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert!(
            stderr.contains("model.poly.mlir:") && stderr.contains(message),
            "{stderr}"
        );
    }
}

/// `strata run` on the shape-polymorphic export takes the batch from the
/// shape of its `.npy` input (b = 4 here) and matches XLA.
#[test]
fn strata_run_takes_dimension_variables_from_npy_shapes() {
    let tmp = tempfile::tempdir().unwrap();
    let inputs = std::fs::read_to_string(mlp_dir().join("inputs.h")).unwrap();
    let expected = std::fs::read_to_string(mlp_dir().join("expected.h")).unwrap();
    let shapes: [(&str, &[usize]); 5] = [
        ("x", &[4, 8]),
        ("w1", &[8, 16]),
        ("b1", &[16]),
        ("w2", &[16, 4]),
        ("b2", &[4]),
    ];
    let mut args = vec![
        "run".to_string(),
        mlp_dir().join("model.poly.mlir").display().to_string(),
    ];
    for (name, shape) in shapes {
        let values = c_float_array(&inputs, &format!("input_{name}"));
        let path = tmp.path().join(format!("{name}.npy"));
        write_npy_f32(&path, shape, &values);
        args.extend(["--input".to_string(), format!("@{}", path.display())]);
    }
    args.extend(["--output-dir".to_string(), tmp.path().display().to_string()]);
    run_ok(Command::new(env!("CARGO_BIN_EXE_strata")).args(&args));
    let got = std::fs::read(tmp.path().join("res0.npy")).unwrap();
    let data = &got[got.len() - 16 * 4..];
    let want = c_float_array(&expected, "expected_out");
    for (i, w) in want.iter().enumerate() {
        let g = f32::from_le_bytes(data[4 * i..4 * i + 4].try_into().unwrap());
        assert!((g - w).abs() <= 1e-6, "element {i}: {g} vs XLA's {w}");
    }
}

/// A C-order little-endian f32 `.npy` file.
fn write_npy_f32(path: &Path, shape: &[usize], values: &[f32]) {
    let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    let tuple = if dims.len() == 1 {
        format!("({},)", dims[0])
    } else {
        format!("({})", dims.join(", "))
    };
    let mut header = format!("{{'descr': '<f4', 'fortran_order': False, 'shape': {tuple}, }}");
    while (10 + header.len() + 1) % 64 != 0 {
        header.push(' ');
    }
    header.push('\n');
    let mut bytes = b"\x93NUMPY\x01\x00".to_vec();
    bytes.extend((header.len() as u16).to_le_bytes());
    bytes.extend(header.as_bytes());
    for v in values {
        bytes.extend(v.to_le_bytes());
    }
    std::fs::write(path, bytes).unwrap();
}

/// A serialized export cut short is a located error (its byte offset),
/// exit status 1, never a crash.
#[test]
fn truncated_serialized_export_is_an_error() {
    let tmp = tempfile::tempdir().unwrap();
    let bytes = std::fs::read(mlp_dir().join("model.jax")).unwrap();
    for (cut, what) in [(bytes.len() / 2, "model.jax"), (64, "model.jax")] {
        let path = tmp.path().join(what);
        std::fs::write(&path, &bytes[..cut]).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_strata"))
            .args(["compile"])
            .arg(&path)
            .arg("-o")
            .arg(tmp.path().join("m.o"))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert!(
            stderr.contains("error: ") && stderr.contains("byte "),
            "{stderr}"
        );
    }
}

/// The same model exported by `jax.export` for two platforms (`cpu`,
/// `cuda`): the platform index leaves the C signature, the cpu code is kept
/// (told by `--platforms`, and by default the first), and the C program is
/// unchanged.
#[test]
fn mlp_exported_for_several_platforms_matches_xla() {
    let tmp = tempfile::tempdir().unwrap();
    mlp_c_program_matches_xla("model.multiplatform.mlir", tmp.path());
    let tmp = tempfile::tempdir().unwrap();
    mlp_c_program_built_with_matches_xla(
        "model.multiplatform.mlir",
        tmp.path(),
        &["--platforms", "cpu,cuda"],
    );
}

/// A model of a params dict returning a dict (`tests/e2e/params_dict.*`,
/// JAX's export as text and serialized): the header names every buffer by
/// its JAX path (`params['attn']['wk']` → `params_attn_wk`, the path in the
/// comment), count macros stay positional, `strata info` prints the same
/// signature for the model and for the library (`P_signature()`), and the C
/// program's named and packed calls and the C++ program (`--header-cpp`)
/// match XLA.
#[test]
fn params_dict_model_names_its_buffers_by_path() {
    let e2e = repo().join("tests/e2e");
    for model in ["params_dict.mlir", "params_dict.jax"] {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        let hpp = dir.join("params_dict.hpp");
        compile_with(
            &e2e.join(model),
            dir,
            "libpd.so",
            "params_dict.h",
            &["--name", "pd", "--header-cpp", hpp.to_str().unwrap()],
        );
        let header = std::fs::read_to_string(dir.join("params_dict.h")).unwrap();
        for needle in [
            "int32_t pd_main(const float *params_attn_wk, const float *params_attn_wv, \
             const float *params_b, const float *x, float *result_aux_norm, float *result_out);",
            "params['attn']['wk']",
            "result['aux']['norm']",
            "#define PD_MAIN_ARG0_COUNT 32",
            "#define PD_MAIN_RES1_COUNT 6",
            "int32_t pd_main_packed(void *const *buffers);",
            "const char *pd_signature(void);",
        ] {
            assert!(header.contains(needle), "{needle} not in\n{header}");
        }
        let exe = dir.join("params_dict");
        run_ok(
            cc().args(["-O2", "-Wall", "-Werror", "-o"])
                .arg(&exe)
                .arg(e2e.join("params_dict.c"))
                .arg(format!("-I{}", dir.display()))
                .arg(format!("-I{}", e2e.display()))
                .arg(format!("-L{}", dir.display()))
                .arg("-lpd")
                .arg(format!("-Wl,-rpath,{}", dir.display()))
                .arg("-lm"),
        );
        let stdout = run_ok(&mut Command::new(&exe));
        assert!(
            stdout.contains("params_dict: all checks passed"),
            "{stdout}"
        );
        // The C++ header: spans, result vectors, scratch, exceptions.
        let stdout = build_and_run_cpp(dir, "params_dict.cpp", &["pd"]);
        assert!(
            stdout.contains("params_dict C++: all checks passed"),
            "{stdout}"
        );
        let of_library = run_ok(
            Command::new(env!("CARGO_BIN_EXE_strata"))
                .arg("info")
                .arg(dir.join("libpd.so"))
                .args(["--name", "pd"]),
        );
        let of_model = run_ok(
            Command::new(env!("CARGO_BIN_EXE_strata"))
                .arg("info")
                .arg(e2e.join(model))
                .args(["--name", "pd"]),
        );
        assert_eq!(of_library, of_model);
        assert!(
            of_library.contains("@main (pd_main, 6 buffers)")
                && of_library.contains("in   params_attn_wk   f32[4,8]  params['attn']['wk']")
                && of_library.contains("out  result_out       f32[3,2]  result['out']"),
            "{of_library}"
        );
    }
}

/// A serialized export of a function that does not use one leaf of its
/// params: JAX dropped it; the header and the signature say so.
#[test]
fn dropped_unused_arguments_are_reported() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    compile(
        &repo().join("tests/e2e/unused_args.jax"),
        dir,
        "libua.so",
        "ua.h",
    );
    let header = std::fs::read_to_string(dir.join("ua.h")).unwrap();
    assert!(
        header.contains("int32_t ua_main(const float *params_w, const float *x, float *result);")
            && header.contains(
                "Not parameters: JAX dropped these unused arguments (keep_unused=False): args[0]['unused']"
            ),
        "{header}"
    );
    let json = run_ok(
        Command::new(env!("CARGO_BIN_EXE_strata"))
            .arg("info")
            .arg(dir.join("libua.so"))
            .arg("--json"),
    );
    assert!(
        json.contains(r#""dropped_arguments":["args[0]['unused']"]"#),
        "{json}"
    );
}

/// The Rust bindings' named form: a model whose arguments and results carry
/// JAX's pytree paths gets one struct per level (`MainArgsParamsAttn`) and
/// `main_named`, compiled with plain rustc against the static library; the
/// values are checked against the arithmetic done in Rust (exact: small
/// integers and halves), and against the positional form.
#[test]
fn rust_bindings_take_and_return_structs_along_the_pytree() {
    let tmp = tempfile::tempdir().unwrap();
    let model = r#"func.func public @main(%arg0: tensor<4xf32> loc("params['attn']['w']"), %arg1: tensor<4xf32> loc("params['b']"), %arg2: tensor<4xf32> loc("x")) -> (tensor<4xf32> {jax.result_info = "result['y']"}, tensor<4xf32> {jax.result_info = "result['aux']['norm']"}) {
  %0 = stablehlo.multiply %arg0, %arg2 : tensor<4xf32>
  %1 = stablehlo.add %0, %arg1 : tensor<4xf32>
  %2 = stablehlo.add %arg2, %arg2 : tensor<4xf32>
  return %1, %2 : tensor<4xf32>, tensor<4xf32>
}
"#;
    let program = r#"
fn main() {
    let w = [1.0f32, 2.0, 3.0, 4.0];
    let b = [0.5f32; 4];
    let x = [2.0f32, -1.0, 0.0, 3.0];
    let args = named::MainArgs {
        params: named::MainArgsParams {
            attn: named::MainArgsParamsAttn { w: &w },
            b: &b,
        },
        x: &x,
    };
    let r: named::MainResults = named::main_named(&args).unwrap();
    let y: Vec<f32> = (0..4).map(|i| w[i] * x[i] + b[i]).collect();
    assert_eq!(r.y, y);
    let norm: named::MainResultsAux = r.aux.clone();
    assert_eq!(norm.norm, x.iter().map(|v| v + v).collect::<Vec<f32>>());
    let (y2, norm2) = named::main(&w, &b, &x).unwrap();
    assert_eq!((y2, norm2), (r.y, r.aux.norm));
    println!("named rust bindings ok");
}
"#;
    let out = run_rust_with_bindings(tmp.path(), "named", model, program);
    assert!(out.contains("named rust bindings ok"), "{out}");
}
