// RUN: strata opt %s | FileCheck %s
// RUN: strata opt %s | strata opt /dev/stdin | FileCheck %s

// Round trip of the mem dialect (generic syntax).

// CHECK: "mem.global"() {sym_name = "g", value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> ()
"mem.global"() {sym_name = "g", value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> ()
// CHECK: "mem.global"() {sym_name = "bits", value = dense<[true, false, true]> : tensor<3xi1>} : () -> ()
"mem.global"() {sym_name = "bits", value = dense<[true, false, true]> : tensor<3xi1>} : () -> ()

// CHECK-LABEL: func.func @buffers
// CHECK-SAME: (%[[A:.*]]: memref<4x3xf32>, %[[I:.*]]: index)
func.func @buffers(%a: memref<4x3xf32>, %i: index) {
  // CHECK: %[[V:.*]] = "mem.load"(%[[A]], %[[I]], %[[I]]) : (memref<4x3xf32>, index, index) -> f32
  %v = "mem.load"(%a, %i, %i) : (memref<4x3xf32>, index, index) -> f32
  // CHECK: "mem.store"(%[[V]], %[[A]], %[[I]], %[[I]]) : (f32, memref<4x3xf32>, index, index) -> ()
  "mem.store"(%v, %a, %i, %i) : (f32, memref<4x3xf32>, index, index) -> ()
  // CHECK: %[[G:.*]] = "mem.get_global"() {name = @g} : () -> memref<2xf32>
  %g = "mem.get_global"() {name = @g} : () -> memref<2xf32>
  // A global may be read through a different shape with the same element count.
  // CHECK: "mem.get_global"() {name = @g} : () -> memref<1x2xf32>
  %g2 = "mem.get_global"() {name = @g} : () -> memref<1x2xf32>
  // CHECK: %[[H:.*]] = "mem.alloc"() : () -> memref<2xf32>
  %h = "mem.alloc"() : () -> memref<2xf32>
  // CHECK: %[[S:.*]] = "mem.alloca"() : () -> memref<12xf32>
  %s = "mem.alloca"() : () -> memref<12xf32>
  // CHECK: "mem.copy"(%[[G]], %[[H]]) : (memref<2xf32>, memref<2xf32>) -> ()
  "mem.copy"(%g, %h) : (memref<2xf32>, memref<2xf32>) -> ()
  // CHECK: %[[W:.*]] = "mem.view"(%[[A]]) : (memref<4x3xf32>) -> memref<12xf32>
  %w = "mem.view"(%a) : (memref<4x3xf32>) -> memref<12xf32>
  // CHECK: "mem.copy"(%[[W]], %[[S]]) : (memref<12xf32>, memref<12xf32>) -> ()
  "mem.copy"(%w, %s) : (memref<12xf32>, memref<12xf32>) -> ()
  // CHECK: "mem.dealloc"(%[[H]]) : (memref<2xf32>) -> ()
  "mem.dealloc"(%h) : (memref<2xf32>) -> ()
  func.return
}

// CHECK-LABEL: func.func @complex_parts
// CHECK-SAME: (%[[C:.*]]: memref<2xcomplex<f64>>, %[[I:.*]]: index)
func.func @complex_parts(%c: memref<2xcomplex<f64>>, %i: index) {
  // CHECK: %[[IM:.*]] = "mem.load_part"(%[[C]], %[[I]]) {part = 1 : i64} : (memref<2xcomplex<f64>>, index) -> f64
  %im = "mem.load_part"(%c, %i) {part = 1 : i64} : (memref<2xcomplex<f64>>, index) -> f64
  // CHECK: "mem.store_part"(%[[IM]], %[[C]], %[[I]]) {part = 0 : i64} : (f64, memref<2xcomplex<f64>>, index) -> ()
  "mem.store_part"(%im, %c, %i) {part = 0 : i64} : (f64, memref<2xcomplex<f64>>, index) -> ()
  func.return
}

// CHECK-LABEL: func.func @scalars_and_rank0
// CHECK-SAME: (%[[R:.*]]: memref<i8>, %[[B:.*]]: memref<5xi1>, %[[I:.*]]: index)
func.func @scalars_and_rank0(%r: memref<i8>, %b: memref<5xi1>, %i: index) {
  // A rank-0 memref takes no indices.
  // CHECK: %[[X:.*]] = "mem.load"(%[[R]]) : (memref<i8>) -> i8
  %x = "mem.load"(%r) : (memref<i8>) -> i8
  // CHECK: "mem.store"(%[[X]], %[[R]]) : (i8, memref<i8>) -> ()
  "mem.store"(%x, %r) : (i8, memref<i8>) -> ()
  // CHECK: "mem.load"(%[[B]], %[[I]]) : (memref<5xi1>, index) -> i1
  %p = "mem.load"(%b, %i) : (memref<5xi1>, index) -> i1
  func.return
}

// CHECK-LABEL: func.func private @runtime_decl(memref<0xi8>, i64) -> i32
func.func private @runtime_decl(memref<0xi8>, i64) -> i32

// -----

// CHECK-LABEL: func.func @offset
// CHECK: "mem.offset"(%{{.*}}, %{{.*}}) : (memref<4x8xf32>, index) -> memref<8xf32>
func.func @offset(%a: memref<4x8xf32>, %i: index) {
  %0 = "mem.offset"(%a, %i) : (memref<4x8xf32>, index) -> memref<8xf32>
  "func.return"() : () -> ()
}
