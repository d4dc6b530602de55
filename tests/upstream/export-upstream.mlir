// RUN: strata opt %s --export-upstream | FileCheck %s
// RUN: strata opt %s --export-upstream | /usr/lib/llvm-22/bin/mlir-opt --verify-diagnostics > /dev/null
// RUN: strata opt %s --convert-xla-to-loop --export-upstream | FileCheck %s --check-prefix=LOOPS
// The loop level as upstream MLIR, printed by MLIR itself after its verifier
// accepted it; MLIR's own mlir-opt parses and verifies it again.

// CHECK-LABEL: func.func @main(
// CHECK-SAME: %arg0: memref<4x8xf32>, %arg1: memref<8x3xf32>, %arg2: memref<4x3xbf16>) -> i32
// The function's arena comes from the runtime (loop-plan-arena), its
// buffers are views of it; the product goes to the runtime's GEMM, buffers
// passed as pointers.
// CHECK: call @strata_rt_arena_acquire({{.*}}) : (i64) -> !llvm.ptr
// CHECK: call @strata_rt_gemm_f32({{.*}}) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
// Element-wise code: scf loops over memref loads and stores.
// CHECK: scf.for
// CHECK: memref.load {{.*}} : memref<4x3xf32>
// CHECK: math.tanh {{.*}} : f32
// f32 -> bf16 rounds to nearest even with integer ops, as the native backend does.
// CHECK: arith.shrui
// CHECK: arith.bitcast {{.*}} : i16 to bf16
// CHECK: memref.store {{.*}} : memref<4x3xbf16>
// The function's status: 0 unless an allocation or a runtime call failed.
// CHECK: call @strata_rt_arena_release({{.*}}) : (!llvm.ptr) -> ()
// CHECK: return {{.*}} : i32
func.func @main(%a: tensor<4x8xf32>, %b: tensor<8x3xf32>) -> tensor<4x3xbf16> {
  %c = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>
  %d = stablehlo.tanh %c : tensor<4x3xf32>
  %e = stablehlo.convert %d : (tensor<4x3xf32>) -> tensor<4x3xbf16>
  return %e : tensor<4x3xbf16>
}

// LOOPS-LABEL: func.func @main(
// LOOPS: scf.for
