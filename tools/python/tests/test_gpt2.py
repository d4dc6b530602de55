"""GPT-2 small at its real size (124M parameters: 12 pre-LN blocks, d = 768, 12 heads, vocabulary
50257, tied embeddings, causal mask, tanh GELU) through the Python package: strata.compile of the
JAX function of a params pytree, called with all 149 weights and the tokens as keyword arguments by
their JAX paths (in an order unlike the signature's), against XLA:CPU. Run with a Python that has
jax and numpy, with $STRATA the driver and this package on PYTHONPATH. Prints
"gpt2 small: matches jax"."""

import math

import jax
import jax.numpy as jnp
import numpy as np

import strata

VOCAB, CTX, D, HEADS, LAYERS, T = 50257, 1024, 768, 12, 12, 32
rs = np.random.RandomState(11)


def normal(*shape, scale):
    return (rs.standard_normal(shape) * scale).astype(np.float32)


def dense_params(din, dout):
    return {"kernel": normal(din, dout, scale=0.02), "bias": normal(dout, scale=0.02)}


def ln_params():
    return {"scale": 1.0 + normal(D, scale=0.05), "bias": normal(D, scale=0.02)}


params = {
    "wte": normal(VOCAB, D, scale=0.02),
    "wpe": normal(CTX, D, scale=0.01),
    "h": [{"ln_1": ln_params(), "attn": dense_params(D, 3 * D), "proj": dense_params(D, D),
           "ln_2": ln_params(), "fc": dense_params(D, 4 * D), "out": dense_params(4 * D, D)}
          for _ in range(LAYERS)],
    "ln_f": ln_params(),
}
tokens = rs.randint(0, VOCAB, size=(1, T)).astype(np.int32)


def layer_norm(p, x):
    m = x.mean(-1, keepdims=True)
    v = ((x - m) ** 2).mean(-1, keepdims=True)
    return (x - m) / jnp.sqrt(v + 1e-5) * p["scale"] + p["bias"]


def heads(x):
    b, t, _ = x.shape
    return x.reshape(b, t, HEADS, D // HEADS).transpose(0, 2, 1, 3)


def gpt2(params, tokens):
    t = tokens.shape[1]
    x = params["wte"][tokens] + params["wpe"][:t]
    causal = jnp.tril(jnp.ones((t, t), bool))
    for p in params["h"]:
        q, k, v = jnp.split(layer_norm(p["ln_1"], x) @ p["attn"]["kernel"] + p["attn"]["bias"], 3, -1)
        s = heads(q) @ heads(k).transpose(0, 1, 3, 2) / math.sqrt(D // HEADS)
        a = jax.nn.softmax(jnp.where(causal, s, -1e9), -1) @ heads(v)
        a = a.transpose(0, 2, 1, 3).reshape(x.shape)
        x = x + a @ p["proj"]["kernel"] + p["proj"]["bias"]
        h = jax.nn.gelu(layer_norm(p["ln_2"], x) @ p["fc"]["kernel"] + p["fc"]["bias"])
        x = x + h @ p["out"]["kernel"] + p["out"]["bias"]
    return layer_norm(params["ln_f"], x) @ params["wte"].T


want = np.asarray(jax.jit(gpt2)(params, tokens))
lib = strata.compile(gpt2, params, tokens)
f = lib.main
assert len(f.arguments) == 12 * 12 + 4 + 1, len(f.arguments)

leaves = jax.tree_util.tree_flatten_with_path(params)[0]
by_path = {"params" + jax.tree_util.keystr(path): leaf for path, leaf in leaves}
by_path["tokens"] = tokens
kwargs = dict(reversed(list(by_path.items())))
got = f(**kwargs)
assert got.shape == (1, T, VOCAB), got.shape
scale = np.abs(want).max()
err = np.abs(got - want).max()
assert err <= 1e-4 * scale, f"max error {err} against max |logit| {scale}"
print(f"gpt2 small: matches jax (max error {err:.3g}, max |logit| {scale:.3g})")
