// RUN: strata opt %s --split-input-file --xla-legalize-broadcast | FileCheck %s
// RUN: strata opt %s --split-input-file --xla-legalize-broadcast --convert-xla-to-loop | FileCheck %s --check-prefix=LOOP

// Bias add with XLA's explicit broadcast_dimensions.
// CHECK-LABEL: func.func @bias_add
// CHECK-SAME: (%[[X:.*]]: tensor<4x3xf32>, %[[B:.*]]: tensor<3xf32>)
// CHECK: %[[BB:.*]] = "xla.broadcast_in_dim"(%[[B]]) {broadcast_dimensions = array<i64: 1>} : (tensor<3xf32>) -> tensor<4x3xf32>
// CHECK: "xla.add"(%[[X]], %[[BB]]) : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
// The broadcast is fused: one loop nest, no buffer besides the output.
// LOOP-LABEL: func.func @bias_add
// LOOP-NOT: mem.alloc
// LOOP: "loop.for"
// LOOP: "loop.for"
// LOOP: "mem.load"(%arg0
// LOOP: "mem.load"(%arg1
// LOOP: "arith.addf"
// LOOP: "mem.store"({{.*}}, %arg2
// LOOP-NOT: mem.alloc
// LOOP: "func.return"
func.func @bias_add(%x: tensor<4x3xf32>, %b: tensor<3xf32>) -> tensor<4x3xf32> {
  %r = "xla.add"(%x, %b) {broadcast_dimensions = array<i64: 1>} : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  func.return %r : tensor<4x3xf32>
}

// -----

// A scalar operand broadcasts without attributes.
// CHECK-LABEL: func.func @scale
// CHECK: %[[S:.*]] = "xla.broadcast_in_dim"(%arg1) {broadcast_dimensions = array<i64>} : (tensor<f32>) -> tensor<2x2xf32>
// CHECK: "xla.multiply"(%arg0, %[[S]])
// LOOP-LABEL: func.func @scale
// LOOP-NOT: mem.alloc
// LOOP: "mem.load"(%arg1)
// LOOP: "arith.mulf"
// LOOP-NOT: mem.alloc
func.func @scale(%x: tensor<2x2xf32>, %s: tensor<f32>) -> tensor<2x2xf32> {
  %r = stablehlo.multiply %x, %s : (tensor<2x2xf32>, tensor<f32>) -> tensor<2x2xf32>
  func.return %r : tensor<2x2xf32>
}

// -----

// Degenerate dimensions on both sides (the outer operation).
// CHECK-LABEL: func.func @outer
// CHECK-DAG: "xla.broadcast_in_dim"(%arg0) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<2x1xi32>) -> tensor<2x3xi32>
// CHECK-DAG: "xla.broadcast_in_dim"(%arg1) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<1x3xi32>) -> tensor<2x3xi32>
func.func @outer(%a: tensor<2x1xi32>, %b: tensor<1x3xi32>) -> tensor<2x3xi32> {
  %r = "xla.add"(%a, %b) : (tensor<2x1xi32>, tensor<1x3xi32>) -> tensor<2x3xi32>
  func.return %r : tensor<2x3xi32>
}

// -----

// numpy aligns on the right.
// CHECK-LABEL: func.func @numpy
// CHECK: "xla.broadcast_in_dim"(%arg1) {broadcast_dimensions = array<i64: 1, 2>} : (tensor<1x5xf32>) -> tensor<4x3x5xf32>
// CHECK-NOT: auto_broadcast
func.func @numpy(%a: tensor<4x3x5xf32>, %b: tensor<1x5xf32>) -> tensor<4x3x5xf32> {
  %r = "xla.subtract"(%a, %b) {auto_broadcast = "numpy"} : (tensor<4x3x5xf32>, tensor<1x5xf32>) -> tensor<4x3x5xf32>
  func.return %r : tensor<4x3x5xf32>
}

// -----

// PDPD drops B's trailing size-1 dimension that lies past A, then places B at axis.
// CHECK-LABEL: func.func @pdpd
// CHECK: %[[R:.*]] = "xla.reshape"(%arg1) : (tensor<3x1xf32>) -> tensor<3xf32>
// CHECK: "xla.broadcast_in_dim"(%[[R]]) {broadcast_dimensions = array<i64: 1>} : (tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NOT: axis
func.func @pdpd(%a: tensor<2x3xf32>, %b: tensor<3x1xf32>) -> tensor<2x3xf32> {
  %r = "xla.add"(%a, %b) {auto_broadcast = "pdpd", axis = 1 : i64} : (tensor<2x3xf32>, tensor<3x1xf32>) -> tensor<2x3xf32>
  func.return %r : tensor<2x3xf32>
}

// -----

// broadcast_to becomes broadcast_in_dim.
// CHECK-LABEL: func.func @bidirectional
// CHECK: %[[R:.*]] = "xla.broadcast_in_dim"(%arg0) {broadcast_dimensions = array<i64: 1, 2>} : (tensor<3x1xf32>) -> tensor<2x3x6xf32>
// CHECK-NOT: xla.broadcast_to
// CHECK: "func.return"(%[[R]])
func.func @bidirectional(%a: tensor<3x1xf32>) -> tensor<2x3x6xf32> {
  %r = "xla.broadcast_to"(%a) {mode = "bidirectional", target_shape = array<i64: 2, 1, 6>} : (tensor<3x1xf32>) -> tensor<2x3x6xf32>
  func.return %r : tensor<2x3x6xf32>
}
