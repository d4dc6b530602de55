//! End-to-end: libraries called from several host threads at once, and
//! bodies with several parallel regions run on the library's pool.

use std::process::Command;

mod common;
use common::*;

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
