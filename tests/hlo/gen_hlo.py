#!/usr/bin/env python3
"""Writes the HLO test inputs of tests/hlo/: for each case, NAME.hlo (JAX's
HLO text of a jitted function, as `jax.jit(f).lower(*args).as_text(dialect="hlo")`
prints it) and NAME.json with the inputs and the expected outputs, computed
with numpy (not JAX) so the two sides are independent.

NAME.json holds:
  "inputs":  one MLIR literal per argument, as `strata run --input` takes it
  "input_types", "output_types": MLIR tensor types of @main's signature
  "outputs": expected values as nested lists ("nan", "inf", "-inf" for
             non-finite floats, [re, im] for complex elements)
  "tolerance": absolute tolerance for float results (0: exact)

Every case returns row-major results: JAX writes a transpose (or a LAPACK
custom call) whose value reaches the entry's result, even through
element-wise ops, with a column-major entry layout (`f32[3,4]{0,1}`), which
the importer rejects, since the C ABI is row-major.

Run with a Python that has jax and numpy:  python3 tests/hlo/gen_hlo.py
"""

import json
import pathlib

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

OUT = pathlib.Path(__file__).resolve().parent
RNG = np.random.default_rng(20261123)

MLIR_ELEM = {
    np.dtype("float32"): "f32",
    np.dtype("float64"): "f64",
    np.dtype("int32"): "i32",
    np.dtype("int8"): "i8",
    np.dtype("uint8"): "ui8",
    np.dtype("uint32"): "ui32",
    np.dtype("bool"): "i1",
    np.dtype("complex64"): "complex<f32>",
}


def mlir_type(a):
    a = np.asarray(a)
    dims = "".join(f"{d}x" for d in a.shape)
    return f"tensor<{dims}{MLIR_ELEM[a.dtype]}>"


def scalar_text(x):
    if isinstance(x, (bool, np.bool_)):
        return "true" if x else "false"
    if isinstance(x, (complex, np.complexfloating)):
        return f"({scalar_text(x.real)}, {scalar_text(x.imag)})"
    if isinstance(x, (float, np.floating)):
        if np.isnan(x):
            return "0x7FC00000"
        if np.isinf(x):
            return "0x7F800000" if x > 0 else "0xFF800000"
        return repr(float(x))
    return str(int(x))


def literal(a):
    """An MLIR dense literal body, as `strata run --input` reads it."""
    a = np.asarray(a)
    if a.ndim == 0:
        return scalar_text(a[()])
    return "[" + ", ".join(literal(x) for x in a) + "]"


def json_value(a):
    a = np.asarray(a)
    if a.ndim > 0:
        return [json_value(x) for x in a]
    x = a[()]
    if isinstance(x, np.complexfloating):
        return [json_value(np.float32(x.real)), json_value(np.float32(x.imag))]
    if isinstance(x, np.floating):
        if np.isnan(x):
            return "nan"
        if np.isinf(x):
            return "inf" if x > 0 else "-inf"
        return float(x)
    if isinstance(x, np.bool_):
        return bool(x)
    return int(x)


def case(name, f, reference, *args, tolerance=1e-5, optimized=False):
    """Writes NAME.hlo and NAME.json; with `optimized`, also XLA:CPU's
    optimized HLO of the same program (fusions, debug tables) as
    NAME_optimized.hlo with its own copy of the json."""
    lowered = jax.jit(f).lower(*args)
    expected = reference(*[np.asarray(a) for a in args])
    if not isinstance(expected, tuple):
        expected = (expected,)
    texts = {name: lowered.as_text(dialect="hlo")}
    if optimized:
        texts[f"{name}_optimized"] = lowered.compile().as_text()
    data = {
        "inputs": [literal(a) for a in args],
        "input_types": [mlir_type(a) for a in args],
        "output_types": [mlir_type(e) for e in expected],
        "outputs": [json_value(e) for e in expected],
        "tolerance": tolerance,
    }
    for file_name, hlo in texts.items():
        (OUT / f"{file_name}.hlo").write_text(hlo)
        (OUT / f"{file_name}.json").write_text(json.dumps(data, indent=1) + "\n")


def f32(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


def sliding_max(a, size):
    rows, cols = a.shape[0] - size[0] + 1, a.shape[1] - size[1] + 1
    return np.array(
        [[a[i : i + size[0], j : j + size[1]].max() for j in range(cols)] for i in range(rows)],
        dtype=a.dtype,
    )


def halve_and_add_loop(a):
    for i in range(5):
        a = a * np.float32(0.5) + np.float32(i)
    return a


def scan_reference(x):
    carry, ys = np.float32(0), []
    for v in x:
        ys.append(carry * v)
        carry = carry + v
    return np.float32(carry), np.array(ys, np.float32)


def conv2d_nchw_same(x, w):
    n, c, h, wd = x.shape
    o, _, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (kh // 2, kh // 2), (kw // 2, kw // 2)))
    out = np.zeros((n, o, h, wd), np.float32)
    for i in range(h):
        for j in range(wd):
            patch = xp[:, :, i : i + kh, j : j + kw]
            out[:, :, i, j] = np.einsum("nchw,ochw->no", patch, w)
    return out


def main():
    x43, y43 = f32(4, 3), f32(4, 3)
    case("elementwise", lambda a, b: (jnp.tanh(a) + b * 2.0, jnp.maximum(a, b), a / (jnp.abs(b) + 1)),
         lambda a, b: (np.tanh(a) + b * 2, np.maximum(a, b), a / (np.abs(b) + 1)), x43, y43)
    case("unary_math", lambda a: (jnp.exp(a), jnp.log1p(jnp.abs(a)), jnp.sqrt(jnp.abs(a)), jnp.floor(a), jnp.sign(a), lax.logistic(a)),
         lambda a: (np.exp(a), np.log1p(np.abs(a)), np.sqrt(np.abs(a)), np.floor(a), np.sign(a), 1 / (1 + np.exp(-a))), x43)
    case("reduce_sum", lambda a: a.sum(axis=0), lambda a: a.sum(axis=0), x43)
    case("reduce_max_min", lambda a: (a.max(axis=1), a.min()), lambda a: (a.max(axis=1), a.min()), x43)
    case("argmax", lambda a: jnp.argmax(a, axis=1).astype(jnp.int32), lambda a: np.argmax(a, axis=1).astype(np.int32), x43, tolerance=0)
    case("dot", lambda a, b: a @ b.T, lambda a, b: a @ b.T, x43, y43, tolerance=1e-4)
    a234, b245 = f32(2, 3, 4), f32(2, 4, 5)
    case("dot_batched", lambda a, b: jnp.einsum("bij,bjk->bik", a, b), lambda a, b: np.einsum("bij,bjk->bik", a, b), a234, b245, tolerance=1e-4)
    case("while_loop", lambda a: lax.fori_loop(0, 5, lambda i, c: c * 0.5 + i, a), halve_and_add_loop, x43)
    case("cond", lambda p, a: lax.cond(p > 0, lambda a: a + 1, lambda a: a * 2, a),
         lambda p, a: a + 1 if p > 0 else a * 2, np.float32(-1.5), x43)
    case("switch", lambda i, a: lax.switch(i, [lambda a: a + 1, lambda a: a * 2, lambda a: -a], a),
         lambda i, a: [a + 1, a * 2, -a][min(max(int(i), 0), 2)], np.int32(2), x43)
    case("sort", lambda a: jnp.sort(a, axis=0), lambda a: np.sort(a, axis=0), x43, tolerance=0)
    case("argsort", lambda a: jnp.argsort(a, axis=1).astype(jnp.int32),
         lambda a: np.argsort(a, axis=1, kind="stable").astype(np.int32), x43, tolerance=0)
    idx = np.array([3, 0, 2], np.int32)
    case("gather", lambda a, i: a[i], lambda a, i: a[i], x43, idx, tolerance=0)
    case("scatter_add", lambda a, i: a.at[i].add(1.0),
         lambda a, i: (lambda r: (np.add.at(r, i, 1.0), r)[1])(a.copy()), x43, np.array([0, 2, 0], np.int32))
    case("slicing", lambda a: (jnp.concatenate([a, a[::-1]], 0), jnp.pad(a, ((0, 1), (2, 2))), a[1:3, ::2], a.reshape(3, 4)),
         lambda a: (np.concatenate([a, a[::-1]], 0), np.pad(a, ((0, 1), (2, 2))), a[1:3, ::2], a.reshape(3, 4)), x43, tolerance=0)
    # A transpose consumed inside (its {0,1} layout is internal, so ignored).
    case("transpose", lambda a: jnp.transpose(a).sum(axis=1), lambda a: a.T.sum(axis=1), x43)
    case("dynamic_slice", lambda a, i: (lax.dynamic_slice(a, (i, 0), (2, 2)), lax.dynamic_update_slice(a, jnp.zeros((1, 2), jnp.float32), (i, 1))),
         lambda a, i: (a[i : i + 2, 0:2], (lambda r: (r.__setitem__((slice(i, i + 1), slice(1, 3)), 0), r)[1])(a.copy())),
         x43, np.int32(1), tolerance=0)
    case("cumsum", lambda a: jnp.cumsum(a, axis=0), lambda a: np.cumsum(a, axis=0), x43)
    case("max_pool", lambda a: lax.reduce_window(a, -jnp.inf, lax.max, (2, 2), (1, 1), "VALID"),
         lambda a: sliding_max(a, (2, 2)), x43, tolerance=0)
    x = f32(1, 2, 5, 5)
    w = f32(3, 2, 3, 3)
    case("conv2d", lambda a, k: lax.conv_general_dilated(a, k, (1, 1), "SAME"), conv2d_nchw_same, x, w, tolerance=1e-4)
    case("constants", lambda a: (a + jnp.array([[1.0, 2.0, 3.0]]), jnp.array([True, False]), jnp.array([jnp.nan, jnp.inf, -jnp.inf]), jnp.int32(7)),
         lambda a: (a + np.array([[1.0, 2.0, 3.0]], np.float32), np.array([True, False]), np.array([np.nan, np.inf, -np.inf], np.float32), np.int32(7)),
         x43)
    case("compare_select", lambda a, b: (jnp.where(a > b, a, b), a == b, jnp.clip(a, -0.5, 0.5)),
         lambda a, b: (np.where(a > b, a, b), a == b, np.clip(a, -0.5, 0.5)), x43, y43, tolerance=0)
    ints = RNG.integers(-100, 100, (4, 3)).astype(np.int32)
    case("integer_ops", lambda a: (a // 7, a % 7, a << 2, a >> 1, a & 12, ~a, jnp.abs(a)),
         lambda a: (a // 7, a % 7, a << 2, a >> 1, a & 12, ~a, np.abs(a)), ints, tolerance=0)
    case("convert", lambda a: (a.astype(jnp.int32), a.astype(jnp.uint8), (a > 0).astype(jnp.float32), lax.bitcast_convert_type(a, jnp.int32)),
         lambda a: (a.astype(np.int32), a.astype(np.uint8), (a > 0).astype(np.float32), a.view(np.int32)),
         np.abs(x43) * 10, tolerance=0)
    case("complex", lambda a, b: (lax.complex(a, b), jnp.abs(lax.complex(a, b))),
         lambda a, b: ((a + 1j * b).astype(np.complex64), np.abs(a + 1j * b).astype(np.float32)), x43, y43)
    case("iota_broadcast", lambda a: jnp.arange(12, dtype=jnp.float32).reshape(4, 3) + a[0],
         lambda a: np.arange(12, dtype=np.float32).reshape(4, 3) + a[0], x43)
    case("call", lambda a: jax.jit(lambda b: b * 3)(a) + 1, lambda a: a * 3 + 1, x43)
    case("softmax", lambda a: jax.nn.softmax(a, axis=-1),
         lambda a: np.exp(a - a.max(-1, keepdims=True)) / np.exp(a - a.max(-1, keepdims=True)).sum(-1, keepdims=True), x43,
         optimized=True)
    case("top_k", lambda a: lax.top_k(a, 2), lambda a: (-np.sort(-a, axis=-1)[:, :2], np.argsort(-a, axis=-1, kind="stable")[:, :2].astype(np.int32)), f32(3, 5), tolerance=0)
    case("scan", lambda x: lax.scan(lambda c, v: (c + v, c * v), np.float32(0), x), scan_reference, f32(6))
    case("bool_cond", lambda p, a: lax.cond(p, lambda a: a + 1, lambda a: a - 1, a), lambda p, a: a + 1 if p else a - 1, np.bool_(True), x43)
    case("binary_math", lambda a, b: (a ** 2, jnp.arctan2(a, b), jnp.fmod(a, b), jnp.minimum(a, b)),
         lambda a, b: (a ** 2, np.arctan2(a, b), np.fmod(a, b), np.minimum(a, b)), x43, y43)
    spd = (lambda m: (m @ m.T + 4 * np.eye(4)).astype(np.float32))(f32(4, 4))
    case("cholesky", lambda a: jnp.linalg.cholesky(a), np.linalg.cholesky, spd, tolerance=1e-4)
    case("mlp", lambda x, w1, w2: jnp.tanh(x @ w1) @ w2,
         lambda x, w1, w2: np.tanh(x @ w1) @ w2, f32(2, 4), f32(4, 8), f32(8, 3), tolerance=1e-4, optimized=True)


if __name__ == "__main__":
    main()
