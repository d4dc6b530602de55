#!/usr/bin/env python3
"""End-to-end models: Strata vs XLA:CPU (jax) on whole networks as users write them in JAX.

Models (random weights at the original sizes, numpy RandomState; `--small` keeps every
structure with fewer layers and narrower dimensions, for development):

  gpt2_forward        GPT-2 small (124M), tokens (2, 128) -> logits, tied embeddings
  gpt2_decode         one decode step with a KV cache of 1024 positions, updated with
                      lax.dynamic_update_slice at a position argument
  gpt2_decode_donate  the same step jitted with donate_argnums=(the cache,)
  bert_base           BERT-base encoder + pooler, a padding mask, exact (erf) GELU
  vit_b16             ViT-B/16 on 224x224 NHWC images, patch embedding by a stride-16 conv
  resnet50            ResNet-50 inference, NHWC, batch norm folded into the convolutions
  mlp_adam_train      100 Adam steps of a 784-512-512-10 MLP inside lax.fori_loop
  gpt2_const2         2 GPT-2 blocks whose weights are closed over (constants in the module)

Usage (the venv from bench/setup.sh, or any with jax):
  python bench/models.py --export DIR            # write each model's StableHLO to DIR
  python bench/models.py --run [--only a,b] [--threads 1|all] [--small] [--no-write]
  python bench/models.py --profile NAME          # where Strata's time goes (perf, else callgrind)

--run compiles each model with the strata driver (`--target-cpu host`), checks its outputs
against XLA:CPU on the same inputs, times the two interleaved in this process and writes a
markdown table to bench/results-models.md. See bench/README.md.
"""

from __future__ import annotations

import argparse
import ctypes
import datetime
import functools
import importlib.metadata as md
import json
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
from dataclasses import dataclass
from typing import Callable

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def parse_args():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--export", metavar="DIR", help="write each model's StableHLO (NAME.mlir) to DIR and exit")
    mode.add_argument("--run", action="store_true", help="compile, check against XLA and time every model (default)")
    mode.add_argument("--profile", metavar="NAME", help="profile Strata's library for these models (comma-separated)")
    mode.add_argument("--profile-child", metavar="SPEC", help=argparse.SUPPRESS)  # internal: the profiled process
    p.add_argument("--only", default="", help="comma-separated model names (a name matching none exactly is a substring)")
    p.add_argument("--small", action="store_true",
                   help="the same models with fewer layers and smaller dimensions (for development)")
    p.add_argument("--threads", choices=["1", "all"], default="1",
                   help="1 (default): the process pinned to one CPU (as taskset), XLA's Eigen threading off; "
                        "all: every CPU for both")
    p.add_argument("--strata", help="strata driver (default: target/release/strata, else target/debug/strata, "
                                    "else /work/main/target/release/strata)")
    p.add_argument("--workdir", default=os.path.join(tempfile.gettempdir(), "strata-bench-models"),
                   help="where the StableHLO, .so, .h and profiles go (default: %(default)s)")
    p.add_argument("--rounds", type=int, default=5, help="interleaved rounds (default: %(default)s)")
    p.add_argument("--reps", type=int, default=2, help="samples of each implementation per round (default: %(default)s)")
    p.add_argument("--min-time", type=float, default=0.05,
                   help="seconds one sample lasts at least (short calls are repeated; default: %(default)s)")
    p.add_argument("--no-f64", action="store_true",
                   help="skip the float64 evaluation (XLA with jax x64) that both f32 results are compared with")
    p.add_argument("--tol", type=float, default=None,
                   help="override every model's tolerance on max |strata - xla| / max |xla|")
    p.add_argument("--out", default=os.path.join(HERE, "results-models.md"), help="markdown output (default: %(default)s)")
    p.add_argument("--no-write", action="store_true", help="print only; do not write --out (or the profile file)")
    p.add_argument("--profile-tool", choices=["auto", "perf", "callgrind"], default="auto",
                   help="--profile's sampler: perf record if it works, else valgrind --tool=callgrind")
    p.add_argument("--profile-seconds", type=float, default=10.0,
                   help="perf: profile about this long (default: %(default)s); callgrind runs --profile-calls calls")
    p.add_argument("--profile-calls", type=int, default=1, help="callgrind: calls profiled after the warm-up call")
    p.add_argument("--profile-top", type=int, default=10, help="symbols listed per profile (default: %(default)s)")
    p.add_argument("--profile-out", default=os.path.join(HERE, "profile-models.md"),
                   help="--profile writes its summary here unless --no-write (default: %(default)s)")
    a = p.parse_args()
    if not (a.export or a.profile or a.profile_child):
        a.run = True
    return a


ARGS = parse_args()


# --------------------------------------------------------------------------------------------
# The profiled child process: numpy + ctypes only (no jax), so that the profile holds little
# besides Strata's library. It loads the arguments saved by the parent, makes warm-up calls
# (first-call allocation and page faults are not the steady state), says "ready", waits for
# "go" (the parent attaches perf meanwhile), then calls the library for the requested time.


def profile_child(spec_path: str) -> int:
    import numpy as np

    spec = json.load(open(spec_path))
    lib = ctypes.CDLL(spec["so"])
    fn = getattr(lib, spec["prefix"] + "_main")
    fn.restype = ctypes.c_int32
    ins = [np.load(p) for p in spec["args"]]
    outs = [np.zeros(s, d) for s, d in spec["results"]]
    for a, r in spec["donated"]:
        outs[r] = ins[a]
    ptrs = [x.ctypes.data for x in ins + outs]
    fn.argtypes = [ctypes.c_void_p] * len(ptrs)
    err = getattr(lib, spec["prefix"] + "_last_error")
    err.restype = ctypes.c_char_p
    for _ in range(2):
        if fn(*ptrs) != 0:
            print("error: " + err().decode(errors="replace"), flush=True)
            return 1
    print("ready", flush=True)
    sys.stdin.readline()
    t0, calls = time.perf_counter(), 0
    while calls < spec["min_calls"] or time.perf_counter() - t0 < spec["seconds"]:
        fn(*ptrs)
        calls += 1
    print(f"calls {calls} {(time.perf_counter() - t0) / calls}", flush=True)
    os._exit(0)  # no interpreter teardown in the profile


if ARGS.profile_child:
    sys.exit(profile_child(ARGS.profile_child))

# Threading must be settled before jax (and its thread pools) is imported; Strata's pool is
# sized from the same affinity mask.
if ARGS.threads == "1":
    PINNED_CPU = sorted(os.sched_getaffinity(0))[-1]
    os.sched_setaffinity(0, {PINNED_CPU})
    os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "") + " --xla_cpu_multi_thread_eigen=false").strip()
else:
    PINNED_CPU = None

import numpy as np  # noqa: E402
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from jax import lax  # noqa: E402

jax.config.update("jax_platforms", "cpu")

F32 = np.float32


# --------------------------------------------------------------------------------------------
# Layers, written as users write them: flax-style parameter dicts, rank-3 activations (B, T, D)
# straight into every dense layer.


def dense(p, x):
    return x @ p["kernel"] + p["bias"]


def layer_norm(p, x, eps):
    mean = jnp.mean(x, axis=-1, keepdims=True)
    var = jnp.mean(jnp.square(x - mean), axis=-1, keepdims=True)
    return (x - mean) * lax.rsqrt(var + eps) * p["scale"] + p["bias"]


def split_heads(x, heads):
    b, t, d = x.shape
    return x.reshape(b, t, heads, d // heads).transpose(0, 2, 1, 3)  # (B, H, T, Dh)


def merge_heads(x):
    b, h, t, dh = x.shape
    return x.transpose(0, 2, 1, 3).reshape(b, t, h * dh)


def attention(q, k, v, mask=None, bias=None):
    """softmax(q k^T / sqrt(Dh) [masked] [+ bias]) v on (B, H, T, Dh) heads."""
    s = q @ jnp.swapaxes(k, -1, -2) / math.sqrt(q.shape[-1])
    if bias is not None:
        s = s + bias
    if mask is not None:
        s = jnp.where(mask, s, jnp.finfo(s.dtype).min)
    return jax.nn.softmax(s, axis=-1) @ v


class Init:
    """Random weights from one numpy RandomState, scaled so activations stay O(1)."""

    def __init__(self, seed):
        self.rs = np.random.RandomState(seed)

    def normal(self, *shape, scale=1.0):
        return (self.rs.standard_normal(shape) * scale).astype(F32)

    def dense(self, din, dout, scale=None):
        return {"kernel": self.normal(din, dout, scale=din ** -0.5 if scale is None else scale),
                "bias": self.normal(dout, scale=0.02)}

    def ln(self, d):
        return {"scale": (1.0 + self.normal(d, scale=0.05)).astype(F32), "bias": self.normal(d, scale=0.02)}


# --------------------------------------------------------------------------------------------
# GPT-2 (pre-LN blocks, tanh GELU, causal mask, tied embeddings: logits = h @ wte.T)


def gpt2_config(small):
    if small:
        return dict(vocab=1000, ctx=128, d=64, heads=4, layers=2)
    return dict(vocab=50257, ctx=1024, d=768, heads=12, layers=12)


def gpt2_block_params(init, d, layers):
    return {"ln_1": init.ln(d), "attn": init.dense(d, 3 * d, scale=0.02),
            "proj": init.dense(d, d, scale=0.02 / math.sqrt(2 * layers)),
            "ln_2": init.ln(d), "fc": init.dense(d, 4 * d, scale=0.02),
            "out": init.dense(4 * d, d, scale=0.02 / math.sqrt(2 * layers))}


@functools.lru_cache(maxsize=None)
def gpt2_params(small):
    c = gpt2_config(small)
    init = Init(0)
    return {"wte": init.normal(c["vocab"], c["d"], scale=0.02), "wpe": init.normal(c["ctx"], c["d"], scale=0.01),
            "blocks": [gpt2_block_params(init, c["d"], c["layers"]) for _ in range(c["layers"])],
            "ln_f": init.ln(c["d"])}


def gpt2_block(p, x, heads):
    t = x.shape[1]
    h = layer_norm(p["ln_1"], x, 1e-5)
    q, k, v = jnp.split(dense(p["attn"], h), 3, axis=-1)
    causal = jnp.tril(jnp.ones((t, t), dtype=bool))
    a = attention(split_heads(q, heads), split_heads(k, heads), split_heads(v, heads), mask=causal)
    x = x + dense(p["proj"], merge_heads(a))
    h = layer_norm(p["ln_2"], x, 1e-5)
    return x + dense(p["out"], jax.nn.gelu(dense(p["fc"], h)))


def gpt2_forward_fn(heads):
    def forward(params, tokens):
        t = tokens.shape[1]
        x = params["wte"][tokens] + params["wpe"][:t]  # gather: the token embedding lookup
        for blk in params["blocks"]:
            x = gpt2_block(blk, x, heads)
        h = layer_norm(params["ln_f"], x, 1e-5)
        return h @ params["wte"].T  # tied embeddings

    return forward


def gpt2_decode_fn(heads):
    """One decode step: per-layer caches {"k", "v"} of shape (B, S, H, Dh) (the layout of
    HF's Flax GPT-2), the new key/value written at `pos` with lax.dynamic_update_slice,
    attention over the whole cache with positions > pos masked."""

    def step(params, tokens, pos, cache):
        b = tokens.shape[0]
        d = params["wte"].shape[1]
        x = params["wte"][tokens][:, None, :] + lax.dynamic_slice_in_dim(params["wpe"], pos, 1)[None]
        new_cache = []
        for blk, c in zip(params["blocks"], cache):
            s = c["k"].shape[1]
            h = layer_norm(blk["ln_1"], x, 1e-5)
            q, k, v = jnp.split(dense(blk["attn"], h), 3, axis=-1)  # (B, 1, D) each
            k = k.reshape(b, 1, heads, d // heads)
            v = v.reshape(b, 1, heads, d // heads)
            zero = jnp.zeros((), pos.dtype)
            kc = lax.dynamic_update_slice(c["k"], k, (zero, pos, zero, zero))
            vc = lax.dynamic_update_slice(c["v"], v, (zero, pos, zero, zero))
            new_cache.append({"k": kc, "v": vc})
            qh = q.reshape(b, 1, heads, d // heads).transpose(0, 2, 1, 3)  # (B, H, 1, Dh)
            mask = (jnp.arange(s) <= pos)[None, None, None, :]
            a = attention(qh, kc.transpose(0, 2, 1, 3), vc.transpose(0, 2, 1, 3), mask=mask)
            x = x + dense(blk["proj"], merge_heads(a))
            h = layer_norm(blk["ln_2"], x, 1e-5)
            x = x + dense(blk["out"], jax.nn.gelu(dense(blk["fc"], h)))
        logits = layer_norm(params["ln_f"], x, 1e-5) @ params["wte"].T
        return logits, new_cache

    return step


def gpt2_decode_args(small):
    c = gpt2_config(small)
    init = Init(1)
    b, s, h, dh = 1, c["ctx"], c["heads"], c["d"] // c["heads"]
    pos = s // 2
    cache = []
    for _ in range(c["layers"]):
        # A cache filled up to pos (earlier steps' keys/values), zeros beyond.
        k = np.zeros((b, s, h, dh), F32)
        v = np.zeros((b, s, h, dh), F32)
        k[:, :pos] = init.normal(b, pos, h, dh)
        v[:, :pos] = init.normal(b, pos, h, dh)
        cache.append({"k": k, "v": v})
    tokens = init.rs.randint(0, c["vocab"], size=(b,)).astype(np.int32)
    return (gpt2_params(small), tokens, np.array(pos, np.int32), cache)


def gpt2_const_fn(small):
    """Two GPT-2 blocks with their weights closed over: jax puts them in the module as
    constants (dense<"0x..."> literals), the input is the hidden state."""
    c = gpt2_config(small)
    init = Init(2)
    blocks = [gpt2_block_params(init, c["d"], 2) for _ in range(2)]
    ln_f = init.ln(c["d"])

    def forward(x):
        for blk in blocks:
            x = gpt2_block(blk, x, c["heads"])
        return layer_norm(ln_f, x, 1e-5)

    return forward


# --------------------------------------------------------------------------------------------
# BERT-base (post-LN, exact erf GELU, padding mask as an additive bias, pooler)


def bert_config(small):
    if small:
        return dict(vocab=1000, max_pos=64, types=2, d=64, heads=4, layers=2, ff=256)
    return dict(vocab=30522, max_pos=512, types=2, d=768, heads=12, layers=12, ff=3072)


def bert_params(small):
    c = bert_config(small)
    init = Init(3)
    d = c["d"]
    return {"word": init.normal(c["vocab"], d, scale=0.02), "pos": init.normal(c["max_pos"], d, scale=0.02),
            "type": init.normal(c["types"], d, scale=0.02), "ln_emb": init.ln(d),
            "layers": [{"q": init.dense(d, d), "k": init.dense(d, d), "v": init.dense(d, d), "o": init.dense(d, d),
                        "ln_attn": init.ln(d), "ff_in": init.dense(d, c["ff"]), "ff_out": init.dense(c["ff"], d),
                        "ln_ff": init.ln(d)} for _ in range(c["layers"])],
            "pooler": init.dense(d, d)}


def bert_fn(heads):
    def forward(params, input_ids, token_type_ids, attention_mask):
        t = input_ids.shape[1]
        x = params["word"][input_ids] + params["pos"][jnp.arange(t)][None] + params["type"][token_type_ids]
        x = layer_norm(params["ln_emb"], x, 1e-12)
        # (B, T) 1/0 mask -> additive bias (B, 1, 1, T), as HF's BERT does.
        bias = (1.0 - attention_mask[:, None, None, :].astype(x.dtype)) * -10000.0
        for p in params["layers"]:
            q, k, v = (split_heads(dense(p[n], x), heads) for n in ("q", "k", "v"))
            a = merge_heads(attention(q, k, v, bias=bias))
            x = layer_norm(p["ln_attn"], x + dense(p["o"], a), 1e-12)
            h = jax.nn.gelu(dense(p["ff_in"], x), approximate=False)
            x = layer_norm(p["ln_ff"], x + dense(p["ff_out"], h), 1e-12)
        pooled = jnp.tanh(dense(params["pooler"], x[:, 0]))
        return x, pooled

    return forward


def bert_args(small):
    c = bert_config(small)
    rs = np.random.RandomState(4)
    b, t = 2, (32 if small else 128)
    ids = rs.randint(0, c["vocab"], size=(b, t)).astype(np.int32)
    types = np.zeros((b, t), np.int32)
    types[:, t // 2:] = 1  # a sentence pair
    mask = np.ones((b, t), np.int32)
    mask[1, (3 * t) // 4:] = 0  # the second sequence is padded
    return (bert_params(small), ids, types, mask)


# --------------------------------------------------------------------------------------------
# ViT-B/16 (patch embedding as a stride-16 conv, class token, pre-LN blocks)


def vit_config(small):
    if small:
        return dict(img=64, patch=16, d=64, heads=4, layers=2, mlp=256, classes=10)
    return dict(img=224, patch=16, d=768, heads=12, layers=12, mlp=3072, classes=1000)


def vit_params(small):
    c = vit_config(small)
    init = Init(5)
    d, n = c["d"], (c["img"] // c["patch"]) ** 2 + 1
    return {"patch": {"kernel": init.normal(c["patch"], c["patch"], 3, d, scale=(3 * c["patch"] ** 2) ** -0.5),
                      "bias": init.normal(d, scale=0.02)},
            "cls": init.normal(1, 1, d, scale=0.02), "pos": init.normal(1, n, d, scale=0.02),
            "blocks": [{"ln_1": init.ln(d), "qkv": init.dense(d, 3 * d), "proj": init.dense(d, d, scale=0.5 * d ** -0.5),
                        "ln_2": init.ln(d), "fc1": init.dense(d, c["mlp"]),
                        "fc2": init.dense(c["mlp"], d, scale=0.5 * c["mlp"] ** -0.5)} for _ in range(c["layers"])],
            "ln": init.ln(d), "head": init.dense(d, c["classes"])}


def vit_fn(heads, patch):
    def forward(params, images):  # images (B, H, W, 3) NHWC
        x = lax.conv_general_dilated(images, params["patch"]["kernel"], (patch, patch), "VALID",
                                     dimension_numbers=("NHWC", "HWIO", "NHWC")) + params["patch"]["bias"]
        b, gh, gw, d = x.shape
        x = x.reshape(b, gh * gw, d)
        x = jnp.concatenate([jnp.broadcast_to(params["cls"], (b, 1, d)), x], axis=1) + params["pos"]
        for p in params["blocks"]:
            h = layer_norm(p["ln_1"], x, 1e-6)
            q, k, v = jnp.split(dense(p["qkv"], h), 3, axis=-1)
            x = x + dense(p["proj"], merge_heads(attention(split_heads(q, heads), split_heads(k, heads),
                                                           split_heads(v, heads))))
            h = layer_norm(p["ln_2"], x, 1e-6)
            x = x + dense(p["fc2"], jax.nn.gelu(dense(p["fc1"], h)))
        return dense(params["head"], layer_norm(params["ln"], x, 1e-6)[:, 0])

    return forward


# --------------------------------------------------------------------------------------------
# ResNet-50 inference, NHWC/HWIO, batch norm folded into each convolution's weights and bias


def resnet_config(small):
    if small:
        return dict(stages=(1, 1, 1, 1), widths=(8, 16, 32, 64), img=64, classes=10)
    return dict(stages=(3, 4, 6, 3), widths=(64, 128, 256, 512), img=224, classes=1000)


def resnet_params(small):
    c = resnet_config(small)
    init = Init(6)

    def conv(kh, cin, cout, gain=1.0):
        # He initialisation; `gain` < 1 on a block's last conv stands in for a small folded BN
        # scale, so the residual stream stays O(1) over 16 blocks.
        return {"kernel": init.normal(kh, kh, cin, cout, scale=gain * math.sqrt(2.0 / (kh * kh * cin))),
                "bias": init.normal(cout, scale=0.01)}

    params = {"stem": conv(7, 3, c["widths"][0]), "stages": []}
    cin = c["widths"][0]
    for n, w in zip(c["stages"], c["widths"]):
        blocks = []
        for i in range(n):
            blk = {"conv1": conv(1, cin, w), "conv2": conv(3, w, w), "conv3": conv(1, w, 4 * w, gain=0.2)}
            if i == 0:
                blk["shortcut"] = conv(1, cin, 4 * w, gain=0.5)
            blocks.append(blk)
            cin = 4 * w
        params["stages"].append(blocks)
    params["fc"] = init.dense(cin, c["classes"])
    return params


def conv2d(p, x, stride=1, padding="SAME"):
    k = p["kernel"].shape[0]
    pad = ((k // 2, k // 2), (k // 2, k // 2)) if padding == "SAME" else padding
    y = lax.conv_general_dilated(x, p["kernel"], (stride, stride), pad, dimension_numbers=("NHWC", "HWIO", "NHWC"))
    return y + p["bias"]


def resnet_forward(params, images):
    x = jax.nn.relu(conv2d(params["stem"], images, stride=2))
    x = lax.reduce_window(x, -jnp.inf, lax.max, (1, 3, 3, 1), (1, 2, 2, 1), ((0, 0), (1, 1), (1, 1), (0, 0)))
    for si, blocks in enumerate(params["stages"]):
        for bi, p in enumerate(blocks):
            stride = 2 if (bi == 0 and si > 0) else 1  # stride on the 3x3 conv (ResNet v1.5)
            h = jax.nn.relu(conv2d(p["conv1"], x))
            h = jax.nn.relu(conv2d(p["conv2"], h, stride=stride))
            h = conv2d(p["conv3"], h)
            sc = conv2d(p["shortcut"], x, stride=stride) if "shortcut" in p else x
            x = jax.nn.relu(h + sc)
    return dense(params["fc"], jnp.mean(x, axis=(1, 2)))


# --------------------------------------------------------------------------------------------
# Training: Adam on a 784-512-512-10 MLP, all steps inside lax.fori_loop


def adam_config(small):
    if small:
        return dict(sizes=(784, 64, 64, 10), batch=32, data=256, steps=10)
    return dict(sizes=(784, 512, 512, 10), batch=128, data=1024, steps=100)


def adam_fn(batch, steps, lr=1e-3, b1=0.9, b2=0.999, eps=1e-8):
    def mlp(params, x):
        for p in params[:-1]:
            x = jax.nn.relu(dense(p, x))
        return dense(params[-1], x)

    def loss_fn(params, x, y):
        logp = jax.nn.log_softmax(mlp(params, x))
        return -jnp.mean(jnp.sum(jax.nn.one_hot(y, logp.shape[-1]) * logp, axis=-1))

    def train(params, xs, ys):
        nbatch = xs.shape[0] // batch

        def step(i, state):
            p, m, v, _ = state
            start = (i % nbatch) * batch  # the batches of the data set in turn
            x = lax.dynamic_slice_in_dim(xs, start, batch)
            y = lax.dynamic_slice_in_dim(ys, start, batch)
            loss, g = jax.value_and_grad(loss_fn)(p, x, y)
            t = (i + 1).astype(xs.dtype)
            m = jax.tree_util.tree_map(lambda m, g: b1 * m + (1 - b1) * g, m, g)
            v = jax.tree_util.tree_map(lambda v, g: b2 * v + (1 - b2) * g * g, v, g)
            p = jax.tree_util.tree_map(
                lambda p, m, v: p - lr * (m / (1 - b1 ** t)) / (jnp.sqrt(v / (1 - b2 ** t)) + eps), p, m, v)
            return p, m, v, loss

        zeros = jax.tree_util.tree_map(jnp.zeros_like, params)
        p, _, _, loss = lax.fori_loop(0, steps, step, (params, zeros, zeros, jnp.zeros((), xs.dtype)))
        return p, loss

    return train


def adam_args(small):
    c = adam_config(small)
    init = Init(7)
    s = c["sizes"]
    params = [init.dense(a, b) for a, b in zip(s[:-1], s[1:])]
    xs = init.normal(c["data"], s[0])
    ys = init.rs.randint(0, s[-1], size=(c["data"],)).astype(np.int32)
    return (params, xs, ys)


# --------------------------------------------------------------------------------------------
# The model list


@dataclass
class Model:
    name: str
    make: Callable  # () -> (fn, args): args a tuple of pytrees of numpy arrays
    note: str  # what it exercises
    tol: float  # on max |strata - xla| / max |xla| per output
    donate: tuple = ()  # donate_argnums for jax.jit (and in-place results for Strata)
    loop_trips: int = 1  # XLA's cost analysis counts a while-loop body once: multiply by this


# Tolerances, on the normalised max error max |strata - xla| / max |xla| per output. Two correct
# f32 implementations differ by the order of the sums in every dot product and reduction; the
# difference grows with depth and with the number of optimiser steps. The run also compares both
# with a float64 evaluation, which measures that noise: ~1e-6 for the 12-layer models and
# ResNet-50, ~2e-7 for 2 blocks, ~2e-3 for 100 Adam steps (Adam divides by sqrt(v), so a
# gradient that is rounding noise in early steps moves its weight by ~lr either way). The
# tolerances sit 20-100x above that noise (1e-4, 2e-5, 5e-3), low enough that a wrong GELU or
# softmax, or an off-by-one position, fails.
def models(small: bool) -> list[Model]:
    g = gpt2_config(small)
    vc = vit_config(small)
    rc = resnet_config(small)
    ac = adam_config(small)
    b_fwd, t_fwd = 2, (32 if small else 128)
    tokens = np.random.RandomState(8).randint(0, g["vocab"], size=(b_fwd, t_fwd)).astype(np.int32)
    images_vit = Init(9).normal(2, vc["img"], vc["img"], 3)
    images_rn = Init(10).normal(2, rc["img"], rc["img"], 3)
    x_const = Init(11).normal(b_fwd, t_fwd, g["d"])
    ms = [
        Model("gpt2_forward", lambda: (gpt2_forward_fn(g["heads"]), (gpt2_params(small), tokens)),
              f"GPT-2 small, tokens ({b_fwd}, {t_fwd}): embedding gather, (B,T,D) dense layers, causal mask, "
              "tanh GELU, layer norm, logits h @ wte.T", 1e-4),
        Model("gpt2_forward_bf16", lambda: (gpt2_forward_fn(g["heads"]), (to_bf16(gpt2_params(small)), tokens)),
              "the same forward in mixed precision as users cast it: every parameter bf16, so every "
              "activation and dot is bf16 (products summed in f32, each op rounded to bf16)", 5e-2),
        Model("gpt2_decode", lambda: (gpt2_decode_fn(g["heads"]), gpt2_decode_args(small)),
              f"one decode step, batch 1, per-layer KV caches of {g['ctx']} positions updated by "
              "dynamic_update_slice at a position argument; the results are new caches (copies)", 1e-4),
        Model("gpt2_decode_donate", lambda: (gpt2_decode_fn(g["heads"]), gpt2_decode_args(small)),
              "the same step jitted with donate_argnums=(cache,): Strata called with each cache result "
              "buffer equal to its argument (in place), XLA with donation", 1e-4, donate=(3,)),
        Model("bert_base", lambda: (bert_fn(bert_config(small)["heads"]), bert_args(small)),
              f"BERT-base, ids (2, {t_fwd}) with token types and a padding mask (additive bias), post-LN, "
              "erf GELU, pooler", 1e-4),
        Model("vit_b16", lambda: (vit_fn(vc["heads"], vc["patch"]), (vit_params(small), images_vit)),
              f"ViT-B/16, images (2, {vc['img']}, {vc['img']}, 3) NHWC: stride-16 conv patch embedding, "
              f"class token concat, {vc['layers']} pre-LN blocks", 1e-4),
        Model("resnet50", lambda: (resnet_forward, (resnet_params(small), images_rn)),
              f"ResNet-50 v1.5 inference, images (2, {rc['img']}, {rc['img']}, 3) NHWC/HWIO, folded batch norm "
              "(conv + bias), 7x7/2 stem, 3x3/2 max pool, bottlenecks, global mean pool", 1e-4),
        Model("mlp_adam_train", lambda: (adam_fn(ac["batch"], ac["steps"]), adam_args(small)),
              f"{ac['steps']} Adam steps in lax.fori_loop, MLP {'-'.join(map(str, ac['sizes']))}, batch "
              f"{ac['batch']} dynamic-sliced from {ac['data']} samples, value_and_grad of softmax cross-entropy",
              5e-3, loop_trips=ac["steps"]),
        Model("gpt2_const2", lambda: (gpt2_const_fn(small), (x_const,)),
              f"2 GPT-2 blocks + final layer norm with the weights closed over as constants, hidden states "
              f"({b_fwd}, {t_fwd}, {g['d']})", 2e-5),
    ]
    if ARGS.only:
        keys = [k.strip() for k in ARGS.only.split(",") if k.strip()]
        names = {m.name for m in ms}
        ms = [m for m in ms if any(k == m.name or (k not in names and k in m.name) for k in keys)]
    return ms


def to_bf16(tree):
    """Every float array of a pytree as bf16 (ml_dtypes' numpy type, as jax uses)."""
    return jax.tree_util.tree_map(lambda a: a.astype(jnp.bfloat16) if a.dtype == F32 else a, tree)


def export_text(m: Model, fn, args) -> str:
    return jax.jit(fn, donate_argnums=m.donate).lower(*args).as_text()


# --------------------------------------------------------------------------------------------
# Strata and XLA side by side


def find_strata() -> str:
    if ARGS.strata:
        return ARGS.strata
    for p in (os.path.join(ROOT, "target", "release", "strata"), os.path.join(ROOT, "target", "debug", "strata"),
              "/work/main/target/release/strata"):
        if os.path.exists(p):
            return p
    sys.exit("no strata driver: build it or pass --strata")


class CompileError(Exception):
    pass


@dataclass
class StrataLib:
    so: str
    prefix: str
    header: str
    compile_s: float

    @property
    def donated(self) -> list[tuple[int, int]]:
        """(arg, res) pairs the header says may share a buffer (updated in place)."""
        return [(int(a), int(r)) for r, a in
                re.findall(r"Donated: res(\d+) may be the same buffer as arg(\d+)", self.header)]

    def counts(self) -> tuple[int, int]:
        """Number of arguments and results of P_main, from the header's buffer list."""
        m = re.search(rf"/\* {self.prefix}_main\n(.*?)\*/", self.header, re.S)
        body = m.group(1) if m else ""
        # One comment line per buffer: ` *   in  NAME  TYPE ...` / ` *   out NAME ...` (names
        # are the model's paths when it has them, else arg0/res0).
        return (len(re.findall(r"(?m)^\s*\*\s+in\s+\S", body)),
                len(re.findall(r"(?m)^\s*\*\s+out\s+\S", body)))


def strata_compile(strata: str, mlir_path: str, prefix: str, target_cpu="host") -> StrataLib:
    base = os.path.splitext(mlir_path)[0] + ("" if target_cpu == "host" else "." + target_cpu)
    so, h = base + ".so", base + ".h"
    cmd = [strata, "compile", mlir_path, "-o", so, "--header", h, "--name", prefix, "--target-cpu", target_cpu]
    t0 = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True)
    dt = time.perf_counter() - t0
    if r.returncode != 0:
        raise CompileError(f"`{' '.join(cmd)}` exited {r.returncode}: {(r.stderr or r.stdout).strip()}")
    return StrataLib(so, prefix, open(h).read(), dt)


class StrataRunner:
    """Calls P_main through ctypes on preallocated numpy buffers. With `inplace`, each donated
    result buffer is its argument's buffer (the caller's cache is updated in place)."""

    label = "Strata"

    def __init__(self, lib: StrataLib, leaves, out_avals, inplace: bool):
        n_args, n_res = lib.counts()
        if (n_args, n_res) != (len(leaves), len(out_avals)):
            raise RuntimeError(f"header has {n_args} args / {n_res} results, jax flattens to "
                               f"{len(leaves)} / {len(out_avals)} (an argument pruned as unused?)")
        self.dll = ctypes.CDLL(lib.so)
        self.fn = getattr(self.dll, lib.prefix + "_main")
        self.fn.restype = ctypes.c_int32
        self.err = getattr(self.dll, lib.prefix + "_last_error")
        self.err.restype = ctypes.c_char_p
        self.ins = [np.array(a, copy=True, order="C") for a in leaves]
        self.outs = [np.zeros(a.shape, a.dtype) for a in out_avals]
        self.inplace = lib.donated if inplace else []
        for a, r in self.inplace:
            self.outs[r] = self.ins[a]
        ptrs = [x.ctypes.data for x in self.ins + self.outs]
        self.fn.argtypes = [ctypes.c_void_p] * len(ptrs)
        fn = self.fn
        self.run = lambda: fn(*ptrs)

    def call_checked(self):
        rc = self.run()
        if rc != 0:
            raise RuntimeError(f"{self.fn.__name__} returned {rc}: {self.err().decode(errors='replace')}")
        return [o.copy() for o in self.outs]


class XlaRunner:
    """The same function under jax.jit on XLA:CPU, arguments already on the device. With
    donation the cache returned by one call is passed to the next (the donated input is gone)."""

    label = "XLA"

    def __init__(self, m: Model, fn, args):
        self.jf = jax.jit(fn, donate_argnums=m.donate)
        self.dargs = [jax.device_put(a) for a in args]
        t0 = time.perf_counter()
        # Called through the compiled object: one compilation, donation baked into it.
        self.compiled = self.jf.lower(*args).compile()
        self.compile_s = time.perf_counter() - t0
        jf = self.compiled
        self.donate = m.donate
        self.last = None
        if m.donate:
            assert m.donate == (3,), "the donation loop below is written for the decode step"

            def run():
                out = jax.block_until_ready(jf(*self.dargs))
                self.dargs[3] = out[1]  # the updated cache feeds the next step
                self.last = out
                return out
        else:
            def run():
                out = jax.block_until_ready(jf(*self.dargs))
                self.last = out
                return out
        self.run = run

    def call_checked(self):
        return [np.asarray(x) for x in jax.tree_util.tree_leaves(self.run())]

    def flops(self, trips):
        try:
            ca = self.compiled.cost_analysis()
            ca = ca[0] if isinstance(ca, (list, tuple)) else ca
            return float(ca.get("flops", 0.0)) * trips
        except Exception:  # noqa: BLE001 - cost analysis is optional
            return 0.0


def rel_err(out, ref) -> float:
    out, ref = np.asarray(out, np.float64), np.asarray(ref, np.float64)
    if out.shape != ref.shape:
        return math.inf
    if not np.all(np.isfinite(out)):
        return math.inf
    scale = max(float(np.max(np.abs(ref))) if ref.size else 0.0, 1e-30)
    return float(np.max(np.abs(out - ref))) / scale if ref.size else 0.0


def max_rel_err(outs, refs) -> tuple[float, int]:
    """Max over outputs of the normalised max error, and the index of the worst output."""
    errs = [rel_err(o, r) for o, r in zip(outs, refs)]
    i = int(np.argmax(errs)) if errs else 0
    return (errs[i] if errs else 0.0), i


def time_interleaved(runners, rounds, reps, min_time) -> dict:
    """Per-call times: `rounds` rounds, each running `reps` samples of every runner in turn
    (the order alternates between rounds), so a busy spell on the shared machine slows both.
    A sample is n back-to-back calls with n chosen so it lasts >= min_time. Returns
    {label: {"median", "min", "n", "samples"}} in seconds per call, wall clock."""
    per_sample = {}
    for r in runners:
        r.run()  # warm-up (first-call allocation, page faults)
        t0 = time.perf_counter()
        r.run()
        one = max(time.perf_counter() - t0, 1e-6)
        per_sample[r.label] = max(1, math.ceil(min_time / one))
    samples = {r.label: [] for r in runners}
    for rnd in range(rounds):
        order = runners if rnd % 2 == 0 else runners[::-1]
        for r in order:
            n = per_sample[r.label]
            for _ in range(reps):
                t0 = time.perf_counter()
                for _ in range(n):
                    r.run()
                samples[r.label].append((time.perf_counter() - t0) / n)
    return {k: {"median": statistics.median(v), "min": min(v), "n": per_sample[k], "samples": len(v)}
            for k, v in samples.items()}


# --------------------------------------------------------------------------------------------
# Machine description


def cpu_model() -> str:
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def llvm_host_cpu(header: str) -> str:
    m = re.search(r"CPU (\S+), features", header)
    return m.group(1) if m else "?"


def threads_desc() -> str:
    if ARGS.threads == "1":
        return (f"1 thread: the process pinned to CPU {PINNED_CPU} (sched_setaffinity, as taskset), XLA with "
                f"--xla_cpu_multi_thread_eigen=false, Strata's pool sized from the affinity mask (1)")
    return f"all {os.cpu_count()} CPUs: XLA's default threading, Strata's pool at its default size"


def versions(strata) -> str:
    v = []
    for p in ("jax", "jaxlib", "numpy"):
        try:
            v.append(f"{p} {md.version(p)}")
        except md.PackageNotFoundError:
            pass
    try:
        root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(strata))))
        rev = subprocess.run(["git", "-C", root, "rev-parse", "--short", "HEAD"], capture_output=True,
                             text=True).stdout.strip()
        built = datetime.datetime.fromtimestamp(os.path.getmtime(strata)).astimezone().strftime("%Y-%m-%d %H:%M %Z")
        v.insert(0, f"strata driver {strata} (built {built}, its tree at {rev or '?'})")
    except OSError:
        v.insert(0, f"strata driver {strata}")
    return "; ".join(v)


def fmt_ms(s) -> str:
    return "–" if s is None else (f"{s * 1e3:.3f}" if s < 0.01 else f"{s * 1e3:.1f}")


# --------------------------------------------------------------------------------------------
# --export


def do_export(outdir):
    os.makedirs(outdir, exist_ok=True)
    for m in models(ARGS.small):
        fn, args = m.make()
        text = export_text(m, fn, args)
        path = os.path.join(outdir, m.name + ".mlir")
        with open(path, "w") as f:
            f.write(text)
        print(f"{path}: {len(text) / 1e6:.1f} MB, {len(jax.tree_util.tree_leaves(args))} arguments", flush=True)
    return 0


# --------------------------------------------------------------------------------------------
# --run


def eval_f64(fn, args):
    """The same function evaluated in float64 by XLA (jax x64 mode, float32 and bf16 arguments
    widened; closed-over f32 constants keep their values): the scale of rounding in both results."""
    wide = (F32, jnp.bfloat16)
    with jax.enable_x64(True):
        args64 = jax.tree_util.tree_map(lambda a: a.astype(np.float64) if a.dtype in wide else a, args)
        return [np.asarray(x) for x in jax.tree_util.tree_leaves(jax.jit(fn)(*args64))]


def run_model(strata, m: Model) -> dict:
    row = {"m": m, "problems": [], "timing": {}}
    fn, args = m.make()
    leaves = jax.tree_util.tree_leaves(args)
    out_avals = jax.tree_util.tree_leaves(jax.eval_shape(fn, *args))
    mlir = os.path.join(ARGS.workdir, m.name + ".mlir")
    with open(mlir, "w") as f:
        f.write(export_text(m, fn, args))
    row["mlir_mb"] = os.path.getsize(mlir) / 1e6
    row["mlir"] = mlir

    # XLA without donation is the reference for both runners (a donated call consumes its input).
    xla = XlaRunner(m, fn, args)
    ref = XlaRunner(Model(m.name, m.make, m.note, m.tol), fn, args).call_checked() if m.donate else None
    xla_out = xla.call_checked()
    ref = ref if ref is not None else xla_out
    if m.donate:
        e, _ = max_rel_err(xla_out, ref)
        if e > 0:
            row["problems"].append(f"XLA with donation differs from XLA without by {e:.1e}")
    row["flops"] = xla.flops(m.loop_trips)
    out64 = None if ARGS.no_f64 else eval_f64(fn, args)
    if out64 is not None:
        row["xla_vs_f64"] = max_rel_err(ref, out64)[0]
    row["xla_compile_s"] = xla.compile_s

    runners = [xla]
    try:
        lib = strata_compile(strata, mlir, m.name)
        row["strata_compile_s"] = lib.compile_s
        row["header"] = lib.header
        row["donated"] = lib.donated
        if m.donate and not lib.donated:
            row["problems"].append("the header lists no donated buffer: Strata called without in-place results")
        st = StrataRunner(lib, leaves, out_avals, inplace=bool(m.donate))
        out = st.call_checked()
        e, worst = max_rel_err(out, ref)
        row["err"] = e
        if out64 is not None:
            row["strata_vs_f64"] = max_rel_err(out, out64)[0]
        if not e <= (ARGS.tol or m.tol):
            row["problems"].append(f"mismatch: output {worst} {out_avals[worst].shape} off by {e:.2e} "
                                   f"(tolerance {ARGS.tol or m.tol:g})")
        else:
            runners.insert(0, st)
    except CompileError as ex:
        row["problems"].append(f"compile failed: {ex}")
    except Exception as ex:  # noqa: BLE001 - report and carry on with the next model
        row["problems"].append(f"Strata failed: {type(ex).__name__}: {ex}")

    row["timing"] = time_interleaved(runners, ARGS.rounds, ARGS.reps, ARGS.min_time)

    # Check again after the timed calls: in-place updates must leave the same result (the step
    # writes the same key/value at the same position), and nothing may have started failing.
    for r in runners:
        if isinstance(r, StrataRunner):
            e2, worst = max_rel_err(r.call_checked(), ref)
            if not e2 <= (ARGS.tol or m.tol):
                row["problems"].append(f"after the timed calls: output {worst} off by {e2:.2e}")
    return row


def render(rows, strata, elapsed, load0, load1) -> str:
    now = datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z")
    hdr = next((r["header"] for r in rows if r.get("header")), "")
    L = ["# Strata vs XLA:CPU on end-to-end models", ""]
    L.append(f"Generated by `bench/models.py --run{' --small' if ARGS.small else ''} --threads {ARGS.threads}` "
             f"on {now} in {elapsed:.0f} s (see bench/README.md).")
    L.append("")
    L.append(f"- **CPU: {cpu_model()}** (LLVM `--target-cpu host` = {llvm_host_cpu(hdr)}), {os.cpu_count()} CPUs; "
             f"load average {load0[0]:.2f} at start, {load1[0]:.2f} at end (a shared machine)")
    L.append(f"- **Threads: {threads_desc()}**")
    L.append(f"- Versions: {versions(strata)}")
    L.append(f"- Sizes: {'`--small` (development sizes, not the real models)' if ARGS.small else 'the original models'}")
    L.append(f"- Timing: wall clock per call, {ARGS.rounds} rounds × {ARGS.reps} samples of each implementation, "
             f"interleaved in one process (order alternating by round); a sample is ≥ {ARGS.min_time * 1e3:.0f} ms "
             f"of back-to-back calls. Medians, and the ratio of minimums beside. XLA: `jax.jit` on arguments "
             f"already on the device, `block_until_ready`; Strata: `P_main` through ctypes on numpy buffers")
    L.append("- Check: Strata's outputs against XLA's on the same inputs, error = max |strata − xla| / max |xla| "
             "per output (the worst output); the tolerance per model is in the table. For scale, both are also "
             "compared with the same model evaluated in float64 by XLA (jax x64 mode): two f32 results differ "
             "from each other by about as much as each differs from float64")
    L.append("")
    L.append("| model | Strata ms | XLA ms | Strata/XLA | (of minimums) | Strata GFLOP/s | err vs XLA (tol) | "
             "err vs f64: Strata / XLA | Strata compile s |")
    L.append("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        m, tm = r["m"], r["timing"]
        s, x = tm.get("Strata"), tm.get("XLA")
        ratio = f"**{s['median'] / x['median']:.2f}×**" if s and x else "–"
        ratio_min = f"{s['min'] / x['min']:.2f}×" if s and x else "–"
        gf = f"{r['flops'] / s['median'] / 1e9:.1f}" if s and r.get("flops") else "–"
        err = f"{r['err']:.1e}" if "err" in r else "–"
        cs = f"{r['strata_compile_s']:.1f}" if "strata_compile_s" in r else "failed"
        e64 = " / ".join(f"{r[k]:.0e}" if k in r else "–" for k in ("strata_vs_f64", "xla_vs_f64"))
        L.append(f"| {m.name} | {fmt_ms(s['median']) if s else 'failed'} | {fmt_ms(x['median']) if x else '–'} | "
                 f"{ratio} | {ratio_min} | {gf} | {err} ({ARGS.tol or m.tol:g}) | {e64} | {cs} |")
    L.append("")
    L.append("Ratios > 1: Strata is slower. GFLOP/s: XLA's cost analysis of the module (its FLOP count; a "
             "`fori_loop` body counted once, multiplied here by the trip count) over Strata's median time.")
    L.append("")
    for r in rows:
        m = r["m"]
        extra = f" Donated pairs (arg, res) in the header: {len(r['donated'])}." if m.donate and "donated" in r else ""
        L.append(f"- **{m.name}** ({r['mlir_mb']:.1f} MB of StableHLO): {m.note}.{extra}")
    problems = [r for r in rows if r["problems"]]
    L.append("")
    if problems:
        L.append("## Problems")
        L.append("")
        for r in problems:
            for p in r["problems"]:
                p = p if len(p) < 1500 else p[:1500] + " …"
                L.append(f"- **{r['m'].name}** (`{os.path.basename(r['mlir'])}`): {p}")
    else:
        L.append("All models compiled, and Strata agreed with XLA within each model's tolerance.")
    L.append("")
    return "\n".join(L)


def do_run():
    os.makedirs(ARGS.workdir, exist_ok=True)
    strata = find_strata()
    load0, t_start = os.getloadavg(), time.perf_counter()
    print(f"strata: {strata}; {threads_desc()}; CPU: {cpu_model()}", flush=True)
    rows = []
    for m in models(ARGS.small):
        print(f"== {m.name}", flush=True)
        row = run_model(strata, m)
        rows.append(row)
        tm = row["timing"]
        print("   " + ", ".join(f"{k} {fmt_ms(v['median'])} ms" for k, v in tm.items())
              + (f", err {row['err']:.1e}" if "err" in row else "")
              + (f", Strata compile {row['strata_compile_s']:.1f} s" if "strata_compile_s" in row else ""), flush=True)
        for p in row["problems"]:
            print("   PROBLEM: " + p[:2000], flush=True)
    text = render(rows, strata, time.perf_counter() - t_start, load0, os.getloadavg())
    print()
    print(text)
    if not ARGS.no_write:
        with open(ARGS.out, "w") as f:
            f.write(text)
        print(f"wrote {ARGS.out}")
    return 1 if any(r["problems"] for r in rows) else 0


# --------------------------------------------------------------------------------------------
# --profile: where Strata's time goes


def classify(dso: str, sym: str, prefix: str) -> str:
    """The bucket of one profiled symbol (perf's or callgrind's dso and symbol names)."""
    s = sym.lower()
    base = os.path.basename(dso)
    if sym.startswith(prefix + ".") or sym.startswith(prefix + "_main"):
        return "generated loop nests"
    if "gemm" in s or "fft" in s or "faer" in s or re.search(r"strata_rt_(eig|svd|triangular|householder)", s):
        return "kernels (GEMM etc.)"
    if re.search(r"mem(cpy|move|set)", s):
        return "memcpy/memset"
    if re.search(r"(^|_)(malloc|free|calloc|realloc|cfree)\b|_int_(malloc|free)|malloc_consolidate|unlink_chunk|"
                 r"sysmalloc|tcache|^mmap|^munmap|posix_memalign|aligned_alloc|__rust_(alloc|dealloc)", s):
        return "malloc/free"
    # Threads handing work to each other: rayon's latches, std's futex mutex, the scheduler.
    if re.search(r"rayon|crossbeam|mutex|condvar|futex|latch|^syscall$|sched|task_switch|__schedule|"
                 r"try_to_wake_up|park", s):
        return "thread hand-off (locks, futex, scheduling)"
    if dso.startswith("[k") or base.startswith("[kernel") or base == "vmlinux":
        return "OS kernel (page faults, other)"
    if "strata_rt_" in s or "strata_runtime" in s or base.startswith(prefix):
        return "runtime (arena, other)"
    if base.startswith("libm.") or base.startswith("libm-") or re.match(
            r"^_*(exp|log|tanh|erf|erfc|pow|sqrt|sin|cos|expm1|log1p|atan2?)f?(_\w+)?$", s):
        return "libm (scalar exp, erf, ...)"
    if "python" in base or "numpy" in base or "_ctypes" in base or "libffi" in base:
        return "Python / ctypes (calling)"
    return "other"


def perf_works() -> bool:
    if not shutil.which("perf"):
        return False
    try:
        data = os.path.join(ARGS.workdir, "perf-probe.data")
        r = subprocess.run(["perf", "record", "-q", "-o", data, "--", "true"], capture_output=True, timeout=60)
        return r.returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def profile_with_perf(spec_path, data, pin) -> tuple[list, str]:
    """Samples the child with `perf record` from after its warm-up to its exit; returns
    [(percent of the child's samples, dso, symbol)]. System-wide recording (-a, or -C on the
    pinned CPU) filtered to the child's threads afterwards: attaching to the process (-p) makes
    perf switch its event at every context switch, which in this VM doubled the time of a
    model whose threads hand work to each other."""
    cmd = ([] if pin is None else ["taskset", "-c", str(pin)]) + [sys.executable, os.path.abspath(__file__),
                                                                  "--profile-child", spec_path]
    child = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    if child.stdout.readline().strip() != "ready":
        child.kill()
        raise RuntimeError("the profiled child failed before its first call")
    # The child's threads (its pool's were started by the warm-up calls).
    tids = {int(t) for t in os.listdir(f"/proc/{child.pid}/task")}
    scope = ["-a"] if pin is None else ["-C", str(pin)]
    rec = subprocess.Popen(["perf", "record", "-F", "999", *scope, "-o", data],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    time.sleep(1.0)  # let perf start before the timed calls do
    if rec.poll() is not None:  # no system-wide recording allowed: attach to the process
        rec = subprocess.Popen(["perf", "record", "-F", "999", "-p", str(child.pid), "-o", data],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        scope = ["-p"]
        time.sleep(1.0)
    child.stdin.write("go\n")
    child.stdin.flush()
    line = child.stdout.readline().split()
    child.wait()
    if rec.poll() is None:
        rec.send_signal(subprocess.signal.SIGINT)
    rec.wait(timeout=300)
    # Filter by thread id ourselves: `perf report --pid` silently dropped the samples of the
    # process in libc (memcpy) in perf 6.1, and system-wide data holds other processes too.
    rep = subprocess.run(["perf", "report", "-i", data, "--stdio", "--no-children", "--sort", "pid,dso,sym",
                          "-t", "\t", "-q"], capture_output=True, text=True)
    raw = []
    for ln in rep.stdout.splitlines():
        f = [x.strip() for x in ln.split("\t")]
        if len(f) == 4 and f[0].endswith("%") and int(f[1].split(":")[0]) in tids:
            kind, _, sym = f[3].partition(" ")
            raw.append((float(f[0][:-1]), "[kernel]" if kind == "[k]" else f[2], sym.strip()))
    merged: dict[tuple, float] = {}
    for pct, dso, sym in raw:  # the same symbol on several threads: one row
        merged[(dso, sym)] = merged.get((dso, sym), 0.0) + pct
    total = sum(merged.values()) or 1.0
    rows = [(100.0 * pct / total, dso, sym) for (dso, sym), pct in merged.items()]
    calls = f"{line[1]} calls of {float(line[2]) * 1e3:.2f} ms" if len(line) == 3 else "?"
    return rows, (f"perf record -F 999 {' '.join(scope)} (cpu-clock samples, self time) filtered to the process, "
                  f"from after 2 warm-up calls; {calls}")


def profile_with_callgrind(spec_path, out, prefix, pin) -> tuple[list, str]:
    """Instruction counts (Ir) of every thread, with instrumentation switched on after the
    child's warm-up calls (`callgrind_control -i on`): the library's parallel regions run on
    its pool's threads, so toggling on the exported function alone would miss them."""
    cmd = ([] if pin is None else ["taskset", "-c", str(pin)]) + [
        "valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", "--instr-atstart=no",
        sys.executable, os.path.abspath(__file__), "--profile-child", spec_path]
    child = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    first = child.stdout.readline().strip()
    if first != "ready":
        child.kill()
        raise RuntimeError(f"the profiled child failed under valgrind: {first}")
    subprocess.run(["callgrind_control", "-i", "on", str(child.pid)], capture_output=True, timeout=120)
    child.stdin.write("go\n")
    child.stdin.flush()
    child.wait()
    files = sorted(f for f in os.listdir(os.path.dirname(out)) if f.startswith(os.path.basename(out)))
    rep = subprocess.run(["callgrind_annotate", "--inclusive=no", "--threshold=100",
                          *[os.path.join(os.path.dirname(out), f) for f in files]], capture_output=True, text=True).stdout
    rows, total = [], 0.0
    for ln in rep.splitlines():
        mm = re.match(r"^\s*([\d,]+)\s+(?:\(\s*[\d.]+%\)\s+)?(\S.*?):(\S+?)\s*(?:\[(.*)\])?\s*$", ln)
        if mm and "PROGRAM TOTALS" not in ln:
            ir = float(mm.group(1).replace(",", ""))
            total += ir
            rows.append((ir, mm.group(4) or mm.group(2), mm.group(3)))
    rows = [(100.0 * ir / total, dso, sym) for ir, dso, sym in rows] if total else []
    return rows, (f"valgrind --tool=callgrind: instructions executed (not time), all threads, after 2 uncounted "
                  f"warm-up calls, {ARGS.profile_calls} call(s); the library compiled for x86-64-v3 (valgrind "
                  f"has no AVX-512)")


def dispatch_buffers(strata, mlir, prefix) -> dict[str, str]:
    """{outlined loop nest: the buffers it touches}, from the loop-level IR (`strata compile
    M.mlir -o M_low.mlir`): `loop.dispatch(...) {callee = @main__parallel5, ...} : (index,
    index, index, memref<1x1024x12x64xf32>, memref<12x64x1024xf32>)` says that
    `M.main__parallel5.task` reads or writes those two (here: a transposed copy of a cache)."""
    low = os.path.join(ARGS.workdir, prefix + "_low.mlir")
    r = subprocess.run([strata, "compile", mlir, "-o", low, "--target-cpu", "host"], capture_output=True, text=True)
    if r.returncode != 0:
        return {}
    out = {}
    for callee, types in re.findall(r'"loop.dispatch"[^{]*\{callee = @([\w.]+),[^}]*\} : \(([^)]*)\)', open(low).read()):
        bufs = [t.strip()[len("memref<"):-1] for t in types.split(",") if t.strip().startswith("memref<")]
        out[callee] = ", ".join(bufs)
    return out


def profile_model(strata, m: Model) -> str:
    fn, args = m.make()
    leaves = jax.tree_util.tree_leaves(args)
    out_avals = jax.tree_util.tree_leaves(jax.eval_shape(fn, *args))
    mlir = os.path.join(ARGS.workdir, m.name + ".mlir")
    with open(mlir, "w") as f:
        f.write(export_text(m, fn, args))
    paths = []
    for i, a in enumerate(leaves):
        p = os.path.join(ARGS.workdir, f"{m.name}.arg{i}.npy")
        np.save(p, np.ascontiguousarray(a))
        paths.append(p)
    tool = ARGS.profile_tool
    if tool == "auto":
        tool = "perf" if perf_works() else ("callgrind" if shutil.which("valgrind") else None)
    if tool is None:
        return f"## {m.name}\n\nNo profiler works here: `perf record` failed and valgrind is not installed.\n"
    # valgrind (3.19) cannot run AVX-512 code, and the library refuses to run on a CPU lacking its
    # target's features: under callgrind, profile the portable AVX2 build (x86-64-v3) instead.
    lib = strata_compile(strata, mlir, m.name, "host" if tool == "perf" else "x86-64-v3")
    spec = {"so": lib.so, "prefix": m.name, "args": paths, "results": [[list(a.shape), str(a.dtype)] for a in out_avals],
            "donated": lib.donated if m.donate else [],
            "seconds": ARGS.profile_seconds if tool == "perf" else 0.0,
            "min_calls": 3 if tool == "perf" else ARGS.profile_calls}
    spec_path = os.path.join(ARGS.workdir, m.name + ".profile.json")
    json.dump(spec, open(spec_path, "w"))
    if tool == "perf":
        rows, how = profile_with_perf(spec_path, os.path.join(ARGS.workdir, m.name + ".perf.data"), PINNED_CPU)
    else:
        rows, how = profile_with_callgrind(spec_path, os.path.join(ARGS.workdir, m.name + ".callgrind.out"),
                                           m.name, PINNED_CPU)
    groups: dict[str, float] = {}
    for pct, dso, sym in rows:
        g = classify(dso, sym, m.name)
        groups[g] = groups.get(g, 0.0) + pct
    L = [f"## {m.name}", "", f"{how}. {threads_desc()}. CPU: {cpu_model()}.", "",
         "| where | share |", "|---|---|"]
    for g, pct in sorted(groups.items(), key=lambda kv: -kv[1]):
        L.append(f"| {g} | {pct:.1f}% |")
    bufs = dispatch_buffers(strata, mlir, m.name)
    L += ["", "Top symbols (for a generated loop nest, the buffers its `loop.dispatch` passes it):", "",
          "| share | group | symbol | object or buffers |", "|---|---|---|---|"]
    for pct, dso, sym in sorted(rows, key=lambda r: -r[0])[:ARGS.profile_top]:
        short = sym if len(sym) < 70 else sym[:67] + "..."
        callee = sym[len(m.name) + 1:].removesuffix(".task") if sym.startswith(m.name + ".") else None
        where = bufs.get(callee) or os.path.basename(dso)
        L.append(f"| {pct:.1f}% | {classify(dso, sym, m.name)} | `{short}` | {where} |")
    L.append("")
    return "\n".join(L)


def do_profile():
    os.makedirs(ARGS.workdir, exist_ok=True)
    strata = find_strata()
    names = [n.strip() for n in ARGS.profile.split(",") if n.strip()]
    ARGS.only = ",".join(names)
    sections = []
    for m in models(ARGS.small):
        print(f"== profiling {m.name}", flush=True)
        try:
            sections.append(profile_model(strata, m))
        except (CompileError, RuntimeError) as ex:
            sections.append(f"## {m.name}\n\nnot profiled: {ex}\n")
        print(sections[-1], flush=True)
    if not sections:
        sys.exit(f"no model named {ARGS.profile}")
    if not ARGS.no_write:
        now = datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z")
        text = (f"# Where Strata's time goes\n\nGenerated by `bench/models.py --profile {ARGS.profile}"
                f"{' --small' if ARGS.small else ''}` on {now}.\n\n" + "\n".join(sections))
        with open(ARGS.profile_out, "w") as f:
            f.write(text)
        print(f"wrote {ARGS.profile_out}")
    return 0


if __name__ == "__main__":
    if ARGS.export:
        sys.exit(do_export(ARGS.export))
    if ARGS.profile:
        sys.exit(do_profile())
    sys.exit(do_run())
