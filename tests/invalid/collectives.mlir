// RUN: not strata opt %s --split-input-file 2>&1 | FileCheck %s

// Group, shape and pairing mistakes in collectives are located errors.

func.func @gather_factor(%x: tensor<2x2xf32>) -> tensor<2x6xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.all_gather' op results are 3 operands long, but replica_groups has groups of 2
  %0 = "stablehlo.all_gather"(%x) {all_gather_dim = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x2xf32>) -> tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}

// -----

func.func @gather_dim(%x: tensor<2x2xf32>) -> tensor<2x4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.all_gather' op all_gather_dim 2 is out of range for rank 2
  %0 = "stablehlo.all_gather"(%x) {all_gather_dim = 2 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x2xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @repeated_id(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.all_reduce' op replica_groups names 1 twice
  %0 = "stablehlo.all_reduce"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {replica_groups = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @reducer_types(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.all_reduce' op reducer argument #0 must be tensor<f32>, found tensor<i32>
  %0 = "stablehlo.all_reduce"(%x) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @scatter_blocks(%x: tensor<6xf32>) -> tensor<4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.reduce_scatter' op result tensor<4xf32> must be one of the equal blocks of operand tensor<6xf32> along dimension 0
  %0 = "stablehlo.reduce_scatter"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {scatter_dimension = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<6xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @split_count(%x: tensor<2x3xf32>) -> tensor<4x1xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.all_to_all' op dimension 1 of operand #0 (3) is not divisible by split_count 2
  %0 = "stablehlo.all_to_all"(%x) {split_dimension = 1 : i64, concat_dimension = 0 : i64, split_count = 2 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x3xf32>) -> tensor<4x1xf32>
  return %0 : tensor<4x1xf32>
}

// -----

func.func @pairs(%x: tensor<2xf32>) -> tensor<2xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.collective_permute' op source_target_pairs repeats a source or target in (0, 2)
  %0 = "stablehlo.collective_permute"(%x) {source_target_pairs = dense<[[0, 1], [0, 2]]> : tensor<2x2xi64>} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @replica_id_type() -> tensor<i32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.replica_id' op result must be tensor<ui32>, found tensor<i32>
  %0 = stablehlo.replica_id : tensor<i32>
  return %0 : tensor<i32>
}

// -----

func.func @programs() {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.run_parallel' op 'programs' must be a non-empty list of equally long lists of function symbols
  "interpreter.run_parallel"() {programs = [[@a, @b], [@c]]} : () -> ()
  func.return
}
