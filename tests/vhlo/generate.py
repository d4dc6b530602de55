#!/usr/bin/env python3
"""Generates the VHLO / JAX-export test artifacts for `strata-vhlo-import`.

Run with a Python that has jax (0.10.x) and flatbuffers installed:

    python tests/vhlo/generate.py

For each model NAME this writes, into this directory:
  NAME.jaxexp           `jax.export.Exported.serialize()` (flatbuffer)
  NAME.mlir             `exp.mlir_module()` (the StableHLO text JAX prints)
  NAME.generic.mlir     the same module in MLIR's generic op form (the
                        tests compare operation names against it)
  NAME.vX_Y_Z.vhlo      the portable artifact (MLIR bytecode of VHLO ops),
                        re-serialized from NAME.mlir at StableHLO version X.Y.Z

Versions: 0.9.0 (the minimum StableHLO supports reading; MLIR bytecode
version 0, attributes in the op's dictionary), 0.14.0 (bytecode 4, before
properties), 1.5.0 (a mid version: bytecode 6, properties, before the
dot_general algorithm and the batching dims of gather/scatter were added
to the printed form) and the current version of the installed jaxlib
(1.17.0 for jaxlib 0.10.2). A model that cannot be written at one of them
is an error: the tests read every model at every version.
"""

import os
import sys

import numpy as np
import jax
import jax.numpy as jnp
from jax import export, lax
from jaxlib.mlir import ir
from jaxlib.mlir.dialects import stablehlo
from jax._src.interpreters import mlir as jax_mlir

HERE = os.path.dirname(os.path.abspath(__file__))
VERSIONS = ["0.9.0", "0.14.0", "1.5.0", stablehlo.get_current_version()]


def mlp():
    def f(params, x):
        h = jnp.tanh(x @ params["w1"] + params["b1"])
        return jax.nn.softmax(h @ params["w2"] + params["b2"])

    p = {"w1": jnp.ones((4, 8)), "b1": jnp.zeros(8), "w2": jnp.ones((8, 3)), "b2": jnp.zeros(3)}
    return f, (p, jnp.ones((2, 4)))


def transformer():
    d, t = 8, 4

    def layer_norm(x, g, b):
        m = x.mean(-1, keepdims=True)
        v = ((x - m) ** 2).mean(-1, keepdims=True)
        return (x - m) * lax.rsqrt(v + 1e-5) * g + b

    def block(p, x, mask):
        h = layer_norm(x, p["ln1_g"], p["ln1_b"])
        q, k, v = h @ p["wq"], h @ p["wk"], h @ p["wv"]
        s = jnp.einsum("btd,bsd->bts", q, k) / np.sqrt(d)
        s = jnp.where(mask, s, -1e9)
        a = jnp.einsum("bts,bsd->btd", jax.nn.softmax(s, axis=-1), v)
        x = x + a @ p["wo"]
        h = layer_norm(x, p["ln2_g"], p["ln2_b"])
        return x + jax.nn.gelu(h @ p["w1"]) @ p["w2"]

    p = {n: jnp.full((d, d), 0.1) for n in ["wq", "wk", "wv", "wo"]}
    p.update(w1=jnp.full((d, 2 * d), 0.1), w2=jnp.full((2 * d, d), 0.1))
    p.update(ln1_g=jnp.ones(d), ln1_b=jnp.zeros(d), ln2_g=jnp.ones(d), ln2_b=jnp.zeros(d))
    mask = jnp.tril(jnp.ones((t, t), dtype=bool))[None]
    return block, (p, jnp.ones((2, t, d)), mask)


def convnet():
    def f(p, x):
        y = lax.conv_general_dilated(x, p["k"], (1, 1), "SAME",
                                     dimension_numbers=("NHWC", "HWIO", "NHWC"))
        mean = y.mean((0, 1, 2))
        var = y.var((0, 1, 2))
        y = (y - mean) * lax.rsqrt(var + 1e-5) * p["scale"] + p["bias"]
        y = jax.nn.relu(y)
        return lax.reduce_window(y, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")

    p = {"k": jnp.ones((3, 3, 2, 4)), "scale": jnp.ones(4), "bias": jnp.zeros(4)}
    return f, (p, jnp.ones((1, 8, 8, 2)))


def fori_loop():
    def f(x, n):
        return lax.fori_loop(0, n, lambda i, c: c * 2.0 + i, x)

    return f, (jnp.ones(3), jnp.int32(5))


def while_loop():
    def f(x):
        return lax.while_loop(lambda c: c[0] < 10, lambda c: (c[0] + 1, c[1] * 1.5), (0, x))

    return f, (jnp.ones(4),)


def cond():
    def f(p, x):
        return lax.cond(p, lambda v: jnp.sin(v), lambda v: jnp.cos(v) * 2.0, x)

    return f, (True, jnp.ones(3))


def sort():
    def f(x, y):
        a = jnp.sort(x)
        k, v = lax.sort((x, y), num_keys=1)
        return a, k, v, jnp.argsort(x)

    return f, (jnp.array([3.0, 1.0, 2.0]), jnp.array([1, 2, 3], dtype=jnp.int32))


def scatter_gather():
    def f(x, idx, upd):
        g = x[idx]
        s = x.at[idx].add(upd)
        return g, s, jnp.take_along_axis(x, idx[:, None], axis=0)

    return f, (jnp.arange(12.0).reshape(6, 2), jnp.array([0, 2, 5]), jnp.ones((3, 2)))


def reduce_window():
    def f(x):
        s = lax.reduce_window(x, 0.0, lax.add, (2, 2), (1, 1), ((1, 0), (0, 1)))
        m = lax.reduce_window(x, -jnp.inf, lax.max, (3, 3), (2, 2), "SAME")
        return s, m, jnp.cumsum(x, axis=1)

    return f, (jnp.ones((6, 6)),)


def batched_dot():
    def f(a, b):
        return lax.dot_general(a, b, (((2,), (1,)), ((0,), (0,))),
                               precision=lax.Precision.HIGHEST)

    return f, (jnp.ones((2, 3, 4)), jnp.ones((2, 4, 5)))


def complex_numbers():
    def f(z, x):
        w = z * jnp.conj(z) + jnp.exp(z)
        return w, jnp.real(w) + jnp.imag(w) + jnp.abs(z), jnp.fft.fft(x), x.astype(jnp.complex64)

    return f, (jnp.array([1 + 2j, 3 - 1j], dtype=jnp.complex64), jnp.ones(8))


def low_precision():
    def f(a, b):
        c = a.astype(jnp.float16) * b.astype(jnp.float16)
        return (a @ a.T).astype(jnp.float32), c, (c.astype(jnp.bfloat16) + a).max()

    return f, (jnp.ones((3, 3), dtype=jnp.bfloat16), jnp.full((3, 3), 0.5, dtype=jnp.float16))


def int_types():
    def f(b, u, i):
        c = jnp.logical_and(b, u > 3)
        s = (u << 2) ^ (u >> 1)
        return c, jnp.where(c, s, u), i.astype(jnp.uint8), jnp.count_nonzero(b), ~b

    return f, (jnp.array([True, False, True, True]), jnp.arange(4, dtype=jnp.uint32),
               jnp.array([-1, 2, 300, 4], dtype=jnp.int16))


def shape_poly():
    def f(x, w):
        return jnp.tanh(x @ w).sum(axis=0), x.shape[0] * jnp.ones(()), x.reshape(-1)

    b4 = export.symbolic_shape("b, 4")
    return f, (jax.ShapeDtypeStruct(b4, jnp.float32), jnp.ones((4, 3)))


MODELS = {
    "mlp": mlp,
    "transformer": transformer,
    "convnet": convnet,
    "fori_loop": fori_loop,
    "while_loop": while_loop,
    "cond": cond,
    "sort": sort,
    "scatter_gather": scatter_gather,
    "reduce_window": reduce_window,
    "batched_dot": batched_dot,
    "complex": complex_numbers,
    "low_precision": low_precision,
    "int_types": int_types,
    "shape_poly": shape_poly,
}


def export_model(name, make, platforms=None):
    f, args = make()
    kw = {"platforms": platforms} if platforms else {}
    return export.export(jax.jit(f), **kw)(*args)


def write(name, exp):
    text = exp.mlir_module()
    with open(os.path.join(HERE, name + ".mlir"), "w") as fh:
        fh.write(text)
    with jax_mlir.make_ir_context():
        generic = ir.Module.parse(text).operation.get_asm(print_generic_op_form=True)
    with open(os.path.join(HERE, name + ".generic.mlir"), "w") as fh:
        fh.write(generic)
    with open(os.path.join(HERE, name + ".jaxexp"), "wb") as fh:
        fh.write(exp.serialize())
    for v in VERSIONS:
        data = stablehlo.serialize_portable_artifact_str(text, v)
        with open(os.path.join(HERE, f"{name}.v{v.replace('.', '_')}.vhlo"), "wb") as fh:
            fh.write(data)


def main():
    jax.config.update("jax_enable_x64", False)
    for name, make in MODELS.items():
        write(name, export_model(name, make))
    write("multi_platform", export_model("multi_platform", mlp, ("cpu", "cuda")))
    print(f"wrote {len(MODELS) + 1} models", file=sys.stderr)


if __name__ == "__main__":
    main()
