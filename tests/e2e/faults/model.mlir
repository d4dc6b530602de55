// The model of tools/strata/tests/faults.rs: calls big enough to wake the
// library's thread pool (@ew: 2^18 elements; @mm: a 256^3 product through
// the GEMM kernels), and an all_reduce among devices 0, 1 and 2 (@sum).
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
