"""`mutate-programs.py --against-xla`: a mutant's checked values, computed by
XLA:CPU (jax's compiler, on the StableHLO text) and held against Strata's.

A piece qualifies when one zero-argument function holds its `check.*` ops at
the top level. That function becomes `@main` returning the checked values;
XLA compiles and runs it (a mutant XLA rejects is skipped), and the piece
`strata check` runs is the same function with its checks replaced by checks of
XLA's values: exact for integers and booleans; for floats within a tolerance scaled to the
largest value, or within 64 ULPs where XLA's values include inf or NaN.

XLA:CPU's own deviations from StableHLO show up as mismatches and are not
Strata's (tests/invalid/FUZZING.md lists them): it flushes f32/bf16/f16
denormals to zero, adds i1 values as xor (the spec: or), orders complex
numbers in maximum/minimum its own way, and the deviations difftest.py avoids.
`known_deviation` names the one a mismatching program holds an op of, so the
probe can file it apart (a real bug in the same program is then filed there
too: read those files before trusting a quiet run).
"""
import multiprocessing
import re

import numpy as np

import jax

jax.config.update("jax_enable_x64", True)

CHECK_START = re.compile(r"^[ \t]*check\.\w+", re.M)
FUNC = re.compile(r"func\.func\s+(?:public\s+)?@(\w+)\s*\(\s*\)\s*(->\s*)?")
OPEN, CLOSE = "([{<", ")]}>"

# Relative tolerances for finite floats, by element type (as difftest.py's).
REL = {"f64": 1e-9, "f32": 1e-4, "f16": 2e-2, "bf16": 6e-2}


def statement_end(text, start):
    """The end of the statement starting at `start`: the first newline with
    every bracket closed (dense literals span lines)."""
    depth = 0
    for i in range(start, len(text)):
        c = text[i]
        if c in OPEN:
            depth += 1
        elif c in CLOSE:
            depth -= 1
        elif c == "\n" and depth <= 0:
            return i
        # `->` is not a bracket.
        if c == ">" and i > 0 and text[i - 1] == "-":
            depth += 1
    return len(text)


def top_level_split(s, sep):
    parts, depth, cur = [], 0, ""
    for i, c in enumerate(s):
        if c in OPEN:
            depth += 1
        elif c in CLOSE and not (c == ">" and i > 0 and s[i - 1] == "-"):
            depth -= 1
        if c == sep and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += c
    parts.append(cur)
    return parts


def checks_of(text):
    """[(start, end, value, type)] of the `check.*` statements."""
    out = []
    for m in CHECK_START.finditer(text):
        end = statement_end(text, m.end())
        stmt = text[m.end():end]
        value = re.match(r"\s*(%[\w#]+)", stmt)
        colon = top_level_split(stmt, ":")
        if not value or len(colon) < 2:
            return None
        ty = top_level_split(colon[-1].split("{")[0] if "{" in colon[-1] else colon[-1], ",")[0].strip()
        if not ty.startswith("tensor<"):
            return None
        out.append((m.start(), end, value.group(1), ty))
    return out


def returning_variant(text):
    """(program, [(value, type)]) with the checks' function as a public @main
    returning the checked values, or None when the piece does not qualify."""
    checks = checks_of(text)
    if not checks:
        return None
    funcs = [(m.start(), m) for m in FUNC.finditer(text)]
    owners = {max((s for s, _ in funcs if s < c[0]), default=None) for c in checks}
    if len(owners) != 1 or None in owners:
        return None
    fstart = owners.pop()
    fm = next(m for s, m in funcs if s == fstart)
    # The function's body: from its `{` to the next func.func (or the end).
    body_open = text.index("{", fm.end())
    nxt = [s for s, _ in funcs if s > fstart]
    fend = nxt[0] if nxt else len(text)
    ret = list(re.finditer(r"^[ \t]*(?:func\.)?return\b[^\n]*$", text[body_open:fend], re.M))
    if not ret:
        return None
    r = ret[-1]
    r_start, r_end = body_open + r.start(), body_open + r.end()
    values = [(v, t) for _, _, v, t in checks]
    names = ", ".join(v for v, _ in values)
    types = ", ".join(t for _, t in values)
    # Rebuild: header, body without checks, new return.
    body = text[body_open + 1:r_start]
    for s, e, _, _ in sorted(checks, reverse=True):
        s, e = s - body_open - 1, e - body_open - 1
        if s < 0 or e > len(body):
            return None
        body = body[:s] + body[e:]
    program = (text[:fstart] + f"func.func public @main() -> ({types}) {{" + body
               + f"  return {names} : {types}\n" + text[r_end:])
    # A module wrapper, if any, is kept; a private helper stays private.
    return program, values


def _worker(conn):
    """Runs programs on XLA:CPU in a process of its own: XLA can die on a
    mutant (it folds `remainder %x, %x` with x = 0 by dividing: SIGFPE)."""
    client = jax.devices("cpu")[0].client
    conn.send("ready")
    while True:
        program = conn.recv()
        try:
            exe = client.compile_and_load(program, jax.devices("cpu")[:1])
            conn.send([np.asarray(o) for o in exe.execute([])])
        except Exception as e:  # noqa: BLE001 - XLA rejecting a mutant is not a finding
            conn.send(str(e))


_WORKER = None


def xla_run(program, timeout=60):
    """XLA's results for `program`, or None when XLA rejects it, dies or hangs."""
    global _WORKER
    if _WORKER is None:
        ctx = multiprocessing.get_context("spawn")
        parent, child = ctx.Pipe()
        proc = ctx.Process(target=_worker, args=(child,), daemon=True)
        proc.start()
        child.close()  # so that the worker's death reads as EOF here
        # Importing jax takes a while on a busy machine; it is not the program's time.
        if not parent.poll(600) or parent.recv() != "ready":
            proc.kill()
            raise RuntimeError("the XLA worker did not start")
        _WORKER = (proc, parent)
    proc, conn = _WORKER
    try:
        conn.send(program)
        if conn.poll(timeout):
            out = conn.recv()
            return out if isinstance(out, list) else None
    except (EOFError, OSError):
        pass
    proc.kill()
    _WORKER = None
    return None


def literal(a):
    from jaxgen import literal as lit
    return lit(a)


def check_of(value, ty, expected):
    elem = re.match(r"tensor<(?:\d+x)*(.+)>$", ty).group(1)
    exact = f"  check.expect_eq_const {value}, dense<{literal(expected)}> : {ty}\n"
    base = elem.removeprefix("complex<").removesuffix(">")
    if base not in REL:
        return exact
    flat = np.asarray(expected).astype(np.complex128 if elem.startswith("complex") else np.float64)
    parts = np.concatenate([flat.real.ravel(), flat.imag.ravel()])
    if not np.all(np.isfinite(parts)):
        # inf and NaN where XLA has them, finite values within a few ULPs.
        name = "%xla_" + re.sub(r"\W", "_", value[1:])
        return (f"  {name} = stablehlo.constant dense<{literal(expected)}> : {ty}\n"
                f"  check.expect_close {value}, {name}, max_ulp_difference = 64 : {ty}, {ty}\n")
    scale = max(1.0, float(np.abs(parts).max()) if parts.size else 1.0)
    tol = REL[base] * scale
    return (f"  check.expect_almost_eq_const {value}, dense<{literal(expected)}> : {ty} "
            f"{{tolerance = {tol:.3e} : f64}}\n")


# XLA:CPU's deviations from the StableHLO spec (FUZZING.md), by the op that
# shows them: one line of the program holding the op and its type.
KNOWN_DEVIATIONS = [
    ("i1-add-is-xor", re.compile(r"stablehlo\.add\b.*tensor<(?:[\dx]*x)?i1>")),
    ("ceil-floor-flush-denormals", re.compile(r"stablehlo\.(?:ceil|floor)\b")),
    ("complex-maximum-minimum", re.compile(r"stablehlo\.(?:maximum|minimum)\b.*complex<")),
    ("count-leading-zeros", re.compile(r"stablehlo\.count_leading_zeros\b")),
    ("popcnt-i4", re.compile(r"stablehlo\.popcnt\b.*tensor<(?:[\dx]*x)?i4>")),
    ("zeta-ulps", re.compile(r"chlo\.(?:zeta|polygamma)\b")),
]


def known_deviation(program):
    """The name of the first known XLA:CPU deviation whose op `program` uses,
    or None."""
    for name, pattern in KNOWN_DEVIATIONS:
        if pattern.search(program):
            return name
    return None


def checked_piece(mutant):
    """The mutant with XLA's values as its checks, or None when it does not
    qualify or XLA does not run it."""
    made = returning_variant(mutant)
    if made is None:
        return None
    program, values = made
    if re.search(r"[x<]u?i4>|f8E|f4E|f6E|!quant|interpreter\.|stablehlo\.rng\b", program):
        # No exact literal round trip through numpy for the narrow types; XLA's
        # popcnt on i4 is its own (FUZZING.md); `rng` values are the implementation's.
        return None
    outs = xla_run(program)
    if outs is None or len(outs) != len(values):
        return None
    checks = "".join(check_of(v, t, o) for (v, t), o in zip(values, outs))
    ret = program.rindex("  return ")
    return program[:ret] + checks + program[ret:]
