#!/usr/bin/env python3
"""Common model patterns beside bench/models.py's whole networks: Strata vs XLA:CPU (jax).

Each pattern is a small JAX function as users write it (a Llama block with RoPE, GQA and SwiGLU;
MobileNetV2's inverted residuals; an LSTM in lax.scan; embedding bags and top_k; a 1-D conv
stack; cumulative sums; argsort; a mixture of experts; a UNet block with GroupNorm and a
transposed convolution; cross-entropy over 32k classes; an embedding gradient; batched tiny
matmuls; atrous convolutions; batched Cholesky/solve, eigh and svd; rfft; dropout's RNG; a
scalar fori_loop; a transformer training step; gathers; an int8 matmul; average pooling; a CIFAR
CNN training step; small-head attention; WaveNet's dilated convolutions; a 1M-element sort; a
graph network's segment sums; batch-norm statistics; EfficientNet's MBConv with squeeze-excite;
T5's relative position buckets; a Whisper-like conv1d + attention encoder; Swin's shifted
window attention; a diffusion UNet block; ResNeXt's and ShuffleNet's grouped convolutions; greedy
generation in a fori_loop with a KV cache; a beam step's top_k; a decode step for 4 sequences at
once; a PyTorch-layout MLP on 8 tokens; a fori_loop over 64 MB of closed-over weights; a
training step's gradients of depthwise and grouped convolutions; a fori_loop scattering rows
into a 25 MB table it carries; 2-D complex and real FFTs; inv, solve and cholesky of 256-512
matrices).
Random weights, fixed seeds.

For each: compile with the strata driver (`--target-cpu host`, through the Python package in
tools/python), check the results against XLA:CPU (max |strata - xla| / max |xla| over the
outputs), and time both in this process: jax's jitted call on device arrays, and the library's
packed entry with its result buffers allocated once (the Python package allocates new arrays per
call, which costs first-touch page faults a jax call does not pay). Medians of at least 5 calls
and 1.5 s. Each pattern runs in a process of its own with a timeout (STRATA_BENCH_TIMEOUT
seconds, 600 by default); one that times out or fails is named at the end of the results and the
run exits non-zero. Writes bench/results-patterns.md.

Usage (a venv with jax, e.g. bench/setup.sh's):
  PYTHONPATH=tools/python python bench/patterns.py [NAME ...] [--no-write]
"""
import math
import os
import sys
import time

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tools", "python"))
os.environ.setdefault("STRATA", os.path.join(os.path.dirname(HERE), "target", "release", "strata"))
import strata  # noqa: E402
from harness import TIMEOUT_S, cpu_name, packed_call, print_row, run_isolated, timeit  # noqa: E402

rs = np.random.RandomState(0)


def normal(*shape, scale=0.02):
    return (rs.standard_normal(shape) * scale).astype(np.float32)


# ---- Llama-style blocks: RMSNorm, RoPE, GQA, SwiGLU
D, H, KV, F, T = 1024, 16, 4, 2816, 128


def llama_params(layers=2):
    return {"layers": [{"norm1": 1 + normal(D), "wq": normal(D, D), "wk": normal(D, KV * D // H),
                        "wv": normal(D, KV * D // H), "wo": normal(D, D), "norm2": 1 + normal(D),
                        "w1": normal(D, F), "w3": normal(D, F), "w2": normal(F, D)} for _ in range(layers)]}


def rms(x, g):
    return x * lax.rsqrt(jnp.mean(x * x, -1, keepdims=True) + 1e-6) * g


def rope(x, pos):
    dh = x.shape[-1]
    inv = 1.0 / (10000 ** (jnp.arange(0, dh, 2) / dh))
    ang = pos[:, None] * inv[None]
    cos, sin = jnp.cos(ang)[None, :, None], jnp.sin(ang)[None, :, None]
    x1, x2 = x[..., ::2], x[..., 1::2]
    return jnp.stack([x1 * cos - x2 * sin, x1 * sin + x2 * cos], -1).reshape(x.shape)


def llama(params, x):
    b, t, _ = x.shape
    dh = D // H
    pos = jnp.arange(t, dtype=jnp.float32)
    mask = jnp.tril(jnp.ones((t, t), bool))
    for p in params["layers"]:
        h = rms(x, p["norm1"])
        q = rope((h @ p["wq"]).reshape(b, t, H, dh), pos)
        k = rope((h @ p["wk"]).reshape(b, t, KV, dh), pos)
        v = (h @ p["wv"]).reshape(b, t, KV, dh)
        k = jnp.repeat(k, H // KV, axis=2)
        v = jnp.repeat(v, H // KV, axis=2)
        s = jnp.einsum("bqhd,bkhd->bhqk", q, k) / math.sqrt(dh)
        s = jnp.where(mask, s, -jnp.inf)
        a = jnp.einsum("bhqk,bkhd->bqhd", jax.nn.softmax(s, -1), v).reshape(b, t, D)
        x = x + a @ p["wo"]
        h = rms(x, p["norm2"])
        x = x + (jax.nn.silu(h @ p["w1"]) * (h @ p["w3"])) @ p["w2"]
    return x


# ---- MobileNetV2-style inverted residuals: 1x1 expand, depthwise 3x3, 1x1 project


def mbv2_params():
    cfg = [(32, 16, 1, 1), (16, 24, 6, 2), (24, 24, 6, 1), (24, 32, 6, 2), (32, 32, 6, 1), (32, 64, 6, 2),
           (64, 64, 6, 1), (64, 96, 6, 1), (96, 160, 6, 2), (160, 320, 6, 1)]
    blocks = []
    for cin, cout, e, s in cfg:
        hid = cin * e
        blocks.append({"expand": normal(1, 1, cin, hid, scale=(2 / cin) ** .5), "b1": normal(hid),
                       "dw": normal(3, 3, 1, hid, scale=(2 / 9) ** .5), "b2": normal(hid),
                       "proj": normal(1, 1, hid, cout, scale=(1 / hid) ** .5), "b3": normal(cout)})
    return {"stem": normal(3, 3, 3, 32, scale=(2 / 27) ** .5), "blocks": blocks,
            "head": normal(320, 1000, scale=320 ** -.5)}


MB_STRIDES = [1, 2, 1, 2, 1, 2, 1, 1, 2, 1]


def conv(x, w, stride=1, groups=1):
    k = w.shape[0]
    return lax.conv_general_dilated(x, w, (stride, stride), [(k // 2, k // 2)] * 2,
                                    dimension_numbers=("NHWC", "HWIO", "NHWC"), feature_group_count=groups)


def mbv2(params, x):
    x = jax.nn.relu6(conv(x, params["stem"], 2))
    for p, s in zip(params["blocks"], MB_STRIDES):
        h = jax.nn.relu6(conv(x, p["expand"]) + p["b1"])
        h = jax.nn.relu6(conv(h, p["dw"], s, groups=h.shape[-1]) + p["b2"])
        h = conv(h, p["proj"]) + p["b3"]
        x = x + h if (s == 1 and x.shape == h.shape) else h
    return jnp.mean(x, (1, 2)) @ params["head"]


# ---- LSTM over lax.scan


def lstm_params(din=256, hid=512):
    return {"wx": normal(din, 4 * hid, scale=din ** -.5), "wh": normal(hid, 4 * hid, scale=hid ** -.5),
            "b": normal(4 * hid)}


def lstm(params, xs):
    hid = params["wh"].shape[0]
    b = xs.shape[1]

    def step(carry, x):
        h, c = carry
        z = x @ params["wx"] + h @ params["wh"] + params["b"]
        i, f, g, o = jnp.split(z, 4, -1)
        c = jax.nn.sigmoid(f) * c + jax.nn.sigmoid(i) * jnp.tanh(g)
        h = jax.nn.sigmoid(o) * jnp.tanh(c)
        return (h, c), h

    (_, _), hs = lax.scan(step, (jnp.zeros((b, hid)), jnp.zeros((b, hid))), xs)
    return hs


# ---- Recommendation: embedding bags (segment_sum), top_k


def rec_params():
    return {"emb": normal(100000, 64, scale=0.1), "w": normal(64 * 4, 256), "out": normal(256, 1000)}


def rec(params, ids, segs):
    # 4 bags per example, ids of each bag summed
    bags = jax.ops.segment_sum(params["emb"][ids], segs, num_segments=32 * 4)
    h = jax.nn.relu(bags.reshape(32, 4 * 64) @ params["w"])
    scores = h @ params["out"]
    return lax.top_k(scores, 10)


def conv1d_params():
    return [{"w": normal(k, cin, cout, scale=(2 / (k * cin)) ** .5)} for k, cin, cout in
            [(10, 1, 256), (3, 256, 256), (3, 256, 256), (3, 256, 256), (2, 256, 256)]]


def conv1d(params, x):
    for p, s in zip(params, [5, 2, 2, 2, 2]):
        x = lax.conv_general_dilated(x, p["w"], (s,), "VALID", dimension_numbers=("NWC", "WIO", "NWC"))
        x = jax.nn.gelu(x)
    return x


MODELS = {
    "llama2": lambda: (llama, (llama_params(), normal(1, T, D, scale=1.0))),
    "mobilenetv2": lambda: (mbv2, (mbv2_params(), normal(1, 224, 224, 3, scale=1.0))),
    "lstm": lambda: (lstm, (lstm_params(), normal(64, 8, 256, scale=1.0))),
    "rec": lambda: (rec, (rec_params(), rs.randint(0, 100000, 32 * 4 * 20).astype(np.int32),
                          np.repeat(np.arange(32 * 4), 20).astype(np.int32))),
    "conv1d": lambda: (conv1d, (conv1d_params(), normal(4, 16000, 1, scale=1.0))),
}



def cumsum_model(x):
    return jnp.cumsum(x, axis=-1), jnp.cumprod(1 + x * 1e-3, axis=0)


def argsort_model(x):
    return jnp.argsort(x, axis=-1), jnp.sort(x, axis=0)


def moe_params(E=8, d=512, f=1024):
    return {"router": normal(d, E), "w1": normal(E, d, f), "w2": normal(E, f, d)}


def moe(params, x):
    # top-2 routing with dense dispatch (one-hot einsums), as many JAX MoE layers do
    logits = x @ params["router"]
    gates, idx = lax.top_k(jax.nn.softmax(logits, -1), 2)
    disp = jax.nn.one_hot(idx, params["router"].shape[1]) * gates[..., None]  # (t, 2, E)
    disp = disp.sum(1)  # (t, E)
    h = jnp.einsum("td,edf->etf", x, params["w1"])
    h = jax.nn.gelu(h)
    y = jnp.einsum("etf,efd->etd", h, params["w2"])
    return jnp.einsum("etd,te->td", y, disp)


def unet_params(c=64):
    return {"c1": normal(3, 3, c, c, scale=(2 / (9 * c)) ** .5), "g": 1 + normal(c), "b": normal(c),
            "up": normal(4, 4, c, c // 2, scale=(1 / (16 * c)) ** .5)}


def group_norm(x, g, b, groups=32):
    n, h, w, c = x.shape
    y = x.reshape(n, h, w, groups, c // groups)
    m = y.mean((1, 2, 4), keepdims=True)
    y = (y - m) * lax.rsqrt(((y - m) ** 2).mean((1, 2, 4), keepdims=True) + 1e-5)
    return y.reshape(n, h, w, c) * g + b


def unet(params, x):
    # conv -> GroupNorm(8) -> SiLU -> transposed conv (2x upsample) -> resize
    h = conv(x, params["c1"])
    n, hh, ww, c = h.shape
    h = jax.nn.silu(group_norm(h, params["g"], params["b"], groups=8))
    u = lax.conv_transpose(h, params["up"], (2, 2), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))
    r = jax.image.resize(x, (n, hh * 2, ww * 2, c), "bilinear")
    return u, r


def xent(params, x, y):
    logits = x @ params["w"]
    lp = jax.nn.log_softmax(logits, -1)
    loss = -jnp.take_along_axis(lp, y[:, None], -1).mean()
    return loss, jnp.argmax(logits, -1)


def emb_grad(params, ids, g):
    # gradient of an embedding lookup: scatter-add of rows
    def f(e):
        return (e[ids] * g).sum()
    return jax.grad(f)(params["emb"])


MODELS.update({
    "cumsum": lambda: (cumsum_model, (normal(64, 4096, scale=1.0),)),
    "argsort": lambda: (argsort_model, (normal(256, 1024, scale=1.0),)),
    "moe": lambda: (moe, (moe_params(), normal(256, 512, scale=1.0))),
    "unet": lambda: (unet, (unet_params(), normal(1, 64, 64, 64, scale=1.0))),
    "xent": lambda: (xent, ({"w": normal(768, 32000)}, normal(64, 768, scale=1.0),
                            rs.randint(0, 32000, 64).astype(np.int32))),
    "emb_grad": lambda: (emb_grad, ({"emb": normal(50257, 768)}, rs.randint(0, 50257, (8, 128)).astype(np.int32),
                                    normal(8, 128, 768, scale=1.0))),
})



def bmm_small(a, b):
    return jnp.einsum("nij,njk->nik", a, b)


def atrous(params, x):
    y = lax.conv_general_dilated(x, params["w1"], (1, 1), [(2, 2), (2, 2)], rhs_dilation=(2, 2),
                                 dimension_numbers=("NHWC", "HWIO", "NHWC"))
    y = jax.nn.relu(y)
    return lax.conv_general_dilated(y, params["w2"], (2, 2), [(1, 1), (1, 1)],
                                    dimension_numbers=("NHWC", "HWIO", "NHWC"))


def linalg_model(a, b):
    spd = a @ jnp.swapaxes(a, -1, -2) + 8 * jnp.eye(a.shape[-1])
    c = jnp.linalg.cholesky(spd)
    return jnp.linalg.solve(spd, b), c


def rfft_model(x):
    f = jnp.fft.rfft(x, axis=-1)
    return jnp.fft.irfft(f * jnp.conj(f), n=x.shape[-1], axis=-1)


def dropout_model(key, x):
    keep = jax.random.bernoulli(key, 0.9, x.shape)
    return jnp.where(keep, x / 0.9, 0.0), jax.random.normal(key, (256, 256))


def fori_scalar(x):
    def body(i, c):
        v, s = c
        v = 0.5 * v + jnp.sin(v) * 0.1 + i * 1e-4
        return v, s + v.sum()
    return lax.fori_loop(0, 2000, body, (x, 0.0))


def gpt_train_params(d=256, layers=2, vocab=2000):
    return {"wte": normal(vocab, d), "blocks": [{"w1": normal(d, 4 * d), "w2": normal(4 * d, d),
                                                 "wqkv": normal(d, 3 * d), "wo": normal(d, d),
                                                 "g": 1 + normal(d)} for _ in range(layers)]}


def gpt_loss(params, tokens):
    x = params["wte"][tokens]
    t = tokens.shape[1]
    mask = jnp.tril(jnp.ones((t, t), bool))
    for p in params["blocks"]:
        h = x * lax.rsqrt(jnp.mean(x * x, -1, keepdims=True) + 1e-6) * p["g"]
        q, k, v = jnp.split(h @ p["wqkv"], 3, -1)
        s = jnp.where(mask, q @ jnp.swapaxes(k, -1, -2) / 16.0, -1e9)
        x = x + (jax.nn.softmax(s, -1) @ v) @ p["wo"]
        x = x + jax.nn.gelu(x @ p["w1"]) @ p["w2"]
    logits = x @ params["wte"].T
    lp = jax.nn.log_softmax(logits[:, :-1], -1)
    return -jnp.take_along_axis(lp, tokens[:, 1:, None], -1).mean()


def gpt_train_step(params, tokens):
    loss, g = jax.value_and_grad(gpt_loss)(params, tokens)
    return loss, jax.tree_util.tree_map(lambda p, g: p - 1e-3 * g, params, g)


def take_model(x, idx):
    return jnp.take_along_axis(x, idx, axis=1), x[idx[:, 0]]


def int8_mm(a, b):
    return lax.dot(a, b, preferred_element_type=jnp.int32)


def avgpool(x):
    return lax.reduce_window(x, 0.0, lax.add, (1, 3, 3, 1), (1, 2, 2, 1), "SAME") / 9.0


MODELS.update({
    "bmm_small": lambda: (bmm_small, (normal(4096, 8, 8, scale=1.0), normal(4096, 8, 8, scale=1.0))),
    "atrous": lambda: (atrous, ({"w1": normal(3, 3, 64, 64, scale=0.05), "w2": normal(3, 3, 64, 128, scale=0.05)},
                                normal(1, 64, 64, 64, scale=1.0))),
    "linalg": lambda: (linalg_model, (normal(256, 16, 16, scale=1.0), normal(256, 16, 4, scale=1.0))),
    "rfft": lambda: (rfft_model, (normal(64, 4096, scale=1.0),)),
    "dropout": lambda: (dropout_model, (np.asarray(jax.random.PRNGKey(0)), normal(512, 1024, scale=1.0))),
    "fori_scalar": lambda: (fori_scalar, (normal(16, scale=1.0),)),
    "gpt_train": lambda: (gpt_train_step, (gpt_train_params(), rs.randint(0, 2000, (8, 128)).astype(np.int32))),
    "take": lambda: (take_model, (normal(512, 1024, scale=1.0), rs.randint(0, 512, (512, 64)).astype(np.int32))),
    "int8_mm": lambda: (int8_mm, (rs.randint(-128, 127, (512, 1024)).astype(np.int8),
                                  rs.randint(-128, 127, (1024, 1024)).astype(np.int8))),
    "avgpool": lambda: (avgpool, (normal(4, 112, 112, 64, scale=1.0),)),
})



def cifar_params():
    return {"c1": normal(3, 3, 3, 32, scale=0.2), "c2": normal(3, 3, 32, 64, scale=0.06),
            "c3": normal(3, 3, 64, 64, scale=0.04), "fc": normal(64 * 8 * 8, 10, scale=0.01)}


def cifar_loss(params, x, y):
    h = jax.nn.relu(conv(x, params["c1"]))
    h = lax.reduce_window(jax.nn.relu(conv(h, params["c2"])), -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")
    h = lax.reduce_window(jax.nn.relu(conv(h, params["c3"])), -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")
    logits = h.reshape(h.shape[0], -1) @ params["fc"]
    return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), y[:, None], 1))


def cifar_step(params, x, y):
    return jax.grad(cifar_loss)(params, x, y)


def small_tf(params, x):
    # many small heads: d=64, 8 heads of 8, T=32, batch 256
    b, t, d = x.shape
    qkv = x @ params["wqkv"]
    q, k, v = [a.reshape(b, t, 8, 8).transpose(0, 2, 1, 3) for a in jnp.split(qkv, 3, -1)]
    s = jax.nn.softmax(q @ k.transpose(0, 1, 3, 2) / 2.83, -1)
    a = (s @ v).transpose(0, 2, 1, 3).reshape(b, t, d)
    return x + a @ params["wo"]


def wavenet_params(c=64):
    return [{"w": normal(2, c, 2 * c, scale=0.1), "o": normal(1, c, c, scale=0.1)} for _ in range(8)]


def wavenet(params, x):
    for i, p in enumerate(params):
        dil = 2 ** i
        h = lax.conv_general_dilated(x, p["w"], (1,), [(dil, 0)], rhs_dilation=(dil,),
                                     dimension_numbers=("NWC", "WIO", "NWC"))
        a, g = jnp.split(h, 2, -1)
        z = jnp.tanh(a) * jax.nn.sigmoid(g)
        x = x + lax.conv_general_dilated(z, p["o"], (1,), "VALID", dimension_numbers=("NWC", "WIO", "NWC"))
    return x


def big_sort(x):
    return jnp.sort(x), jnp.argsort(x)


MODELS.update({
    "cifar_step": lambda: (cifar_step, (cifar_params(), normal(128, 32, 32, 3, scale=1.0),
                                        rs.randint(0, 10, 128).astype(np.int32))),
    "small_tf": lambda: (small_tf, ({"wqkv": normal(64, 192, scale=0.1), "wo": normal(64, 64, scale=0.1)},
                                    normal(256, 32, 64, scale=1.0))),
    "wavenet": lambda: (wavenet, (wavenet_params(), normal(4, 4096, 64, scale=1.0))),
    "big_sort": lambda: (big_sort, (normal(1 << 20, scale=1.0),)),
})



def gnn(params, h, src, dst):
    m = jax.nn.relu(h[src] @ params["w"])
    agg = jax.ops.segment_sum(m, dst, num_segments=h.shape[0])
    return h + agg @ params["u"]


def bn_train(x, g, b):
    mean = x.mean((0, 1, 2))
    var = ((x - mean) ** 2).mean((0, 1, 2))
    return (x - mean) * lax.rsqrt(var + 1e-5) * g + b, mean, var


def eigh_model(a):
    s = a + jnp.swapaxes(a, -1, -2)
    w, v = jnp.linalg.eigh(s)
    return w, jnp.abs(v)


def svd_model(a):
    return jnp.linalg.svd(a, compute_uv=False)


MODELS.update({
    "gnn": lambda: (gnn, ({"w": normal(64, 64, scale=0.1), "u": normal(64, 64, scale=0.1)}, normal(20000, 64, scale=1.0),
                          rs.randint(0, 20000, 200000).astype(np.int32), rs.randint(0, 20000, 200000).astype(np.int32))),
    "bn_train": lambda: (bn_train, (normal(32, 56, 56, 64, scale=1.0), 1 + normal(64), normal(64))),
    "eigh": lambda: (eigh_model, (normal(512, 8, 8, scale=1.0),)),
    "svd": lambda: (svd_model, (normal(512, 8, 8, scale=1.0),)),
})


# ---- EfficientNet's MBConv (expand, depthwise 5x5, squeeze-excite, swish, folded batch norm);
# T5's relative position buckets and gated GELU; a Whisper-like encoder (two conv1d, then
# attention); Swin's shifted windows (roll, window partition, relative bias); a diffusion UNet
# block (timestep embedding, GroupNorm, attention over 16x16).
def mbconv_params(c=64, e=4, k=5):
    return [{"exp": normal(1, 1, c, c * e, scale=0.05), "dw": normal(k, k, 1, c * e, scale=0.2),
             "se1": normal(c * e, c // 4, scale=0.05), "se2": normal(c // 4, c * e, scale=0.05),
             "proj": normal(1, 1, c * e, c, scale=0.05), "s1": 1 + normal(c * e), "b1": normal(c * e),
             "s2": 1 + normal(c * e), "b2": normal(c * e)} for _ in range(3)]


def mbconv(params, x):
    for p in params:
        h = jax.nn.swish(conv(x, p["exp"]) * p["s1"] + p["b1"])
        h = jax.nn.swish(conv(h, p["dw"], groups=h.shape[-1]) * p["s2"] + p["b2"])
        s = jax.nn.sigmoid(jax.nn.swish(h.mean((1, 2)) @ p["se1"]) @ p["se2"])
        x = x + conv(h * s[:, None, None, :], p["proj"])
    return x


def t5_params(d=512, f=1024, heads=8):
    return {"rel": normal(32, heads, scale=0.5),
            "layers": [{"n1": 1 + normal(d), "q": normal(d, d), "k": normal(d, d), "v": normal(d, d), "o": normal(d, d),
                        "n2": 1 + normal(d), "wi0": normal(d, f), "wi1": normal(d, f), "wo": normal(f, d)} for _ in range(2)]}


def t5_bucket(rel, buckets=16, max_distance=128):
    exact = buckets // 2
    r = jnp.abs(rel)
    large = exact + (jnp.log(jnp.maximum(r, 1) / exact) / np.log(max_distance / exact) * (buckets - exact)).astype(jnp.int32)
    return (rel > 0).astype(jnp.int32) * buckets + jnp.where(r < exact, r, jnp.minimum(large, buckets - 1))


def t5(params, x):
    b, t, d = x.shape
    heads = params["rel"].shape[1]
    pos = jnp.arange(t)
    bias = params["rel"][t5_bucket(pos[None, :] - pos[:, None])].transpose(2, 0, 1)[None]
    for p in params["layers"]:
        h = rms(x, p["n1"])
        q, k, v = [(h @ p[w]).reshape(b, t, heads, d // heads) for w in "qkv"]
        s = jax.nn.softmax(jnp.einsum("bqhd,bkhd->bhqk", q, k) + bias, -1)
        x = x + jnp.einsum("bhqk,bkhd->bqhd", s, v).reshape(b, t, d) @ p["o"]
        h = rms(x, p["n2"])
        x = x + (jax.nn.gelu(h @ p["wi0"]) * (h @ p["wi1"])) @ p["wo"]
    return x


def layer_norm(x, g, b):
    m = x.mean(-1, keepdims=True)
    return (x - m) * lax.rsqrt(((x - m) ** 2).mean(-1, keepdims=True) + 1e-5) * g + b


def whisper_params(d=384):
    return {"c1": normal(3, 80, d, scale=0.1), "c2": normal(3, d, d, scale=0.05), "pos": normal(150, d),
            "layers": [{"g1": 1 + normal(d), "b1": normal(d), "qkv": normal(d, 3 * d), "o": normal(d, d),
                        "g2": 1 + normal(d), "b2": normal(d), "f1": normal(d, 4 * d), "f2": normal(4 * d, d)}
                       for _ in range(2)]}


def whisper(params, mel):
    def conv1d(x, w, stride):
        return lax.conv_general_dilated(x, w, (stride,), [(1, 1)], dimension_numbers=("NWC", "WIO", "NWC"))
    x = jax.nn.gelu(conv1d(mel, params["c1"], 1))
    x = jax.nn.gelu(conv1d(x, params["c2"], 2)) + params["pos"]
    b, t, d = x.shape
    for p in params["layers"]:
        q, k, v = [a.reshape(b, t, 6, d // 6) for a in jnp.split(layer_norm(x, p["g1"], p["b1"]) @ p["qkv"], 3, -1)]
        s = jax.nn.softmax(jnp.einsum("bqhd,bkhd->bhqk", q, k) / 8.0, -1)
        x = x + jnp.einsum("bhqk,bkhd->bqhd", s, v).reshape(b, t, d) @ p["o"]
        x = x + jax.nn.gelu(layer_norm(x, p["g2"], p["b2"]) @ p["f1"]) @ p["f2"]
    return x


def swin_params(c=96, heads=3):
    return {"qkv": normal(c, 3 * c), "o": normal(c, c), "rel": normal(169, heads, scale=0.2), "g": 1 + normal(c),
            "b": normal(c)}


def swin(p, x, ws=7, heads=3):
    b, hh, w, c = x.shape
    x = jnp.roll(x, (-3, -3), (1, 2))
    win = layer_norm(x, p["g"], p["b"]).reshape(b, hh // ws, ws, w // ws, ws, c)
    win = win.transpose(0, 1, 3, 2, 4, 5).reshape(-1, ws * ws, c)
    qkv = (win @ p["qkv"]).reshape(win.shape[0], ws * ws, 3, heads, c // heads).transpose(2, 0, 3, 1, 4)
    coords = np.stack(np.meshgrid(np.arange(ws), np.arange(ws), indexing="ij")).reshape(2, -1)
    rel = coords[:, :, None] - coords[:, None, :]
    bias = p["rel"][(rel[0] + ws - 1) * (2 * ws - 1) + rel[1] + ws - 1].transpose(2, 0, 1)
    s = jax.nn.softmax(qkv[0] @ qkv[1].transpose(0, 1, 3, 2) * (c // heads) ** -0.5 + bias, -1)
    a = (s @ qkv[2]).transpose(0, 2, 1, 3).reshape(-1, ws * ws, c) @ p["o"]
    a = a.reshape(b, hh // ws, w // ws, ws, ws, c).transpose(0, 1, 3, 2, 4, 5).reshape(b, hh, w, c)
    return jnp.roll(a, (3, 3), (1, 2)) + x


def diffusion_params(c=128):
    return {"t1": normal(128, 512), "t2": normal(512, c), "c1": normal(3, 3, c, c), "c2": normal(3, 3, c, c),
            "g": 1 + normal(c), "b": normal(c), "qkv": normal(c, 3 * c), "o": normal(c, c)}


def diffusion(p, x, t):
    e = t[:, None] * jnp.exp(-np.log(10000) * jnp.arange(64) / 64)[None]
    temb = jax.nn.silu(jnp.concatenate([jnp.sin(e), jnp.cos(e)], -1) @ p["t1"]) @ p["t2"]
    h = conv(jax.nn.silu(group_norm(x, p["g"], p["b"])), p["c1"]) + temb[:, None, None, :]
    x = x + conv(jax.nn.silu(group_norm(h, p["g"], p["b"])), p["c2"])
    n, hh, w, c = x.shape
    q, k, v = jnp.split(group_norm(x, p["g"], p["b"]).reshape(n, hh * w, c) @ p["qkv"], 3, -1)
    a = jax.nn.softmax(q @ k.transpose(0, 2, 1) / np.sqrt(c), -1) @ v
    return x + (a @ p["o"]).reshape(n, hh, w, c)


# ---- Grouped convolutions: ResNeXt's bottleneck (32 groups of 4 features) and ShuffleNet's
# grouped 1x1 / 3x3 convolutions around a channel shuffle.
def resnext_params(c=256, width=128, groups=32):
    return [{"a": normal(1, 1, c, width, scale=0.05), "b": normal(3, 3, width // groups, width, scale=0.1),
             "c": normal(1, 1, width, c, scale=0.05)} for _ in range(2)]


def resnext(params, x):
    for p in params:
        h = jax.nn.relu(conv(x, p["a"]))
        h = jax.nn.relu(conv(h, p["b"], groups=32))
        x = jax.nn.relu(x + conv(h, p["c"]))
    return x


def shufflenet(params, x, groups=4):
    for w1, w2 in params:
        b, h, w, c = x.shape
        y = jax.nn.relu(conv(x, w1, groups=groups))
        y = y.reshape(b, h, w, groups, c // groups).transpose(0, 1, 2, 4, 3).reshape(b, h, w, c)
        x = x + conv(y, w2, groups=groups)
    return x


# ---- Greedy generation in a fori_loop with a KV cache (dynamic_update_slice per layer and
# step, tied-embedding logits, argmax), and a beam step's top_k over 32k logits.
GEN_V, GEN_D, GEN_H, GEN_L, GEN_T = 2000, 256, 4, 2, 64


def decoder_layers(d, layers):
    """Pre-LN decoder layers (attention with a KV cache, GELU MLP): the weights cached_step reads."""
    return [{"g": 1 + normal(d), "b": normal(d), "qkv": normal(d, 3 * d), "o": normal(d, d),
             "g2": 1 + normal(d), "b2": normal(d), "f1": normal(d, 4 * d), "f2": normal(4 * d, d)}
            for _ in range(layers)]


def cached_step(layers, x, kc, vc, pos, heads):
    """One token per sequence through `layers`: each layer's k and v written into the caches
    (layer, batch, position, head, dim) at `pos`, attention over the positions up to it."""
    b, d = x.shape
    t, dh = kc.shape[2], d // heads
    for li, lp in enumerate(layers):
        q, k, v = jnp.split(layer_norm(x, lp["g"], lp["b"]) @ lp["qkv"], 3, -1)
        kc = lax.dynamic_update_slice(kc, k.reshape(1, b, 1, heads, dh), (li, 0, pos, 0, 0))
        vc = lax.dynamic_update_slice(vc, v.reshape(1, b, 1, heads, dh), (li, 0, pos, 0, 0))
        s = jnp.einsum("bhd,bthd->bht", q.reshape(b, heads, dh), kc[li]) / 8.0
        s = jnp.where(jnp.arange(t)[None, None] <= pos, s, -1e30)
        x = x + jnp.einsum("bht,bthd->bhd", jax.nn.softmax(s, -1), vc[li]).reshape(b, d) @ lp["o"]
        x = x + jax.nn.gelu(layer_norm(x, lp["g2"], lp["b2"]) @ lp["f1"]) @ lp["f2"]
    return x, kc, vc


def generate_params():
    return {"emb": normal(GEN_V, GEN_D, scale=0.1), "pos": normal(GEN_T, GEN_D, scale=0.1),
            "layers": decoder_layers(GEN_D, GEN_L)}


def generate(p, prompt):
    b, d, h, t = prompt.shape[0], GEN_D, GEN_H, GEN_T
    cache = jnp.zeros((GEN_L, b, t, h, d // h))

    def step(i, state):
        tok, kc, vc, out = state
        x, kc, vc = cached_step(p["layers"], p["emb"][tok] + p["pos"][i], kc, vc, i, h)
        nxt = jnp.argmax(x @ p["emb"].T, -1).astype(jnp.int32)
        return nxt, kc, vc, out.at[:, i].set(nxt)
    return lax.fori_loop(0, t, step, (prompt, cache, cache, jnp.zeros((b, t), jnp.int32)))[3]


def beam_topk(logits, k=8):
    v, i = lax.top_k(jax.nn.log_softmax(logits), k)
    return v.sum(-1), jnp.take_along_axis(logits, i, -1)


# ---- Few rows: a decode step for 4 sequences at once (every dense layer and the tied logits
# have m = 4), and a PyTorch-layout MLP (weights stored out x in, x @ W.T) on 8 tokens.
DEC_V, DEC_D, DEC_H, DEC_L, DEC_T = 32000, 768, 12, 2, 256


def decode_batch_params():
    return {"emb": normal(DEC_V, DEC_D), "layers": decoder_layers(DEC_D, DEC_L)}


def decode_batch(p, x, kc, vc, pos):
    x, kc, vc = cached_step(p["layers"], x, kc, vc, pos, DEC_H)
    return x @ p["emb"].T, kc, vc


def torch_mlp(p, x):
    for w, b in p:
        x = jax.nn.relu(x @ w.T + b)
    return x


def weights_loop(w1, w2, x):
    # A recurrent step applied in a fori_loop whose body closes over the
    # weights (64 MB): JAX makes them loop state the body passes through.
    return lax.fori_loop(0, 8, lambda i, h: jnp.tanh(jnp.tanh(h @ w1) @ w2), x)


def dw_train_step(params, x):
    # Gradients of depthwise and grouped convolutions (their weight gradients
    # are convolutions with batch_group_count > 1).
    def loss(params):
        h = x
        for p in params:
            h = jax.nn.relu(conv(h, p["dw"], groups=h.shape[-1]))
            h = jax.nn.relu(conv(h, p["g"], groups=4))
        return (h ** 2).mean()
    return jax.grad(loss)(params)


def scatter_loop(table, idx, v):
    # Sparse updates of a large loop state: each step adds rows at indices
    # it computes (an embedding table's sparse optimiser step, a histogram).
    def step(i, t):
        rows = (idx + i * 7919) % t.shape[0]
        return t.at[rows].add(v * t[rows])
    return lax.fori_loop(0, 64, step, table)


def spd(n):
    g = normal(n, n, scale=1.0)
    return (g @ g.T / n + np.eye(n, dtype=np.float32)).astype(np.float32)


MODELS.update({
    "mbconv": lambda: (mbconv, (mbconv_params(), normal(8, 28, 28, 64, scale=1.0))),
    "t5": lambda: (t5, (t5_params(), normal(2, 128, 512, scale=1.0))),
    "whisper": lambda: (whisper, (whisper_params(), normal(1, 300, 80, scale=1.0))),
    "swin": lambda: (swin, (swin_params(), normal(2, 56, 56, 96, scale=1.0))),
    "diffusion": lambda: (diffusion, (diffusion_params(), normal(2, 16, 16, 128, scale=1.0),
                                      np.array([10.0, 500.0], np.float32))),
    "resnext": lambda: (resnext, (resnext_params(), normal(4, 28, 28, 256, scale=1.0))),
    "generate": lambda: (generate, (generate_params(), np.arange(4, dtype=np.int32))),
    "beam_topk": lambda: (beam_topk, (normal(64, 32000, scale=1.0),)),
    "decode_batch": lambda: (decode_batch, (decode_batch_params(), normal(4, DEC_D, scale=1.0),
                                            normal(DEC_L, 4, DEC_T, DEC_H, DEC_D // DEC_H, scale=1.0),
                                            normal(DEC_L, 4, DEC_T, DEC_H, DEC_D // DEC_H, scale=1.0),
                                            np.int32(100))),
    "weights_loop": lambda: (weights_loop, (normal(2048, 4096), normal(4096, 2048), normal(1, 2048, scale=1.0))),
    "torch_mlp": lambda: (torch_mlp, ([(normal(2048, 1024), normal(2048)), (normal(2048, 2048), normal(2048)),
                                       (normal(1024, 2048), normal(1024))], normal(8, 1024, scale=1.0))),
    "dw_train": lambda: (dw_train_step, ([{"dw": normal(3, 3, 1, 64, scale=0.2), "g": normal(3, 3, 16, 64, scale=0.05)}
                                          for _ in range(2)], normal(8, 56, 56, 64, scale=1.0))),
    "scatter_loop": lambda: (scatter_loop, (normal(100000, 64), rs.randint(0, 100000, 32).astype(np.int32),
                                            normal(32, 64))),
    "fft2": lambda: (lambda x: jnp.abs(jnp.fft.fft2(x)), (normal(16, 256, 256, scale=1.0),)),
    "rfft2": lambda: (lambda x: jnp.abs(jnp.fft.rfft2(x)), (normal(16, 256, 256, scale=1.0),)),
    "inv": lambda: (jnp.linalg.inv, (normal(256, 256, scale=1.0) + 16 * np.eye(256, dtype=np.float32),)),
    "solve": lambda: (jnp.linalg.solve, (normal(512, 512, scale=1.0) + 32 * np.eye(512, dtype=np.float32),
                                         normal(512, 64, scale=1.0))),
    "cholesky": lambda: (jnp.linalg.cholesky, (spd(512),)),
    "qr": lambda: (jnp.linalg.qr, (normal(256, 256, scale=1.0),)),
    "searchsorted": lambda: (jnp.searchsorted, (np.sort(normal(1 << 16, scale=1.0)), normal(1 << 16, scale=1.0))),
    "histogram": lambda: (lambda x: jnp.histogram(x, bins=256, range=(-3, 3))[0], (normal(1 << 20, scale=1.0),)),
    "cumlogsumexp": lambda: (lambda x: lax.cumlogsumexp(x, axis=1), (normal(256, 2048, scale=1.0),)),
    "sort_axis0": lambda: (lambda x: jnp.sort(x, axis=0), (normal(4096, 256, scale=1.0),)),
    "conv_rgb_out": lambda: (lambda x, w: lax.conv_general_dilated(x, w, (1, 1), "SAME",
                                                                  dimension_numbers=("NHWC", "HWIO", "NHWC")),
                             (normal(4, 128, 128, 32, scale=1.0), normal(3, 3, 32, 3, scale=0.1))),
    "shufflenet": lambda: (shufflenet, ([(normal(1, 1, 32, 128, scale=0.1), normal(3, 3, 32, 128, scale=0.05))
                                         for _ in range(3)], normal(4, 28, 28, 128, scale=1.0))),
})


def run_one(name):
    """Compile, check and time one pattern; returns its row."""
    fn, args = MODELS[name]()
    jf = jax.jit(fn)
    dev = jax.device_put(args)
    want = jax.tree_util.tree_leaves(jf(*dev))
    t0 = time.perf_counter()
    lib = strata.compile(fn, *args, options=["--target-cpu", "host"], keep_unused=True)
    compile_s = time.perf_counter() - t0
    leaves = jax.tree_util.tree_leaves(args)
    got = lib.main(*leaves)
    got = got if isinstance(got, tuple) else (got,)
    err = max(float(np.abs(np.asarray(g, np.float64) - np.asarray(w, np.float64)).max() /
                    (np.abs(np.asarray(w, np.float64)).max() + 1e-30)) for g, w in zip(got, want))
    tx = timeit(lambda: jax.block_until_ready(jf(*dev)))
    ts = timeit(packed_call(lib.main, leaves))
    return {"name": name, "strata": ts, "xla": tx, "err": err, "compile": compile_s}


def main():
    if sys.argv[1:2] == ["--one"]:
        print_row(run_one(sys.argv[2]))
        return
    write = "--no-write" not in sys.argv
    names = [a for a in sys.argv[1:] if not a.startswith("--")] or list(MODELS)
    rows, missing = [], []
    for name in names:
        r = run_isolated(os.path.abspath(__file__), name)
        if r is None:
            missing.append(name)
            continue
        rows.append(r)
        print(f"{name:12s} compile {r['compile']:5.1f}s  err {r['err']:.1e}  xla {r['xla'] * 1e3:8.3f} ms  "
              f"strata {r['strata'] * 1e3:8.3f} ms  ratio {r['strata'] / r['xla']:5.2f}", flush=True)
    if write:
        cpu = f"{cpu_name()}, {os.cpu_count()} CPUs, all threads"
        with open(os.path.join(HERE, "results-patterns.md"), "w") as f:
            f.write(f"# Common patterns: Strata vs XLA:CPU (jax {jax.__version__})\n\n"
                    f"CPU: {cpu}. Written by bench/patterns.py (see its docstring for what each pattern is "
                    "and how it is timed). Ratios > 1: Strata is slower.\n\n"
                    "| pattern | Strata ms | XLA ms | Strata/XLA | max rel. err | Strata compile s |\n"
                    "|---|---|---|---|---|---|\n")
            for r in rows:
                f.write(f"| {r['name']} | {r['strata'] * 1e3:.3f} | {r['xla'] * 1e3:.3f} | "
                        f"**{r['strata'] / r['xla']:.2f}x** | {r['err']:.1e} | {r['compile']:.1f} |\n")
            if missing:
                f.write(f"\nNot measured (timed out after {TIMEOUT_S:.0f} s or failed, see the run's "
                        f"output): {', '.join(missing)}.\n")
    if missing:
        sys.exit(1)


if __name__ == "__main__":
    main()
