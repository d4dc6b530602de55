#!/usr/bin/env python3
"""One library for every batch size against a library per size: Strata's speed cost of compiling a
shape-polymorphic export once (`jax.export.symbolic_shape("b, ...")` without `--dim`).

For each model (an MLP at MNIST sizes; a 2-layer pre-LN transformer with causal attention and tied
embeddings whose logits are flattened over the sequence, `reshape(-1, V)`; one decode step of that
transformer for a batch of sequences, KV caches of 256 positions updated at a position), the
symbolic export is
compiled once, and for each b the same function exported with that concrete batch is compiled on its
own. Both libraries are timed in this process on the same inputs, interleaved, through their packed
entries with result buffers allocated once (XLA:CPU's jitted call beside them for scale). b = 1, 7
and 64 are sizes the every-size library compiled; 13, 40 and 100 run as chunks or padded, as the
compiler's estimate of a call's cost beyond its rows decides (the weight-bound MLP pads 13 rows
to 16 in one call, the compute-bound transformer runs 8 + 5). The results are checked against XLA's.

Usage (a venv with jax, e.g. bench/setup.sh's):
  PYTHONPATH=tools/python python bench/every_size.py [NAME ...] [--no-write]
"""

import os
import sys
import time

import jax
import jax.numpy as jnp
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tools", "python"))
os.environ.setdefault("STRATA", os.path.join(HERE, "..", "target", "release", "strata"))

import strata  # noqa: E402
from harness import cpu_name, packed_call, timeit  # noqa: E402

rs = np.random.RandomState(0)
SIZES = (1, 7, 13, 40, 64, 100)
OPTIONS = ["--target-cpu", "host"]


def normal(*shape, scale=0.05):
    return (rs.standard_normal(shape) * scale).astype(np.float32)


def mlp(params, x):
    h = jax.nn.relu(x @ params["w1"] + params["b1"])
    h = jax.nn.relu(h @ params["w2"] + params["b2"])
    return jax.nn.log_softmax(h @ params["w3"] + params["b3"])


def mlp_params():
    return {"w1": normal(784, 512), "b1": normal(512), "w2": normal(512, 512), "b2": normal(512),
            "w3": normal(512, 10), "b3": normal(10)}


D, HEADS, T, V = 256, 4, 64, 1024


def layer_norm(x, g):
    mu = x.mean(-1, keepdims=True)
    return (x - mu) * jax.lax.rsqrt(((x - mu) ** 2).mean(-1, keepdims=True) + 1e-5) * g


def transformer(params, x):
    b, t, _ = x.shape
    causal = jnp.tril(jnp.ones((t, t), bool))
    for p in params["layers"]:
        h = layer_norm(x, p["g1"])
        q, k, v = ((h @ p[w]).reshape(b, t, HEADS, D // HEADS).transpose(0, 2, 1, 3)
                   for w in ("wq", "wk", "wv"))
        s = jnp.where(causal, q @ k.transpose(0, 1, 3, 2) / np.sqrt(D // HEADS), -1e9)
        a = (jax.nn.softmax(s, axis=-1) @ v).transpose(0, 2, 1, 3).reshape(b, t, D)
        x = x + a @ p["wo"]
        h = layer_norm(x, p["g2"])
        x = x + jax.nn.gelu(h @ p["w1"]) @ p["w2"]
    return (layer_norm(x, params["gf"]) @ params["emb"].T).reshape(-1, V)


def transformer_params():
    layer = lambda: {"g1": 1 + normal(D), "wq": normal(D, D), "wk": normal(D, D), "wv": normal(D, D),
                     "wo": normal(D, D), "g2": 1 + normal(D), "w1": normal(D, 4 * D), "w2": normal(4 * D, D)}
    return {"layers": [layer(), layer()], "gf": 1 + normal(D), "emb": normal(V, D)}


CACHE = 256


def decode(params, cache, x, pos):
    """One decode step of the transformer above for a batch of sequences: x (b, D) the new
    tokens' embeddings, cache (b, layers, 2, CACHE, D) the keys and values so far, pos the
    position written. Returns the next-token logits and the updated cache."""
    b = x.shape[0]
    visible = jnp.arange(CACHE) <= pos
    new_cache = []
    for i, p in enumerate(params["layers"]):
        h = layer_norm(x, p["g1"])
        q, k, v = (h @ p[w] for w in ("wq", "wk", "wv"))
        ks = jax.lax.dynamic_update_slice(cache[:, i, 0], k[:, None], (0, pos, 0))
        vs = jax.lax.dynamic_update_slice(cache[:, i, 1], v[:, None], (0, pos, 0))
        new_cache.append(jnp.stack([ks, vs], axis=1))
        heads = lambda a: a.reshape(b, -1, HEADS, D // HEADS)
        s = jnp.einsum("bhd,bthd->bht", q.reshape(b, HEADS, D // HEADS), heads(ks)) / np.sqrt(D // HEADS)
        a = jnp.einsum("bht,bthd->bhd", jax.nn.softmax(jnp.where(visible, s, -1e9), axis=-1), heads(vs))
        x = x + a.reshape(b, D) @ p["wo"]
        x = x + jax.nn.gelu(layer_norm(x, p["g2"]) @ p["w1"]) @ p["w2"]
    return layer_norm(x, params["gf"]) @ params["emb"].T, jnp.stack(new_cache, axis=1)


def decode_inputs(b):
    return [normal(b, 2, 2, CACHE, D, scale=1.0), normal(b, D, scale=1.0), np.int32(CACHE // 2)]


MODELS = {
    "mlp": (mlp, mlp_params, (784,)),
    "transformer": (transformer, transformer_params, (T, D)),
    "decode": (decode, transformer_params, None),
}


def spec(a):
    return jax.ShapeDtypeStruct(np.shape(a), np.asarray(a).dtype)


def main():
    write = "--no-write" not in sys.argv
    rows = []
    names = [a for a in sys.argv[1:] if not a.startswith("--")] or list(MODELS)
    for name in names:
        fn, make_params, row_shape = MODELS[name]
        params = make_params()
        leaves = jax.tree_util.tree_leaves(params)
        (bv,) = jax.export.symbolic_shape("b")
        inputs = (lambda b: [normal(b, *row_shape, scale=1.0)]) if row_shape else decode_inputs
        batched = lambda a, b: jax.ShapeDtypeStruct((b, *np.shape(a)[1:]), np.asarray(a).dtype) \
            if np.ndim(a) else spec(a)
        t0 = time.perf_counter()
        every = strata.compile(fn, jax.tree_util.tree_map(spec, params),
                               *[batched(a, bv) for a in inputs(1)], options=OPTIONS)
        every_s = time.perf_counter() - t0
        jf = jax.jit(fn)
        for b in SIZES:
            xs = inputs(b)
            t0 = time.perf_counter()
            static = strata.compile(fn, jax.tree_util.tree_map(spec, params), *map(spec, xs), options=OPTIONS)
            static_s = time.perf_counter() - t0
            want = np.asarray(jax.tree_util.tree_leaves(jf(params, *xs))[0])
            call_every = packed_call(every.main, leaves + xs, b)
            call_static = packed_call(static.main, leaves + xs)
            call_every()
            call_static()
            err = max(float(np.abs(c.outs[0] - want).max() / np.abs(want).max())
                      for c in (call_every, call_static))
            dev = jax.device_put((params, *xs))
            times = {"every": [], "static": [], "xla": []}
            for _ in range(3):  # interleaved rounds
                times["every"].append(timeit(call_every, seconds=0.5))
                times["static"].append(timeit(call_static, seconds=0.5))
                times["xla"].append(timeit(lambda: jax.block_until_ready(jf(*dev)), seconds=0.5))
            te, ts, tx = (float(np.median(times[k])) for k in ("every", "static", "xla"))
            rows.append((name, b, te, ts, tx, err, every_s, static_s))
            print(f"{name:12s} b={b:4d}  every-size {te * 1e3:8.3f} ms  static {ts * 1e3:8.3f} ms  "
                  f"ratio {te / ts:5.2f}  xla {tx * 1e3:8.3f} ms  err {err:.1e}", flush=True)
    if write:
        cpu = f"{cpu_name()}, {os.cpu_count()} CPUs, all threads"
        with open(os.path.join(HERE, "results-every-size.md"), "w") as f:
            f.write(f"# One library for every batch size vs a library per size (jax {jax.__version__})\n\n"
                    f"CPU: {cpu}. Written by bench/every_size.py (see its docstring). Every-size/static > 1: "
                    "the every-size library is slower. b = 1, 7, 64 are compiled sizes; 13, 40 and 100 run "
                    "as chunks (or padded).\n\n"
                    "| model | b | every-size ms | static ms | every-size/static | XLA ms | max rel. err vs XLA "
                    "| compile s (every-size / static) |\n|---|---|---|---|---|---|---|---|\n")
            for name, b, te, ts, tx, err, ce, cs in rows:
                f.write(f"| {name} | {b} | {te * 1e3:.3f} | {ts * 1e3:.3f} | **{te / ts:.2f}x** | "
                        f"{tx * 1e3:.3f} | {err:.1e} | {ce:.1f} / {cs:.1f} |\n")


if __name__ == "__main__":
    main()
