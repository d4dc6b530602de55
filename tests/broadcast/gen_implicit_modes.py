import numpy as np
def lit(a):
    a = np.asarray(a)
    if a.ndim == 0: return str(int(a))
    return "[" + ", ".join(lit(x) for x in a) + "]"
def ty(shape): return "tensor<" + "".join(f"{d}x" for d in shape) + "i32>"
def arr(shape, start):
    n = int(np.prod(shape)) if shape else 1
    return (np.arange(n, dtype=np.int32) + start).reshape(shape)
cases = []
def case(name, comment, a_shape, b_shape, attrs, expected, op="add"):
    a = arr(a_shape, 1); b = arr(b_shape, 100)
    r = expected(a, b)
    cases.append(f"""// {comment}
func.func @{name}() {{
  %a = stablehlo.constant dense<{lit(a)}> : {ty(a_shape)}
  %b = stablehlo.constant dense<{lit(b)}> : {ty(b_shape)}
  %r = "xla.{op}"(%a, %b) {{{attrs}}} : ({ty(a_shape)}, {ty(b_shape)}) -> {ty(r.shape)}
  check.expect_eq_const %r, dense<{lit(r)}> : {ty(r.shape)}
  func.return
}}
""")
npadd = lambda a, b: a + b
case("numpy_same", "numpy: equal shapes", (2,3), (2,3), 'auto_broadcast = "numpy"', npadd)
case("numpy_scalar", "numpy: scalar B", (2,3), (), 'auto_broadcast = "numpy"', npadd)
case("numpy_trailing", "numpy: (2,3,4) + (4) aligned on the right", (2,3,4), (4,), 'auto_broadcast = "numpy"', npadd)
case("numpy_both_stretch", "numpy: (8,1,6,1) + (7,1,5) = (8,7,6,5)", (8,1,6,1), (7,1,5), 'auto_broadcast = "numpy"', npadd)
case("numpy_lhs_lower", "numpy: lower-rank A (3,1) + B (2,1,4) = (2,3,4)", (3,1), (2,1,4), 'auto_broadcast = "numpy"', lambda a,b: a*b, op="multiply")
def pd(a, b, axis):
    # PDPD reference: B (trailing ones trimmed) placed at axis of A.
    ra, rb = a.ndim, b.ndim
    if axis == -1: axis = ra - rb
    bs = list(b.shape)
    while bs and bs[-1] == 1 and axis + len(bs) > ra: bs.pop()
    b2 = b.reshape(bs) if bs else b.reshape(())
    shape = [1]*axis + bs + [1]*(ra - axis - len(bs))
    return a + b2.reshape(shape)
case("pdpd_axis1", "pdpd: (2,3,4,5) + (3,4) at axis 1", (2,3,4,5), (3,4), 'auto_broadcast = "pdpd", axis = 1 : i64', lambda a,b: pd(a,b,1))
case("pdpd_default_axis", "pdpd: (2,3,4,5) + (4,5), default axis -1", (2,3,4,5), (4,5), 'auto_broadcast = "pdpd"', lambda a,b: pd(a,b,-1))
case("pdpd_scalar", "pdpd: (2,3) + scalar", (2,3), (), 'auto_broadcast = "pdpd"', lambda a,b: pd(a,b,-1))
case("pdpd_trailing_ones", "pdpd: (2,3,4) + (2,1) at axis 0 (B's trailing size-1 dimension is ignored)", (2,3,4), (2,1), 'auto_broadcast = "pdpd", axis = 0 : i64', lambda a,b: pd(a,b,0))
case("pdpd_trailing_ones_past_end", "pdpd: (2,3) + (3,1) at axis 1: B's trailing 1 lies past A's rank and is dropped", (2,3), (3,1), 'auto_broadcast = "pdpd", axis = 1 : i64', lambda a,b: pd(a,b,1))
case("pdpd_size1_in_b", "pdpd: (2,3,4) + (1,4): B's size-1 dimension stretches", (2,3,4), (1,4), 'auto_broadcast = "pdpd"', lambda a,b: pd(a,b,-1))
case("none_equal", "none: equal shapes", (2,2), (2,2), 'auto_broadcast = "none"', npadd)
out = "// RUN: strata check %s | FileCheck %s\n// CHECK: {{{{^}}}}{} passed, 0 failed{{{{$}}}}\n\n// Client-level implicit broadcasting modes (OpenVINO's numpy and PDPD rules).\n// Expected values come from numpy.\n\n".format(len(cases)+2)
out += "\n// -----\n\n".join(cases)
# bidirectional broadcast_to
def bt(name, comment, in_shape, target):
    a = arr(in_shape, 1)
    r = a * np.ones(target, dtype=np.int32)
    return f"""// {comment}
func.func @{name}() {{
  %a = stablehlo.constant dense<{lit(a)}> : {ty(in_shape)}
  %r = "xla.broadcast_to"(%a) {{mode = "bidirectional", target_shape = array<i64: {", ".join(map(str,target))}>}} : ({ty(in_shape)}) -> {ty(r.shape)}
  check.expect_eq_const %r, dense<{lit(r)}> : {ty(r.shape)}
  func.return
}}
"""
out += "\n// -----\n\n" + bt("bidirectional_larger", "bidirectional: (3,1) with target (2,1,6) gives (2,3,6), not the target shape", (3,1), (2,1,6))
out += "\n// -----\n\n" + bt("bidirectional_smaller_target", "bidirectional: (2,3,4) with target (3,1) gives (2,3,4)", (2,3,4), (3,1))
open("implicit-modes.mlir","w").write(out)
