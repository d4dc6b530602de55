#!/usr/bin/env python3
"""Attribute-mutation probe over real programs, through the driver.

The libFuzzer targets either mutate bytes (most mutants die in the parser) or
generate programs from a fixed op list. This probe starts from programs that
compile (the StableHLO conformance suite, the JAX exports in tests/e2e-check,
the HLO text in tests/hlo) and changes them a little:
- one or two integer literals replaced by an extreme value (dimension numbers,
  window attributes, type dimensions, index constants, loop bounds), one entry
  dropped from a list, or two numbers of a line swapped;
- an enumerated attribute value swapped for another of its kind (true/false,
  comparison directions and types, FFT types, transposes, RNG algorithms and
  distributions, precisions);
- every tensor of one element type given another, so ops meet element types
  their tests do not use (`--retype` sets this share).
Each mutant runs through `strata check` (MLIR: compile and run, so index
constants reach the generated code) or `strata compile -o x.o` (HLO) under an
8 GB address-space limit.

A mutant is a finding when the driver panics, dies by a signal, exits with a
status other than 0 or 1, prints an internal compiler error, exits 1 without a
located `FILE:LINE:COL: error:` (or a failed check), or runs past the time
limit. Findings are written to OUT with the driver's stderr beside them.
With --against-xla, a mutant's checks are replaced by XLA:CPU's values for
the same function (`against_xla.py`); a failed check is a finding too, filed
as `xla-NAME` (and not counted in the exit status) when the program uses an
op of one of XLA:CPU's known deviations from the spec (`KNOWN_DEVIATIONS`).
A time-out can be the program's own: a mutated loop bound may loop for ever,
and a recv without its send waits for STRATA_COLLECTIVE_TIMEOUT_MS (30 s).

Usage:
  fuzz/scripts/mutate-programs.py [--strata BIN] [--out DIR] [--count N]
                                  [--seed S] [--timeout SEC] [--retype SHARE]
                                  [--against-xla] [FILE...]
Without FILEs it takes the conformance suite (STRATA_CONFORMANCE), tests/e2e-check
and tests/hlo. Exit status 1 if anything was found.
"""
import argparse
import hashlib
import os
import random
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CONFORMANCE = os.environ.get(
    "STRATA_CONFORMANCE", "/work/shared/conformance/stablehlo-interpret")

EXTREMES = ["0", "-1", "1", "2", "3", "-2", "7", "64", "255", "256", "65536",
            "2147483647", "2147483648", "-2147483648", "4294967296",
            "9223372036854775807", "-9223372036854775808", "9223372036854775808",
            "18446744073709551616", "1000000", "100000000000"]

# An integer literal not inside a name (`%x1`, `@f2`, `bb0`, `i64`, `1.5`, `0x..`).
INT = re.compile(r"(?<![\w.#%@])-?\d+(?![\w.])")
LIST_ENTRY = re.compile(r",\s*-?\d+(?![\w.])|(?<=[\[:{])\s*-?\d+\s*,")
LOCATED = re.compile(r":\d+:\d+: error: |check failed|\d+ passed, \d+ failed")


def default_files():
    files = []
    for d, ext in ((CONFORMANCE, ".mlir"), (os.path.join(ROOT, "tests/e2e-check"), ".mlir"),
                   (os.path.join(ROOT, "tests/hlo"), ".hlo")):
        if os.path.isdir(d):
            files += sorted(os.path.join(d, f) for f in os.listdir(d)
                            if f.endswith(ext) and not f.endswith("_optimized.hlo"))
    return files


def pieces_of(path):
    text = open(path).read()
    if path.endswith(".hlo"):
        return [(path, 0, text)]
    return [(path, i, p) for i, p in enumerate(text.split("// -----")) if "func.func" in p]


ELEMENT_TYPES = ["i1", "i4", "i8", "i16", "i32", "i64", "ui4", "ui8", "ui16", "ui32", "ui64",
                 "f16", "bf16", "f32", "f64", "f8E4M3FN", "f8E5M2", "f8E4M3FNUZ", "f4E2M1FN",
                 "complex<f32>", "complex<f64>"]
ELEMENT_TYPE = re.compile(r"(?<=[x<])(?:complex<f(?:32|64)>|f8E\w+|f4E2M1FN|bf16|f16|f32|f64|u?i(?:1|4|8|16|32|64))(?=>)")


def retype(rng, text):
    """Every tensor of one element type given another: a program that stays
    well typed where its literals and ops allow, so ops meet element types
    their tests do not use."""
    found = sorted({m.group() for m in ELEMENT_TYPE.finditer(text)})
    if not found:
        return None
    old = rng.choice(found)
    new = rng.choice([t for t in ELEMENT_TYPES if t != old])
    return ELEMENT_TYPE.sub(lambda m: new if m.group() == old else m.group(), text)


# Enumerated attribute values, by family: a mutant swaps one for another of its family.
KEYWORD_FAMILIES = [
    ["true", "false"],
    ["EQ", "NE", "LT", "LE", "GT", "GE"],
    ["FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED"],
    ["FFT", "IFFT", "RFFT", "IRFFT"],
    ["NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"],
    ["THREE_FRY", "PHILOX"],
    ["UNIFORM", "NORMAL"],
    ["HIGHEST", "HIGH", "DEFAULT"],
]
KEYWORD = re.compile(r"\b(" + "|".join(w for f in KEYWORD_FAMILIES for w in f) + r")\b")


def swap_keyword(rng, text):
    found = list(KEYWORD.finditer(text))
    if not found:
        return None
    m = rng.choice(found)
    family = next(f for f in KEYWORD_FAMILIES if m.group() in f)
    new = rng.choice([w for w in family if w != m.group()])
    return text[:m.start()] + new + text[m.end():]


def mutate(rng, text, retype_share):
    """One mutant of `text`, or None when the chosen mutation does not apply."""
    if rng.random() < retype_share:
        return retype(rng, text)
    if rng.random() < 0.15:
        return swap_keyword(rng, text)
    ints = list(INT.finditer(text))
    if not ints:
        return None
    how = rng.random()
    if how < 0.6:
        chosen = rng.sample(ints, min(rng.randint(1, 2), len(ints)))
        for m in sorted(chosen, key=lambda m: -m.start()):
            text = text[:m.start()] + rng.choice(EXTREMES) + text[m.end():]
        return text
    if how < 0.8:
        entries = list(LIST_ENTRY.finditer(text))
        if not entries:
            return None
        m = rng.choice(entries)
        return text[:m.start()] + text[m.end():]
    m = rng.choice(ints)
    line_start = text.rfind("\n", 0, m.start()) + 1
    line_end = text.find("\n", m.end())
    line_end = len(text) if line_end < 0 else line_end
    others = [o for o in ints if line_start <= o.start() and o.end() <= line_end
              and o.group() != m.group()]
    if not others:
        return None
    a, b = sorted([m, rng.choice(others)], key=lambda x: x.start())
    return text[:a.start()] + b.group() + text[a.end():b.start()] + a.group() + text[b.end():]


def run(strata, path, timeout):
    if path.endswith(".hlo"):
        cmd = f"{strata} compile {path} -o {path}.o"
    else:
        cmd = f"{strata} check {path}"
    try:
        r = subprocess.run(["bash", "-c", f"ulimit -v 8000000; exec {cmd}"],
                           capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout", ""
    # `strata check` reports failed checks on stdout, errors on stderr.
    err = r.stderr + r.stdout
    if r.returncode not in (0, 1):
        return f"exit{r.returncode}", err
    if "panicked" in err or "internal compiler error" in err:
        return "panic" if "panicked" in err else "ice", err
    if r.returncode == 1 and not LOCATED.search(err):
        return "unlocated", err
    return None, err


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--strata", default=os.path.join(ROOT, "target/release/strata"))
    ap.add_argument("--out", default="/tmp/strata-mutants")
    ap.add_argument("--count", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=40)
    ap.add_argument("--retype", type=float, default=0.25,
                    help="share of mutants that change an element type (the rest change numbers)")
    ap.add_argument("--against-xla", action="store_true",
                    help="compare each MLIR mutant's checked values with XLA:CPU's "
                         "(needs jax: the Python of tests/differential/setup.sh)")
    ap.add_argument("--unmutated", action="store_true",
                    help="run every program once as it is (with --against-xla: where XLA:CPU "
                         "and Strata already differ before mutation)")
    ap.add_argument("files", nargs="*")
    args = ap.parse_args()
    if args.against_xla:
        sys.path[:0] = [os.path.dirname(os.path.abspath(__file__)),
                        os.path.join(ROOT, "tests/e2e-check")]
        import against_xla

    rng = random.Random(args.seed)
    pieces = [p for f in (args.files or default_files()) for p in pieces_of(f)]
    if not pieces:
        sys.exit("mutate-programs: no programs to mutate")
    os.makedirs(args.out, exist_ok=True)
    seen, counts, ran = set(), {}, 0
    order = iter(pieces) if args.unmutated else None
    while ran < args.count:
        if order is not None:
            path, index, text = next(order, (None, None, None))
            if path is None:
                break
            mutant = text
        else:
            path, index, text = rng.choice(pieces)
            mutant = mutate(rng, text, args.retype)
        digest = hashlib.sha1((mutant or "").encode()).hexdigest()[:12]
        if mutant is None or digest in seen:
            continue
        seen.add(digest)
        ext = ".hlo" if path.endswith(".hlo") else ".mlir"
        if args.against_xla:
            mutant = None if ext == ".hlo" else against_xla.checked_piece(mutant)
            if mutant is None:
                counts["skipped"] = counts.get("skipped", 0) + 1
                continue
        ran += 1
        current = os.path.join(args.out, "current" + ext)
        with open(current, "w") as f:
            f.write(mutant)
        kind, err = run(args.strata, current, args.timeout)
        if args.against_xla and kind is None and "check failed" in err:
            known = against_xla.known_deviation(mutant)
            kind = f"xla-{known}" if known else "mismatch"
        counts[kind or "ok"] = counts.get(kind or "ok", 0) + 1
        if kind:
            name = f"{kind}-{os.path.basename(path)}-{index}-{digest}{ext}"
            with open(os.path.join(args.out, name), "w") as f:
                f.write(mutant)
            with open(os.path.join(args.out, name + ".stderr"), "w") as f:
                f.write(err[-4000:])
            print(f"{kind}: {name}", flush=True)
        if ran % 250 == 0:
            print(f"{ran} mutants: {counts}", flush=True)
    print(f"{ran} mutants: {counts}", flush=True)
    found = sum(n for k, n in counts.items()
                if k not in ("ok", "skipped") and not k.startswith("xla-"))
    sys.exit(1 if found else 0)


if __name__ == "__main__":
    main()
