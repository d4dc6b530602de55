// RUN: not strata opt %s --xla-expand-manual-computation 2>&1 | FileCheck %s

// Manual computations over only some mesh axes are not supported yet: a located error.
module {
  sdy.mesh @mesh2 = <["i"=2, "j"=2]>
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: unsupported: manual computations over some axes of mesh @mesh2 (1 of 2) are not supported yet; every axis must be manual
    %0 = sdy.manual_computation(%x) in_shardings=[<@mesh2, [{"i"}]>] out_shardings=[<@mesh2, [{"i"}]>] manual_axes={"i"} (%a: tensor<2xf32>) {
      sdy.return %a : tensor<2xf32>
    } : (tensor<4xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}
