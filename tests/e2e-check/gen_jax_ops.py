# Writes jax-ops.mlir: small programs exported by JAX (constants closed
# over, so each function takes no arguments), checked against the values
# XLA:CPU computes for them. Run with a Python that has jax and numpy.
import re
import jax
import jax.numpy as jnp
import numpy as np

rs = np.random.RandomState(0)
x = jnp.arange(20, dtype=jnp.float32).reshape(5, 4)
cases = {
    "take_rows": lambda: jnp.take(x, jnp.array([4, 0, 2]), axis=0),
    "embedding_sum": lambda: x[jnp.array([[1, 2], [3, 4]])].sum(-1),
    "segment_sum": lambda: jax.ops.segment_sum(jnp.arange(6.0), jnp.array([0, 0, 1, 2, 2, 2]), num_segments=3),
    "scatter_add": lambda: x.at[jnp.array([1, 1, 3])].add(1.0),
    "set_row": lambda: x.at[2].set(-1.0),
    "cross_entropy": lambda: -jnp.take_along_axis(jax.nn.log_softmax(jnp.asarray(rs.randn(4, 10), jnp.float32)),
                                                    jnp.array([[1], [0], [9], [3]]), axis=1).mean(),
    "layernorm": lambda: jax.nn.standardize(jnp.asarray(rs.randn(3, 8), jnp.float32), axis=-1),
    "argmax": lambda: jnp.argmax(jnp.asarray(rs.randn(4, 6), jnp.float32), axis=1),
    "one_hot": lambda: jax.nn.one_hot(jnp.array([0, 3, 1]), 4),
    "fori_loop": lambda: jax.lax.fori_loop(0, 5, lambda i, c: c * 1.5 + i, jnp.arange(3.0)),
    "while_fib": lambda: jax.lax.while_loop(lambda c: c[0] < 100, lambda c: (c[0] + c[1], c[0]), (1, 1)),
    "cond": lambda: jax.lax.cond(jnp.sum(x) > 3, lambda v: v * 2, lambda v: v - 1, x),
    "switch": lambda: [jax.lax.switch(i, [lambda v: v, lambda v: -v, lambda v: v * v], jnp.arange(3.0)) for i in (0, 1, 2, 7)],
    "scan_cumsum": lambda: jax.lax.scan(lambda c, v: (c + v, c + v), 0.0, jnp.arange(6.0))[1],
    "cumsum": lambda: jnp.cumsum(jnp.arange(6.0)),
    "max_pool": lambda: jax.lax.reduce_window(jnp.asarray(rs.randn(1, 6, 6, 2), jnp.float32), -jnp.inf, jax.lax.max,
                                              (1, 2, 2, 1), (1, 2, 2, 1), "VALID"),
    "avg_pool_same": lambda: jax.lax.reduce_window(jnp.asarray(rs.randn(1, 5, 5, 1), jnp.float32), 0.0, jax.lax.add,
                                                   (1, 3, 3, 1), (1, 1, 1, 1), "SAME"),
    "conv_same": lambda: jax.lax.conv_general_dilated(jnp.asarray(rs.randn(1, 5, 5, 2), jnp.float32),
                                                      jnp.asarray(rs.randn(3, 3, 2, 3), jnp.float32), (1, 1), "SAME",
                                                      dimension_numbers=("NHWC", "HWIO", "NHWC")),
    "conv_strided_grouped": lambda: jax.lax.conv_general_dilated(jnp.asarray(rs.randn(1, 4, 7, 7), jnp.float32),
                                                                 jnp.asarray(rs.randn(6, 2, 3, 3), jnp.float32), (2, 2),
                                                                 "VALID", feature_group_count=2),
    "sort": lambda: jnp.sort(jnp.asarray(rs.randn(3, 7), jnp.float32), axis=1),
    "argsort": lambda: jnp.argsort(jnp.asarray(rs.randn(9), jnp.float32), stable=True),
    "fft": lambda: jnp.fft.fft(jnp.asarray(rs.randn(8) + 1j * rs.randn(8), jnp.complex64)),
    "rfft2_irfft2": lambda: jnp.fft.irfft2(jnp.fft.rfft2(jnp.asarray(rs.randn(4, 6), jnp.float32)), s=(4, 6)),
    "max_pool_grad": lambda: jax.grad(lambda a: jnp.sum(jax.lax.reduce_window(a, -jnp.inf, jax.lax.max, (1, 3, 3, 1),
                                                                             (1, 2, 2, 1), "SAME") ** 2))(
        jnp.asarray(rs.randn(1, 5, 5, 2), jnp.float32)),
    "gelu_mlp": lambda: jax.nn.gelu(jnp.asarray(rs.randn(2, 3), jnp.float32) @ jnp.asarray(rs.randn(3, 5), jnp.float32)),
}

def literal(a):
    a = np.asarray(a)
    if a.dtype == np.bool_:
        fmt = lambda v: "true" if v else "false"
    elif np.issubdtype(a.dtype, np.integer):
        fmt = lambda v: str(int(v))
    elif np.issubdtype(a.dtype, np.complexfloating):
        fmt = lambda v: f"({float(v.real)!r}, {float(v.imag)!r})"
    else:
        fmt = lambda v: repr(float(v))
    def rec(v):
        return fmt(v) if v.ndim == 0 else "[" + ", ".join(rec(s) for s in v) + "]"
    return rec(a)

pieces = []
for name, f in cases.items():
    text = jax.jit(f).lower().as_text()
    body = text[text.index("func.func public @main"):]
    body = body[: body.rindex("}", 0, body.rindex("}"))] + "}"  # drop the module's closing brace
    body = body.replace("func.func public @main", f"func.func @check_{name}", 1)
    outs = jax.jit(f)()
    outs = outs if isinstance(outs, (tuple, list)) else [outs]
    ret = re.search(r"\n(\s*)return (.*) : (.*)\n", body)
    names = [n.strip() for n in ret.group(2).split(",")]
    types = [t.strip() for t in ret.group(3).split(", tensor")]
    types = [types[0]] + ["tensor" + t for t in types[1:]]
    checks = "".join(
        f"{ret.group(1)}check.expect_almost_eq_const {n}, dense<{literal(o)}> : {t}\n"
        for n, t, o in zip(names, types, outs)
    )
    body = body[: ret.start()] + "\n" + checks + body[ret.start() + 1 :]
    pieces.append(body.strip() + "\n")

head = (
    f"// RUN: strata check %s | FileCheck %s\n// CHECK: {{{{^}}}}{len(pieces)} passed, 0 failed{{{{$}}}}\n"
    "// Generated by gen_jax_ops.py: programs exported by JAX, checked against XLA:CPU's results.\n\n"
)
open("jax-ops.mlir", "w").write(head + "\n// -----\n\n".join(pieces))
