# Shared by the gen_*.py scripts here: export a JAX function as a
# zero-argument StableHLO function with its inputs closed over, append a
# check of its result, and write the pieces as one `strata check` file.
#
# Expected values are computed by the caller (XLA:CPU on arguments, or
# numpy): XLA constant-folds a program whose inputs are closed over with an
# evaluator that sums in another order than its compiled code.
import re

import jax
import numpy as np


def literal(a, fmt=None):
    """A nested dense<...> literal of array `a` (floats by repr, ints as is)."""
    a = np.asarray(a)
    if fmt is None and a.dtype.itemsize <= 2 and a.dtype.kind in "fV":
        # f16, bf16 and the f8 formats: their bit patterns, exactly.
        digits = 2 * a.dtype.itemsize
        a = a.view(np.uint16 if a.dtype.itemsize == 2 else np.uint8)
        fmt = lambda v: "0x%0*X" % (digits, int(v))
    if fmt is None and np.issubdtype(a.dtype, np.complexfloating):
        part = lambda v: "0x7FF8000000000000" if np.isnan(v) else repr(float(v))
        fmt = lambda v: f"({part(v.real)}, {part(v.imag)})"
    if fmt is None:
        if np.issubdtype(a.dtype, np.integer):
            fmt = lambda v: str(int(v))
        elif np.issubdtype(a.dtype, np.bool_):
            fmt = lambda v: "true" if v else "false"
        else:
            nan = "0x7FF8000000000000" if a.dtype.itemsize == 8 else "0x7FC00000"
            fmt = lambda v: nan if np.isnan(v) else repr(float(v))

    def rec(v):
        return fmt(v) if v.ndim == 0 else "[" + ", ".join(rec(s) for s in v) + "]"

    return rec(a)


def piece(name, f, args, check, exported=False):
    """`@check_NAME` computing f(*args) with the args closed over; `check(value,
    type, indent)` returns the check line(s) inserted before its return. With
    `exported`, the text is `jax.export`'s (helpers as private functions, their
    constants where JAX puts them) instead of `jit(...).lower()`'s."""
    if exported:
        text = jax.export.export(jax.jit(lambda: f(*args)))().mlir_module()
    else:
        text = jax.jit(lambda: f(*args)).lower().as_text()
    body = text[text.index("func.func public @main"):]
    body = body[: body.rindex("}", 0, body.rindex("}"))] + "}"
    body = body.replace("func.func public @main", f"func.func @check_{name}", 1)
    ret = re.search(r"\n(\s*)return (.*) : (.*)\n", body)
    lines = check(ret.group(2).strip(), ret.group(3).strip(), ret.group(1))
    body = body[: ret.start()] + "\n" + lines + body[ret.start() + 1:]
    return body.strip() + "\n"


def expect_eq(out):
    """A bit-exact check of the result against `out`."""
    return lambda value, ty, ind: f"{ind}check.expect_eq_const {value}, dense<{literal(out)}> : {ty}\n"


def expect_almost_eq(out, tolerance):
    """|result - out| <= tolerance, element by element."""
    return lambda value, ty, ind: (
        f"{ind}check.expect_almost_eq_const {value}, dense<{literal(out)}> : {ty} "
        f"{{tolerance = {tolerance:.1e} : f64}}\n")


def expect_close(out, max_ulps):
    """The result within `max_ulps` units in the last place of `out`."""
    return lambda value, ty, ind: (
        f"{ind}%expected = stablehlo.constant dense<{literal(out)}> : {ty}\n"
        f"{ind}check.expect_close {value}, %expected, max_ulp_difference = {max_ulps} : {ty}, {ty}\n")


def write(path, pieces, description):
    """The check file: a RUN line, the expected tally, a description, the pieces."""
    head = (f"// RUN: strata check %s | FileCheck %s\n// CHECK: {{{{^}}}}{len(pieces)} passed, 0 failed{{{{$}}}}\n"
            + "".join(f"// {line}\n" for line in description.strip().split("\n")) + "\n")
    open(path, "w").write(head + "\n// -----\n\n".join(pieces))
