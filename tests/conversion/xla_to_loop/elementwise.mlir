// RUN: strata opt %s --split-input-file --convert-xla-to-loop | FileCheck %s

// xla.add, xla.exponential, ...: a chain of element-wise ops becomes one loop
// nest that computes every element in registers; no intermediate buffer.

// CHECK-LABEL: func.func @chain
// Destination passing: the result becomes a trailing memref argument.
// CHECK-SAME: (%[[A:.*]]: memref<4x8xf32>, %[[B:.*]]: memref<4x8xf32>, %[[OUT:.*]]: memref<4x8xf32>)
// CHECK-NOT: mem.alloc
// CHECK: "loop.for"
// CHECK: ^{{.*}}(%[[I:.*]]: index):
// CHECK: "loop.for"
// CHECK: ^{{.*}}(%[[J:.*]]: index):
// CHECK-DAG: %[[X:.*]] = "mem.load"(%[[A]], %[[I]], %[[J]])
// CHECK-DAG: %[[Y:.*]] = "mem.load"(%[[B]], %[[I]], %[[J]])
// CHECK: %[[SUM:.*]] = "arith.addf"(%[[X]], %[[Y]]) {contract} : (f32, f32) -> f32
// CHECK: %[[EXP:.*]] = "arith.exp"(%[[SUM]])
// CHECK: %[[X2:.*]] = "mem.load"(%[[A]], %[[I]], %[[J]])
// CHECK: %[[MUL:.*]] = "arith.mulf"(%[[EXP]], %[[X2]])
// CHECK: %[[NEG:.*]] = "arith.negf"(%[[MUL]])
// CHECK: "mem.store"(%[[NEG]], %[[OUT]], %[[I]], %[[J]])
// CHECK-NOT: "loop.for"
// CHECK-NOT: mem.alloc
// CHECK: "func.return"() : () -> ()
func.func @chain(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = stablehlo.add %a, %b : tensor<4x8xf32>
  %1 = stablehlo.exponential %0 : tensor<4x8xf32>
  %2 = stablehlo.multiply %1, %a : tensor<4x8xf32>
  %3 = stablehlo.negate %2 : tensor<4x8xf32>
  return %3 : tensor<4x8xf32>
}

// -----

// Splat constants are scalars inside the loop, not buffers.

// CHECK-LABEL: func.func @splat_operand
// CHECK-SAME: (%[[A:.*]]: memref<8xf32>, %[[OUT:.*]]: memref<8xf32>)
// CHECK-NOT: mem.global
// CHECK-NOT: mem.alloc
// CHECK: "loop.for"
// CHECK: %[[X:.*]] = "mem.load"(%[[A]]
// CHECK: %[[C:.*]] = "arith.constant"() {value = 2.5 : f32} : () -> f32
// CHECK: %[[M:.*]] = "arith.mulf"(%[[X]], %[[C]])
// CHECK: "mem.store"(%[[M]], %[[OUT]]
func.func @splat_operand(%a: tensor<8xf32>) -> tensor<8xf32> {
  %c = stablehlo.constant dense<2.5> : tensor<8xf32>
  %0 = stablehlo.multiply %a, %c : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Index-only ops (broadcast_in_dim, transpose, reverse) fuse into their
// consumer as index arithmetic.

// CHECK-LABEL: func.func @index_ops_fuse
// CHECK-SAME: (%[[A:.*]]: memref<2x3xf32>, %[[S:.*]]: memref<f32>, %[[OUT:.*]]: memref<3x2xf32>)
// CHECK-NOT: mem.alloc
// CHECK: ^{{.*}}(%[[I:.*]]: index):
// CHECK: ^{{.*}}(%[[J:.*]]: index):
// reverse along dimension 0 of the 3x2 transpose: row 2 - i.
// CHECK: %[[R:.*]] = "arith.subi"(%{{.*}}, %[[I]]) : (index, index) -> index
// CHECK: %[[X:.*]] = "mem.load"(%[[A]], %[[J]], %[[R]])
// CHECK: %[[Y:.*]] = "mem.load"(%[[S]]) : (memref<f32>) -> f32
// CHECK: %[[SUM:.*]] = "arith.addf"(%[[X]], %[[Y]])
// CHECK: "mem.store"(%[[SUM]], %[[OUT]], %[[I]], %[[J]])
// CHECK-NOT: mem.alloc
func.func @index_ops_fuse(%a: tensor<2x3xf32>, %s: tensor<f32>) -> tensor<3x2xf32> {
  %b = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<3x2xf32>
  %t = stablehlo.transpose %a, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %r = stablehlo.reverse %t, dims = [0] : tensor<3x2xf32>
  %0 = stablehlo.add %r, %b : tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// A value read twice by one element-wise op is computed once per element
// in that op's loop (multi-output.mlir has the nests of several results).

// CHECK-LABEL: func.func @multi_use
// CHECK-SAME: (%[[A:.*]]: memref<4xf32>, %[[OUT:.*]]: memref<4xf32>)
// CHECK-NOT: "mem.alloc"
// CHECK: %[[E:.*]] = "arith.exp"
// CHECK-NOT: "arith.exp"
// CHECK: "arith.mulf"(%[[E]], %[[E]])
// CHECK: "mem.store"(%{{.*}}, %[[OUT]]
func.func @multi_use(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.exponential %a : tensor<4xf32>
  %1 = stablehlo.multiply %0, %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// A value read at its own index and reversed is computed once into a
// buffer; its reader loads it twice.

// CHECK-LABEL: func.func @multi_index
// CHECK-SAME: (%[[A:.*]]: memref<4xf32>, %[[OUT:.*]]: memref<4xf32>)
// CHECK: %[[T:.*]] = "mem.alloc"() : () -> memref<4xf32>
// CHECK: "loop.for"
// CHECK: "arith.exp"
// CHECK: "mem.store"(%{{.*}}, %[[T]]
// CHECK: "loop.for"
// CHECK: %[[U:.*]] = "mem.load"(%[[T]]
// CHECK: %[[V:.*]] = "mem.load"(%[[T]]
// CHECK: "arith.mulf"(%[[U]], %[[V]])
// CHECK: "mem.store"(%{{.*}}, %[[OUT]]
// CHECK: "mem.dealloc"(%[[T]])
func.func @multi_index(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.exponential %a : tensor<4xf32>
  %r = stablehlo.reverse %0, dims = [0] : tensor<4xf32>
  %1 = stablehlo.multiply %0, %r : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// xla.compare + xla.select fuse; the predicate stays an i1 in registers.

// CHECK-LABEL: func.func @relu
// CHECK-SAME: (%[[A:.*]]: memref<16xf32>, %[[OUT:.*]]: memref<16xf32>)
// CHECK-NOT: mem.alloc
// CHECK: %[[X:.*]] = "mem.load"(%[[A]]
// CHECK: %[[Z:.*]] = "arith.constant"() {value = 0.0 : f32}
// CHECK: %[[P:.*]] = "arith.cmpf"(%[[X]], %[[Z]]) {predicate = "ogt"} : (f32, f32) -> i1
// CHECK: %[[S:.*]] = "arith.select"(%[[P]],
// CHECK: "mem.store"(%[[S]], %[[OUT]]
func.func @relu(%a: tensor<16xf32>) -> tensor<16xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<16xf32>
  %p = stablehlo.compare GT, %a, %z, FLOAT : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
  %0 = stablehlo.select %p, %a, %z : tensor<16xi1>, tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

// xla.maximum on floats propagates NaN (arith.maximumf, not maxnum).

// CHECK-LABEL: func.func @float_max
// CHECK: "arith.maximumf"
// CHECK: "arith.minimumf"
func.func @float_max(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.maximum %a, %b : tensor<4xf32>
  %1 = stablehlo.minimum %0, %b : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// xla.convert float -> int uses the saturating conversion.

// CHECK-LABEL: func.func @convert
// CHECK: "arith.fptosi"(%{{.*}}) : (f32) -> i8
// CHECK: "arith.fptoui"(%{{.*}}) : (f32) -> ui8
func.func @convert(%a: tensor<4xf32>) -> (tensor<4xi8>, tensor<4xui8>) {
  %0 = stablehlo.convert %a : (tensor<4xf32>) -> tensor<4xi8>
  %1 = stablehlo.convert %a : (tensor<4xf32>) -> tensor<4xui8>
  return %0, %1 : tensor<4xi8>, tensor<4xui8>
}
