"""Call libraries compiled by Strata from Python with NumPy arrays.

    import strata
    lib = strata.load("libmodel.so")          # reads the library's P_signature()
    out = lib.main(x=x, params_w1=w1, ...)    # or positional, in the signature's order
    lib.main.signature                         # names, JAX paths, types, shapes

Arguments are checked against the signature the library carries (element
type and shape; keyword arguments by buffer name or JAX path), results come
back as new arrays (one array, or a tuple in the signature's order), and a
failed call raises `strata.Error` with the library's message. Calls go
through `P_f_packed`, so any number of buffers works. A function compiled
for every size of a dimension variable (a shape-polymorphic export compiled
without --dim) takes its value from the arguments' shapes.

`strata.compile(fn, *example_args)` exports a JAX function (`jax.export`),
compiles it with the `strata` driver (`$STRATA`, else `strata` on PATH) and
loads it.
"""

import ctypes
import json
import os
import shutil
import subprocess
import tempfile

import numpy as np

__all__ = ["Error", "Library", "Function", "load", "compile"]

_DTYPES = {
    "f16": np.float16, "f32": np.float32, "f64": np.float64,
    "i1": np.bool_, "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
    "ui8": np.uint8, "ui16": np.uint16, "ui32": np.uint32, "ui64": np.uint64,
    "complex<f32>": np.complex64, "complex<f64>": np.complex128,
}


def _term(d):
    """A dimension of the signature as (multiple, variable): "b" is (1, "b"),
    "2*b" (a batch dimension holding 2 entries per row of b) is (2, "b")."""
    times, _, name = d.rpartition("*")
    return (int(times) if times else 1), name


def _ml_dtypes_name(element_type):
    """ml_dtypes' name of a narrow type of the signature: bf16 is bfloat16,
    f8E4M3FN float8_e4m3fn (likewise f6/f4), i4 int4, ui4 uint4 (and i2, ui2)."""
    if element_type == "bf16":
        return "bfloat16"
    for prefix, family in (("f8", "float8_"), ("f6", "float6_"), ("f4", "float4_")):
        if element_type.startswith(prefix) and len(element_type) > 2:
            return family + element_type[2:].lower()
    return {"i4": "int4", "ui4": "uint4", "i2": "int2", "ui2": "uint2"}.get(element_type)


def _dtype(element_type):
    if element_type in _DTYPES:
        return np.dtype(_DTYPES[element_type])
    name = _ml_dtypes_name(element_type)
    if name is not None:
        # Each element of these types takes a whole byte (two for bf16) in
        # the C ABI, as in ml_dtypes' arrays.
        try:
            import ml_dtypes
            return np.dtype(getattr(ml_dtypes, name))
        except (ImportError, AttributeError):
            # The bit patterns, as the C ABI has them.
            return np.dtype(np.uint16 if element_type == "bf16" else np.uint8)
    raise Error(f"element type {element_type} has no NumPy type here")


class Error(RuntimeError):
    """A call that failed, with the library's message (P_last_error())."""


class Function:
    """One exported function: call it with NumPy arrays."""

    def __init__(self, library, entry):
        self.signature = entry
        self.name = entry["name"]
        self._library = library
        self._packed = getattr(library._dll, entry["packed"])
        # A function of dimension variables takes their values first.
        self.dimension_variables = [d["name"] for d in entry.get("dimension_variables", [])]
        self._packed.argtypes = ([ctypes.POINTER(ctypes.c_int64)] if self.dimension_variables
                                 else []) + [ctypes.POINTER(ctypes.c_void_p)]
        self._packed.restype = ctypes.c_int32
        self.arguments = entry["arguments"]
        self.results = entry["results"]
        self.result_names = [r["name"] for r in self.results]

    def __repr__(self):
        args = ", ".join(a["name"] for a in self.arguments)
        return f"<strata function {self.name}({args})>"

    def _bind(self, args, kwargs):
        if len(args) > len(self.arguments):
            raise TypeError(f"{self.name}() takes {len(self.arguments)} arguments, {len(args)} given")
        bound = list(args) + [None] * (len(self.arguments) - len(args))
        by_key = {}
        for i, a in enumerate(self.arguments):
            by_key[a["name"]] = i
            if a.get("path"):
                by_key.setdefault(a["path"], i)
        for key, value in kwargs.items():
            if key not in by_key:
                raise TypeError(f"{self.name}() has no argument {key!r}")
            i = by_key[key]
            if bound[i] is not None:
                raise TypeError(f"{self.name}() got argument {key!r} twice")
            bound[i] = value
        missing = [a["name"] for a, v in zip(self.arguments, bound) if v is None]
        if missing:
            raise TypeError(f"{self.name}() is missing {', '.join(missing)}")
        return bound

    def _dimensions(self, values):
        """The value of each dimension variable, from the first argument
        whose shape has it (every other must agree: checked below)."""
        found = {}
        for a, v in zip(self.arguments, values):
            shape = np.shape(v)
            for d, size in zip(a["shape"], shape):
                if isinstance(d, str) and len(shape) == len(a["shape"]):
                    times, name = _term(d)
                    if size % times:
                        raise ValueError(f"{self.name}(): {a['name']} has {size} rows along "
                                         f"{d}, which is no whole {name}")
                    found.setdefault(name, size // times)
        missing = [d for d in self.dimension_variables if d not in found]
        if missing:
            raise ValueError(f"{self.name}(): no argument gives {', '.join(missing)}")
        return found

    def __call__(self, *args, **kwargs):
        values = self._bind(args, kwargs)
        dims = self._dimensions(values) if self.dimension_variables else {}
        def size(d):
            if not isinstance(d, str):
                return d
            times, name = _term(d)
            return times * dims[name]
        shape_of = lambda b: tuple(size(d) for d in b["shape"])
        keep = []
        for a, v in zip(self.arguments, values):
            want_dtype, want_shape = _dtype(a["element_type"]), shape_of(a)
            arr = np.asarray(v)
            if arr.dtype != want_dtype:
                raise TypeError(f"{self.name}(): {a['name']} is {arr.dtype}, the library takes "
                                f"{want_dtype} ({a['element_type']})")
            if arr.shape != want_shape:
                raise ValueError(f"{self.name}(): {a['name']} has shape {arr.shape}, the library "
                                 f"takes {want_shape}")
            keep.append(np.ascontiguousarray(arr))
        outs = [np.zeros(shape_of(r), _dtype(r["element_type"])) for r in self.results]
        buffers = (ctypes.c_void_p * (len(keep) + len(outs)))(
            *[a.ctypes.data for a in keep + outs])
        if self.dimension_variables:
            values = (ctypes.c_int64 * len(self.dimension_variables))(
                *[dims[d] for d in self.dimension_variables])
            status = self._packed(values, buffers)
        else:
            status = self._packed(buffers)
        if status != 0:
            raise Error(f"{self.name}() failed (status {status}): {self._library.last_error()}")
        return outs[0] if len(outs) == 1 else tuple(outs)


class Library:
    """A shared library compiled by Strata, loaded; its functions are attributes."""

    def __init__(self, path, name=None):
        path = os.path.abspath(path)
        if name is None:
            stem = os.path.basename(path).split(".")[0]
            name = stem[3:] if stem.startswith("lib") and len(stem) > 3 else stem
        self.path, self.prefix = path, name
        self._dll = ctypes.CDLL(path)
        try:
            sig = getattr(self._dll, f"{name}_signature")
        except AttributeError:
            raise Error(f"{path}: no {name}_signature() (not a Strata library, or its prefix is "
                        f"not {name!r}: pass name=...)") from None
        sig.restype = ctypes.c_char_p
        self.signature = json.loads(sig().decode())
        err = getattr(self._dll, f"{name}_last_error")
        err.restype = ctypes.c_char_p
        self._last_error = err
        self.functions = {f["name"]: Function(self, f) for f in self.signature["functions"]}

    def last_error(self):
        return (self._last_error() or b"").decode(errors="replace")

    def __getattr__(self, name):
        functions = self.__dict__.get("functions", {})
        if name in functions:
            return functions[name]
        raise AttributeError(f"{self.__dict__.get('path', 'library')} has no function {name!r}")

    def __repr__(self):
        return f"<strata library {self.path}: {', '.join(self.functions)}>"


def load(path, name=None):
    """Loads a Strata shared library; `name` is its symbol prefix (default: the
    file name without `lib` and extension)."""
    return Library(path, name)


def _driver():
    found = os.environ.get("STRATA") or shutil.which("strata")
    if not found:
        raise Error("the strata driver was not found: set $STRATA or put strata on PATH")
    return found


def compile(fn, *example_args, output=None, options=(), **jit_kwargs):
    """Exports `fn` with jax.export for the example arguments (arrays or
    jax.ShapeDtypeStruct), compiles it with `strata compile` into `output`
    (a temporary .so by default) and loads it."""
    import jax

    exported = jax.export.export(jax.jit(fn, **jit_kwargs))(*example_args)
    work = tempfile.mkdtemp(prefix="strata-")
    try:
        # The serialized export also says which unused arguments jax dropped.
        data, model = exported.serialize(), os.path.join(work, "model.jax")
    except ImportError:  # serialization needs the optional `flatbuffers` package
        data, model = exported.mlir_module().encode(), os.path.join(work, "model.mlir")
    with open(model, "wb") as f:
        f.write(data)
    output = output or os.path.join(work, "libmodel.so")
    name = os.path.basename(output).split(".")[0]
    name = name[3:] if name.startswith("lib") and len(name) > 3 else name
    run = subprocess.run([_driver(), "compile", model, "-o", output, "--name", name, *options],
                         capture_output=True, text=True)
    if run.returncode != 0:
        raise Error(f"strata compile failed:\n{run.stderr}")
    return load(output, name)
