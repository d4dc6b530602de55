// Transposes that `convert-xla-to-kernel` turns into the runtime's blocked
// transpose (`kernel.transpose`): 2-D, with an outer dimension before the
// two that swap, with two outer dimensions that do not merge, and one
// large enough for streaming stores. `transposes.c` checks every element
// against the definition, also with a result buffer off a cache line.

func.func @t2d(%x: tensor<600x520xf32>) -> tensor<520x600xf32> {
  %0 = stablehlo.transpose %x, dims = [1, 0] : (tensor<600x520xf32>) -> tensor<520x600xf32>
  return %0 : tensor<520x600xf32>
}

func.func @t3d(%x: tensor<4x300x260xf32>) -> tensor<260x4x300xf32> {
  %0 = stablehlo.transpose %x, dims = [2, 0, 1] : (tensor<4x300x260xf32>) -> tensor<260x4x300xf32>
  return %0 : tensor<260x4x300xf32>
}

func.func @t4d(%x: tensor<3x40x9x128xf32>) -> tensor<3x128x9x40xf32> {
  %0 = stablehlo.transpose %x, dims = [0, 3, 2, 1] : (tensor<3x40x9x128xf32>) -> tensor<3x128x9x40xf32>
  return %0 : tensor<3x128x9x40xf32>
}

func.func @tbig(%x: tensor<2048x1040xi32>) -> tensor<1040x2048xi32> {
  %0 = stablehlo.transpose %x, dims = [1, 0] : (tensor<2048x1040xi32>) -> tensor<1040x2048xi32>
  return %0 : tensor<1040x2048xi32>
}
