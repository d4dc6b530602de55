//! End-to-end tests: compile with the `strata` driver, link the artifacts into C and Rust
//! programs, and compare the results with XLA's.
//!
//! - `examples/mlp/`: an MLP exported from JAX (`model.mlir`, and `model.hlo` as HLO text), its inputs (`inputs.h`) and
//!   XLA:CPU's outputs (`expected.h`); `main.c` exits 0 iff Strata's output matches within 1e-5.
//! - `tests/e2e/abi.mlir` + `abi.c`: the C ABI (several functions and results, integer, pred,
//!   f16 and f64 buffers, scalars; private functions are not exported).

use std::path::{Path, PathBuf};
use std::process::Command;

mod common;
use common::*;

fn mlp_dir() -> PathBuf {
    repo().join("examples/mlp")
}

/// Compiles `examples/mlp/MODEL` to a shared library in `dir`, links
/// `main.c` against it and asserts the program matches XLA.
fn mlp_c_program_matches_xla(model: &str, dir: &Path) {
    mlp_c_program_built_with_matches_xla(model, dir, &[]);
}

/// [`mlp_c_program_matches_xla`] with extra `strata compile` options.
fn mlp_c_program_built_with_matches_xla(model: &str, dir: &Path, options: &[&str]) {
    compile_with(
        &mlp_dir().join(model),
        dir,
        "libmodel.so",
        "model.h",
        options,
    );
    let exe = dir.join("mlp");
    run_ok(
        cc().args(["-O2", "-Wall", "-Werror", "-o"])
            .arg(&exe)
            .arg(mlp_dir().join("main.c"))
            .arg(format!("-I{}", dir.display()))
            .arg(format!("-L{}", dir.display()))
            .arg("-lmodel")
            .arg(format!("-Wl,-rpath,{}", dir.display()))
            .arg("-lm"),
    );
    assert_matches_xla(&run_ok(&mut Command::new(&exe)));
}

/// The MLP programs print this line when all their outputs match XLA's.
fn assert_matches_xla(stdout: &str) {
    assert!(stdout.contains("OK: all 16 outputs match XLA"), "{stdout}");
}

#[test]
fn mlp_c_program_with_shared_library_matches_xla() {
    let tmp = tempfile::tempdir().unwrap();
    mlp_c_program_matches_xla("model.mlir", tmp.path());
}

/// The second backend (`--backend mlir`: the loop level lowered by upstream
/// MLIR's passes) builds the same library: same header, same C program,
/// same results.
#[test]
fn mlp_c_program_with_the_mlir_backend_matches_xla() {
    let tmp = tempfile::tempdir().unwrap();
    mlp_c_program_built_with_matches_xla("model.mlir", tmp.path(), &["--backend", "mlir"]);
}

/// The same model exported as XLA HLO text (`model.hlo`) gives the same
/// library: the C program is unchanged and matches XLA.
#[test]
fn mlp_from_hlo_text_c_program_matches_xla() {
    let tmp = tempfile::tempdir().unwrap();
    mlp_c_program_matches_xla("model.hlo", tmp.path());
    let header = std::fs::read_to_string(tmp.path().join("model.h")).unwrap();
    assert!(header.contains("model_main("), "{header}");
}

/// `examples/python/mlp.py`: the library called from Python through ctypes.
#[test]
fn python_ctypes_example_matches_xla() {
    let tmp = tempfile::tempdir().unwrap();
    let lib = compile(
        &mlp_dir().join("model.mlir"),
        tmp.path(),
        "libmodel.so",
        "model.h",
    );
    let stdout = run_ok(
        Command::new("python3")
            .arg(repo().join("examples/python/mlp.py"))
            .arg(&lib),
    );
    assert_matches_xla(&stdout);
}

/// `--pkg-config`: a C program built with the flags pkg-config gives for a
/// static library links and matches XLA.
#[test]
fn pkg_config_file_builds_the_c_program() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    run_ok(
        Command::new(STRATA)
            .arg("compile")
            .arg(mlp_dir().join("model.mlir"))
            .arg("-o")
            .arg(dir.join("libmodel.a"))
            .arg("--header")
            .arg(dir.join("model.h"))
            .arg("--pkg-config")
            .arg(dir.join("model.pc")),
    );
    let flags = run_ok(
        Command::new("pkg-config")
            .args(["--cflags", "--libs", "model"])
            .env("PKG_CONFIG_PATH", dir),
    );
    let exe = dir.join("mlp");
    run_ok(
        cc().args(["-O2", "-Wall", "-Werror", "-o"])
            .arg(&exe)
            .arg(mlp_dir().join("main.c"))
            .args(flags.split_whitespace()),
    );
    assert_matches_xla(&run_ok(&mut Command::new(&exe)));
}

/// `examples/cmake`: CMake compiles the model during the build and links
/// it as an imported static library.
#[test]
fn cmake_example_builds_and_matches_xla() {
    let tmp = tempfile::tempdir().unwrap();
    let build = tmp.path().join("build");
    run_ok(
        Command::new("cmake")
            .arg("-S")
            .arg(repo().join("examples/cmake"))
            .arg("-B")
            .arg(&build)
            .arg(format!("-DSTRATA={STRATA}")),
    );
    run_ok(Command::new("cmake").arg("--build").arg(&build));
    let stdout = run_ok(&mut Command::new(build.join("mlp")));
    assert_matches_xla(&stdout);
}

/// A driver copied away from its build tree (as `cargo install` leaves it)
/// still links libraries: the runtime archive is embedded in it.
#[test]
fn copied_driver_finds_its_runtime() {
    let tmp = tempfile::tempdir().unwrap();
    let bin = tmp.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    let driver = bin.join("strata");
    std::fs::copy(STRATA, &driver).unwrap();
    let scratch = tmp.path().join("tmp");
    std::fs::create_dir(&scratch).unwrap();
    let lib = tmp.path().join("libmodel.so");
    run_ok(
        Command::new(&driver)
            .arg("compile")
            .arg(mlp_dir().join("model.mlir"))
            .arg("-o")
            .arg(&lib)
            .env_remove("STRATA_RUNTIME_LIB")
            // A fresh temporary directory: the archive is extracted there.
            .env("TMPDIR", &scratch),
    );
    assert!(lib.is_file());
    let extracted: Vec<_> = std::fs::read_dir(&scratch).unwrap().flatten().collect();
    assert!(
        extracted
            .iter()
            .any(|e| e.file_name().to_string_lossy().starts_with("strata-")),
        "no private directory with the runtime archive in TMPDIR"
    );
}

/// `examples/rust_mlp`, a crate of its own as a user's would be: its
/// build.rs compiles the MLP with `strata-build` and its main calls the
/// typed bindings (no `unsafe`, no `extern` block) and checks XLA's output.
#[test]
fn rust_crate_with_strata_build_matches_xla() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let stdout = run_ok(
        Command::new(cargo)
            .args(["run", "--release", "--quiet", "--offline"])
            .current_dir(repo().join("examples/rust_mlp"))
            .env("STRATA", STRATA)
            // Kept between runs (it is small), beside the workspace's own.
            .env("CARGO_TARGET_DIR", repo().join("target/examples-rust_mlp")),
    );
    assert_matches_xla(&stdout);
    let main_rs = std::fs::read_to_string(repo().join("examples/rust_mlp/src/main.rs")).unwrap();
    assert!(
        !main_rs.contains("unsafe"),
        "the example must need no unsafe code"
    );
}

#[test]
fn mlp_c_program_with_static_archive_matches_xla() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    compile(&mlp_dir().join("model.mlir"), dir, "libmodel.a", "model.h");
    let exe = dir.join("mlp");
    // The archive holds the runtime too: only system libraries are added.
    run_ok(
        cc().args(["-O2", "-o"])
            .arg(&exe)
            .arg(mlp_dir().join("main.c"))
            .arg(format!("-I{}", dir.display()))
            .arg(dir.join("libmodel.a"))
            .args(["-lm", "-lpthread", "-ldl"]),
    );
    assert_matches_xla(&run_ok(&mut Command::new(&exe)));
}

/// Parses `static const float NAME[N] = { ... };` from a generated C header.
fn c_float_array(header: &str, name: &str) -> Vec<f32> {
    let decl = format!("static const float {name}[");
    let start = header
        .find(&decl)
        .unwrap_or_else(|| panic!("{name} not found"));
    let rest = &header[start + decl.len()..];
    let n: usize = rest[..rest.find(']').unwrap()].parse().unwrap();
    let body = &rest[rest.find('{').unwrap() + 1..rest.find("};").unwrap()];
    let values: Vec<f32> = body
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| {
            s.trim_end_matches('f')
                .parse()
                .unwrap_or_else(|e| panic!("{name}: bad value {s:?}: {e}"))
        })
        .collect();
    assert_eq!(values.len(), n, "{name}: element count");
    values
}

#[test]
fn mlp_rust_program_via_dlopen_matches_xla() {
    let inputs_h = std::fs::read_to_string(mlp_dir().join("inputs.h")).unwrap();
    let expected_h = std::fs::read_to_string(mlp_dir().join("expected.h")).unwrap();
    let inputs: Vec<Vec<f32>> = ["input_x", "input_w1", "input_b1", "input_w2", "input_b2"]
        .iter()
        .map(|n| c_float_array(&inputs_h, n))
        .collect();
    let expected = c_float_array(&expected_h, "expected_out");

    let tmp = tempfile::tempdir().unwrap();
    let so = compile(
        &mlp_dir().join("model.mlir"),
        tmp.path(),
        "libmodel.so",
        "model.h",
    );
    let header = std::fs::read_to_string(tmp.path().join("model.h")).unwrap();
    assert!(
        header.contains("#define MODEL_MAIN_RES0_COUNT 16"),
        "{header}"
    );

    type MainFn = unsafe extern "C" fn(
        *const f32,
        *const f32,
        *const f32,
        *const f32,
        *const f32,
        *mut f32,
    ) -> i32;
    type ErrFn = unsafe extern "C" fn() -> *const std::ffi::c_char;
    let mut out = vec![f32::NAN; expected.len()];
    unsafe {
        let lib = libloading::Library::new(&so).unwrap();
        let main: libloading::Symbol<MainFn> = lib.get(b"model_main").unwrap();
        let last_error: libloading::Symbol<ErrFn> = lib.get(b"model_last_error").unwrap();
        let status = main(
            inputs[0].as_ptr(),
            inputs[1].as_ptr(),
            inputs[2].as_ptr(),
            inputs[3].as_ptr(),
            inputs[4].as_ptr(),
            out.as_mut_ptr(),
        );
        let err = std::ffi::CStr::from_ptr(last_error())
            .to_string_lossy()
            .into_owned();
        assert_eq!(status, 0, "model_main failed: {err}");
        assert_eq!(err, "");
        // Calling again with the same inputs gives the same result (no hidden state).
        let mut again = vec![0.0f32; expected.len()];
        main(
            inputs[0].as_ptr(),
            inputs[1].as_ptr(),
            inputs[2].as_ptr(),
            inputs[3].as_ptr(),
            inputs[4].as_ptr(),
            again.as_mut_ptr(),
        );
        assert_eq!(out, again);
    }
    for (i, (got, want)) in out.iter().zip(&expected).enumerate() {
        assert!(
            (got - want).abs() <= 1e-5,
            "element {i}: expected {want}, got {got}\nall: {out:?}"
        );
    }
    // Rows of a softmax sum to one.
    for row in out.chunks(4) {
        assert!((row.iter().sum::<f32>() - 1.0).abs() < 1e-5, "{row:?}");
    }
}

/// Dynamic symbols a shared library defines.
fn exported(so: &Path) -> Vec<String> {
    let out = run_ok(
        Command::new("nm")
            .args(["-D", "--defined-only", "--format=posix"])
            .arg(so),
    );
    out.lines()
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_string)
        .collect()
}

/// Past 1,024 parameters a function takes them packed, one pointer to a
/// struct of them (compiler/codegen/src/params.rs). A C program calls a
/// function of 1,500 buffers (and its result) through the exported
/// wrapper, which packs them; the function calls another one with all of
/// them, and that one sums them in parallel loops whose outlined bodies
/// capture them all: every packed path, checked against the sum in C.
#[test]
fn c_program_with_many_arguments() {
    const ARGS: usize = 1500;
    const LEN: usize = 4096;
    let ty = format!("tensor<{LEN}xf32>");
    let params: Vec<String> = (0..ARGS).map(|i| format!("%a{i}: {ty}")).collect();
    let names: Vec<String> = (0..ARGS).map(|i| format!("%a{i}")).collect();
    let mut m = format!("func.func private @sum({}) -> {ty} {{\n", params.join(", "));
    m.push_str(&format!("  %s1 = stablehlo.add %a0, %a1 : {ty}\n"));
    for i in 2..ARGS {
        m.push_str(&format!(
            "  %s{i} = stablehlo.add %s{}, %a{i} : {ty}\n",
            i - 1
        ));
    }
    m.push_str(&format!("  return %s{} : {ty}\n}}\n", ARGS - 1));
    m.push_str(&format!(
        "func.func @main({}) -> {ty} {{\n  %r = func.call @sum({}) : ({}) -> {ty}\n  return %r : {ty}\n}}\n",
        params.join(", "),
        names.join(", "),
        vec![ty.as_str(); ARGS].join(", ")
    ));
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let input = dir.join("many.mlir");
    std::fs::write(&input, m).unwrap();
    compile(&input, dir, "libmany.so", "many.h");
    let args: Vec<String> = (0..ARGS).map(|i| format!("in[{i}]")).collect();
    let program = format!(
        r#"#include <stdio.h>
#include "many.h"
static float in[{ARGS}][{LEN}];
static float out[{LEN}];
int main(void) {{
  for (int i = 0; i < {ARGS}; i++)
    for (int j = 0; j < {LEN}; j++) in[i][j] = (float)((i + j) % 7);
  int status = many_main({args}, out);
  if (status != 0) {{ printf("status %d: %s\n", status, many_last_error()); return 1; }}
  for (int j = 0; j < {LEN}; j++) {{
    float want = 0;
    for (int i = 0; i < {ARGS}; i++) want += in[i][j];
    if (out[j] != want) {{ printf("out[%d] = %g, want %g\n", j, out[j], want); return 1; }}
  }}
  printf("OK\n");
  return 0;
}}
"#,
        args = args.join(", ")
    );
    let source = dir.join("many.c");
    std::fs::write(&source, program).unwrap();
    let exe = dir.join("many");
    run_ok(
        cc().args(["-O1", "-o"])
            .arg(&exe)
            .arg(&source)
            .arg(format!("-I{}", dir.display()))
            .arg(format!("-L{}", dir.display()))
            .arg("-lmany")
            .arg(format!("-Wl,-rpath,{}", dir.display())),
    );
    let stdout = run_ok(&mut Command::new(&exe));
    assert!(stdout.contains("OK"), "{stdout}");
}

#[test]
fn shared_library_stands_alone() {
    let tmp = tempfile::tempdir().unwrap();
    let so = compile(
        &mlp_dir().join("model.mlir"),
        tmp.path(),
        "libmodel.so",
        "model.h",
    );
    let dynamic = run_ok(Command::new("readelf").arg("-d").arg(&so));
    for line in dynamic.lines().filter(|l| l.contains("(NEEDED)")) {
        let lib = line.split('[').nth(1).unwrap().trim_end_matches(']');
        assert!(
            [
                "libc.so",
                "libm.so",
                "libgcc_s.so",
                "ld-linux",
                "libpthread.so",
                "libdl.so"
            ]
            .iter()
            .any(|p| lib.starts_with(p)),
            "unexpected dependency {lib}\n{dynamic}"
        );
    }
    // The README promises glibc 2.34 or newer: no symbol version past that.
    let undefined = run_ok(Command::new("objdump").arg("-T").arg(&so));
    for version in undefined.split("GLIBC_").skip(1) {
        let v: String = version
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == '.')
            .collect();
        let parts: Vec<u32> = v.split('.').filter_map(|p| p.parse().ok()).collect();
        assert!(parts <= vec![2, 34], "needs GLIBC_{v}\n{undefined}");
    }
    // Only the model's own symbols: two Strata libraries never bind to each other's runtime.
    let mut syms = exported(&so);
    syms.sort();
    assert_eq!(
        syms,
        [
            "model_last_error",
            "model_main",
            "model_main_scratch_bytes",
            "model_main_with_scratch",
            "model_register_custom_call",
            "model_replicas_run",
            "model_set_infeed",
            "model_set_num_threads",
            "model_set_outfeed"
        ]
    );
}

/// The rustc toolchains to try: stable, and nightly when rustup has it.
fn rust_toolchains() -> Vec<Option<&'static str>> {
    let mut t = vec![None];
    let nightly = Command::new("rustc")
        .args(["+nightly", "--version"])
        .output();
    if nightly.is_ok_and(|o| o.status.success()) {
        t.push(Some("+nightly"));
    }
    t
}

#[test]
fn mlp_rust_program_with_static_archive_matches_xla() {
    let tmp = tempfile::tempdir().unwrap();
    compile(
        &mlp_dir().join("model.mlir"),
        tmp.path(),
        "libmodel.a",
        "model.h",
    );
    // The inputs and expected values, from the C headers, as Rust statics.
    let inputs_h = std::fs::read_to_string(mlp_dir().join("inputs.h")).unwrap();
    let expected_h = std::fs::read_to_string(mlp_dir().join("expected.h")).unwrap();
    let array = |h: &str, n: &str| {
        format!(
            "static {}: &[f32] = &{:?};\n",
            n.to_uppercase(),
            c_float_array(h, n)
        )
    };
    let mut src = String::new();
    for n in ["input_x", "input_w1", "input_b1", "input_w2", "input_b2"] {
        src.push_str(&array(&inputs_h, n));
    }
    src.push_str(&array(&expected_h, "expected_out"));
    src.push_str(
        r#"
unsafe extern "C" {
    fn model_main(x: *const f32, w1: *const f32, b1: *const f32, w2: *const f32, b2: *const f32, out: *mut f32) -> i32;
}
fn main() {
    let mut out = vec![0.0f32; EXPECTED_OUT.len()];
    let status = unsafe {
        model_main(INPUT_X.as_ptr(), INPUT_W1.as_ptr(), INPUT_B1.as_ptr(), INPUT_W2.as_ptr(), INPUT_B2.as_ptr(), out.as_mut_ptr())
    };
    assert_eq!(status, 0);
    // Unwinding in the program still works next to the runtime's own std.
    let caught = std::panic::catch_unwind(|| panic!("expected"));
    assert!(caught.is_err());
    for (got, want) in out.iter().zip(EXPECTED_OUT) {
        assert!((got - want).abs() <= 1e-5, "{got} vs {want}");
    }
    println!("ok");
}
"#,
    );
    let main_rs = tmp.path().join("main.rs");
    std::fs::write(&main_rs, src).unwrap();
    for toolchain in rust_toolchains() {
        let exe = tmp.path().join(format!("mlp{}", toolchain.unwrap_or("")));
        let mut rustc = Command::new("rustc");
        rustc.args(toolchain);
        run_ok(
            rustc
                .arg(&main_rs)
                .arg("-o")
                .arg(&exe)
                .arg("-L")
                .arg(tmp.path())
                .args(["-l", "static=model"]),
        );
        assert_eq!(
            run_ok(&mut Command::new(&exe)).trim(),
            "ok",
            "{toolchain:?}"
        );
    }
}

#[test]
fn target_cpu_selects_the_instructions_and_the_header_records_it() {
    let tmp = tempfile::tempdir().unwrap();
    let obj = tmp.path().join("m.o");
    let header = tmp.path().join("m.h");
    run_ok(
        Command::new(STRATA)
            .arg("compile")
            .arg(mlp_dir().join("model.mlir"))
            .arg("-o")
            .arg(&obj)
            .arg("--header")
            .arg(&header)
            .args(["--target-cpu", "x86-64-v2"]),
    );
    let h = std::fs::read_to_string(&header).unwrap();
    assert!(h.contains("CPU x86-64-v2"), "{h}");
    // No VEX or EVEX encoded instruction (AVX and later) anywhere.
    let asm = run_ok(Command::new("objdump").arg("-d").arg(&obj));
    let avx: Vec<&str> = asm
        .lines()
        .filter(|l| {
            l.contains("%ymm")
                || l.contains("%zmm")
                || l.split('\t').nth(2).is_some_and(|i| i.starts_with('v'))
        })
        .collect();
    assert!(
        avx.is_empty(),
        "AVX instructions: {:?}",
        &avx[..avx.len().min(5)]
    );
}

#[test]
fn library_for_missing_cpu_features_returns_an_error() {
    // A feature this test machine lacks and the runtime can detect: AVX-512 FP16
    // (AMD and older Intel CPUs lack it), else SSE4a (AMD only), else TBM (old AMD only).
    let feature = if !std::arch::is_x86_feature_detected!("avx512fp16") {
        "+avx512fp16"
    } else if !std::arch::is_x86_feature_detected!("sse4a") {
        "+sse4a"
    } else {
        "+tbm"
    };
    let tmp = tempfile::tempdir().unwrap();
    let lib = tmp.path().join("libmodel.so");
    run_ok(
        Command::new(STRATA)
            .arg("compile")
            .arg(mlp_dir().join("model.mlir"))
            .arg("-o")
            .arg(&lib)
            .arg("--header")
            .arg(tmp.path().join("model.h"))
            .args(["--target-features", feature]),
    );
    let exe = tmp.path().join("mlp");
    run_ok(
        cc().arg("-o")
            .arg(&exe)
            .arg(mlp_dir().join("main.c"))
            .arg(format!("-I{}", tmp.path().display()))
            .arg(format!("-L{}", tmp.path().display()))
            .arg("-lmodel")
            .arg(format!("-Wl,-rpath,{}", tmp.path().display()))
            .arg("-lm"),
    );
    let out = Command::new(&exe).output().unwrap();
    assert!(
        out.status.code().is_some(),
        "killed by a signal: {}",
        show(&out)
    );
    assert!(!out.status.success(), "{}", show(&out));
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let name = feature.trim_start_matches('+');
    assert!(
        text.contains("CPU features this machine lacks") && text.contains(name),
        "{}",
        show(&out)
    );
}

#[test]
fn abi_c_program() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let e2e = repo().join("tests/e2e");
    let so = compile(&e2e.join("abi.mlir"), dir, "libabi.so", "abi.h");
    let syms = exported(&so);
    for s in ["abi_main", "abi_neg", "abi_half", "abi_last_error"] {
        assert!(syms.iter().any(|x| x == s), "{s} is not exported: {syms:?}");
    }
    assert!(
        !syms.iter().any(|s| s.contains("helper")),
        "private function exported: {syms:?}"
    );
    let exe = dir.join("abi");
    run_ok(
        cc().args(["-O2", "-Wall", "-Werror", "-o"])
            .arg(&exe)
            .arg(e2e.join("abi.c"))
            .arg(format!("-I{}", dir.display()))
            .arg(format!("-L{}", dir.display()))
            .arg("-labi")
            .arg(format!("-Wl,-rpath,{}", dir.display())),
    );
    let stdout = run_ok(&mut Command::new(&exe));
    assert!(stdout.contains("abi: all checks passed"), "{stdout}");
}

#[test]
fn header_is_valid_c_and_cxx() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    compile(
        &repo().join("tests/e2e/abi.mlir"),
        dir,
        "libabi.so",
        "abi.h",
    );
    let src = "#include \"abi.h\"\n#include \"abi.h\"\nint main(void) { return 0; }\n";
    std::fs::write(dir.join("t.c"), src).unwrap();
    run_ok(
        cc().args(["-fsyntax-only", "-Wall", "-Werror", "-std=c99"])
            .arg(dir.join("t.c"))
            .arg(format!("-I{}", dir.display())),
    );
    std::fs::write(dir.join("t.cc"), src).unwrap();
    if let Ok(out) = Command::new("c++")
        .args(["-fsyntax-only", "-Wall", "-Werror"])
        .arg(dir.join("t.cc"))
        .arg(format!("-I{}", dir.display()))
        .output()
    {
        assert!(out.status.success(), "C++ rejected abi.h\n{}", show(&out));
    }
}

/// Eight host threads call into two libraries at once: a 128x128 product
/// (large enough to run on the runtime's thread pool) that must be right
/// every time, interleaved with calls that fail (a library built for a CPU
/// feature this machine lacks). Each thread's `P_last_error()` reports its
/// own calls only.
#[test]
fn concurrent_callers_share_the_pool_and_keep_their_own_errors() {
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("mm.mlir");
    std::fs::write(
        &src,
        "func.func @main(%a: tensor<128x128xf32>, %b: tensor<128x128xf32>) -> tensor<128x128xf32> {\n\
         %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<128x128xf32>, tensor<128x128xf32>) -> tensor<128x128xf32>\n\
         return %0 : tensor<128x128xf32>\n}\n",
    )
    .unwrap();
    compile(&src, tmp.path(), "libok.so", "ok.h");
    let missing = if !std::arch::is_x86_feature_detected!("avx512fp16") {
        "+avx512fp16"
    } else if !std::arch::is_x86_feature_detected!("sse4a") {
        "+sse4a"
    } else {
        "+tbm"
    };
    run_ok(
        Command::new(STRATA)
            .arg("compile")
            .arg(&src)
            .arg("-o")
            .arg(tmp.path().join("libbad.so"))
            .arg("--header")
            .arg(tmp.path().join("bad.h"))
            .args(["--target-features", missing]),
    );
    let main_c = tmp.path().join("threads.c");
    std::fs::write(
        &main_c,
        r#"
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include "ok.h"
#include "bad.h"

enum { N = 128, THREADS = 8, ROUNDS = 20 };

static void *work(void *arg) {
  long id = (long)arg;
  static __thread float a[N * N], b[N * N], c[N * N];
  for (int i = 0; i < N * N; i++) {
    a[i] = (float)((i + id) % 7);
    b[i] = (float)((i * 3 + id) % 5);
  }
  for (int r = 0; r < ROUNDS; r++) {
    if ((r + id) % 3 == 0) {
      if (bad_main(a, b, c) == 0) return "the bad library ran";
      if (strstr(bad_last_error(), "lacks") == NULL) return "no message from the bad library";
      if (ok_last_error()[0] != 0) return "an error leaked into the good library";
      continue;
    }
    if (ok_main(a, b, c) != 0) return "ok_main failed";
    if (ok_last_error()[0] != 0) return "ok_main left an error";
    for (int i = 0; i < N; i += 17)
      for (int j = 0; j < N; j += 13) {
        float s = 0;
        for (int k = 0; k < N; k++) s += a[i * N + k] * b[k * N + j];
        if (c[i * N + j] != s) return "wrong product";
      }
  }
  return NULL;
}

int main(void) {
  pthread_t t[THREADS];
  for (long i = 0; i < THREADS; i++) pthread_create(&t[i], NULL, work, (void *)i);
  int failed = 0;
  for (int i = 0; i < THREADS; i++) {
    void *r;
    pthread_join(t[i], &r);
    if (r) { fprintf(stderr, "thread %d: %s\n", i, (const char *)r); failed = 1; }
  }
  if (!failed) puts("ok");
  return failed;
}
"#,
    )
    .unwrap();
    let exe = tmp.path().join("threads");
    run_ok(
        cc().arg("-O1")
            .arg("-pthread")
            .arg("-o")
            .arg(&exe)
            .arg(&main_c)
            .arg(format!("-I{}", tmp.path().display()))
            .arg(format!("-L{}", tmp.path().display()))
            .args(["-lok", "-lbad"])
            .arg(format!("-Wl,-rpath,{}", tmp.path().display())),
    );
    assert_eq!(run_ok(&mut Command::new(&exe)).trim(), "ok");
}

/// A function that hands work to the pool more than once runs its whole body
/// on a pool thread (`strata_rt_call_on_pool`); one with a single parallel
/// region stays on the caller. Concurrent callers still get right products,
/// and a failing body's message reaches the calling thread's
/// `P_last_error`.
#[test]
fn bodies_with_several_parallel_regions_run_on_the_pool() {
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("pool.mlir");
    std::fs::write(
        &src,
        "func.func @two(%a: tensor<128x128xf32>, %b: tensor<128x128xf32>) -> tensor<128x128xf32> {\n\
         %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<128x128xf32>, tensor<128x128xf32>) -> tensor<128x128xf32>\n\
         %1 = stablehlo.dot_general %0, %b, contracting_dims = [1] x [0] : (tensor<128x128xf32>, tensor<128x128xf32>) -> tensor<128x128xf32>\n\
         return %1 : tensor<128x128xf32>\n}\n\
         func.func @one(%a: tensor<128x128xf32>, %b: tensor<128x128xf32>) -> tensor<128x128xf32> {\n\
         %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<128x128xf32>, tensor<128x128xf32>) -> tensor<128x128xf32>\n\
         return %0 : tensor<128x128xf32>\n}\n\
         func.func @fails(%a: tensor<128x128xf32>, %b: tensor<128x128xf32>) -> tensor<128x128xf32> {\n\
         %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<128x128xf32>, tensor<128x128xf32>) -> tensor<128x128xf32>\n\
         %1 = stablehlo.dot_general %0, %b, contracting_dims = [1] x [0] : (tensor<128x128xf32>, tensor<128x128xf32>) -> tensor<128x128xf32>\n\
         %2 = stablehlo.custom_call @never_registered(%1) : (tensor<128x128xf32>) -> tensor<128x128xf32>\n\
         return %2 : tensor<128x128xf32>\n}\n\
         func.func @spot_many(%a: tensor<128x128xf32>, %b: tensor<128x128xf32>) -> tensor<128x128xf32> {\n\
         %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<128x128xf32>, tensor<128x128xf32>) -> tensor<128x128xf32>\n\
         %1 = stablehlo.dot_general %0, %b, contracting_dims = [1] x [0] : (tensor<128x128xf32>, tensor<128x128xf32>) -> tensor<128x128xf32>\n\
         %2 = stablehlo.custom_call @where(%1) : (tensor<128x128xf32>) -> tensor<128x128xf32>\n\
         return %2 : tensor<128x128xf32>\n}\n\
         func.func @spot_none(%a: tensor<128x128xf32>) -> tensor<128x128xf32> {\n\
         %0 = stablehlo.custom_call @where(%a) : (tensor<128x128xf32>) -> tensor<128x128xf32>\n\
         return %0 : tensor<128x128xf32>\n}\n",
    )
    .unwrap();
    let so = compile(&src, tmp.path(), "libpool.so", "pool.h");
    let nm = run_ok(Command::new("nm").arg(&so));
    assert!(
        nm.contains("pool.two.on_pool"),
        "two GEMMs: the body runs on the pool\n{nm}"
    );
    assert!(nm.contains("pool.fails.on_pool"), "{nm}");
    assert!(
        !nm.contains("pool.one.on_pool"),
        "one GEMM: no extra hand-off\n{nm}"
    );
    let main_c = tmp.path().join("pool.c");
    std::fs::write(
        &main_c,
        r#"
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include "pool.h"

enum { N = 128, THREADS = 6, ROUNDS = 12 };

static void *work(void *arg) {
  long id = (long)arg;
  static __thread float a[N * N], b[N * N], ab[N * N], c[N * N];
  for (int i = 0; i < N * N; i++) {
    a[i] = (float)((i + id) % 3);
    b[i] = (float)((i * 3 + id) % 2);
  }
  for (int r = 0; r < ROUNDS; r++) {
    if ((r + id) % 3 == 0) {
      if (pool_fails(a, b, c) == 0) return "a call of an unregistered target succeeded";
      if (strstr(pool_last_error(), "never_registered") == NULL) return "the body's message did not reach the caller";
      continue;
    }
    static __thread _Alignas(64) unsigned char mine[1 << 20];
    if (pool_one(a, b, ab) != 0) return "a call failed";
    if ((r % 2 ? pool_two_with_scratch(a, b, c, mine) : pool_two(a, b, c)) != 0) return "a call failed";
    if (pool_last_error()[0] != 0) return "a successful call left an error";
    for (int i = 0; i < N; i += 11)
      for (int j = 0; j < N; j += 7) {
        float s = 0;  /* small integers: exact in f32 in any order */
        for (int k = 0; k < N; k++) s += ab[i * N + k] * b[k * N + j];
        if (c[i * N + j] != s) return "wrong product";
      }
  }
  return NULL;
}

static int32_t where(void *user, const void *const *operands, void *const *results) {
  *(pthread_t *)user = pthread_self();
  memcpy(results[0], operands[0], sizeof(float) * N * N);
  return 0;
}

int main(void) {
  /* Which thread runs a body: a pool thread when it has several parallel
     regions, the caller's own when it has none. */
  static float a[N * N], b[N * N], c[N * N];
  pthread_t seen;
  if (pool_register_custom_call("where", where, &seen) != 0) { fputs("no target\n", stderr); return 1; }
  if (pool_spot_many(a, b, c) != 0 || pthread_equal(seen, pthread_self())) {
    fputs("a body with several parallel regions ran on the caller's thread\n", stderr);
    return 1;
  }
  if (pool_spot_none(a, c) != 0 || !pthread_equal(seen, pthread_self())) {
    fputs("a body without parallel regions left the caller's thread\n", stderr);
    return 1;
  }
  /* The caller's scratch serves a body on the pool too, checked as always. */
  static _Alignas(64) unsigned char scratch[1 << 20];
  if (pool_two_scratch_bytes() > (int64_t)sizeof scratch) { fputs("scratch too small\n", stderr); return 1; }
  if (pool_spot_many_with_scratch(a, b, c, scratch) != 0 || pthread_equal(seen, pthread_self())) {
    fputs("a body with scratch did not run on the pool\n", stderr);
    return 1;
  }
  if (pool_spot_many_with_scratch(a, b, c, scratch + 8) == 0 || strstr(pool_last_error(), "aligned") == NULL) {
    fputs("misaligned scratch accepted\n", stderr);
    return 1;
  }
  pthread_t t[THREADS];
  for (long i = 0; i < THREADS; i++) pthread_create(&t[i], NULL, work, (void *)i);
  int failed = 0;
  for (int i = 0; i < THREADS; i++) {
    void *r;
    pthread_join(t[i], &r);
    if (r) { fprintf(stderr, "thread %d: %s\n", i, (const char *)r); failed = 1; }
  }
  if (!failed) puts("ok");
  return failed;
}
"#,
    )
    .unwrap();
    let exe = tmp.path().join("pool");
    run_ok(
        cc().arg("-O1")
            .arg("-pthread")
            .arg("-o")
            .arg(&exe)
            .arg(&main_c)
            .arg(format!("-I{}", tmp.path().display()))
            .arg(format!("-L{}", tmp.path().display()))
            .arg("-lpool")
            .arg(format!("-Wl,-rpath,{}", tmp.path().display())),
    );
    assert_eq!(
        run_ok(Command::new(&exe).env("STRATA_NUM_THREADS", "2")).trim(),
        "ok"
    );
}

#[test]
fn replicas_run_meets_at_collectives_and_a_missing_device_times_out() {
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("coll.mlir");
    std::fs::write(
        &src,
        r#"func.func @main(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<32xf32>, tensor<ui32>) {
  %s = "stablehlo.all_reduce"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %0 = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %0 : tensor<f32>
  }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<8xf32>) -> tensor<8xf32>
  %g = "stablehlo.all_gather"(%x) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<8xf32>) -> tensor<32xf32>
  %id = stablehlo.replica_id : tensor<ui32>
  return %s, %g, %id : tensor<8xf32>, tensor<32xf32>, tensor<ui32>
}
"#,
    )
    .unwrap();
    compile(&src, tmp.path(), "libcoll.so", "coll.h");
    let main_c = tmp.path().join("devices.c");
    std::fs::write(
        &main_c,
        r#"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "coll.h"

static const char *verdict[4];
static int skip = -1;

static void device(int32_t d, void *user) {
  (void)user;
  float x[8], sum[8], gathered[32];
  uint32_t id;
  for (int i = 0; i < 8; i++) x[i] = (float)(d * 10 + i);
  if (d == skip) { verdict[d] = "skipped"; return; }
  if (coll_main(x, sum, gathered, &id) != 0) { verdict[d] = "failed"; return; }
  for (int i = 0; i < 8; i++)
    if (sum[i] != (float)(60 + 4 * i)) { verdict[d] = "wrong sum"; return; }
  for (int k = 0; k < 32; k++)
    if (gathered[k] != (float)((k / 8) * 10 + k % 8)) { verdict[d] = "wrong gather"; return; }
  verdict[d] = id == (uint32_t)d ? "ok" : "wrong replica id";
}

int main(void) {
  if (coll_replicas_run(4, device, NULL) != 0) { printf("run failed: %s\n", coll_last_error()); return 1; }
  for (int d = 0; d < 4; d++)
    if (strcmp(verdict[d], "ok") != 0) { printf("device %d: %s\n", d, verdict[d]); return 1; }
  /* Outside a run the library is one device: groups of four cannot meet. */
  float x[8] = {0}, sum[8], gathered[32];
  uint32_t id;
  if (coll_main(x, sum, gathered, &id) == 0) { printf("a lone device ran a collective of four\n"); return 1; }
  if (strstr(coll_last_error(), "1 replica") == NULL) { printf("lone: %s\n", coll_last_error()); return 1; }
  /* Device 3 never arrives: the others fail after the timeout, with a message. */
  setenv("STRATA_COLLECTIVE_TIMEOUT_MS", "300", 1);
  skip = 3;
  if (coll_replicas_run(4, device, NULL) == 0) { printf("a run with a missing device succeeded\n"); return 1; }
  if (strstr(coll_last_error(), "timed out") == NULL) { printf("missing: %s\n", coll_last_error()); return 1; }
  if (coll_replicas_run(0, device, NULL) == 0) { printf("zero devices accepted\n"); return 1; }
  printf("collectives ok\n");
  return 0;
}
"#,
    )
    .unwrap();
    let exe = tmp.path().join("devices");
    run_ok(
        cc().arg(&main_c)
            .arg("-I")
            .arg(tmp.path())
            .arg(tmp.path().join("libcoll.so"))
            .arg(format!("-Wl,-rpath,{}", tmp.path().display()))
            .arg("-o")
            .arg(&exe),
    );
    let out = run_ok(&mut Command::new(&exe));
    assert!(out.contains("collectives ok"), "{out}");
}

/// tests/e2e/pmap: a jax.pmap export (sdy.manual_computation on 4 devices)
/// called globally (`pm_main`) and per device inside `pm_replicas_run`, from
/// a shared library and from a static archive, against XLA:CPU's outputs.
#[test]
fn pmap_export_runs_globally_and_per_device() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = repo().join("tests/e2e/pmap");
    for lib in ["libpm.so", "libpm.a"] {
        let built = tmp.path().join(lib);
        run_ok(
            Command::new(STRATA)
                .arg("compile")
                .arg(dir.join("pmap.mlir"))
                .arg("-o")
                .arg(&built)
                .args(["--name", "pm", "--header"])
                .arg(tmp.path().join("pm.h")),
        );
        let exe = tmp.path().join(format!("main-{lib}"));
        let mut link = cc();
        link.arg("-Wall")
            .arg("-Werror")
            .arg(dir.join("main.c"))
            .arg("-I")
            .arg(tmp.path())
            .arg("-I")
            .arg(&dir)
            .arg(&built)
            .arg(format!("-Wl,-rpath,{}", tmp.path().display()))
            .args(["-lm", "-lpthread", "-ldl", "-o"])
            .arg(&exe);
        run_ok(&mut link);
        let out = run_ok(&mut Command::new(&exe));
        assert!(out.contains("pmap ok"), "{lib}: {out}");
    }
}

/// The same C program and pmap export, built with `--collectives mpi` and
/// run as 4 MPI processes (Open MPI from `.ci/setup`): each process is one
/// device and matches XLA:CPU on its shard; outside mpirun the library
/// says why it cannot run 4 devices.
#[test]
fn pmap_export_runs_as_mpi_processes() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = repo().join("tests/e2e/pmap");
    let lib = tmp.path().join("libpm.so");
    run_ok(
        Command::new(STRATA)
            .arg("compile")
            .arg(dir.join("pmap.mlir"))
            .arg("-o")
            .arg(&lib)
            .args(["--name", "pm", "--collectives", "mpi", "--header"])
            .arg(tmp.path().join("pm.h")),
    );
    let dynamic = run_ok(Command::new("objdump").arg("-p").arg(&lib));
    assert!(
        !dynamic.contains("libmpi"),
        "MPI must be loaded at run time, not linked\n{dynamic}"
    );
    let exe = tmp.path().join("main");
    run_ok(
        cc().arg("-Wall")
            .arg("-Werror")
            .arg(dir.join("main.c"))
            .arg("-I")
            .arg(tmp.path())
            .arg("-I")
            .arg(&dir)
            .arg(&lib)
            .arg(format!("-Wl,-rpath,{}", tmp.path().display()))
            .args(["-lm", "-o"])
            .arg(&exe),
    );
    let out = run_ok(
        Command::new("mpirun")
            .args(["--allow-run-as-root", "--oversubscribe", "-np", "4"])
            .arg(&exe)
            .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
            .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1"),
    );
    assert_eq!(out.matches("pmap ok (1 device here)").count(), 4, "{out}");
    let alone = Command::new(&exe).output().unwrap();
    assert!(!alone.status.success());
    assert!(
        String::from_utf8_lossy(&alone.stdout).contains("n must equal the world size"),
        "{}",
        show(&alone)
    );
}

/// examples/data_parallel: the README's multi-device example, both ways
/// (threads in one process, and 4 MPI processes), against XLA:CPU.
#[test]
fn data_parallel_example_matches_xla_on_threads_and_mpi() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = repo().join("examples/data_parallel");
    for (sub, collectives) in [("threads", "threads"), ("mpi", "mpi")] {
        let out = tmp.path().join(sub);
        std::fs::create_dir(&out).unwrap();
        run_ok(
            Command::new(STRATA)
                .arg("compile")
                .arg(dir.join("model.mlir"))
                .arg("-o")
                .arg(out.join("libdp.so"))
                .args(["--collectives", collectives, "--header"])
                .arg(out.join("dp.h")),
        );
        let exe = out.join("dp");
        run_ok(
            cc().args(["-O2", "-Wall", "-Werror"])
                .arg(dir.join("main.c"))
                .arg("-I")
                .arg(&out)
                .arg("-I")
                .arg(&dir)
                .arg(out.join("libdp.so"))
                .arg(format!("-Wl,-rpath,{}", out.display()))
                .args(["-lm", "-o"])
                .arg(&exe),
        );
        let printed = if collectives == "mpi" {
            run_ok(
                Command::new("mpirun")
                    .args(["--allow-run-as-root", "--oversubscribe", "-np", "4"])
                    .arg(&exe)
                    .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
                    .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1"),
            )
        } else {
            run_ok(&mut Command::new(&exe))
        };
        for d in 0..4 {
            assert!(
                printed.contains(&format!("device {d}: matches XLA")),
                "{sub}: {printed}"
            );
        }
    }
}

/// infeed and outfeed through the host's hooks (P_set_infeed /
/// P_set_outfeed), per device inside P_replicas_run; without hooks the
/// calls fail with a message.
#[test]
fn infeed_and_outfeed_go_through_host_hooks() {
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("feed.mlir");
    std::fs::write(
        &src,
        r#"func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %t = stablehlo.after_all : !stablehlo.token
  %v:2 = "stablehlo.infeed"(%t) : (!stablehlo.token) -> (tensor<4xf32>, !stablehlo.token)
  %s = stablehlo.add %x, %v#0 : tensor<4xf32>
  %u = "stablehlo.outfeed"(%s, %v#1) : (tensor<4xf32>, !stablehlo.token) -> !stablehlo.token
  return %s : tensor<4xf32>
}
"#,
    )
    .unwrap();
    compile(&src, tmp.path(), "libfeed.so", "feed.h");
    let main_c = tmp.path().join("feed.c");
    std::fs::write(
        &main_c,
        r#"
#include <stdio.h>
#include <string.h>
#include "feed.h"

static float seen[4][4];

static int32_t give(int32_t device, void *data, int64_t bytes, void *user) {
  (void)user;
  if (bytes != 16) return 7;
  float *f = data;
  for (int i = 0; i < 4; i++) f[i] = (float)(10 * device + i);
  return 0;
}

static int32_t take(int32_t device, void *data, int64_t bytes, void *user) {
  (void)user;
  memcpy(seen[device], data, (size_t)bytes);
  return 0;
}

static int failures;

static void device(int32_t d, void *user) {
  (void)user;
  float x[4] = {1, 1, 1, 1}, y[4];
  if (feed_main(x, y) != 0) { printf("device %d: %s\n", d, feed_last_error()); failures++; return; }
  for (int i = 0; i < 4; i++)
    if (y[i] != (float)(10 * d + i + 1) || seen[d][i] != y[i]) { printf("device %d: wrong\n", d); failures++; }
}

int main(void) {
  float x[4] = {0}, y[4];
  if (feed_main(x, y) == 0 || strstr(feed_last_error(), "P_set_infeed") == NULL) {
    printf("no hook: %s\n", feed_last_error());
    return 1;
  }
  feed_set_infeed(give, NULL);
  feed_set_outfeed(take, NULL);
  if (feed_replicas_run(3, device, NULL) != 0 || failures) { printf("run: %s\n", feed_last_error()); return 1; }
  printf("feeds ok\n");
  return 0;
}
"#,
    )
    .unwrap();
    let exe = tmp.path().join("feed");
    run_ok(
        cc().arg(&main_c)
            .arg("-I")
            .arg(tmp.path())
            .arg(tmp.path().join("libfeed.so"))
            .arg(format!("-Wl,-rpath,{}", tmp.path().display()))
            .arg("-o")
            .arg(&exe),
    );
    let out = run_ok(&mut Command::new(&exe));
    assert!(out.contains("feeds ok"), "{out}");
}

/// custom_call @target runs what the host registered for `target` through
/// `P_register_custom_call` (the issue's exact C spelling), from a `.a` and
/// a `.so`: before registration the call fails naming the target, a wrong
/// target is refused, results are zero-filled (an implementation that
/// writes nothing gives zeros, not stale memory), a non-zero status comes
/// back with the target named, and NULL removes the implementation.
#[test]
fn custom_calls_run_what_the_host_registered() {
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("cc.mlir");
    std::fs::write(
        &src,
        r#"func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %t = stablehlo.multiply %x, %x : tensor<4xf32>
  %y = stablehlo.custom_call @my_scale(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %z = stablehlo.add %y, %x : tensor<4xf32>
  %w = stablehlo.add %z, %t : tensor<4xf32>
  return %w : tensor<4xf32>
}
"#,
    )
    .unwrap();
    let main_c = tmp.path().join("cc.c");
    std::fs::write(
        &main_c,
        r#"
#include <stdio.h>
#include <string.h>
#include "cc.h"

int32_t cc_register_custom_call(const char *target, int32_t (*fn)(void *user, const void *const *operands, void *const *results), void *user);

static int32_t scale(void *user, const void *const *operands, void *const *results) {
  const float *x = operands[0];
  float *y = results[0], k = *(const float *)user;
  for (int i = 0; i < 4; i++) y[i] = k * x[i];
  return 0;
}
static int32_t write_nothing(void *user, const void *const *operands, void *const *results) {
  (void)user; (void)operands; (void)results;
  return 0;
}
static int32_t refuse(void *user, const void *const *operands, void *const *results) {
  (void)user; (void)operands; (void)results;
  return 42;
}

int main(void) {
  float x[4] = {1, 2, 3, 4}, y[4], k = 10;
  if (cc_main(x, y) == 0 || !strstr(cc_last_error(), "'my_scale' is not registered")) {
    printf("unregistered: %s\n", cc_last_error()); return 1;
  }
  if (cc_register_custom_call("system", scale, &k) == 0 || !strstr(cc_last_error(), "my_scale")) {
    printf("a foreign target was accepted: %s\n", cc_last_error()); return 1;
  }
  if (cc_register_custom_call("my_scale", scale, &k) != 0) return 1;
  if (cc_main(x, y) != 0) { printf("error: %s\n", cc_last_error()); return 1; }
  for (int i = 0; i < 4; i++) if (y[i] != 11.0f * x[i] + x[i] * x[i]) { printf("wrong %g\n", y[i]); return 1; }
  if (cc_register_custom_call("my_scale", write_nothing, NULL) != 0 || cc_main(x, y) != 0) return 1;
  for (int i = 0; i < 4; i++) if (y[i] != x[i] + x[i] * x[i]) { printf("not zero-filled: %g\n", y[i]); return 1; }
  cc_register_custom_call("my_scale", refuse, NULL);
  if (cc_main(x, y) != 42 || !strstr(cc_last_error(), "@my_scale failed with status 42")) {
    printf("failure: %s\n", cc_last_error()); return 1;
  }
  cc_register_custom_call("my_scale", NULL, NULL);
  if (cc_main(x, y) == 0) { printf("a removed implementation ran\n"); return 1; }
  printf("custom calls ok\n");
  return 0;
}
"#,
    )
    .unwrap();
    for lib in ["libcc.a", "libcc.so"] {
        let built = compile(&src, tmp.path(), lib, "cc.h");
        let exe = tmp.path().join(format!("cc-{lib}"));
        run_ok(
            cc().args(["-Wall", "-Werror"])
                .arg(&main_c)
                .arg("-I")
                .arg(tmp.path())
                .arg(&built)
                .arg(format!("-Wl,-rpath,{}", tmp.path().display()))
                .args(["-lm", "-lpthread", "-ldl", "-o"])
                .arg(&exe),
        );
        let out = run_ok(&mut Command::new(&exe));
        assert!(out.contains("custom calls ok"), "{lib}: {out}");
    }
}

/// The Rust bindings register a typed closure for a custom-call target
/// (`custom_call::my_scale(|x, y| ...)`), compiled with plain rustc against
/// the static library: before registration the call fails naming the
/// target, after it the closure's results flow on, and a panicking closure
/// fails the call instead of unwinding into the library.
#[test]
fn rust_bindings_register_custom_calls_as_closures() {
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("cc.mlir");
    std::fs::write(
        &src,
        r#"func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = stablehlo.custom_call @my_scale(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %z = stablehlo.add %y, %x : tensor<4xf32>
  return %z : tensor<4xf32>
}
"#,
    )
    .unwrap();
    run_ok(
        Command::new(STRATA)
            .arg("compile")
            .arg(&src)
            .arg("-o")
            .arg(tmp.path().join("libcc.a"))
            .arg("--rust-bindings")
            .arg(tmp.path().join("cc.rs")),
    );
    let main_rs = tmp.path().join("main.rs");
    std::fs::write(
        &main_rs,
        r#"
mod cc {
    include!("cc.rs");
}

fn main() {
    let x = [1.0f32, 2.0, 3.0, 4.0];
    let e = cc::main(&x).unwrap_err();
    assert!(e.message.contains("'my_scale' is not registered"), "{e}");
    let k = 10.0f32;
    cc::custom_call::my_scale(move |x: &[f32; 4], y: &mut [f32; 4]| {
        for i in 0..4 {
            y[i] = k * x[i];
        }
        0
    })
    .unwrap();
    let y = cc::main(&x).unwrap();
    assert_eq!(y, vec![11.0, 22.0, 33.0, 44.0]);
    cc::custom_call::my_scale(|_: &[f32; 4], _: &mut [f32; 4]| -> i32 { panic!("host bug") }).unwrap();
    let e = cc::main(&x).unwrap_err();
    assert!(e.message.contains("@my_scale failed with status 1"), "{e}");
    println!("rust custom calls ok");
}
"#,
    )
    .unwrap();
    let exe = tmp.path().join("main");
    run_ok(
        Command::new("rustc")
            .args(["--edition", "2021", "-O"])
            .arg(&main_rs)
            .arg("-L")
            .arg(tmp.path())
            .args(["-l", "static=cc", "-o"])
            .arg(&exe),
    );
    let out = run_ok(&mut Command::new(&exe));
    assert!(out.contains("rust custom calls ok"), "{out}");
}

/// `examples/python/custom_call.py`: a Python function registered through
/// ctypes as the implementation of the model's custom call.
#[test]
fn python_registers_a_custom_call() {
    let tmp = tempfile::tempdir().unwrap();
    let lib = compile(
        &repo().join("examples/python/custom_call.mlir"),
        tmp.path(),
        "libcc.so",
        "cc.h",
    );
    let stdout = run_ok(
        Command::new("python3")
            .arg(repo().join("examples/python/custom_call.py"))
            .arg(&lib),
    );
    assert!(
        stdout.contains("OK: the registered Python function ran"),
        "{stdout}"
    );
}

/// Donation (`tf.aliasing_output`, as `jax.jit(..., donate_argnums=...)`
/// exports it): a KV-cache-style update may be called with the result and
/// the donated argument as one buffer, and then writes only the new row in
/// place; the results are those of separate buffers. A donation whose
/// argument is read elsewhere is not declared.
#[test]
fn donated_buffers_update_in_place() {
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("kv.mlir");
    std::fs::write(
        &src,
        r#"func.func public @main(%cache: tensor<256x64xf32> {tf.aliasing_output = 0 : i32}, %row: tensor<64xf32>, %i: tensor<i32>) -> (tensor<256x64xf32>, tensor<f32>) {
  %r = stablehlo.broadcast_in_dim %row, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
  %z = stablehlo.constant dense<0> : tensor<i32>
  %u = stablehlo.dynamic_update_slice %cache, %r, %i, %z : (tensor<256x64xf32>, tensor<1x64xf32>, tensor<i32>, tensor<i32>) -> tensor<256x64xf32>
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%u init: %c) applies stablehlo.add across dimensions = [0, 1] : (tensor<256x64xf32>, tensor<f32>) -> tensor<f32>
  return %u, %s : tensor<256x64xf32>, tensor<f32>
}
func.func public @reads_old(%cache: tensor<256x64xf32> {tf.aliasing_output = 0 : i32}, %row: tensor<64xf32>, %i: tensor<i32>) -> (tensor<256x64xf32>, tensor<f32>) {
  %r = stablehlo.broadcast_in_dim %row, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
  %z = stablehlo.constant dense<0> : tensor<i32>
  %u = stablehlo.dynamic_update_slice %cache, %r, %i, %z : (tensor<256x64xf32>, tensor<1x64xf32>, tensor<i32>, tensor<i32>) -> tensor<256x64xf32>
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%cache init: %c) applies stablehlo.add across dimensions = [0, 1] : (tensor<256x64xf32>, tensor<f32>) -> tensor<f32>
  return %u, %s : tensor<256x64xf32>, tensor<f32>
}
"#,
    )
    .unwrap();
    compile(&src, tmp.path(), "libkv.so", "kv.h");
    let header = std::fs::read_to_string(tmp.path().join("kv.h")).unwrap();
    assert_eq!(
        header
            .matches("Donated: res0 may be the same buffer as arg0")
            .count(),
        1,
        "{header}"
    );
    let main_c = tmp.path().join("kv.c");
    std::fs::write(
        &main_c,
        r#"
#include <stdio.h>
#include <string.h>
#include "kv.h"
static float a[256 * 64], b[256 * 64], sep[256 * 64];
int main(void) {
  float row[64], s1, s2;
  for (int k = 0; k < 256 * 64; k++) a[k] = b[k] = (float)(k % 17);
  for (int step = 0; step < 5; step++) {
    int32_t i = 3 * step + 1;
    for (int k = 0; k < 64; k++) row[k] = (float)(step * 100 + k);
    /* In place: the result is the cache itself. */
    if (kv_main(a, row, &i, a, &s1) != 0) { printf("%s\n", kv_last_error()); return 1; }
    /* Separate buffers, then copied back: the reference. */
    if (kv_main(b, row, &i, sep, &s2) != 0) return 1;
    memcpy(b, sep, sizeof b);
    if (memcmp(a, b, sizeof a) != 0 || s1 != s2) { printf("step %d differs\n", step); return 1; }
  }
  printf("donation ok\n");
  return 0;
}
"#,
    )
    .unwrap();
    let exe = tmp.path().join("kv");
    run_ok(
        cc().arg(&main_c)
            .arg("-I")
            .arg(tmp.path())
            .arg(tmp.path().join("libkv.so"))
            .arg(format!("-Wl,-rpath,{}", tmp.path().display()))
            .arg("-o")
            .arg(&exe),
    );
    let out = run_ok(&mut Command::new(&exe));
    assert!(out.contains("donation ok"), "{out}");
}
