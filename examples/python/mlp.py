"""Calls the MLP compiled by Strata from Python through ctypes (no NumPy needed)
and compares its output with JAX/XLA:CPU's (examples/mlp/expected.h).

    strata compile examples/mlp/model.mlir -o libmodel.so
    python3 examples/python/mlp.py ./libmodel.so

Exit status 0 when every output is within 1e-5 of XLA's.
"""

import ctypes
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
MLP = os.path.join(HERE, "..", "mlp")


def c_arrays(path):
    """The `static const float name[N] = {...};` arrays of a header, by name."""
    text = open(path).read()
    arrays = {}
    for name, body in re.findall(r"static const float (\w+)\[\d+\] = \{([^}]*)\}", text):
        arrays[name] = [float(v.rstrip("f")) for v in body.replace("\n", " ").split(",") if v.strip()]
    return arrays


def main(library):
    lib = ctypes.CDLL(library)
    model_main = lib.model_main
    model_main.restype = ctypes.c_int32
    lib.model_last_error.restype = ctypes.c_char_p
    inputs = c_arrays(os.path.join(MLP, "inputs.h"))
    expected = c_arrays(os.path.join(MLP, "expected.h"))["expected_out"]
    # Dense row-major float buffers, in @main's argument order; the result is ours to allocate.
    args = [(ctypes.c_float * len(v))(*v) for v in
            (inputs[n] for n in ("input_x", "input_w1", "input_b1", "input_w2", "input_b2"))]
    out = (ctypes.c_float * len(expected))()
    status = model_main(*args, out)
    if status != 0:
        sys.exit(f"model_main failed ({status}): {lib.model_last_error().decode()}")
    worst = max(abs(a - b) for a, b in zip(out, expected))
    print(f"max |difference| from XLA = {worst:.3g}")
    if worst > 1e-5:
        sys.exit("MISMATCH")
    print(f"OK: all {len(expected)} outputs match XLA")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "./libmodel.so")
