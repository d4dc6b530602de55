# Writes narrow-floats.mlir: dots, convolutions, reductions and fused
# element-wise chains on f16, bf16 and f8 types, exported by JAX and checked
# against the values XLA:CPU computes for them. Run with a Python that has
# jax, numpy and ml_dtypes (bench/setup.sh makes one).
#
# What it pins down: narrow-float dots and convolutions accumulate in f32 and
# round once (checked within 3 ULP of XLA's narrow result: the summation
# order may differ); every f8 convert and f8 op rounds, fused or not (checked
# bit for bit).
import jax
import jax.numpy as jnp
import ml_dtypes
import numpy as np

import jaxgen

rs = np.random.RandomState(7)
bf16, f16 = jnp.bfloat16, jnp.float16
e4m3, e5m2 = ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e5m2


def uniform(*shape, dtype):
    return jnp.asarray(rs.uniform(0, 1, shape).astype(np.float32)).astype(dtype)


def normal(*shape, dtype=jnp.float32):
    return jnp.asarray(rs.randn(*shape).astype(np.float32)).astype(dtype)


a_bf, b_bf = uniform(4, 2048, dtype=bf16), uniform(2048, 4, dtype=bf16)
a_h, b_h = uniform(4, 2048, dtype=f16), uniform(2048, 4, dtype=f16)
batched_l, batched_r = uniform(2, 3, 1024, dtype=bf16), uniform(2, 1024, 5, dtype=bf16)
conv_x, conv_w = uniform(1, 3, 3, 512, dtype=bf16), uniform(3, 3, 512, 2, dtype=bf16)
conv_xh, conv_wh = uniform(1, 3, 3, 512, dtype=f16), uniform(3, 3, 512, 2, dtype=f16)
x32 = normal(64) * 10.0
y32 = normal(64) * 10.0
row_bf = uniform(3, 600, dtype=bf16)
long_bf = uniform(1, 3000, dtype=bf16)
col_bf = uniform(3000, 4, dtype=bf16)
grid_bf = uniform(8, 40, 50, dtype=bf16)
col_h = uniform(1000, 3, dtype=f16)
max_bf = normal(5, 100, dtype=bf16)

# (name, function, arguments, check): "close" = ULP distance <= 3, "almost" =
# |a - e| <= 0.01, "eq" = bit exact. The exported module closes over the
# arguments (constants); the expected values come from XLA:CPU running the
# function on them as arguments, since XLA would otherwise fold the constant
# program with its evaluator, which sums in another order than its compiled
# code. In bf16_chain XLA:CPU rounds the product and not the sum, whose
# convert to f32 cancels its rounding (xla-fold-bf16-convert says when).
cases = [
    ("dot_bf16", lambda a, b: a @ b, (a_bf, b_bf), "close"),
    ("dot_f16", lambda a, b: a @ b, (a_h, b_h), "close"),
    # An f32 result of a 2048-term sum depends on the summation order: compared within 0.01.
    ("dot_bf16_to_f32", lambda a, b: jnp.dot(a, b, preferred_element_type=jnp.float32), (a_bf, b_bf), "almost"),
    ("dot_bf16_batched", lambda a, b: jnp.einsum("bik,bkj->bij", a, b), (batched_l, batched_r), "close"),
    ("conv_bf16", lambda x, w: jax.lax.conv_general_dilated(x, w, (1, 1), "VALID",
                                                            dimension_numbers=("NHWC", "HWIO", "NHWC")),
     (conv_x, conv_w), "close"),
    ("conv_f16", lambda x, w: jax.lax.conv_general_dilated(x, w, (1, 1), "SAME",
                                                           dimension_numbers=("NHWC", "HWIO", "NHWC")),
     (conv_xh, conv_wh), "close"),
    ("sum_bf16", lambda x: jnp.sum(x, axis=1), (row_bf,), "close"),
    # A reducer working in bf16/f16 rounds at every step; XLA:CPU sums in a tree of
    # windows of 32 (xla-tree-reduce), which these reproduce bit for bit.
    ("reduce_bf16_rows", lambda x: jax.lax.reduce(x, bf16(0), jax.lax.add, (1,)), (row_bf,), "eq"),
    ("reduce_bf16_3000", lambda x: jax.lax.reduce(x, bf16(0), jax.lax.add, (1,)), (long_bf,), "eq"),
    ("reduce_bf16_columns", lambda x: jax.lax.reduce(x, bf16(0), jax.lax.add, (0,)), (col_bf,), "eq"),
    ("reduce_bf16_two_dims", lambda x: jax.lax.reduce(x, bf16(0), jax.lax.add, (1, 2)), (grid_bf,), "eq"),
    ("reduce_f16_columns", lambda x: jax.lax.reduce(x, f16(0), jax.lax.add, (0,)), (col_h,), "eq"),
    ("reduce_bf16_max", lambda x: jax.lax.reduce(x, bf16(-jnp.inf), jax.lax.max, (1,)), (max_bf,), "eq"),
    ("f8e4m3_round_trip", lambda x: x.astype(e4m3).astype(jnp.float32), (x32,), "eq"),
    ("f8e5m2_round_trip", lambda x: x.astype(e5m2).astype(jnp.float32), (x32,), "eq"),
    ("f8e4m3_product", lambda x, y: (x.astype(e4m3) * y.astype(e4m3)).astype(jnp.float32), (x32, y32), "eq"),
    ("f8e5m2_chain", lambda x, y: ((x.astype(e5m2) * y.astype(e5m2) + x.astype(e5m2)) / y.astype(e5m2)).astype(jnp.float32),
     (x32, y32), "eq"),
    ("f8_between_formats", lambda x: x.astype(e5m2).astype(e4m3).astype(jnp.float32), (x32,), "eq"),
    ("bf16_chain", lambda x, y: ((x.astype(bf16) * y.astype(bf16)) + x.astype(bf16)).astype(np.float32), (x32, y32),
     "eq"),
]


def expected(f, args, kind):
    return kind, np.asarray(jax.jit(f)(*args))


checks = {
    "eq": jaxgen.expect_eq,
    "almost": lambda out: jaxgen.expect_almost_eq(out, 1e-2),
    "close": lambda out: jaxgen.expect_close(out, 3),
}
pieces = []
for name, f, args, kind in cases:
    kind, out = expected(f, args, kind)
    pieces.append(jaxgen.piece(name, f, args, checks[kind](out)))
jaxgen.write("narrow-floats.mlir", pieces, """Generated by gen_narrow_floats.py: narrow-float programs exported by JAX, checked
against XLA:CPU's results (dots/convolutions within 3 ULP, f8 chains bit for bit).""")
