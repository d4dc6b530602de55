// RUN: strata opt %s --split-input-file --convert-xla-to-loop | FileCheck %s

// Destination passing: results become trailing memref arguments, functions
// return nothing, and each result is computed straight into its output
// buffer when possible (otherwise copied there).

// CHECK-LABEL: func.func @two_results
// CHECK-SAME: (%[[A:.*]]: memref<4xf32>, %[[O0:.*]]: memref<4xf32>, %[[O1:.*]]: memref<4xi1>)
// CHECK-NOT: "mem.alloc"
// CHECK: "arith.negf"
// CHECK: "mem.store"(%{{.*}}, %[[O0]]
// CHECK: "arith.cmpf"
// CHECK: "mem.store"(%{{.*}}, %[[O1]]
// CHECK-NOT: "mem.copy"
// CHECK: "func.return"() : () -> ()
func.func @two_results(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xi1>) {
  %0 = stablehlo.negate %a : tensor<4xf32>
  %1 = stablehlo.is_finite %a : (tensor<4xf32>) -> tensor<4xi1>
  return %0, %1 : tensor<4xf32>, tensor<4xi1>
}

// -----

// A returned argument is copied; a value returned twice is copied to both.

// CHECK-LABEL: func.func @copies
// CHECK-SAME: (%[[A:.*]]: memref<4xf32>, %[[O0:.*]]: memref<4xf32>, %[[O1:.*]]: memref<4xf32>, %[[O2:.*]]: memref<4xf32>)
// CHECK: %[[T:.*]] = "mem.alloc"() : () -> memref<4xf32>
// CHECK: "mem.store"(%{{.*}}, %[[T]]
// CHECK: "mem.copy"(%[[A]], %[[O0]])
// CHECK: "mem.copy"(%[[T]], %[[O1]])
// CHECK: "mem.copy"(%[[T]], %[[O2]])
// CHECK: "mem.dealloc"(%[[T]])
func.func @copies(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0 = stablehlo.negate %a : tensor<4xf32>
  return %a, %0, %0 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// Calls pass the callee's output buffers as trailing arguments.

// CHECK-LABEL: func.func @caller
// CHECK-SAME: (%[[A:.*]]: memref<4xf32>, %[[OUT:.*]]: memref<4xf32>)
// CHECK: %[[T:.*]] = "mem.alloc"() : () -> memref<4xf32>
// CHECK: "func.call"(%[[A]], %[[T]]) {callee = @callee} : (memref<4xf32>, memref<4xf32>) -> ()
// CHECK: "mem.load"(%[[T]]
// CHECK: "mem.store"(%{{.*}}, %[[OUT]]
// CHECK: "mem.dealloc"(%[[T]])
// CHECK-LABEL: func.func private @callee
// CHECK-SAME: (%[[X:.*]]: memref<4xf32>, %[[R:.*]]: memref<4xf32>)
// CHECK: "mem.store"(%{{.*}}, %[[R]]
func.func @caller(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = call @callee(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = stablehlo.add %0, %a : tensor<4xf32>
  return %1 : tensor<4xf32>
}
func.func private @callee(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.negate %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
