//! End-to-end: multi-device libraries (`P_replicas_run`, JAX pmap exports,
//! threads and MPI), and infeed/outfeed through the host's hooks.

use std::process::Command;

mod common;
use common::*;

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
