"""What the benchmark scripts share: timing, the library's packed entry with result buffers
allocated once, the CPU's name, and running one case in a child process with a timeout."""
import json
import os
import platform
import subprocess
import sys
import time

import numpy as np

import strata


def timeit(f, n_min=5, seconds=1.5):
    f()
    ts = []
    t0 = time.perf_counter()
    while len(ts) < n_min or time.perf_counter() - t0 < seconds:
        a = time.perf_counter()
        f()
        ts.append(time.perf_counter() - a)
    return float(np.median(ts))


def packed_call(function, leaves, b=None):
    """The library's packed entry on `leaves` with result buffers allocated once; `b` first for a
    function of a dimension variable (its results shaped for that b: "b", "2*b")."""
    import ctypes
    args = [np.ascontiguousarray(a) for a in leaves]

    def size(d):
        if not isinstance(d, str):
            return d
        times, _ = strata._term(d)
        return times * b
    outs = [np.zeros(tuple(size(d) for d in r["shape"]), strata._dtype(r["element_type"]))
            for r in function.results]
    buffers = (ctypes.c_void_p * (len(args) + len(outs)))(*[a.ctypes.data for a in args + outs])
    dims = (ctypes.c_int64 * 1)(b) if b is not None else None

    def call():
        status = function._packed(buffers) if dims is None else function._packed(dims, buffers)
        if status != 0:
            raise strata.Error(function._library.last_error())
    call.outs = outs
    call.keep = (args, dims, buffers)  # the buffers' memory lives as long as the call
    return call


def cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


# A benchmark case gets this long (seconds) in a process of its own: XLA:CPU itself once hung in
# `linalg` (its Python thread waiting in BlockUntilReady, its workers idle), and a hang inside a
# native call cannot be interrupted from Python; the run goes on with the next pattern.
TIMEOUT_S = float(os.environ.get("STRATA_BENCH_TIMEOUT", "600"))


def print_row(row):
    """What a child started by `run_isolated` prints: its row, as `ROW <json>`."""
    print("ROW " + json.dumps(row), flush=True)


def run_isolated(script, name):
    """`script --one name` in a child process with a timeout: the row it prints as `ROW <json>`,
    or None when it timed out or failed (said on stdout)."""
    try:
        done = subprocess.run([sys.executable, script, "--one", name],
                              stdout=subprocess.PIPE, text=True, timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        print(f"{name:12s} timed out after {TIMEOUT_S:.0f} s", flush=True)
        return None
    rows = [line[4:] for line in done.stdout.splitlines() if line.startswith("ROW ")]
    if done.returncode != 0 or not rows:
        print(f"{name:12s} failed (exit status {done.returncode})", flush=True)
        return None
    return json.loads(rows[-1])
