// RUN: strata opt %s --split-input-file --convert-xla-to-loop | FileCheck %s

// check.expect_*: each assertion becomes a call to the runtime's
// strata_rt_check(kind, element code, actual, expected, count, tolerance,
// min_ulp, max_ulp, id), declared once per module. Expected constants become
// globals.

// CHECK: func.func private @strata_rt_check(i32, i32, memref<0xi8>, memref<0xi8>, i64, f64, i64, i64, i64) -> i32
// CHECK-NOT: func.func private @strata_rt_check
// CHECK: "mem.global"() {sym_name = "[[EXP:[^"]*]]", value = dense<[2.0, 4.0]> : tensor<2xf32>}
// CHECK-LABEL: func.func @checks()
// CHECK: %[[ACT:.*]] = "mem.alloc"() : () -> memref<2xf32>
// CHECK: "mem.store"(%{{.*}}, %[[ACT]]
// CHECK: %[[E:.*]] = "mem.get_global"() {name = @[[EXP]]}
// expect_eq_const: kind 0, f32 code 11, 2 elements.
// CHECK-DAG: %[[K0:.*]] = "arith.constant"() {value = 0 : i32}
// CHECK-DAG: %[[F32:.*]] = "arith.constant"() {value = 11 : i32}
// CHECK-DAG: %[[N:.*]] = "arith.constant"() {value = 2 : i64}
// CHECK: "func.call"(%[[K0]], %[[F32]], %[[ACT]], %[[E]], %[[N]], %{{.*}}) {callee = @strata_rt_check} : (i32, i32, memref<2xf32>, memref<2xf32>, i64, f64, i64, i64, i64) -> i32
// expect_almost_eq: kind 1 with its tolerance.
// CHECK-DAG: %[[K1:.*]] = "arith.constant"() {value = 1 : i32}
// CHECK-DAG: %[[TOL:.*]] = "arith.constant"() {value = 0.5 : f64}
// CHECK: "func.call"(%[[K1]], %{{.*}}, %[[ACT]], %[[ACT]], %{{.*}}, %[[TOL]], %{{.*}}) {callee = @strata_rt_check}
// expect_close: kind 2 with its ULP bounds.
// CHECK-DAG: %[[K2:.*]] = "arith.constant"() {value = 2 : i32}
// CHECK-DAG: %[[MIN:.*]] = "arith.constant"() {value = 1 : i64}
// CHECK-DAG: %[[MAX:.*]] = "arith.constant"() {value = 5 : i64}
// CHECK: "func.call"(%[[K2]], %{{.*}}, %[[ACT]], %[[ACT]], %{{.*}}, %{{.*}}, %[[MIN]], %[[MAX]], %{{.*}}) {callee = @strata_rt_check}
// CHECK: "mem.dealloc"(%[[ACT]])
func.func @checks() {
  %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = stablehlo.add %a, %a : tensor<2xf32>
  check.expect_eq_const %b, dense<[2.0, 4.0]> : tensor<2xf32>
  check.expect_almost_eq %b, %b, tolerance = 0.5 : tensor<2xf32>
  check.expect_close %b, %b, min_ulp_difference = 1, max_ulp_difference = 5 : tensor<2xf32>, tensor<2xf32>
  func.return
}

// -----

// Element codes follow the element type: i1 is 0, ui8 is 5, complex<f32> 13.

// CHECK-LABEL: func.func @codes()
// CHECK: %[[C0:.*]] = "arith.constant"() {value = 0 : i32}
// CHECK-NEXT: %[[B:.*]] = "arith.constant"() {value = 0 : i32}
// CHECK-NEXT: "arith.constant"() {value = 3 : i64}
// CHECK: "func.call"(%[[C0]], %[[B]]
// CHECK: "arith.constant"() {value = 0 : i32}
// CHECK-NEXT: %[[U8:.*]] = "arith.constant"() {value = 5 : i32}
// CHECK: "func.call"(%{{.*}}, %[[U8]]
// CHECK: "arith.constant"() {value = 0 : i32}
// CHECK-NEXT: %[[CF:.*]] = "arith.constant"() {value = 13 : i32}
// CHECK: "func.call"(%{{.*}}, %[[CF]]
func.func @codes() {
  %p = stablehlo.constant dense<[true, false, true]> : tensor<3xi1>
  check.expect_eq_const %p, dense<[true, false, true]> : tensor<3xi1>
  %u = stablehlo.constant dense<[1, 255]> : tensor<2xui8>
  check.expect_eq_const %u, dense<[1, 255]> : tensor<2xui8>
  %c = stablehlo.constant dense<[(1.0, 2.0)]> : tensor<1xcomplex<f32>>
  check.expect_eq_const %c, dense<[(1.0, 2.0)]> : tensor<1xcomplex<f32>>
  func.return
}
