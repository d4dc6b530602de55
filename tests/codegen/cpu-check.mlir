// RUN: strata compile %s -o %t.ll -O 0 --name t --target-cpu x86-64-v3 && FileCheck %s < %t.ll
// RUN: strata compile %s -o %t2.ll -O 0 --name t --target-cpu x86-64-v2 --target-features +avx && FileCheck %s --check-prefix=FEAT < %t2.ll
// RUN: strata compile %s -o %t3.ll -O 0 --name t --target aarch64-linux-gnu && FileCheck %s --check-prefix=ARM < %t3.ll

// Exported wrappers check once per process that the CPU has the features the
// target CPU implies: the features as a C string, a flag set after the first
// successful check, and a wrapper compiled for baseline x86-64 so that
// nothing before the check can use an instruction the CPU lacks.

// CHECK: @t.cpu_features = private constant [{{[0-9]+}} x i8] c"{{.*}}avx2{{.*}}fma{{.*}}\00"
// CHECK: @t.cpu_ok = internal global i32 0
// CHECK-LABEL: define i32 @t_main(
// CHECK: %[[OK:.*]] = load atomic i32, ptr @t.cpu_ok monotonic
// CHECK: br i1 %{{.*}}, label %body, label %cpu_check
// CHECK: cpu_check:
// CHECK: %[[R:.*]] = call i32 @strata_rt_cpu_supports(ptr @t.cpu_features)
// CHECK: cpu_ok:
// CHECK: store atomic i32 1, ptr @t.cpu_ok monotonic
// CHECK: cpu_fail:
// CHECK: ret i32 %[[R]]
// CHECK: body:
// CHECK: call void @strata_rt_clear_error()
// CHECK: attributes #{{[0-9]+}} = { {{.*}}"target-cpu"="x86-64" "target-features"

// Explicit features join the CPU's.
// FEAT: @t.cpu_features = private constant {{.*}}c"{{.*}}avx,{{.*}}sse4.2{{.*}}\00"

// Other architectures record no features to check.
// ARM-NOT: cpu_features
// ARM-NOT: strata_rt_cpu_supports

func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.negate %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}
