//! End-to-end: custom calls the host registers (C, Rust closures, Python),
//! and donated buffers updated in place.

use std::process::Command;

mod common;
use common::*;

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
    let model = r#"func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = stablehlo.custom_call @my_scale(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %z = stablehlo.add %y, %x : tensor<4xf32>
  return %z : tensor<4xf32>
}
"#;
    let program = r#"
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
"#;
    let out = run_rust_with_bindings(tmp.path(), "cc", model, program);
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
