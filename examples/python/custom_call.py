"""Registers a Python function as the implementation of a model's custom call
(through ctypes; no NumPy needed), then calls the model.

    strata compile examples/python/custom_call.mlir -o libcc.so
    python3 examples/python/custom_call.py ./libcc.so

A model's `custom_call @host_clip` runs only what the host registered for
`host_clip` with `P_register_custom_call`; before that, the call fails and
`P_last_error()` names the target. Exit status 0 when everything checks out.
"""

import ctypes
import sys

N = 8
# int32_t fn(void *user, const void *const *operands, void *const *results)
CustomCall = ctypes.CFUNCTYPE(
    ctypes.c_int32, ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_void_p)
)


@CustomCall
def host_clip(user, operands, results):
    """Clips the operand to [-1, 1] into the result (both f32[8])."""
    x = ctypes.cast(operands[0], ctypes.POINTER(ctypes.c_float))
    y = ctypes.cast(results[0], ctypes.POINTER(ctypes.c_float))
    for i in range(N):
        y[i] = min(1.0, max(-1.0, x[i]))
    return 0


def main(library):
    lib = ctypes.CDLL(library)
    lib.cc_register_custom_call.argtypes = [ctypes.c_char_p, CustomCall, ctypes.c_void_p]
    lib.cc_register_custom_call.restype = ctypes.c_int32
    lib.cc_last_error.restype = ctypes.c_char_p
    lib.cc_main.restype = ctypes.c_int32
    x = (ctypes.c_float * N)(*[-3.0, -1.0, -0.5, 0.0, 0.25, 0.5, 2.0, 9.0])
    y = (ctypes.c_float * N)()

    # Not registered yet: the call fails and names the target.
    if lib.cc_main(x, y) == 0 or b"host_clip" not in lib.cc_last_error():
        sys.exit("an unregistered custom call ran")
    print("before registration:", lib.cc_last_error().decode())
    # A name that is not one of the model's targets is refused.
    if lib.cc_register_custom_call(b"system", host_clip, None) == 0:
        sys.exit("a foreign target was accepted")

    # `host_clip` (the ctypes object) must stay alive as long as the library may call it.
    if lib.cc_register_custom_call(b"host_clip", host_clip, None) != 0:
        sys.exit("registration failed: " + lib.cc_last_error().decode())
    status = lib.cc_main(x, y)
    if status != 0:
        sys.exit(f"cc_main failed ({status}): {lib.cc_last_error().decode()}")
    want = [2.0 * min(1.0, max(-1.0, v)) for v in x]
    if list(y) != want:
        sys.exit(f"MISMATCH: {list(y)} != {want}")
    print("OK: the registered Python function ran:", list(y))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "./libcc.so")
