// RUN: strata opt %s --loop-profile | FileCheck %s

// Each op of an exported function's body that does work (a loop nest, a
// call, an allocation, a copy) is bracketed by a clock read before it and
// an add to its row of the profile after it; constants, element accesses
// and the return are not timed, nor is anything inside a loop, nor a private
// function. The labels, one per timed op in order, name what it is and
// where its source op is, and go into the module's `strata.profile`.

// CHECK: module attributes {strata.profile = "[\"alloc at {{.*}}loop-profile.mlir:{{[0-9]+}}:{{[0-9]+}}\", \"loop nest at {{.*}}:{{[0-9]+}}:{{[0-9]+}}\", \"gemm_f32 at {{.*}}\", \"copy at {{.*}}\", \"free at {{.*}}\"]"}
// CHECK-DAG: func.func private @strata_rt_profile_now() -> i64
// CHECK-DAG: func.func private @strata_rt_profile_add(i64, i64)

// CHECK-LABEL: func.func @f
// CHECK-NEXT: %[[T0:.*]] = "func.call"() {callee = @strata_rt_profile_now} : () -> i64
// CHECK-NEXT: %[[BUF:.*]] = "mem.alloc"()
// CHECK-NEXT: %[[ID0:.*]] = "arith.constant"() {value = 0 : i64}
// CHECK-NEXT: "func.call"(%[[ID0]], %[[T0]]) {callee = @strata_rt_profile_add}
// CHECK-NEXT: "arith.constant"() {value = 0 : index}
// CHECK-NEXT: "arith.constant"() {value = 4 : index}
// CHECK-NEXT: "arith.constant"() {value = 1 : index}
// CHECK-NEXT: %[[T1:.*]] = "func.call"() {callee = @strata_rt_profile_now}
// CHECK-NEXT: "loop.for"
// CHECK-NOT: profile
// CHECK: }) {parallel}
// CHECK-NEXT: %[[ID1:.*]] = "arith.constant"() {value = 1 : i64}
// CHECK-NEXT: "func.call"(%[[ID1]], %[[T1]]) {callee = @strata_rt_profile_add}
// CHECK-NEXT: %[[T2:.*]] = "func.call"() {callee = @strata_rt_profile_now}
// CHECK-NEXT: "func.call"({{.*}}) {callee = @strata_rt_gemm_f32}
// CHECK-NEXT: %[[ID2:.*]] = "arith.constant"() {value = 2 : i64}
// CHECK-NEXT: "func.call"(%[[ID2]], %[[T2]]) {callee = @strata_rt_profile_add}
// CHECK: {callee = @strata_rt_profile_now}
// CHECK-NEXT: "mem.copy"
// CHECK: {callee = @strata_rt_profile_now}
// CHECK-NEXT: "mem.dealloc"
// CHECK: {value = 4 : i64}
// CHECK-NEXT: "func.call"({{.*}}) {callee = @strata_rt_profile_add}
// CHECK-NEXT: "func.return"

// CHECK-LABEL: func.func private @helper
// CHECK-NOT: profile
// CHECK: "func.return"
module {
  func.func private @strata_rt_gemm_f32(memref<0xi8>, memref<0xi8>, memref<0xi8>, memref<0xi8>)
  func.func @f(%d: memref<42xi64>, %a: memref<4x4xf32>, %out: memref<4x4xf32>) {
    %t = "mem.alloc"() : () -> memref<4x4xf32>
    %lb = "arith.constant"() {value = 0 : index} : () -> index
    %ub = "arith.constant"() {value = 4 : index} : () -> index
    %st = "arith.constant"() {value = 1 : index} : () -> index
    "loop.for"(%lb, %ub, %st) ({
    ^bb0(%i: index):
      %x = "mem.load"(%a, %i, %i) : (memref<4x4xf32>, index, index) -> f32
      "mem.store"(%x, %t, %i, %i) : (f32, memref<4x4xf32>, index, index) -> ()
      "loop.yield"() : () -> ()
    }) {parallel} : (index, index, index) -> ()
    "func.call"(%d, %a, %t, %out) {callee = @strata_rt_gemm_f32} : (memref<42xi64>, memref<4x4xf32>, memref<4x4xf32>, memref<4x4xf32>) -> ()
    "mem.copy"(%t, %out) : (memref<4x4xf32>, memref<4x4xf32>) -> ()
    "mem.dealloc"(%t) : (memref<4x4xf32>) -> ()
    "func.return"() : () -> ()
  }
  func.func private @helper(%a: memref<4xf32>) {
    %t = "mem.alloc"() : () -> memref<4xf32>
    "mem.dealloc"(%t) : (memref<4xf32>) -> ()
    "func.return"() : () -> ()
  }
}
