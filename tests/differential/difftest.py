"""Differential testing of Strata against XLA:CPU on random programs.

Each program is a random, well-typed expression tree of jax.numpy / lax ops
(element-wise math and comparisons, select, broadcasts, reshapes,
transposes, reversals, slices, concatenation, pads, reductions, dots, sorts,
casts, optimization barriers, fori_loops over closed-over values,
fori_loops updating their state from itself (scatter-adds, overlapping
shifts), dynamic slices, gathers and scatters with out-of-range and INT_MIN
indices) over random inputs of random shapes (zero-sized and size-1
dimensions included) and element types (f32, f16, bf16, i32, ui8, i1),
with NaN, infinities, -0 and INT_MIN among the values. XLA:CPU runs it
compiled (the inputs as arguments); Strata runs the same program exported as
StableHLO with the inputs as constants (`strata check`), its result checked
against XLA's: exactly for integers and booleans, within a few ULP (or a
tolerance scaled by the magnitudes, for reductions and dots) for floats.

A mismatch is shrunk: subtrees are replaced by their operands or by fresh
leaves while the mismatch stays, and the smallest failing program is written
to --keep (with XLA's expected values) for a regression test.

    python tests/differential/difftest.py --strata target/release/strata --count 200 --seed 1

`--backend mlir` runs Strata's second code generator (the loop level lowered
by upstream MLIR's passes) on the same programs: both backends are held to
XLA's results with the same tolerances.

Exit status 0 when every program agrees (known XLA deviations, listed in
tests/invalid/FUZZING.md, are not generated).
"""

import argparse
import os
import random
import re
import subprocess
import sys
import tempfile

import jax

jax.config.update("jax_enable_x64", False)
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "e2e-check"))
import jaxgen  # noqa: E402

FLOATS = [jnp.float32, jnp.float16, jnp.bfloat16]
INTS = [jnp.int32, jnp.uint8]
TYPES = FLOATS + INTS + [jnp.bool_]


class Node:
    """An expression: `op` applied to `kids`, or an input leaf (op None)."""

    def __init__(self, op, kids, shape, dtype, leaf=None, param=None):
        self.op, self.kids, self.shape, self.dtype = op, kids, tuple(shape), dtype
        self.leaf, self.param = leaf, param

    def size(self):
        return 1 + sum(k.size() for k in self.kids)


def is_float(dt):
    return dt in FLOATS


def random_values(rng, shape, dtype):
    n = int(np.prod(shape)) if shape else 1
    if dtype == jnp.bool_:
        v = np.array([rng.random() < 0.5 for _ in range(n)])
    elif dtype in INTS:
        info = np.iinfo(np.dtype(dtype))
        pool = [0, 1, -1, 2, 7, info.min, info.max, 100]
        v = np.array([rng.choice(pool) if rng.random() < 0.3 else rng.randint(max(info.min, -1000), min(info.max, 1000))
                      for _ in range(n)]).astype(np.dtype(dtype)) if n else np.zeros(0, np.dtype(dtype))
    else:
        pool = [0.0, -0.0, 1.0, -1.5, float("nan"), float("inf"), float("-inf"), 1e-3, 65504.0]
        v = np.array([rng.choice(pool) if rng.random() < 0.2 else rng.gauss(0, 3) for _ in range(n)], np.float32)
        v = np.asarray(jnp.asarray(v, dtype))
    return np.asarray(v).reshape(shape)


def leaf(rng, shape, dtype, inputs):
    inputs.append(random_values(rng, shape, dtype))
    return Node(None, [], shape, dtype, leaf=len(inputs) - 1)


# Dynamic indices, in and out of range.
INDICES = [0, 1, 2, -1, -3, 5, 100, -2**31, 2**31 - 1]

UNARY_FLOAT = ["exp", "tanh", "log1p_abs", "sqrt_abs", "floor", "sin", "neg", "abs", "logistic"]
UNARY_INT = ["neg", "abs", "not_or_neg"]
BINARY = ["add", "sub", "mul", "max", "min"]


def gen(rng, shape, dtype, depth, inputs):
    """A random node producing `shape` x `dtype`."""
    if depth <= 0 or rng.random() < 0.25:
        return leaf(rng, shape, dtype, inputs)
    choices = ["unary", "binary", "select", "cast", "transpose", "reverse", "broadcast", "reduce", "slice",
               "concat", "pad", "sort", "dynamic_slice", "take", "scatter_add", "barrier", "loop",
               "loop_update"]
    if is_float(dtype) and len(shape) == 2:
        choices.append("dot")
    kind = rng.choice(choices)
    sub = lambda s, d: gen(rng, s, d, depth - 1, inputs)  # noqa: E731

    def exact_sub(s, d):
        # Below a discontinuous op (floor, a comparison, a cast to an
        # integer), a transcendental function's last-bit differences from
        # XLA (whose tanh returns 1.0 above 7.9, say) become whole units:
        # such operands are leaves instead.
        n = sub(s, d)
        return leaf(rng, s, d, inputs) if is_float(d) and loose(n) else n

    if kind == "unary" and dtype != jnp.bool_:
        op = rng.choice(UNARY_FLOAT if is_float(dtype) else UNARY_INT)
        child = exact_sub(shape, dtype) if op == "floor" else sub(shape, dtype)
        return Node(op, [child], shape, dtype)
    if kind == "binary":
        op = rng.choice(BINARY if dtype != jnp.bool_ else ["and", "or", "xor"])
        return Node(op, [sub(shape, dtype), sub(shape, dtype)], shape, dtype)
    if kind == "select":
        other = rng.choice([t for t in TYPES if t != jnp.bool_])
        cmp = Node(rng.choice(["lt", "eq", "ge", "ne"]), [exact_sub(shape, other), exact_sub(shape, other)], shape,
                   jnp.bool_)
        return Node("select", [cmp, sub(shape, dtype), sub(shape, dtype)], shape, dtype)
    if kind == "cast":
        src = rng.choice(TYPES)
        if dtype in INTS and is_float(src):
            src = jnp.int32  # float -> int conversions of NaN/inf/out-of-range differ by design
        child = exact_sub(shape, src) if not is_float(dtype) else sub(shape, src)
        return Node("cast", [child], shape, dtype)
    if kind == "transpose" and len(shape) >= 2:
        perm = list(range(len(shape)))
        rng.shuffle(perm)
        inv = np.argsort(perm)
        src = tuple(shape[i] for i in inv)
        return Node("transpose", [sub(src, dtype)], shape, dtype, param=tuple(perm))
    if kind == "reverse" and shape:
        axis = rng.randrange(len(shape))
        return Node("reverse", [sub(shape, dtype)], shape, dtype, param=axis)
    if kind == "broadcast" and shape:
        axis = rng.randrange(len(shape))
        src = shape[:axis] + (1,) + shape[axis + 1:]
        return Node("broadcast", [sub(src, dtype)], shape, dtype)
    if kind == "reduce" and len(shape) < 3 and dtype != jnp.bool_:
        axis = rng.randrange(len(shape) + 1)
        src = shape[:axis] + (rng.choice([0, 1, 3, 4]),) + shape[axis:]
        op = rng.choice(["sum", "max", "min"] if dtype != jnp.uint8 else ["max", "min"])
        return Node("reduce_" + op, [sub(src, dtype)], shape, dtype, param=axis)
    if kind == "slice" and shape:
        axis = rng.randrange(len(shape))
        extra = rng.choice([1, 2, 3])
        src = shape[:axis] + (shape[axis] + extra,) + shape[axis + 1:]
        start = rng.randrange(extra + 1)
        # XLA (jaxlib 0.10) aborts on an empty slice of a concatenate
        # (SmallVector length_error): an empty slice takes a leaf.
        child = leaf(rng, src, dtype, inputs) if shape[axis] == 0 else sub(src, dtype)
        return Node("slice", [child], shape, dtype, param=(axis, start))
    if kind == "concat" and shape and shape[0] >= 1:
        cut = rng.randrange(shape[0] + 1)
        a, b = (cut,) + shape[1:], (shape[0] - cut,) + shape[1:]
        return Node("concat", [sub(a, dtype), sub(b, dtype)], shape, dtype)
    if kind == "pad" and shape and shape[0] >= 2 and dtype != jnp.bool_:
        src = (shape[0] - 2,) + shape[1:]
        return Node("pad", [sub(src, dtype)], shape, dtype)
    if kind == "sort" and shape and dtype in (jnp.float32, jnp.int32):
        return Node("sort", [sub(shape, dtype)], shape, dtype, param=len(shape) - 1)
    if kind == "dynamic_slice" and shape:
        axis = rng.randrange(len(shape))
        src = shape[:axis] + (shape[axis] + rng.choice([0, 1, 3]),) + shape[axis + 1:]
        start = rng.choice(INDICES)
        return Node("dynamic_slice", [sub(src, dtype)], shape, dtype, param=(axis, start))
    if kind == "take" and shape:
        src = (rng.choice([1, 2, 3]),) + shape[1:]
        idx = np.array([rng.choice(INDICES) for _ in range(shape[0])], np.int32)
        return Node("take", [sub(src, dtype)], shape, dtype, param=(idx, rng.choice(["clip", "fill"])))
    if kind == "scatter_add" and shape and dtype == jnp.int32:
        k = rng.choice([0, 1, 3])
        upd = (k,) + shape[1:]
        idx = np.array([rng.choice(INDICES) for _ in range(k)], np.int32)
        return Node("scatter_add", [sub(shape, dtype), sub(upd, dtype)], shape, dtype, param=idx)
    if kind == "loop":
        # A fori_loop whose body closes over a value: JAX makes it loop
        # state the body passes through, which Strata reads in place.
        return Node("loop", [sub(shape, dtype), sub(shape, dtype)], shape, dtype, param=rng.choice([0, 1, 3]))
    if kind == "loop_update" and shape and dtype == jnp.int32:
        # A fori_loop updating its state with a scatter-add or a
        # dynamic_update_slice of values read from that state (repeated
        # rows, overlapping shifts): Strata writes such updates in place,
        # and they must see the state as it was before the update.
        rows = np.array([rng.randrange(shape[0]) for _ in range(rng.choice([1, 2, 3]))], np.int32)
        how = rng.choice(["scatter", "shift"])
        return Node("loop_update", [sub(shape, dtype)], shape, dtype, param=(rng.choice([1, 2, 3]), rows, how))
    if kind == "barrier":
        # Its result names its operand's buffer in Strata: a later value of
        # the same size must not be given that buffer while either is read.
        return Node("barrier", [sub(shape, dtype)], shape, dtype)
    if kind == "dot":
        k = rng.choice([1, 2, 5])
        return Node("dot", [sub((shape[0], k), dtype), sub((k, shape[1]), dtype)], shape, dtype)
    return leaf(rng, shape, dtype, inputs)


def evaluate(node, args):
    """The jax computation of `node` on the input arrays `args`."""
    if node.op is None:
        return args[node.leaf]
    k = [evaluate(c, args) for c in node.kids]
    op = node.op
    simple = {
        "exp": jnp.exp, "tanh": jnp.tanh, "floor": jnp.floor, "sin": jnp.sin, "neg": jnp.negative,
        "abs": jnp.abs, "logistic": jax.nn.sigmoid, "add": jnp.add, "sub": jnp.subtract,
        "mul": jnp.multiply, "max": jnp.maximum, "min": jnp.minimum, "and": jnp.logical_and,
        "or": jnp.logical_or, "xor": jnp.logical_xor, "lt": jnp.less, "eq": jnp.equal,
        "ge": jnp.greater_equal, "ne": jnp.not_equal,
    }
    if op in simple:
        return simple[op](*k)
    if op == "log1p_abs":
        return jnp.log1p(jnp.abs(k[0]))
    if op == "sqrt_abs":
        return jnp.sqrt(jnp.abs(k[0]))
    if op == "not_or_neg":
        return jnp.invert(k[0])
    if op == "select":
        return jnp.where(*k)
    if op == "cast":
        return k[0].astype(node.dtype)
    if op == "transpose":
        return jnp.transpose(k[0], node.param)
    if op == "reverse":
        return jnp.flip(k[0], node.param)
    if op == "broadcast":
        return jnp.broadcast_to(k[0], node.shape)
    if op.startswith("reduce_"):
        f = {"reduce_sum": jnp.sum, "reduce_max": jnp.max, "reduce_min": jnp.min}[op]
        initial = None if op == "reduce_sum" else (jnp.asarray(-jnp.inf if op == "reduce_max" else jnp.inf, node.dtype)
                                                  if is_float(node.dtype) else jnp.asarray(
                                                      np.iinfo(np.dtype(node.dtype)).min if op == "reduce_max"
                                                      else np.iinfo(np.dtype(node.dtype)).max, node.dtype))
        r = f(k[0], axis=node.param) if initial is None else f(k[0], axis=node.param, initial=initial)
        return r.astype(node.dtype)
    if op == "slice":
        axis, start = node.param
        return jax.lax.slice_in_dim(k[0], start, start + node.shape[axis], axis=axis)
    if op == "concat":
        return jnp.concatenate(k, axis=0)
    if op == "pad":
        widths = [(1, 1)] + [(0, 0)] * (len(node.shape) - 1)
        return jnp.pad(k[0], widths, constant_values=3)
    if op == "sort":
        return jnp.sort(k[0], axis=node.param)
    if op == "dynamic_slice":
        axis, start = node.param
        starts = [0] * len(node.shape)
        starts[axis] = jnp.int32(start)
        return jax.lax.dynamic_slice(k[0], starts, node.shape)
    if op == "take":
        idx, mode = node.param
        return jnp.take(k[0], jnp.asarray(idx), axis=0, mode=mode)
    if op == "scatter_add":
        return k[0].at[jnp.asarray(node.param)].add(k[1], mode="drop")
    if op == "barrier":
        return jax.lax.optimization_barrier(k[0])
    if op == "loop":
        init, closed = k
        step = jnp.logical_xor if node.dtype == jnp.bool_ else jnp.add
        return jax.lax.fori_loop(0, node.param, lambda i, c: step(c, closed), init)
    if op == "loop_update":
        steps, rows, how = node.param

        def body(i, c):
            n = c.shape[0]
            if how == "scatter":
                at = (jnp.asarray(rows) + i) % n
                return c.at[at].add(c[at[::-1]])
            if n == 1:
                return c + c
            start = (1 - i % 2,) + (0,) * (c.ndim - 1)
            return jax.lax.dynamic_update_slice(c, c[:-1] + c[1:], start)
        return jax.lax.fori_loop(0, steps, body, k[0])
    if op == "dot":
        return jnp.matmul(k[0], k[1], preferred_element_type=node.dtype)
    raise ValueError(op)


def loose(node):
    """Whether a float result went through reductions, dots or
    transcendental functions (compared within a tolerance, not ULPs)."""
    return node.op in ("reduce_sum", "dot", "exp", "tanh", "log1p_abs", "sin", "logistic") or any(
        loose(k) for k in node.kids)


def check_for(node, expected):
    if not is_float(node.dtype):
        return jaxgen.expect_eq(expected)
    if node.dtype == jnp.float32 and not loose(node):
        return jaxgen.expect_close(expected, 2)
    if not loose(node):
        return jaxgen.expect_eq(expected)
    finite = np.abs(np.asarray(expected, np.float64))
    finite = finite[np.isfinite(finite)]
    scale = float(finite.max()) if finite.size else 1.0
    rel = {jnp.float32: 1e-4, jnp.float16: 2e-2, jnp.bfloat16: 6e-2}[node.dtype]
    return jaxgen.expect_almost_eq(expected, rel * max(1.0, scale))


def piece(name, node, inputs):
    """The check piece for `node`, or None when XLA cannot run it."""
    f = lambda *a: evaluate(node, a)  # noqa: E731
    expected = np.asarray(jax.jit(f)(*inputs))
    # Non-finite float results compare only as NaN/inf patterns; loose
    # checks cannot handle them, so such programs are regenerated.
    if is_float(node.dtype) and loose(node) and not np.all(np.isfinite(np.asarray(expected, np.float64))):
        return None
    return jaxgen.piece(name, f, inputs, check_for(node, expected))


# The code generator `strata check` uses (`--backend`).
BACKEND = "native"


def run_strata(strata, pieces):
    """Names of the pieces `strata check` fails, or all of them when it crashed."""
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write("\n// -----\n\n".join(pieces))
        path = f.name
    try:
        out = subprocess.run([strata, "check", "--backend", BACKEND, path], capture_output=True, text=True,
                             timeout=600)
    finally:
        os.unlink(path)
    text = out.stdout + out.stderr
    if out.returncode not in (0, 1) or "panicked" in text or "internal compiler error" in text:
        return None, text
    failed = set(re.findall(r"in @check_(\w+)", text))
    if out.returncode == 1 and not failed:
        return None, text
    return failed, text


def shrink(strata, node, inputs):
    """A smaller node that still fails (greedy: operands, then leaves)."""
    def fails(n, ins):
        p = piece("shrink", n, ins)
        if p is None:
            return False
        failed, _ = run_strata(strata, [p])
        return failed is None or "shrink" in failed

    changed = True
    while changed:
        changed = False
        for path, sub in walk(node):
            for repl in [k for k in sub.kids if k.shape == sub.shape and k.dtype == sub.dtype]:
                cand = replace(node, path, repl)
                if fails(cand, inputs):
                    node, changed = cand, True
                    break
            if changed:
                break
    return node


def walk(node, path=()):
    yield path, node
    for i, k in enumerate(node.kids):
        yield from walk(k, path + (i,))


def replace(node, path, repl):
    if not path:
        return repl
    kids = list(node.kids)
    kids[path[0]] = replace(kids[path[0]], path[1:], repl)
    return Node(node.op, kids, node.shape, node.dtype, node.leaf, node.param)


def describe(node):
    if node.op is None:
        return f"x{node.leaf}"
    return f"{node.op}({', '.join(describe(k) for k in node.kids)})"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--strata", default=os.path.join(HERE, "..", "..", "target", "release", "strata"))
    p.add_argument("--count", type=int, default=100)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--batch", type=int, default=50, help="programs per strata check run")
    p.add_argument("--keep", help="directory for shrunk failing programs")
    p.add_argument("--worker", action="store_true", help="run one batch in this process")
    p.add_argument("--backend", default="native", choices=["native", "mlir"], help="Strata's code generator")
    args = p.parse_args()
    global BACKEND
    BACKEND = args.backend
    if not args.worker:
        return supervise(args)
    return run_batch(args)


def supervise(args):
    """Runs the batches in child processes: XLA itself aborts on some
    programs (a C++ exception in jax's compiler), which must cost one batch,
    not the campaign."""
    done, mismatches, aborted = 0, 0, 0
    batch_index = 0
    while done < args.count:
        n = min(args.batch, args.count - done)
        cmd = [sys.executable, os.path.abspath(__file__), "--worker", "--strata", args.strata,
               "--count", str(n), "--batch", str(n), "--seed", str(args.seed * 100003 + batch_index),
               "--backend", args.backend]
        if args.keep:
            cmd += ["--keep", args.keep]
        out = subprocess.run(cmd, capture_output=True, text=True)
        for line in out.stdout.splitlines():
            if line.startswith("MISMATCH") or "crashed" in line:
                print(line, flush=True)
        found = re.search(r"(\d+) programs, (\d+) mismatches", out.stdout)
        if out.returncode not in (0, 1) or not found:
            aborted += 1
            print(f"batch {batch_index} (seed {args.seed * 100003 + batch_index}): the worker died "
                  f"({out.returncode}): {out.stderr.strip().splitlines()[-1:] }", flush=True)
        else:
            mismatches += int(found.group(2))
        done += n
        batch_index += 1
        print(f"{done} programs, {mismatches} mismatches, {aborted} batches lost to XLA aborts", flush=True)
    return 1 if mismatches else 0


def run_batch(args):
    rng = random.Random(args.seed)
    done, mismatches = 0, []
    while done < args.count:
        batch = []
        while len(batch) < min(args.batch, args.count - done):
            rank = rng.choice([0, 1, 1, 2, 2, 3])
            shape = tuple(rng.choice([0, 1, 2, 3, 4]) if rng.random() < 0.9 else 1 for _ in range(rank))
            dtype = rng.choice(TYPES)
            inputs = []
            node = gen(rng, shape, dtype, rng.randint(1, 4), inputs)
            name = f"p{done + len(batch)}"
            try:
                pc = piece(name, node, inputs)
            except Exception:  # noqa: BLE001 - a combination jax rejects: generate another
                continue
            if pc is None:
                continue
            batch.append((name, node, inputs, pc))
        failed, text = run_strata(args.strata, [b[3] for b in batch])
        if failed is None:
            print(text[-3000:])
            failed = {b[0] for b in batch}
            print("strata check crashed on this batch", file=sys.stderr)
        for name, node, inputs, _ in batch:
            if name in failed:
                small = shrink(args.strata, node, inputs)
                mismatches.append((name, small, inputs))
                print(f"MISMATCH {name}: {describe(small)} : {small.shape} {np.dtype(small.dtype).name}")
                if args.keep:
                    os.makedirs(args.keep, exist_ok=True)
                    with open(os.path.join(args.keep, f"{name}.mlir"), "w") as f:
                        f.write("// RUN: strata check %s | FileCheck %s\n// CHECK: {{^}}1 passed, 0 failed{{$}}\n"
                                f"// Found by tests/differential/difftest.py --seed {args.seed}: {describe(small)}\n\n")
                        f.write(piece(name, small, inputs) or "")
        done += len(batch)
        print(f"{done} programs, {len(mismatches)} mismatches", flush=True)
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
