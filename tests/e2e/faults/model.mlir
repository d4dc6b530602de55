// The model of tools/strata/tests/faults.rs: calls big enough to wake the
// library's thread pool (@ew: 2^18 elements; @mm: a 256^3 product through
// the GEMM kernels), an all_reduce among devices 0, 1 and 2 (@sum; @sum16
// is the same collective on a larger operand), and
// collectives of several kinds, types and odd sizes (@ops; its f64 sum of
// 30001 elements is large enough to take two rounds over MPI) that MPI and
// threads must compute alike.
func.func @ew(%x: tensor<262144xf32>, %y: tensor<262144xf32>) -> tensor<262144xf32> {
  %0 = stablehlo.multiply %x, %y : tensor<262144xf32>
  %1 = stablehlo.add %0, %x : tensor<262144xf32>
  return %1 : tensor<262144xf32>
}
func.func @mm(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<256x256xf32>, tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}
func.func @sum(%x: tensor<8xf32>) -> tensor<8xf32> {
  %s = "stablehlo.all_reduce"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %0 = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %0 : tensor<f32>
  }) {replica_groups = dense<[[0, 1, 2]]> : tensor<1x3xi64>} : (tensor<8xf32>) -> tensor<8xf32>
  return %s : tensor<8xf32>
}
func.func @sum16(%x: tensor<16xf32>) -> tensor<16xf32> {
  %s = "stablehlo.all_reduce"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %0 = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %0 : tensor<f32>
  }) {replica_groups = dense<[[0, 1, 2]]> : tensor<1x3xi64>} : (tensor<16xf32>) -> tensor<16xf32>
  return %s : tensor<16xf32>
}
func.func @ops(%x: tensor<7xi32>, %y: tensor<5xf64>, %z: tensor<30001xf64>) -> (tensor<7xi32>, tensor<5xf64>, tensor<21xi32>, tensor<5xf64>, tensor<30001xf64>) {
  %max = "stablehlo.all_reduce"(%x) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %0 = stablehlo.maximum %a, %b : tensor<i32>
    stablehlo.return %0 : tensor<i32>
  }) {replica_groups = dense<[[0, 1, 2]]> : tensor<1x3xi64>} : (tensor<7xi32>) -> tensor<7xi32>
  %prod = "stablehlo.all_reduce"(%y) ({
  ^bb0(%a: tensor<f64>, %b: tensor<f64>):
    %0 = stablehlo.multiply %a, %b : tensor<f64>
    stablehlo.return %0 : tensor<f64>
  }) {replica_groups = dense<[[0, 1, 2]]> : tensor<1x3xi64>} : (tensor<5xf64>) -> tensor<5xf64>
  %all = "stablehlo.all_gather"(%x) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1, 2]]> : tensor<1x3xi64>} : (tensor<7xi32>) -> tensor<21xi32>
  %next = "stablehlo.collective_permute"(%y) {source_target_pairs = dense<[[0, 1], [1, 2], [2, 0]]> : tensor<3x2xi64>} : (tensor<5xf64>) -> tensor<5xf64>
  %big = "stablehlo.all_reduce"(%z) ({
  ^bb0(%a: tensor<f64>, %b: tensor<f64>):
    %0 = stablehlo.add %a, %b : tensor<f64>
    stablehlo.return %0 : tensor<f64>
  }) {replica_groups = dense<[[0, 1, 2]]> : tensor<1x3xi64>} : (tensor<30001xf64>) -> tensor<30001xf64>
  return %max, %prod, %all, %next, %big : tensor<7xi32>, tensor<5xf64>, tensor<21xi32>, tensor<5xf64>, tensor<30001xf64>
}
