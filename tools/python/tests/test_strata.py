"""The Python package end to end: a JAX model of a params dict compiled with
strata.compile, called with keyword arguments (buffer names and JAX paths)
and positionally, against XLA:CPU's results; bad calls raise. Run with a
Python that has jax and numpy, with $STRATA the driver and this package on
PYTHONPATH. Prints "python package: all checks passed"."""

import sys

import jax
import jax.numpy as jnp
import numpy as np

import strata

rs = np.random.RandomState(7)
D, T = 16, 8


def block(params, x):
    h = x @ params["attn"]["wqkv"]
    q, k, v = jnp.split(h, 3, axis=-1)
    s = jax.nn.softmax(q @ k.transpose(0, 2, 1) / 4.0, axis=-1)
    y = x + (s @ v) @ params["attn"]["wo"]
    m = y.mean(-1, keepdims=True)
    y = (y - m) / jnp.sqrt(((y - m) ** 2).mean(-1, keepdims=True) + 1e-5) * params["ln"]["g"]
    return {"y": y, "aux": {"attention_sum": s.sum()}}


params = {"attn": {"wqkv": rs.randn(D, 3 * D).astype(np.float32) / 4,
                   "wo": rs.randn(D, D).astype(np.float32) / 4},
          "ln": {"g": np.ones(D, np.float32)}}
x = rs.randn(2, T, D).astype(np.float32)
want = jax.jit(block)(params, x)

lib = strata.compile(block, params, x)
f = lib.main
names = [a["name"] for a in f.arguments]
assert names == ["params_attn_wo", "params_attn_wqkv", "params_ln_g", "x"], names
assert f.result_names == ["result_aux_attention_sum", "result_y"], f.result_names

got = f(params_attn_wo=params["attn"]["wo"], params_attn_wqkv=params["attn"]["wqkv"],
        params_ln_g=params["ln"]["g"], x=x)
np.testing.assert_allclose(got[0], want["aux"]["attention_sum"], rtol=1e-5)
np.testing.assert_allclose(got[1], want["y"], rtol=1e-4, atol=1e-5)

# By JAX path, and positionally: the same results.
by_path = f(**{"params['attn']['wo']": params["attn"]["wo"], "params['attn']['wqkv']": params["attn"]["wqkv"],
               "params['ln']['g']": params["ln"]["g"], "x": x})
positional = f(params["attn"]["wo"], params["attn"]["wqkv"], params["ln"]["g"], x)
for a, b in zip(by_path, positional):
    np.testing.assert_array_equal(a, b)

# The library loaded again from its file: the signature it carries.
again = strata.load(lib.path)
assert again.signature == lib.signature
np.testing.assert_array_equal(
    again.main(params["attn"]["wo"], params["attn"]["wqkv"], params["ln"]["g"], x)[1], got[1])

for bad, error in [
    (lambda: f(params["attn"]["wo"], params["attn"]["wqkv"], params["ln"]["g"], x[:1]), ValueError),
    (lambda: f(params["attn"]["wo"], params["attn"]["wqkv"], params["ln"]["g"], x.astype(np.float64)), TypeError),
    (lambda: f(params["attn"]["wo"]), TypeError),
    (lambda: f(*[params["attn"]["wo"]] * 4, x=x), TypeError),
    (lambda: f(nope=x), TypeError),
]:
    try:
        bad()
    except error:
        continue
    sys.exit(f"a bad call did not raise {error.__name__}")
# A shape-polymorphic export compiled for every batch size: one library,
# the batch taken from the argument's shape.
w = rs.randn(D, 4).astype(np.float32)
poly = jax.ShapeDtypeStruct(jax.export.symbolic_shape("b, 16"), jnp.float32)
dense = lambda x, w: jnp.tanh(x @ w)
any_batch = strata.compile(dense, poly, w)
assert any_batch.main.dimension_variables == ["b"], any_batch.main.signature
for b in (1, 7, 64, 100):
    xb = rs.randn(b, D).astype(np.float32)
    np.testing.assert_allclose(any_batch.main(xb, w), jax.jit(dense)(xb, w), rtol=1e-5, atol=1e-6)
try:
    any_batch.main(np.zeros((0, D), np.float32), w)
    sys.exit("b = 0 did not raise")
except strata.Error as e:
    assert "dimension variable 'b'" in str(e), e
# Batch dimensions that are multiples of b: an argument declared 2*b (pairs of rows) and a
# result flattened over them.
pairs_spec = jax.ShapeDtypeStruct(jax.export.symbolic_shape("2*b, 16"), jnp.float32)
pairs = lambda x, w: (x @ w).reshape(-1, 2, 4).sum(axis=1).reshape(-1)
by_pairs = strata.compile(pairs, pairs_spec, w)
assert [a["shape"] for a in by_pairs.main.arguments] == [["2*b", 16], [16, 4]], by_pairs.main.signature
for b in (1, 7, 64, 100):
    xb = rs.randn(2 * b, D).astype(np.float32)
    np.testing.assert_allclose(by_pairs.main(xb, w), jax.jit(pairs)(xb, w), rtol=1e-5, atol=1e-6)
try:
    by_pairs.main(np.zeros((3, D), np.float32), w)
    sys.exit("an odd number of rows did not raise")
except ValueError as e:
    assert "2*b" in str(e), e
# Narrow types in and out: ml_dtypes' arrays (a byte per element, as in the C ABI).
import ml_dtypes  # noqa: E402

w4 = rs.randint(-8, 8, (D, 4)).astype(ml_dtypes.int4)
e4m3 = rs.randn(3, D).astype(ml_dtypes.float8_e4m3fn)
narrow = lambda a, w: (a.astype(jnp.float32) @ w.astype(jnp.float32)).astype(ml_dtypes.float8_e5m2)
narrow_lib = strata.compile(narrow, e4m3, w4)
got = narrow_lib.main(e4m3, w4)
assert got.dtype == ml_dtypes.float8_e5m2, got.dtype
np.testing.assert_array_equal(got.astype(np.float32), np.asarray(jax.jit(narrow)(e4m3, w4)).astype(np.float32))
print("python package: all checks passed")
