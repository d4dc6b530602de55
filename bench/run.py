#!/usr/bin/env python3
"""Strata vs XLA:CPU (jax) vs IREE (llvm-cpu) on a handful of workloads.

For each workload: build it in JAX, export StableHLO with
`jax.jit(f).lower(*args).as_text()`, compile that text with Strata (to a .so
called through ctypes) and with IREE, run the jitted function on XLA:CPU,
check that the three outputs agree with a float64 numpy reference, and time
the three with the same method (warm-up, then the median over interleaved
repetitions of a timed loop, `time.perf_counter`).

Results are ratios (Strata time / peer time) and fractions of the machine's
limits (FMA peak for compute-bound workloads, a measured copy bandwidth at the
same working-set size for memory-bound ones). See bench/README.md.

Run with the venv made by bench/setup.sh:
    /tmp/strata-bench-venv/bin/python bench/run.py
"""

from __future__ import annotations

import argparse
import ctypes
import datetime
import importlib.metadata as md
import importlib.util
import math
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Callable

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def parse_args():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--strata", help="strata driver (default: target/release/strata, else target/debug/strata)")
    p.add_argument("--workdir", default=os.path.join(tempfile.gettempdir(), "strata-bench-build"),
                   help="where the StableHLO, .so and .vmfb files go (default: %(default)s)")
    p.add_argument("--reps", type=int, default=15, help="timed repetitions per implementation (default: %(default)s)")
    p.add_argument("--min-time", type=float, default=0.025,
                   help="seconds each timed loop should last at least (default: %(default)s)")
    p.add_argument("--only", default="", help="comma-separated substrings: run only matching workloads")
    p.add_argument("--threads", choices=["1", "all"], default="1",
                   help="1 (default): the whole process is pinned to one CPU, XLA's Eigen threading off, "
                        "IREE local-sync; all: no pinning, XLA as configured by default, IREE local-task")
    p.add_argument("--out", default=os.path.join(HERE, "results.md"), help="markdown output (default: %(default)s)")
    p.add_argument("--no-write", action="store_true", help="print the table, do not write --out")
    p.add_argument("--tol", type=float, default=1e-4,
                   help="max |out - ref| / max |ref| against the float64 reference (default: %(default)s)")
    return p.parse_args()


ARGS = parse_args()

# Threading must be settled before jax (and its thread pools) is imported.
if ARGS.threads == "1":
    _cpus = sorted(os.sched_getaffinity(0))
    PINNED_CPU = _cpus[-1]
    os.sched_setaffinity(0, {PINNED_CPU})
    os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "") + " --xla_cpu_multi_thread_eigen=false").strip()
    IREE_DRIVER = "local-sync"
else:
    PINNED_CPU = None
    IREE_DRIVER = "local-task"

import numpy as np  # noqa: E402
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

jax.config.update("jax_platforms", "cpu")

import iree.compiler as ireec  # noqa: E402
import iree.runtime as ireert  # noqa: E402

F32 = np.float32


# --------------------------------------------------------------------------------------------
# Workloads


@dataclass
class Workload:
    name: str
    fn: Callable
    args: list  # numpy arrays (float32 unless the workload is about another type)
    ref: Callable  # float64 numpy reference: ref(*args) -> array or tuple
    kind: str  # "compute", "memory" or "overhead"
    flops: float = 0.0  # for "compute": useful FLOPs per call (an FMA counts 2)
    nbytes: float = 0.0  # for "memory": compulsory bytes read + written per call
    note: str = ""
    peers: tuple = ("XLA", "IREE")  # the peers timed beside Strata


def _np_tanh(x):
    return np.tanh(x)


def _np_softmax(x):
    m = x.max(axis=-1, keepdims=True)
    e = np.exp(x - m)
    return e / e.sum(axis=-1, keepdims=True)


def _np_mlp(x, w1, b1, w2, b2):
    x, w1, b1, w2, b2 = (a.astype(np.float64) for a in (x, w1, b1, w2, b2))
    return _np_softmax(np.tanh(x @ w1 + b1) @ w2 + b2)


def _load_example_mlp():
    """The MLP (and its inputs) of examples/mlp/export.py."""
    sys.dont_write_bytecode = True  # leave no __pycache__ in examples/
    path = os.path.join(ROOT, "examples", "mlp", "export.py")
    spec = importlib.util.spec_from_file_location("strata_mlp_export", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.mlp, [a for _, a in mod.make_inputs()]


def workloads() -> list[Workload]:
    rs = np.random.RandomState(42)

    def normal(*shape, scale=1.0):
        return (rs.standard_normal(shape) * scale).astype(F32)

    mlp, mlp_args = _load_example_mlp()
    ws = []
    ws.append(Workload("call_floor_add16", lambda x: x + 1.0, [normal(16)], lambda x: x.astype(np.float64) + 1.0,
                       "overhead", note="x+1 on 16 floats: the per-call cost of each runtime's calling path"))
    b, i, h, o = 4, 8, 16, 4
    ws.append(Workload("mlp_4x8 (examples/mlp)", mlp, mlp_args, _np_mlp, "compute",
                       flops=2 * b * (i * h + h * o), note="tiny: dominated by call overhead"))
    b, i, h, o = 256, 512, 512, 512
    ws.append(Workload("mlp_b256_w512", mlp,
                       [normal(b, i), normal(i, h, scale=i ** -0.5), normal(h, scale=0.1),
                        normal(h, o, scale=h ** -0.5), normal(o, scale=0.1)],
                       _np_mlp, "compute", flops=2 * b * (i * h + h * o)))
    for n in (256, 512, 1024, 2048):
        ws.append(Workload(f"matmul_{n}", lambda a, c: a @ c, [normal(n, n), normal(n, n)],
                           lambda a, c: a.astype(np.float64) @ c.astype(np.float64), "compute", flops=2 * n ** 3))
    ws.append(Workload("batched_matmul_16x256", lambda a, c: a @ c, [normal(16, 256, 256), normal(16, 256, 256)],
                       lambda a, c: a.astype(np.float64) @ c.astype(np.float64), "compute", flops=16 * 2 * 256 ** 3))
    b, i, h, o = 64, 784, 512, 10
    ws.append(Workload("mlp_b64_784_512_10", mlp,
                       [normal(b, i), normal(i, h, scale=i ** -0.5), normal(h, scale=0.1),
                        normal(h, o, scale=h ** -0.5), normal(o, scale=0.1)],
                       _np_mlp, "compute", flops=2 * b * (i * h + h * o),
                       note="tanh hidden layer, softmax output (examples/mlp's model at MNIST sizes)"))
    heads, seq, d = 8, 256, 64
    ws.append(Workload("attention_8x256x64",
                       lambda q, k, v: jax.nn.softmax(q @ jnp.swapaxes(k, -1, -2) / 8.0, axis=-1) @ v,
                       [normal(heads, seq, d), normal(heads, seq, d), normal(heads, seq, d)],
                       lambda q, k, v: _np_softmax(q.astype(np.float64) @ np.swapaxes(k, -1, -2) / 8.0) @ v,
                       "compute", flops=heads * 2 * 2 * seq * seq * d,
                       note="softmax(q k^T / sqrt(64)) v over 8 heads"))
    ws.append(Workload("softmax_1024x1024", lambda x: jax.nn.softmax(x, axis=-1), [normal(1024, 1024)],
                       lambda x: _np_softmax(x.astype(np.float64)), "memory", nbytes=2 * 4 * 1024 * 1024))
    ws.append(Workload("softmax_4096x1024", lambda x: jax.nn.softmax(x, axis=-1), [normal(4096, 1024)],
                       lambda x: _np_softmax(x.astype(np.float64)), "memory", nbytes=2 * 4 * 4096 * 1024))
    ws.append(Workload("layernorm_4096x1024",
                       lambda x, g, b: (x - x.mean(-1, keepdims=True))
                       / jnp.sqrt(x.var(-1, keepdims=True) + 1e-5) * g + b,
                       [normal(4096, 1024), normal(1024), normal(1024)],
                       lambda x, g, b: (lambda x: (x - x.mean(-1, keepdims=True))
                                        / np.sqrt(x.var(-1, keepdims=True) + 1e-5) * g + b)(x.astype(np.float64)),
                       "memory", nbytes=2 * 4 * 4096 * 1024))
    ws.append(Workload("sum_16M", lambda x: jnp.sum(x), [normal(1 << 24)],
                       lambda x: x.astype(np.float64).sum(), "memory", nbytes=4 * (1 << 24)))
    n = 4 * 1024 * 1024
    ws.append(Workload("tanh(x*y+z)_4M", lambda x, y, z: jnp.tanh(x * y + z), [normal(n), normal(n), normal(n)],
                       lambda x, y, z: np.tanh(x.astype(np.float64) * y + z), "memory", nbytes=4 * 4 * n))
    ws.append(Workload("rowsum_4096x1024", lambda x: jnp.sum(x, axis=-1), [normal(4096, 1024)],
                       lambda x: x.astype(np.float64).sum(axis=-1), "memory", nbytes=4 * (4096 * 1024 + 4096)))
    ws.append(Workload("transpose_2048x2048", lambda x: jnp.transpose(x), [normal(2048, 2048)],
                       lambda x: x.T.astype(np.float64), "memory", nbytes=2 * 4 * 2048 * 2048))
    # Extras beyond the brief's list: the other reduction axis and the other rhs layout.
    ws.append(Workload("colsum_4096x1024 (extra)", lambda x: jnp.sum(x, axis=0), [normal(4096, 1024)],
                       lambda x: x.astype(np.float64).sum(axis=0), "memory", nbytes=4 * (4096 * 1024 + 1024),
                       note="reduce over the outer axis: the inner loop of a per-output-element reduction strides by a row"))
    ws.append(Workload("matmul_512_nt (extra)", lambda a, c: a @ c.T, [normal(512, 512), normal(512, 512)],
                       lambda a, c: a.astype(np.float64) @ c.T.astype(np.float64), "compute", flops=2 * 512 ** 3,
                       note="a @ b.T: dot_general contracting [1] x [1], the rhs read across rows"))
    # The shapes models put into dense layers (issue 22): rank-3 activations, a tied embedding's
    # x @ E.T, and the matrix-vector products of a decode step.
    bt, t, d, f = 2, 128, 768, 3072
    ws.append(Workload("dense_rank3_2x128x768x3072", lambda x, w: x @ w, [normal(bt, t, d), normal(d, f, scale=d ** -0.5)],
                       lambda x, w: x.astype(np.float64) @ w.astype(np.float64), "compute", flops=2 * bt * t * d * f,
                       note="x @ W with a (batch, tokens, features) x: dot_general contracting [2] x [0]"))
    ws.append(Workload("dense_nt_256x768x8192", lambda x, e: x @ e.T, [normal(256, d), normal(8192, d, scale=d ** -0.5)],
                       lambda x, e: x.astype(np.float64) @ e.T.astype(np.float64), "compute", flops=2 * 256 * d * 8192,
                       note="x @ E.T (tied embeddings): the weight read in its stored (rows = outputs) layout"))
    ws.append(Workload("gemv_1x768x3072", lambda x, w: x @ w, [normal(1, 1, d), normal(d, f, scale=d ** -0.5)],
                       lambda x, w: x.astype(np.float64) @ w.astype(np.float64), "memory", nbytes=4 * (d * f + d + f),
                       note="a decode step's dense layer (one token): reads the weight once"))
    # Narrow operands as mixed-precision and quantized models multiply them: bf16 with f32 sums
    # (preferred_element_type), int8 with int32 sums.
    import ml_dtypes

    bf16 = ml_dtypes.bfloat16
    ws.append(Workload("dense_bf16_2x128x768x3072",
                       lambda x, w: jnp.matmul(x, w, preferred_element_type=jnp.float32),
                       [normal(bt, t, d).astype(bf16), normal(d, f, scale=d ** -0.5).astype(bf16)],
                       lambda x, w: x.astype(np.float64) @ w.astype(np.float64), "compute", flops=2 * bt * t * d * f,
                       note="bf16 x @ W with f32 sums (AVX512-BF16 where the CPU has it)"))
    ws.append(Workload("dense_i8_256x768x3072",
                       lambda x, w: jax.lax.dot(x, w, preferred_element_type=jnp.int32),
                       [rs.randint(-128, 128, (256, d)).astype(np.int8), rs.randint(-128, 128, (d, f)).astype(np.int8)],
                       lambda x, w: x.astype(np.int64) @ w.astype(np.int64), "compute", flops=2 * 256 * d * f,
                       note="int8 x int8 -> int32 (AVX512-VNNI where the CPU has it); GOP/s shown as GFLOP/s"))
    ws.append(Workload("conv_8x64x56x56_3x3", lambda x, w: jax.lax.conv(x, w, (1, 1), "SAME"),
                       [normal(8, 64, 56, 56), normal(64, 64, 3, 3, scale=0.1)],
                       lambda x, w: np.asarray(jax.lax.conv(x.astype(np.float64), w.astype(np.float64), (1, 1), "SAME")),
                       "compute", flops=2 * 8 * 56 * 56 * 64 * 64 * 9,
                       note="lax.conv NCHW/OIHW 64->64 3x3 SAME: im2col + GEMM"))
    ws.append(Workload("depthwise_3x3_8x56x56x64",
                       lambda x, w: jax.lax.conv_general_dilated(
                           x, w, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"),
                           feature_group_count=64),
                       [normal(8, 56, 56, 64), normal(3, 3, 1, 64, scale=0.3)],
                       lambda x, w: np.asarray(jax.lax.conv_general_dilated(
                           x.astype(np.float64), w.astype(np.float64), (1, 1), "SAME",
                           dimension_numbers=("NHWC", "HWIO", "NHWC"), feature_group_count=64)),
                       "compute", flops=2 * 8 * 56 * 56 * 64 * 9,
                       note="depthwise (feature_group_count 64) NHWC/HWIO 3x3 SAME"))
    n = 1 << 20
    ws.append(Workload("fft_1M_c64",
                       lambda x: jnp.fft.fft(jax.lax.complex(x[0], x[1])),
                       [normal(2, n)],
                       lambda x: np.fft.fft(x[0].astype(np.float64) + 1j * x[1].astype(np.float64)),
                       "compute", flops=5 * n * 20,
                       note="jnp.fft.fft of 2^20 complex64 (FLOPs: the usual 5 N log2 N)"))
    # IREE (3.13) needs ~23 s per call at 65,536 and hours at 1M: timed against XLA only.
    for n in (65536, 1 << 20):
        ws.append(Workload(f"sort_{n}", jnp.sort, [normal(n)], lambda x: np.sort(x.astype(np.float64)),
                           "memory", nbytes=2 * 4 * n, peers=("XLA",),
                           note="jnp.sort of f32 (IREE not timed: ~23 s per call at 65,536)"))
    if ARGS.only:
        keys = [k.strip() for k in ARGS.only.split(",") if k.strip()]
        ws = [w for w in ws if any(k in w.name for k in keys)]
    return ws


# --------------------------------------------------------------------------------------------
# The three implementations: each gives a zero-argument `run` callable and a `result()` that
# returns the outputs of the last run as numpy arrays.


def slug(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "_", name).strip("_").lower()


class StrataImpl:
    label = "Strata"

    def __init__(self, strata: str, w: Workload, mlir_path: str, out_shapes):
        base = os.path.join(ARGS.workdir, slug(w.name))
        self.so = base + ".so"
        prefix = "b_" + slug(w.name)
        # XLA and IREE compile for the host CPU here, so Strata does too (its artifacts
        # default to the portable x86-64-v3).
        cmd = [strata, "compile", mlir_path, "-o", self.so, "--header", base + ".h", "--name", prefix,
               "--target-cpu", "host"]
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True, text=True)
        self.compile_s = time.perf_counter() - t0
        self.lib = ctypes.CDLL(self.so)
        self.fn = getattr(self.lib, prefix + "_main")
        self.fn.restype = ctypes.c_int32
        self.last_error = getattr(self.lib, prefix + "_last_error")
        self.last_error.restype = ctypes.c_char_p
        self.ins = [np.ascontiguousarray(a) for a in w.args]
        self.outs = [np.zeros(s, d) for s, d in out_shapes]
        ptrs = [a.ctypes.data for a in self.ins + self.outs]
        self.fn.argtypes = [ctypes.c_void_p] * len(ptrs)
        fn = self.fn
        self.run = lambda: fn(*ptrs)
        self.ptrs = ptrs

    def check_rc(self, rc):
        if rc != 0:
            raise RuntimeError(f"strata returned {rc}: {self.last_error().decode()}")

    def result(self):
        self.check_rc(self.run())
        return [o.copy() for o in self.outs]


class XlaImpl:
    label = "XLA"

    def __init__(self, w: Workload):
        jf = jax.jit(w.fn)
        dargs = [jax.device_put(a) for a in w.args]
        t0 = time.perf_counter()
        jax.block_until_ready(jf(*dargs))
        self.compile_s = time.perf_counter() - t0

        def run():
            return jax.block_until_ready(jf(*dargs))

        self.run = run

    def result(self):
        r = self.run()
        r = r if isinstance(r, (tuple, list)) else [r]
        return [np.asarray(x) for x in r]


class IreeImpl:
    label = "IREE"

    def __init__(self, w: Workload, text: str):
        t0 = time.perf_counter()
        vmfb = ireec.compile_str(text, target_backends=["llvm-cpu"], input_type="stablehlo",
                                 extra_args=["--iree-llvmcpu-target-cpu=host"])
        self.compile_s = time.perf_counter() - t0
        with open(os.path.join(ARGS.workdir, slug(w.name) + ".vmfb"), "wb") as f:
            f.write(vmfb)
        self.config = ireert.Config(IREE_DRIVER)
        self.ctx = ireert.SystemContext(config=self.config)
        vm = ireert.VmModule.copy_buffer(self.ctx.instance, vmfb)
        self.ctx.add_vm_module(vm)
        f = self.ctx.modules[vm.name]["main"]
        dargs = [ireert.asdevicearray(self.config.device, a) for a in w.args]
        self.run = lambda: f(*dargs)

    def result(self):
        r = self.run()
        r = r if isinstance(r, (tuple, list)) else [r]
        return [np.asarray(x.to_host() if hasattr(x, "to_host") else x) for x in r]


# --------------------------------------------------------------------------------------------
# Timing


def calibrate(run) -> int:
    """Warms up, then picks the iteration count so that one timed loop lasts >= --min-time."""
    t_end = time.perf_counter() + 0.05
    calls = 0
    while calls < 3 or time.perf_counter() < t_end:
        run()
        calls += 1
    t0 = time.perf_counter()
    run()
    one = max(time.perf_counter() - t0, 1e-7)
    n = max(1, math.ceil(ARGS.min_time / one))
    # Re-estimate on a short loop (single-call timings overestimate tiny kernels).
    t0 = time.perf_counter()
    k = max(1, min(n, 50))
    for _ in range(k):
        run()
    per = max((time.perf_counter() - t0) / k, 1e-7)
    return max(1, math.ceil(ARGS.min_time / per))


def timed_loop(run, n) -> tuple[float, float]:
    """Per-call (wall, process CPU) time over n calls."""
    c0, t0 = time.process_time(), time.perf_counter()
    for _ in range(n):
        run()
    t1, c1 = time.perf_counter(), time.process_time()
    return (t1 - t0) / n, (c1 - c0) / n


def measure(impls) -> dict:
    """Median per-call time of each impl over ARGS.reps interleaved repetitions (the order
    rotates each repetition, so load changes on a shared machine hit all of them alike).
    Returns {clock: {label: {median, spread, n}}} for clock "wall" (perf_counter) and "cpu"
    (process_time: with the process pinned to one CPU, the time it actually ran)."""
    counts = {im.label: calibrate(im.run) for im in impls}
    samples = {c: {im.label: [] for im in impls} for c in ("wall", "cpu")}
    for r in range(ARGS.reps):
        order = impls[r % len(impls):] + impls[: r % len(impls)]
        for im in order:
            wall, cpu = timed_loop(im.run, counts[im.label])
            samples["wall"][im.label].append(wall)
            samples["cpu"][im.label].append(cpu)
    out = {}
    for clock, per in samples.items():
        out[clock] = {}
        for k, s in per.items():
            s = sorted(s)
            med = statistics.median(s)
            q1, q3 = s[len(s) // 4], s[(3 * len(s)) // 4]
            out[clock][k] = {"median": med, "spread": (q3 - q1) / med if med else 0.0, "n": counts[k]}
    return out


# --------------------------------------------------------------------------------------------
# Machine limits

FMA_C = r"""
#include <immintrin.h>
#include <stdio.h>
#include <time.h>
/* Thread CPU time: time slices lost to other processes on a shared machine do not count. */
static double now(void){struct timespec t;clock_gettime(CLOCK_THREAD_CPUTIME_ID,&t);return t.tv_sec+1e-9*t.tv_nsec;}
/* 12 independent FMA chains held in registers (the empty asm keeps them there and alive). */
#define BODY(VT, SET1, FMA, LANES, NAME) { \
  VT x = SET1(0.999999f), y = SET1(1e-7f); double best = 0; float s; \
  VT a0=SET1(0),a1=SET1(1),a2=SET1(2),a3=SET1(3),a4=SET1(4),a5=SET1(5),a6=SET1(6),a7=SET1(7), \
     a8=SET1(8),a9=SET1(9),a10=SET1(10),a11=SET1(11); \
  for (int r = 0; r < 9; r++) { long n = 2000000; double t0 = now(); \
    for (long i = 0; i < n; i++) { \
      a0=FMA(a0,x,y);a1=FMA(a1,x,y);a2=FMA(a2,x,y);a3=FMA(a3,x,y);a4=FMA(a4,x,y);a5=FMA(a5,x,y); \
      a6=FMA(a6,x,y);a7=FMA(a7,x,y);a8=FMA(a8,x,y);a9=FMA(a9,x,y);a10=FMA(a10,x,y);a11=FMA(a11,x,y); \
      __asm__ volatile("" : "+v"(a0), "+v"(a1), "+v"(a2), "+v"(a3), "+v"(a4), "+v"(a5), \
                       "+v"(a6), "+v"(a7), "+v"(a8), "+v"(a9), "+v"(a10), "+v"(a11)); } \
    double g = n * 12.0 * LANES * 2 / (now() - t0) / 1e9; if (g > best) best = g; } \
  a0=a0+a1+a2+a3+a4+a5+a6+a7+a8+a9+a10+a11; { float t[LANES]; __builtin_memcpy(t, &a0, sizeof t); s = t[0]; } \
  printf("%s %.3f %g\n", NAME, best, s); }
int main(void) {
#ifdef __AVX2__
  BODY(__m256, _mm256_set1_ps, _mm256_fmadd_ps, 8, "avx2")
#endif
#ifdef __AVX512F__
  BODY(__m512, _mm512_set1_ps, _mm512_fmadd_ps, 16, "avx512")
#endif
  return 0;
}
"""


def cpu_info() -> dict:
    info = {"model": platform.processor() or "?", "flags": set(), "mhz": None}
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
        for line in out.splitlines():
            k, _, v = line.partition(":")
            v = v.strip()
            if k.strip() == "Model name":
                info["model"] = v
            elif k.strip() == "Flags":
                info["flags"] = set(v.split())
            elif k.strip() in ("CPU max MHz", "CPU MHz") and v:
                info["mhz"] = info["mhz"] or float(v)
    except OSError:
        pass
    if info["mhz"] is None:
        try:
            m = re.search(r"cpu MHz\s*:\s*([0-9.]+)", open("/proc/cpuinfo").read())
            info["mhz"] = float(m.group(1)) if m else None
        except OSError:
            pass
    return info


def nominal_peak(info) -> tuple[float | None, str]:
    """Single-core FP32 FMA peak from the ISA flags and the reported clock."""
    f = info["flags"]
    if "avx512f" in f:
        lanes, units, isa = 16, 2, "AVX-512"
    elif "fma" in f and "avx2" in f:
        lanes, units, isa = 8, 2, "AVX2+FMA"
    else:
        lanes, units, isa = 4, 1, "SSE"
    fpc = lanes * units * 2
    if not info["mhz"]:
        return None, f"{isa}: {fpc} FLOP/cycle, clock unknown"
    g = fpc * info["mhz"] / 1000
    return g, f"{isa}, assumed {units} FMA units x {lanes} f32 lanes x 2 = {fpc} FLOP/cycle x {info['mhz']:.0f} MHz (reported clock; turbo not counted)"


def measured_fma_peak() -> dict:
    """Best-of-9 single-thread FMA throughput (thread CPU time) of a 12-chain register loop (cc -march=native)."""
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if not cc:
        return {}
    src = os.path.join(ARGS.workdir, "fma_peak.c")
    exe = os.path.join(ARGS.workdir, "fma_peak")
    with open(src, "w") as f:
        f.write(FMA_C)
    try:
        subprocess.run([cc, "-O2", "-march=native", src, "-o", exe], check=True, capture_output=True)
        out = subprocess.run([exe], check=True, capture_output=True, text=True).stdout
    except (subprocess.CalledProcessError, OSError):
        return {}
    return {line.split()[0]: float(line.split()[1]) for line in out.splitlines() if line.strip()}


_copy_cache: dict[int, dict] = {}
LIMITS: dict = {}  # machine limits, filled in by main()


def copy_bandwidth(nbytes_total: float) -> dict:
    """STREAM-like copy bandwidth (bytes read + written per second, best of 7, per clock as in
    `measure`) of numpy copying an array of nbytes_total/2 bytes: the same working set as a
    workload moving nbytes_total."""
    n = max(1024, int(nbytes_total / 2 / 4))
    if n in _copy_cache:
        return _copy_cache[n]
    a = np.random.RandomState(0).standard_normal(n).astype(F32)
    b = np.empty_like(a)
    reps = max(1, int(2e7 // n))
    run = lambda: np.copyto(b, a)  # noqa: E731
    for _ in range(3):
        run()
    best = {"wall": math.inf, "cpu": math.inf}
    for _ in range(7):
        wall, cpu = timed_loop(run, reps)
        best["wall"], best["cpu"] = min(best["wall"], wall), min(best["cpu"], cpu if cpu > 0 else math.inf)
    _copy_cache[n] = {k: 2 * 4 * n / v for k, v in best.items()}
    return _copy_cache[n]


# --------------------------------------------------------------------------------------------


def find_strata() -> str:
    if ARGS.strata:
        return ARGS.strata
    for kind in ("release", "debug"):
        p = os.path.join(ROOT, "target", kind, "strata")
        if os.path.exists(p):
            return p
    sys.exit("no strata driver: build it or pass --strata")


def versions(strata) -> dict:
    v = {"python": platform.python_version()}
    for p in ("jax", "jaxlib", "numpy", "iree-base-compiler", "iree-base-runtime"):
        try:
            v[p] = md.version(p)
        except md.PackageNotFoundError:
            v[p] = "?"
    try:
        rev = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True).stdout.strip()
        built = datetime.datetime.fromtimestamp(os.path.getmtime(strata)).astimezone().strftime("%Y-%m-%d %H:%M %Z")
        v["strata"] = (f"tree at {rev}{' (+local changes)' if dirty else ''}, driver {os.path.relpath(strata, ROOT)} "
                       f"built {built}")
    except OSError:
        v["strata"] = strata
    return v


def max_err(out, ref) -> float:
    out, ref = np.asarray(out), np.asarray(ref)
    wide = np.complex128 if np.iscomplexobj(out) or np.iscomplexobj(ref) else np.float64
    out, ref = out.astype(wide), ref.astype(wide)
    if out.shape != ref.shape:
        return math.inf
    scale = max(float(np.max(np.abs(ref))), 1e-30)
    return float(np.max(np.abs(out - ref))) / scale


def fmt_time(s: float) -> str:
    if s < 1e-3:
        return f"{s * 1e6:.1f} µs"
    return f"{s * 1e3:.2f} ms"


def main():
    os.makedirs(ARGS.workdir, exist_ok=True)
    strata = find_strata()
    info = cpu_info()
    load0 = os.getloadavg()
    t_start = time.perf_counter()
    print(f"strata: {strata}; threads: {ARGS.threads}; IREE driver: {IREE_DRIVER}", flush=True)

    lim = LIMITS
    lim.update(info=info, peaks=measured_fma_peak())
    lim["nominal"], lim["nominal_desc"] = nominal_peak(info)
    lim["peak"] = max(lim["peaks"].values()) if lim["peaks"] else lim["nominal"]
    # Under --threads all the percentages are of every usable core's peak together.
    lim["cores"] = 1 if ARGS.threads == "1" else len(os.sched_getaffinity(0))
    lim["peak"] = lim["peak"] and lim["peak"] * lim["cores"]
    lim["big_copy"] = copy_bandwidth(2 * 256 * 2 ** 20)
    print(f"FMA peak measured {lim['peaks']} GFLOP/s, nominal {lim['nominal']}; copy bandwidth (256 MiB) "
          f"{lim['big_copy']['wall'] / 1e9:.1f} GB/s", flush=True)

    rows, failures = [], []
    for w in workloads():
        print(f"== {w.name}", flush=True)
        text = jax.jit(w.fn).lower(*w.args).as_text()
        mlir_path = os.path.join(ARGS.workdir, slug(w.name) + ".mlir")
        with open(mlir_path, "w") as f:
            f.write(text)
        out_shapes = [(o.shape, o.dtype) for o in jax.tree_util.tree_leaves(jax.eval_shape(w.fn, *w.args))]
        ref = w.ref(*w.args)
        refs = list(ref) if isinstance(ref, (tuple, list)) else [ref]
        impls, errs, problems = [], {}, []
        makers = [("Strata", lambda: StrataImpl(strata, w, mlir_path, out_shapes)), ("XLA", lambda: XlaImpl(w)),
                  ("IREE", lambda: IreeImpl(w, text))]
        makers = [(label, make) for label, make in makers if label == "Strata" or label in w.peers]
        for label, make in makers:
            try:
                im = make()
                outs = im.result()
                e = max(max_err(o, r) for o, r in zip(outs, refs))
                errs[label] = e
                if not e <= ARGS.tol:
                    problems.append(f"{label} off by {e:.2e} (normalised max error vs float64)")
                impls.append(im)
            except Exception as ex:  # noqa: BLE001 - report and carry on with the others
                msg = str(ex).strip().splitlines()
                problems.append(f"{label} failed: {type(ex).__name__}: {(msg[0] if msg else '')[:300]}")
        if problems:
            failures.append((w.name, problems, mlir_path))
            print("   PROBLEM: " + "; ".join(problems), flush=True)
        timing = measure(impls) if impls else {"wall": {}, "cpu": {}}
        for im in impls:
            if isinstance(im, StrataImpl):
                im.check_rc(im.run())
        row = {"w": w, "timing": timing, "errs": errs}
        if w.kind == "memory":
            row["copy_bw"] = copy_bandwidth(w.nbytes)
        rows.append(row)
        print("   " + ", ".join(f"{k} {fmt_time(v['median'])}" for k, v in timing["wall"].items()), flush=True)

    elapsed = time.perf_counter() - t_start
    load1 = os.getloadavg()
    md_text = render(rows, failures, lim, strata, elapsed, load0, load1)
    print()
    print(md_text)
    if not ARGS.no_write:
        with open(ARGS.out, "w") as f:
            f.write(md_text)
        print(f"wrote {ARGS.out}")
        write_chart(rows, os.path.splitext(ARGS.out)[0] + ".png")
    return 1 if failures else 0


def write_chart(rows, path):
    """A bar chart of Strata's time / XLA's and / IREE's per workload (log
    scale; below 1 is faster), beside the markdown (needs matplotlib)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib not installed: no chart")
        return
    names, vs_xla, vs_iree = [], [], []
    for row in rows:
        tm = row["timing"]["wall"]
        s = tm.get("Strata", {}).get("median")
        if not s:
            continue
        names.append(row["w"].name.replace(" (examples/mlp)", "").replace(" (extra)", ""))
        vs_xla.append(s / tm["XLA"]["median"] if "XLA" in tm else float("nan"))
        vs_iree.append(s / tm["IREE"]["median"] if "IREE" in tm else float("nan"))
    fig, ax = plt.subplots(figsize=(10, 0.32 * len(names) + 1.5))
    ys = range(len(names))
    ax.barh([y + 0.2 for y in ys], vs_xla, height=0.4, label="Strata / XLA:CPU")
    ax.barh([y - 0.2 for y in ys], vs_iree, height=0.4, label="Strata / IREE")
    ax.axvline(1.0, color="black", linewidth=0.8)
    ax.set_xscale("log")
    ax.set_yticks(list(ys), names)
    ax.invert_yaxis()
    ax.set_xlabel("time ratio (log scale; < 1: Strata is faster)")
    info = cpu_info()
    mode = "one thread" if ARGS.threads == "1" else "all CPUs"
    ax.set_title(f"Strata vs XLA:CPU and IREE, {mode} ({info.get('model', 'CPU')}, {os.cpu_count()} CPUs)")
    ax.legend(loc="upper right")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    print(f"wrote {path}")


def achieved(row, label, peak, clock):
    w = row["w"]
    t = row["timing"][clock].get(label, {}).get("median")
    if t is None or t <= 0:
        return "–"
    if w.kind == "compute":
        g = w.flops / t / 1e9
        return f"{g:.1f} GF/s ({100 * g / peak:.1f}%)" if peak else f"{g:.1f} GF/s"
    if w.kind == "memory":
        bw = w.nbytes / t
        return (f"{bw / 1e9:.1f} GB/s ({100 * bw / row['copy_bw'][clock]:.0f}% · "
                f"{100 * bw / LIMITS['big_copy'][clock]:.0f}%)")
    return "–"


def table(rows, peak, clock, with_times=True) -> list[str]:
    L = []
    head = "| workload |" + (" Strata | XLA | IREE |" if with_times else "")
    head += " Strata/XLA | Strata/IREE | Strata achieved | XLA achieved | IREE achieved |"
    if with_times:
        head += " max err S / X / I |"
    L.append(head)
    L.append("|" + "---|" * (head.count("|") - 1))
    for row in rows:
        w, e, tm = row["w"], row["errs"], row["timing"][clock]

        def cell(label):
            if label != "Strata" and label not in w.peers:
                return "not timed"
            if label not in tm:
                return "failed"
            sp = tm[label]["spread"]
            return fmt_time(tm[label]["median"]) + (f" ±{100 * sp / 2:.0f}%" if sp / 2 > 0.05 else "")

        def ratio(a, b):
            return f"**{tm[a]['median'] / tm[b]['median']:.2f}×**" if a in tm and b in tm else "–"

        line = f"| {w.name} |"
        if with_times:
            line += f" {cell('Strata')} | {cell('XLA')} | {cell('IREE')} |"
        line += (f" {ratio('Strata', 'XLA')} | {ratio('Strata', 'IREE')} | {achieved(row, 'Strata', peak, clock)} | "
                 f"{achieved(row, 'XLA', peak, clock)} | {achieved(row, 'IREE', peak, clock)} |")
        if with_times:
            line += " " + " / ".join(f"{e[k]:.0e}" if k in e else "–" for k in ("Strata", "XLA", "IREE")) + " |"
        L.append(line)
    return L


def render(rows, failures, lim, strata, elapsed, load0, load1) -> str:
    v = versions(strata)
    info, peaks, nom, peak = lim["info"], lim["peaks"], lim["nominal"], lim["peak"]
    now = datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z")
    L = []
    L.append("# Strata benchmark results")
    L.append("")
    L.append(f"Generated by `bench/run.py` on {now} in {elapsed:.0f} s. Regenerate with "
             f"`bash bench/setup.sh && /tmp/strata-bench-venv/bin/python bench/run.py` (see bench/README.md).")
    L.append("")
    L.append(f"- CPU: {info['model']}, {os.cpu_count()} CPUs (lscpu flags include "
             f"{', '.join(x for x in ('avx2', 'fma', 'avx512f', 'avx512_fp16', 'amx_tile') if x in info['flags'])}); "
             f"load average {load0[0]:.2f} at start, {load1[0]:.2f} at end (a shared machine)")
    thr = (f"single thread: the process pinned to CPU {PINNED_CPU}, XLA with "
           f"`--xla_cpu_multi_thread_eigen=false`, IREE driver `{IREE_DRIVER}`" if ARGS.threads == "1"
           else f"all CPUs: XLA's default threading, IREE driver `{IREE_DRIVER}`; Strata's pool at its default size (the CPUs the process may use)")
    L.append(f"- Threads: {thr}")
    L.append(f"- Versions: strata {v['strata']}; jax {v['jax']}, jaxlib {v['jaxlib']}, numpy {v['numpy']}, "
             f"iree-base-compiler {v['iree-base-compiler']}, iree-base-runtime {v['iree-base-runtime']}, "
             f"Python {v['python']}")
    L.append("- IREE: `compile_str(..., target_backends=[\"llvm-cpu\"], input_type=\"stablehlo\", "
             "extra_args=[\"--iree-llvmcpu-target-cpu=host\"])`")
    pk = ", ".join(f"{k} {g:.1f}" for k, g in peaks.items()) or "not measured (no C compiler)"
    if peak:
        L.append(f"- FMA peak (one core, f32): measured {pk} GFLOP/s (12 independent FMA chains in registers, "
                 f"thread CPU time, best of 9); nominal {nom and f'{nom:.1f}'} GFLOP/s ({lim['nominal_desc']}). "
                 f"**% below is of {peak:.1f} GFLOP/s**"
                 + (f" ({lim['cores']} cores x the measured one-core peak)" if lim["cores"] > 1 else ""))
    L.append(f"- Copy bandwidth: numpy `copyto` of 256 MiB: {lim['big_copy']['wall'] / 1e9:.1f} GB/s (bytes read + "
             f"written, best of 7). Memory-bound rows are compared with a copy of the **same working set** "
             f"(half the workload's bytes, copied), since most of them fit in L2/L3")
    L.append(f"- Timing: per implementation a warm-up, then the median of {ARGS.reps} repetitions of a loop of "
             f">= {ARGS.min_time * 1e3:.0f} ms (`time.perf_counter`), the three interleaved; inputs already on "
             f"the device for XLA and IREE, results left there; Strata called through ctypes")
    L.append("")
    L.extend(table(rows, peak, "wall"))
    L.append("")
    L.append("Ratios > 1 mean Strata is slower. Compute rows: GFLOP/s and % of the FMA peak (FLOPs: 2·M·N·K "
             "per matmul; element-wise work not counted). Memory rows: compulsory bytes (inputs read once, "
             "outputs written once) per second, as % of a numpy copy of the same working set · % of the "
             "256 MiB (DRAM) copy. `±x%`: half the "
             "inter-quartile range, shown above 5%. max err: max |out − ref| / max |ref| against a float64 "
             "numpy reference.")
    L.append("")
    for row in rows:
        if row["w"].note:
            L.append(f"- {row['w'].name}: {row['w'].note}")
    if ARGS.threads == "1":
        L.append("")
        L.append("### Cross-check: the same runs timed by process CPU time")
        L.append("")
        L.append("With the process pinned to one CPU, `time.process_time` counts only the time it actually ran, "
                 "so time slices taken by other processes on the shared machine drop out. Copy bandwidth "
                 "measured the same way.")
        L.append("")
        L.extend(table(rows, peak, "cpu", with_times=False))
    L.append("")
    if failures:
        L.append("## Problems")
        L.append("")
        for name, probs, path in failures:
            L.append(f"- **{name}** ({os.path.basename(path)}): " + "; ".join(probs))
    else:
        L.append(f"All outputs agree with the float64 reference within {ARGS.tol:g} (normalised max error).")
    L.append("")
    return "\n".join(L)


if __name__ == "__main__":
    sys.exit(main())
