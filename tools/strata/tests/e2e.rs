//! End-to-end tests: compile with the `strata` driver, link the artifacts into C and Rust
//! programs, and compare the results with XLA's.
//!
//! - `examples/mlp/`: an MLP exported from JAX (`model.mlir`, and `model.hlo` as HLO text), its inputs (`inputs.h`) and
//!   XLA:CPU's outputs (`expected.h`); `main.c` exits 0 iff Strata's output matches within 1e-5.
//! - `tests/e2e/abi.mlir` + `abi.c`: the C ABI (several functions and results, integer, pred,
//!   f16 and f64 buffers, scalars; private functions are not exported).

use std::path::Path;
use std::process::Command;

mod common;
use common::*;

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

/// The Python package (`tools/python`): `strata.compile` of a JAX model of a
/// params dict, called with keyword arguments by name and by JAX path,
/// matches jax; bad calls raise (tools/python/tests/test_strata.py).
#[test]
fn python_package_matches_jax() {
    let stdout = run_package_test("test_strata.py");
    assert!(
        stdout.contains("python package: all checks passed"),
        "{stdout}"
    );
}

/// GPT-2 small at its real size (124M parameters) through the Python
/// package: every weight passed as a keyword argument by its JAX path,
/// logits against jax (tools/python/tests/test_gpt2.py).
#[test]
fn python_package_runs_gpt2_small_by_keyword() {
    let stdout = run_package_test("test_gpt2.py");
    assert!(stdout.contains("gpt2 small: matches jax"), "{stdout}");
}

/// Runs `tools/python/tests/<script>` with the package on the path and this
/// driver; returns its output.
fn run_package_test(script: &str) -> String {
    let python = python_with_jax().expect(
        "no Python with jax: run tests/differential/setup.sh (the README's test command does)",
    );
    let package = repo().join("tools/python");
    run_ok(
        Command::new(python)
            .arg(package.join("tests").join(script))
            .env("PYTHONPATH", &package)
            .env("STRATA", env!("CARGO_BIN_EXE_strata")),
    )
}

/// The Python package builds as a wheel (setuptools, no network: the
/// test venv has `wheel`), and the installed wheel passes the package's
/// checks, from a copy of the sources so the build leaves the tree clean.
#[test]
fn python_package_builds_as_a_wheel_that_works() {
    let python = python_with_jax().expect(
        "no Python with jax: run tests/differential/setup.sh (the README's test command does)",
    );
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("src");
    run_ok(
        Command::new("cp")
            .arg("-r")
            .arg(repo().join("tools/python"))
            .arg(&src),
    );
    let dist = tmp.path().join("dist");
    run_ok(
        Command::new(&python)
            .args([
                "-m",
                "pip",
                "wheel",
                "--quiet",
                "--no-deps",
                "--no-build-isolation",
                "-w",
            ])
            .arg(&dist)
            .arg(&src),
    );
    let wheel = dist.join("strata-0.1.0-py3-none-any.whl");
    assert!(wheel.is_file(), "no {}", wheel.display());
    let site = tmp.path().join("site");
    run_ok(
        Command::new(&python)
            .args(["-m", "pip", "install", "--quiet", "--no-deps", "--target"])
            .arg(&site)
            .arg(&wheel),
    );
    let stdout = run_ok(
        Command::new(&python)
            .arg(src.join("tests/test_strata.py"))
            .current_dir(tmp.path())
            .env("PYTHONPATH", &site)
            .env("STRATA", env!("CARGO_BIN_EXE_strata")),
    );
    assert!(
        stdout.contains("python package: all checks passed"),
        "{stdout}"
    );
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
            .arg(format!(
                "-DStrata_DIR={}",
                repo().join("tools/cmake").display()
            ))
            .arg(format!("-DSTRATA_EXECUTABLE={STRATA}")),
    );
    run_ok(Command::new("cmake").arg("--build").arg(&build));
    let stdout = run_ok(&mut Command::new(build.join("mlp")));
    assert_matches_xla(&stdout);
}

/// A fresh CMake project using the package as the README says, with a
/// shared library, its own symbol prefix and compile options: builds a C
/// program that matches XLA.
#[test]
fn cmake_package_in_a_fresh_project() {
    let tmp = tempfile::tempdir().unwrap();
    let project = tmp.path().join("app");
    std::fs::create_dir(&project).unwrap();
    let main_c = std::fs::read_to_string(mlp_dir().join("main.c"))
        .unwrap()
        .replace("model_", "net_")
        .replace("MODEL_", "NET_")
        .replace("\"model.h\"", "\"mlp_net.h\"");
    std::fs::write(project.join("main.c"), main_c).unwrap();
    std::fs::write(
        project.join("CMakeLists.txt"),
        format!(
            "cmake_minimum_required(VERSION 3.16)\n\
             project(app C)\n\
             find_package(Strata 0.1 REQUIRED)\n\
             strata_add_model(mlp_net {model} SHARED NAME net OPTIONS -O2)\n\
             add_executable(app main.c)\n\
             target_include_directories(app PRIVATE {mlp})\n\
             target_link_libraries(app PRIVATE mlp_net m)\n",
            model = mlp_dir().join("model.mlir").display(),
            mlp = mlp_dir().display()
        ),
    )
    .unwrap();
    let build = tmp.path().join("build");
    run_ok(
        Command::new("cmake")
            .arg("-S")
            .arg(&project)
            .arg("-B")
            .arg(&build)
            .arg(format!(
                "-DCMAKE_PREFIX_PATH={}",
                repo().join("tools/cmake").display()
            ))
            .arg(format!("-DSTRATA_EXECUTABLE={STRATA}")),
    );
    run_ok(Command::new("cmake").arg("--build").arg(&build));
    assert_matches_xla(&run_ok(&mut Command::new(build.join("app"))));
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
            "model_main_packed",
            "model_main_scratch_bytes",
            "model_main_with_scratch",
            "model_register_custom_call",
            "model_replicas_run",
            "model_set_infeed",
            "model_set_num_threads",
            "model_set_outfeed",
            "model_signature"
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
