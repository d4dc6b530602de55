//! Each op family: HLO text and the IR it imports to.

use super::assert_imports_to;

/// Element-wise ops, a scalar broadcast and a reduce whose `to_apply` becomes
/// its region; `metadata` is ignored.
#[test]
fn elementwise_broadcast_and_reduce() {
    let hlo = r#"
HloModule elementwise, entry_computation_layout={(f32[2,3]{1,0}, f32[2,3]{1,0})->f32[3]{0}}

add_f32 {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT sum = f32[] add(x, y)
}

ENTRY main.9 {
  a = f32[2,3]{1,0} parameter(0)
  b = f32[2,3]{1,0} parameter(1)
  t = f32[2,3]{1,0} tanh(a), metadata={op_name="jit(f)/tanh" source_file="f.py" source_line=3}
  two = f32[] constant(2)
  twos = f32[2,3]{1,0} broadcast(two), dimensions={}
  m = f32[2,3]{1,0} multiply(b, twos)
  s = f32[2,3]{1,0} add(t, m)
  zero = f32[] constant(0)
  ROOT r = f32[3]{0} reduce(s, zero), dimensions={0}, to_apply=add_f32
}
"#;
    let expected = r#"module @elementwise {
  func.func @main(%arg0: tensor<2x3xf32>, %arg1: tensor<2x3xf32>) -> tensor<3xf32> {
    %0 = "xla.tanh"(%arg0) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %1 = "xla.constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
    %2 = "xla.broadcast_in_dim"(%1) {broadcast_dimensions = array<i64>} : (tensor<f32>) -> tensor<2x3xf32>
    %3 = "xla.multiply"(%arg1, %2) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %4 = "xla.add"(%0, %3) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %5 = "xla.constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
    %6 = "xla.reduce"(%4, %5) ({
      ^bb1(%arg2: tensor<f32>, %arg3: tensor<f32>):
        %7 = "xla.add"(%arg2, %arg3) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "xla.return"(%7) : (tensor<f32>) -> ()
      }) {dimensions = array<i64: 0>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<3xf32>
    "func.return"(%6) : (tensor<3xf32>) -> ()
  }
}
"#;
    assert_imports_to(hlo, expected);
}

/// A while loop over a tuple: the state flattens into operands and block
/// arguments, `get-tuple-element` picks without ops, and `call` makes a
/// private function.
#[test]
fn while_with_tuple_state_and_call() {
    let hlo = r#"
HloModule loop

step {
  i = s32[] parameter(0)
  x = f32[4]{0} parameter(1)
  one = s32[] constant(1)
  next = s32[] add(i, one)
  half = f32[] constant(0.5)
  halves = f32[4]{0} broadcast(half), dimensions={}
  y = f32[4]{0} multiply(x, halves)
  ROOT t = (s32[], f32[4]{0}) tuple(next, y)
}

body {
  state = (s32[], f32[4]{0}) parameter(0)
  i = s32[] get-tuple-element(state), index=0
  x = f32[4]{0} get-tuple-element(state), index=1
  ROOT r = (s32[], f32[4]{0}) call(i, x), to_apply=step
}

cond {
  state = (s32[], f32[4]{0}) parameter(0)
  i = s32[] get-tuple-element(state), index=0
  n = s32[] constant(3)
  ROOT lt = pred[] compare(i, n), direction=LT
}

ENTRY entry_computation {
  x = f32[4]{0} parameter(0)
  zero = s32[] constant(0)
  init = (s32[], f32[4]{0}) tuple(zero, x)
  w = (s32[], f32[4]{0}) while(init), condition=cond, body=body
  ROOT out = f32[4]{0} get-tuple-element(w), index=1
}
"#;
    let expected = r#"module @loop {
  func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = "xla.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %1:2 = "xla.while"(%0, %arg0) ({
      ^bb1(%arg1: tensor<i32>, %arg2: tensor<4xf32>):
        %2 = "xla.constant"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
        %3 = "xla.compare"(%arg1, %2) {comparison_direction = #stablehlo<comparison_direction LT>, compare_type = #stablehlo<comparison_type SIGNED>} : (tensor<i32>, tensor<i32>) -> tensor<i1>
        "xla.return"(%3) : (tensor<i1>) -> ()
      }, {
      ^bb2(%arg3: tensor<i32>, %arg4: tensor<4xf32>):
        %4:2 = "func.call"(%arg3, %arg4) {callee = @step} : (tensor<i32>, tensor<4xf32>) -> (tensor<i32>, tensor<4xf32>)
        "xla.return"(%4#0, %4#1) : (tensor<i32>, tensor<4xf32>) -> ()
      }) : (tensor<i32>, tensor<4xf32>) -> (tensor<i32>, tensor<4xf32>)
    "func.return"(%1#1) : (tensor<4xf32>) -> ()
  }
  func.func private @step(%arg0: tensor<i32>, %arg1: tensor<4xf32>) -> (tensor<i32>, tensor<4xf32>) {
    %0 = "xla.constant"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %1 = "xla.add"(%arg0, %0) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %2 = "xla.constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
    %3 = "xla.broadcast_in_dim"(%2) {broadcast_dimensions = array<i64>} : (tensor<f32>) -> tensor<4xf32>
    %4 = "xla.multiply"(%arg1, %3) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    "func.return"(%1, %4) : (tensor<i32>, tensor<4xf32>) -> ()
  }
}
"#;
    assert_imports_to(hlo, expected);
}

/// `conditional` with branch_computations is `xla.case`, with a predicate
/// `xla.if`; each branch captures its operand.
#[test]
fn conditional_as_case_and_if() {
    let hlo = r#"
HloModule branches

inc {
  p = f32[2]{0} parameter(0)
  one = f32[] constant(1)
  ones = f32[2]{0} broadcast(one), dimensions={}
  ROOT r = f32[2]{0} add(p, ones)
}

neg {
  p = f32[2]{0} parameter(0)
  ROOT r = f32[2]{0} negate(p)
}

ENTRY main {
  i = s32[] parameter(0)
  x = f32[2]{0} parameter(1)
  c = f32[2]{0} conditional(i, x, x), branch_computations={inc, neg}
  p = pred[] compare(i, i), direction=EQ
  ROOT d = f32[2]{0} conditional(p, c, x), true_computation=neg, false_computation=inc
}
"#;
    let expected = r#"module @branches {
  func.func @main(%arg0: tensor<i32>, %arg1: tensor<2xf32>) -> tensor<2xf32> {
    %0 = "xla.case"(%arg0) ({
        %1 = "xla.constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
        %2 = "xla.broadcast_in_dim"(%1) {broadcast_dimensions = array<i64>} : (tensor<f32>) -> tensor<2xf32>
        %3 = "xla.add"(%arg1, %2) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
        "xla.return"(%3) : (tensor<2xf32>) -> ()
      }, {
        %4 = "xla.negate"(%arg1) : (tensor<2xf32>) -> tensor<2xf32>
        "xla.return"(%4) : (tensor<2xf32>) -> ()
      }) : (tensor<i32>) -> tensor<2xf32>
    %5 = "xla.compare"(%arg0, %arg0) {comparison_direction = #stablehlo<comparison_direction EQ>, compare_type = #stablehlo<comparison_type SIGNED>} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %6 = "xla.if"(%5) ({
        %7 = "xla.negate"(%0) : (tensor<2xf32>) -> tensor<2xf32>
        "xla.return"(%7) : (tensor<2xf32>) -> ()
      }, {
        %8 = "xla.constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
        %9 = "xla.broadcast_in_dim"(%8) {broadcast_dimensions = array<i64>} : (tensor<f32>) -> tensor<2xf32>
        %10 = "xla.add"(%arg1, %9) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
        "xla.return"(%10) : (tensor<2xf32>) -> ()
      }) : (tensor<i1>) -> tensor<2xf32>
    "func.return"(%6) : (tensor<2xf32>) -> ()
  }
}
"#;
    assert_imports_to(hlo, expected);
}

/// Nested lists, booleans spelled both ways, non-finite floats, complex,
/// unsigned, bf16, negative zero and an empty array; a tuple entry result
/// flattens into several results.
#[test]
fn constants_of_every_kind() {
    let hlo = r#"
HloModule constants

ENTRY main {
  m = f32[2,3]{1,0} constant({ { 1, 2.5, -3 }, { 1e-05, 0, -0 } })
  p = pred[3]{0} constant({true, false, 1})
  f = f32[3]{0} constant({nan, inf, -inf})
  c = c64[2]{0} constant({(1, 2), (3, -4)})
  i = s32[] constant(-7)
  u = u8[2]{0} constant({255, 0})
  h = bf16[] constant(1.5)
  e = f32[0]{0} constant({})
  r = f16[] constant(65505)
  ROOT t = (f32[2,3]{1,0}, pred[3]{0}, f32[3]{0}, c64[2]{0}, s32[], u8[2]{0}, bf16[], f32[0]{0}, f16[]) tuple(m, p, f, c, i, u, h, e, r)
}
"#;
    let expected = r#"module @constants {
  func.func @main() -> (tensor<2x3xf32>, tensor<3xi1>, tensor<3xf32>, tensor<2xcomplex<f32>>, tensor<i32>, tensor<2xui8>, tensor<bf16>, tensor<0xf32>, tensor<f16>) {
    %0 = "xla.constant"() {value = dense<[[1.0, 2.5, -3.0], [1e-5, 0.0, -0.0]]> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %1 = "xla.constant"() {value = dense<[true, false, true]> : tensor<3xi1>} : () -> tensor<3xi1>
    %2 = "xla.constant"() {value = dense<[0x7FC00000, 0x7F800000, 0xFF800000]> : tensor<3xf32>} : () -> tensor<3xf32>
    %3 = "xla.constant"() {value = dense<[(1.0, 2.0), (3.0, -4.0)]> : tensor<2xcomplex<f32>>} : () -> tensor<2xcomplex<f32>>
    %4 = "xla.constant"() {value = dense<-7> : tensor<i32>} : () -> tensor<i32>
    %5 = "xla.constant"() {value = dense<[255, 0]> : tensor<2xui8>} : () -> tensor<2xui8>
    %6 = "xla.constant"() {value = dense<0x3FC0> : tensor<bf16>} : () -> tensor<bf16>
    %7 = "xla.constant"() {value = dense<[]> : tensor<0xf32>} : () -> tensor<0xf32>
    %8 = "xla.constant"() {value = dense<0x7BFF> : tensor<f16>} : () -> tensor<f16>
    "func.return"(%0, %1, %2, %3, %4, %5, %6, %7, %8) : (tensor<2x3xf32>, tensor<3xi1>, tensor<3xf32>, tensor<2xcomplex<f32>>, tensor<i32>, tensor<2xui8>, tensor<bf16>, tensor<0xf32>, tensor<f16>) -> ()
  }
}
"#;
    assert_imports_to(hlo, expected);
}

/// A variadic sort with a tuple result and a 4-parameter comparator.
#[test]
fn variadic_sort() {
    let hlo = r#"
HloModule sort

less {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  i = s32[] parameter(2)
  j = s32[] parameter(3)
  ROOT lt = pred[] compare(a, b), direction=LT, type=TOTALORDER
}

ENTRY main {
  x = f32[4,3]{1,0} parameter(0)
  iota = s32[4,3]{1,0} iota(), iota_dimension=1
  s = (f32[4,3]{1,0}, s32[4,3]{1,0}) sort(x, iota), dimensions={1}, is_stable=true, to_apply=less
  ROOT idx = s32[4,3]{1,0} get-tuple-element(s), index=1
}
"#;
    let expected = r#"module @sort {
  func.func @main(%arg0: tensor<4x3xf32>) -> tensor<4x3xi32> {
    %0 = "xla.iota"() {iota_dimension = 1 : i64} : () -> tensor<4x3xi32>
    %1:2 = "xla.sort"(%arg0, %0) ({
      ^bb1(%arg1: tensor<f32>, %arg2: tensor<f32>, %arg3: tensor<i32>, %arg4: tensor<i32>):
        %2 = "xla.compare"(%arg1, %arg2) {comparison_direction = #stablehlo<comparison_direction LT>, compare_type = #stablehlo<comparison_type TOTALORDER>} : (tensor<f32>, tensor<f32>) -> tensor<i1>
        "xla.return"(%2) : (tensor<i1>) -> ()
      }) {dimension = 1 : i64, is_stable = true} : (tensor<4x3xf32>, tensor<4x3xi32>) -> (tensor<4x3xf32>, tensor<4x3xi32>)
    "func.return"(%1#1) : (tensor<4x3xi32>) -> ()
  }
}
"#;
    assert_imports_to(hlo, expected);
}

/// Shape ops; `bitcast` under default layouts is a reshape, `copy` is the
/// operand itself, and internal layouts ({0,1} on the transpose) are ignored.
#[test]
fn shape_ops() {
    let hlo = r#"
HloModule shapes

ENTRY main {
  x = f32[4,3]{1,0} parameter(0)
  i = s32[] parameter(1)
  r = f32[4,3]{1,0} reverse(x), dimensions={0}
  c = f32[8,3]{1,0} concatenate(x, r), dimensions={0}
  zero = f32[] constant(0)
  p = f32[5,9]{1,0} pad(x, zero), padding=0_1x2_2_1
  s = f32[2,2]{1,0} slice(x), slice={[1:3], [0:3:2]}
  t = f32[3,4]{0,1} transpose(x), dimensions={1,0}
  re = f32[12]{0} reshape(t)
  bc = f32[3,4]{1,0} bitcast(re)
  cp = f32[3,4]{1,0} copy(bc)
  j = s32[] constant(0)
  ds = f32[2,2]{1,0} dynamic-slice(x, i, j), dynamic_slice_sizes={2,2}
  dus = f32[4,3]{1,0} dynamic-update-slice(x, ds, i, j)
  ROOT out = (f32[8,3]{1,0}, f32[5,9]{1,0}, f32[2,2]{1,0}, f32[3,4]{1,0}, f32[4,3]{1,0}) tuple(c, p, s, cp, dus)
}
"#;
    let expected = r#"module @shapes {
  func.func @main(%arg0: tensor<4x3xf32>, %arg1: tensor<i32>) -> (tensor<8x3xf32>, tensor<5x9xf32>, tensor<2x2xf32>, tensor<3x4xf32>, tensor<4x3xf32>) {
    %0 = "xla.reverse"(%arg0) {dimensions = array<i64: 0>} : (tensor<4x3xf32>) -> tensor<4x3xf32>
    %1 = "xla.concatenate"(%arg0, %0) {dimension = 0 : i64} : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<8x3xf32>
    %2 = "xla.constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
    %3 = "xla.pad"(%arg0, %2) {edge_padding_low = array<i64: 0, 2>, edge_padding_high = array<i64: 1, 2>, interior_padding = array<i64: 0, 1>} : (tensor<4x3xf32>, tensor<f32>) -> tensor<5x9xf32>
    %4 = "xla.slice"(%arg0) {start_indices = array<i64: 1, 0>, limit_indices = array<i64: 3, 3>, strides = array<i64: 1, 2>} : (tensor<4x3xf32>) -> tensor<2x2xf32>
    %5 = "xla.transpose"(%arg0) {permutation = array<i64: 1, 0>} : (tensor<4x3xf32>) -> tensor<3x4xf32>
    %6 = "xla.reshape"(%5) : (tensor<3x4xf32>) -> tensor<12xf32>
    %7 = "xla.reshape"(%6) : (tensor<12xf32>) -> tensor<3x4xf32>
    %8 = "xla.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %9 = "xla.dynamic_slice"(%arg0, %arg1, %8) {slice_sizes = array<i64: 2, 2>} : (tensor<4x3xf32>, tensor<i32>, tensor<i32>) -> tensor<2x2xf32>
    %10 = "xla.dynamic_update_slice"(%arg0, %9, %arg1, %8) : (tensor<4x3xf32>, tensor<2x2xf32>, tensor<i32>, tensor<i32>) -> tensor<4x3xf32>
    "func.return"(%1, %3, %4, %7, %10) : (tensor<8x3xf32>, tensor<5x9xf32>, tensor<2x2xf32>, tensor<3x4xf32>, tensor<4x3xf32>) -> ()
  }
}
"#;
    assert_imports_to(hlo, expected);
}

/// `dot` and `convolution`, in the long form with `%` names, a computation
/// signature and operand shapes.
#[test]
fn dot_and_convolution_long_form() {
    let hlo = r#"
HloModule dotconv

ENTRY %main.3 (a: f32[2,3,4], b: f32[2,4,5], x: f32[1,6,6,4], w: f32[2,2,2,6]) -> (f32[2,3,5], f32[1,3,11,6]) {
  %a = f32[2,3,4]{2,1,0} parameter(0)
  %b = f32[2,4,5]{2,1,0} parameter(1)
  %d = f32[2,3,5]{2,1,0} dot(f32[2,3,4]{2,1,0} %a, f32[2,4,5]{2,1,0} %b), lhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_batch_dims={0}, rhs_contracting_dims={1}, operand_precision={highest,default}
  %x = f32[1,6,6,4]{3,2,1,0} parameter(2)
  %w = f32[2,2,2,6]{3,2,1,0} parameter(3)
  %c = f32[1,3,11,6]{3,2,1,0} convolution(%x, %w), window={size=2x2 stride=2x1 pad=1_0x0_1 lhs_dilate=1x2 rhs_dilate=2x1}, dim_labels=b01f_01io->b01f, feature_group_count=2
  ROOT %t = (f32[2,3,5]{2,1,0}, f32[1,3,11,6]{3,2,1,0}) tuple(%d, %c)
}
"#;
    let expected = r#"module @dotconv {
  func.func @main(%arg0: tensor<2x3x4xf32>, %arg1: tensor<2x4x5xf32>, %arg2: tensor<1x6x6x4xf32>, %arg3: tensor<2x2x2x6xf32>) -> (tensor<2x3x5xf32>, tensor<1x3x11x6xf32>) {
    %0 = "xla.dot_general"(%arg0, %arg1) {precision_config = [#stablehlo<precision HIGHEST>, #stablehlo<precision DEFAULT>], dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0 : i64], rhs_batching_dimensions = [0 : i64], lhs_contracting_dimensions = [2 : i64], rhs_contracting_dimensions = [1 : i64]>} : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
    %1 = "xla.convolution"(%arg2, %arg3) {dimension_numbers = #stablehlo.conv<input_batch_dimension = 0 : i64, input_feature_dimension = 3 : i64, input_spatial_dimensions = [1 : i64, 2 : i64], kernel_input_feature_dimension = 2 : i64, kernel_output_feature_dimension = 3 : i64, kernel_spatial_dimensions = [0 : i64, 1 : i64], output_batch_dimension = 0 : i64, output_feature_dimension = 3 : i64, output_spatial_dimensions = [1 : i64, 2 : i64]>, window_strides = array<i64: 2, 1>, padding = dense<[[1, 0], [0, 1]]> : tensor<2x2xi64>, lhs_dilation = array<i64: 1, 2>, rhs_dilation = array<i64: 2, 1>, window_reversal = array<i64: 0, 0>, batch_group_count = 1 : i64, feature_group_count = 2 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x6x6x4xf32>, tensor<2x2x2x6xf32>) -> tensor<1x3x11x6xf32>
    "func.return"(%0, %1) : (tensor<2x3x5xf32>, tensor<1x3x11x6xf32>) -> ()
  }
}
"#;
    assert_imports_to(hlo, expected);
}

/// `gather` and `scatter` with their dimension numbers.
#[test]
fn gather_and_scatter() {
    let hlo = r#"
HloModule gs

add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}

ENTRY main {
  a = f32[4,3]{1,0} parameter(0)
  i = s32[2,1]{1,0} parameter(1)
  g = f32[2,3]{1,0} gather(a, i), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,3}
  ROOT s = f32[4,3]{1,0} scatter(a, i, g), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, indices_are_sorted=true, to_apply=add
}
"#;
    let expected = r#"module @gs {
  func.func @main(%arg0: tensor<4x3xf32>, %arg1: tensor<2x1xi32>) -> tensor<4x3xf32> {
    %0 = "xla.gather"(%arg0, %arg1) {dimension_numbers = #stablehlo.gather<offset_dims = [1 : i64], collapsed_slice_dims = [0 : i64], start_index_map = [0 : i64], index_vector_dim = 1 : i64>, indices_are_sorted = false, slice_sizes = array<i64: 1, 3>} : (tensor<4x3xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>
    %1 = "xla.scatter"(%arg0, %arg1, %0) ({
      ^bb1(%arg2: tensor<f32>, %arg3: tensor<f32>):
        %2 = "xla.add"(%arg2, %arg3) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "xla.return"(%2) : (tensor<f32>) -> ()
      }) {indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1 : i64], inserted_window_dims = [0 : i64], scatter_dims_to_operand_dims = [0 : i64], index_vector_dim = 1 : i64>, unique_indices = false} : (tensor<4x3xf32>, tensor<2x1xi32>, tensor<2x3xf32>) -> tensor<4x3xf32>
    "func.return"(%1) : (tensor<4x3xf32>) -> ()
  }
}
"#;
    assert_imports_to(hlo, expected);
}

/// `reduce-window` and `select-and-scatter` windows, padding and regions.
#[test]
fn reduce_window_and_select_and_scatter() {
    let hlo = r#"
HloModule windows

max {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT m = f32[] maximum(x, y)
}

ge {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT c = pred[] compare(x, y), direction=GE
}

add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}

ENTRY main {
  a = f32[4,4]{1,0} parameter(0)
  ninf = f32[] constant(-inf)
  rw = f32[4,4]{1,0} reduce-window(a, ninf), window={size=2x2 pad=0_1x1_0}, to_apply=max
  src = f32[2,2]{1,0} parameter(1)
  zero = f32[] constant(0)
  ROOT sas = f32[4,4]{1,0} select-and-scatter(rw, src, zero), window={size=2x2 stride=2x2}, select=ge, scatter=add
}
"#;
    let expected = r#"module @windows {
  func.func @main(%arg0: tensor<4x4xf32>, %arg1: tensor<2x2xf32>) -> tensor<4x4xf32> {
    %0 = "xla.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
    %1 = "xla.reduce_window"(%arg0, %0) ({
      ^bb1(%arg2: tensor<f32>, %arg3: tensor<f32>):
        %2 = "xla.maximum"(%arg2, %arg3) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "xla.return"(%2) : (tensor<f32>) -> ()
      }) {base_dilations = array<i64: 1, 1>, padding = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 1, 1>} : (tensor<4x4xf32>, tensor<f32>) -> tensor<4x4xf32>
    %3 = "xla.constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
    %4 = "xla.select_and_scatter"(%1, %arg1, %3) ({
      ^bb2(%arg4: tensor<f32>, %arg5: tensor<f32>):
        %5 = "xla.compare"(%arg4, %arg5) {comparison_direction = #stablehlo<comparison_direction GE>, compare_type = #stablehlo<comparison_type FLOAT>} : (tensor<f32>, tensor<f32>) -> tensor<i1>
        "xla.return"(%5) : (tensor<i1>) -> ()
      }, {
      ^bb3(%arg6: tensor<f32>, %arg7: tensor<f32>):
        %6 = "xla.add"(%arg6, %arg7) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "xla.return"(%6) : (tensor<f32>) -> ()
      }) {padding = dense<[[0, 0], [0, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>} : (tensor<4x4xf32>, tensor<2x2xf32>, tensor<f32>) -> tensor<4x4xf32>
    "func.return"(%4) : (tensor<4x4xf32>) -> ()
  }
}
"#;
    assert_imports_to(hlo, expected);
}

/// FFT, rng-bit-generator, cholesky, triangular-solve, reduce-precision, a
/// LAPACK custom call with a typed backend_config, and opt-barrier.
#[test]
fn fft_rng_linalg_custom_call_barrier() {
    let hlo = r#"
HloModule misc

ENTRY main {
  x = f32[4,4]{1,0} parameter(0)
  c = c64[4,4]{1,0} convert(x)
  f = c64[4,4]{1,0} fft(c), fft_type=FFT, fft_length={4}
  key = u64[2]{0} parameter(1)
  rng = (u64[2]{0}, u32[2,3]{1,0}) rng-bit-generator(key), algorithm=rng_three_fry
  bits = u32[2,3]{1,0} get-tuple-element(rng), index=1
  l = f32[4,4]{1,0} cholesky(x), lower=true
  ts = f32[4,4]{1,0} triangular-solve(l, x), left_side=true, lower=true, transpose_a=TRANSPOSE
  rp = f32[4,4]{1,0} reduce-precision(x), exponent_bits=5, mantissa_bits=10
  cc = (f32[4,4]{1,0}, s32[]) custom-call(x), custom_call_target="lapack_spotrf_ffi", api_version=API_VERSION_TYPED_FFI, backend_config={uplo = 76 : ui8}
  ob = (f32[4,4]{1,0}, s32[]) opt-barrier(cc)
  ROOT t = (c64[4,4]{1,0}, u32[2,3]{1,0}, f32[4,4]{1,0}, f32[4,4]{1,0}, (f32[4,4]{1,0}, s32[])) tuple(f, bits, ts, rp, ob)
}
"#;
    let expected = r#"module @misc {
  func.func @main(%arg0: tensor<4x4xf32>, %arg1: tensor<2xui64>) -> (tensor<4x4xcomplex<f32>>, tensor<2x3xui32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<i32>) {
    %0 = "xla.convert"(%arg0) : (tensor<4x4xf32>) -> tensor<4x4xcomplex<f32>>
    %1 = "xla.fft"(%0) {fft_type = #stablehlo<fft_type FFT>, fft_length = array<i64: 4>} : (tensor<4x4xcomplex<f32>>) -> tensor<4x4xcomplex<f32>>
    %2:2 = "xla.rng_bit_generator"(%arg1) {rng_algorithm = "THREE_FRY"} : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2x3xui32>)
    %3 = "xla.cholesky"(%arg0) {lower = true} : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %4 = "xla.triangular_solve"(%3, %arg0) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose TRANSPOSE>} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %5 = "xla.reduce_precision"(%arg0) {exponent_bits = 5 : i32, mantissa_bits = 10 : i32} : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %6:2 = "xla.custom_call"(%arg0) {backend_config = "", mhlo.backend_config = {uplo = 76 : ui8}, call_target_name = "lapack_spotrf_ffi"} : (tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<i32>)
    %7:2 = "xla.optimization_barrier"(%6#0, %6#1) : (tensor<4x4xf32>, tensor<i32>) -> (tensor<4x4xf32>, tensor<i32>)
    "func.return"(%1, %2#1, %4, %5, %7#0, %7#1) : (tensor<4x4xcomplex<f32>>, tensor<2x3xui32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<i32>) -> ()
  }
}
"#;
    assert_imports_to(hlo, expected);
}

/// `map`, `all-reduce`, tokens and `after-all`; a tuple entry parameter
/// flattens into two arguments (and a tuple call argument into two call
/// operands); a computation named `main` gets another symbol.
#[test]
fn map_all_reduce_tokens_and_tuple_parameters() {
    let hlo = r#"
HloModule more

add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}

mul {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT p = f32[] multiply(x, y)
}

main {
  p = (f32[3]{0}, f32[3]{0}) parameter(0)
  ROOT a = f32[3]{0} get-tuple-element(p), index=0
}

ENTRY entry {
  t = (f32[3]{0}, f32[3]{0}) parameter(0)
  tok = token[] parameter(1)
  a = f32[3]{0} get-tuple-element(t), index=0
  b = f32[3]{0} get-tuple-element(t), index=1
  m = f32[3]{0} map(a, b), dimensions={0}, to_apply=mul
  r = f32[3]{0} all-reduce(m), replica_groups={}, to_apply=add
  c = f32[3]{0} call(t), to_apply=main
  after = token[] after-all(tok, tok)
  ROOT out = (f32[3]{0}, f32[3]{0}, token[]) tuple(r, c, after)
}
"#;
    let expected = r#"module @more {
  func.func @main(%arg0: tensor<3xf32>, %arg1: tensor<3xf32>, %arg2: !stablehlo.token) -> (tensor<3xf32>, tensor<3xf32>, !stablehlo.token) {
    %0 = "xla.map"(%arg0, %arg1) ({
      ^bb1(%arg3: tensor<f32>, %arg4: tensor<f32>):
        %1 = "xla.multiply"(%arg3, %arg4) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "xla.return"(%1) : (tensor<f32>) -> ()
      }) {dimensions = array<i64: 0>} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    %2 = "xla.all_reduce"(%0) ({
      ^bb2(%arg5: tensor<f32>, %arg6: tensor<f32>):
        %3 = "xla.add"(%arg5, %arg6) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "xla.return"(%3) : (tensor<f32>) -> ()
      }) {replica_groups = dense<[]> : tensor<0x0xi64>} : (tensor<3xf32>) -> tensor<3xf32>
    %4 = "func.call"(%arg0, %arg1) {callee = @main_1} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    %5 = "xla.after_all"(%arg2, %arg2) : (!stablehlo.token, !stablehlo.token) -> !stablehlo.token
    "func.return"(%2, %4, %5) : (tensor<3xf32>, tensor<3xf32>, !stablehlo.token) -> ()
  }
  func.func private @main_1(%arg0: tensor<3xf32>, %arg1: tensor<3xf32>) -> tensor<3xf32> {
    "func.return"(%arg0) : (tensor<3xf32>) -> ()
  }
}
"#;
    assert_imports_to(hlo, expected);
}

/// Collectives with their replica groups; `replica_count` becomes the
/// module's `mhlo.num_replicas`.
#[test]
fn collectives() {
    let hlo = r#"
HloModule collectives, replica_count=2

add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}

ENTRY main {
  x = f32[4,2]{1,0} parameter(0)
  r = f32[4,2]{1,0} all-reduce(x), replica_groups={{0,1}}, to_apply=add
  g = f32[8,2]{1,0} all-gather(x), dimensions={0}, replica_groups={{0,1}}
  s = f32[2,2]{1,0} reduce-scatter(x), dimensions={0}, replica_groups={{0,1}}, to_apply=add
  a = f32[4,2]{1,0} all-to-all(x), dimensions={0}, replica_groups={{0,1}}
  p = f32[4,2]{1,0} collective-permute(x), source_target_pairs={{0,1},{1,0}}
  id = u32[] replica-id()
  ROOT t = (f32[4,2]{1,0}, f32[8,2]{1,0}, f32[2,2]{1,0}, f32[4,2]{1,0}, f32[4,2]{1,0}, u32[]) tuple(r, g, s, a, p, id)
}
"#;
    let expected = r#"module @collectives attributes {mhlo.num_replicas = 2 : i32} {
  func.func @main(%arg0: tensor<4x2xf32>) -> (tensor<4x2xf32>, tensor<8x2xf32>, tensor<2x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<ui32>) {
    %0 = "xla.all_reduce"(%arg0) ({
      ^bb1(%arg1: tensor<f32>, %arg2: tensor<f32>):
        %1 = "xla.add"(%arg1, %arg2) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "xla.return"(%1) : (tensor<f32>) -> ()
      }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4x2xf32>) -> tensor<4x2xf32>
    %2 = "xla.all_gather"(%arg0) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, all_gather_dim = 0 : i64} : (tensor<4x2xf32>) -> tensor<8x2xf32>
    %3 = "xla.reduce_scatter"(%arg0) ({
      ^bb2(%arg3: tensor<f32>, %arg4: tensor<f32>):
        %4 = "xla.add"(%arg3, %arg4) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "xla.return"(%4) : (tensor<f32>) -> ()
      }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, scatter_dimension = 0 : i64} : (tensor<4x2xf32>) -> tensor<2x2xf32>
    %5 = "xla.all_to_all"(%arg0) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, split_dimension = 0 : i64, concat_dimension = 0 : i64, split_count = 2 : i64} : (tensor<4x2xf32>) -> tensor<4x2xf32>
    %6 = "xla.collective_permute"(%arg0) {source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>} : (tensor<4x2xf32>) -> tensor<4x2xf32>
    %7 = "xla.replica_id"() : () -> tensor<ui32>
    "func.return"(%0, %2, %3, %5, %6, %7) : (tensor<4x2xf32>, tensor<8x2xf32>, tensor<2x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<ui32>) -> ()
  }
}
"#;
    assert_imports_to(hlo, expected);
}

/// Newer XLA prints replica groups in iota form: `[G,S]<=[dims]T(perm)`.
#[test]
fn iota_replica_groups() {
    let hlo = r#"
HloModule iota_groups, replica_count=8

add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}

ENTRY main {
  x = f32[2]{0} parameter(0)
  r = f32[2]{0} all-reduce(x), replica_groups=[2,4]<=[8], to_apply=add
  ROOT t = f32[2]{0} all-reduce(r), replica_groups=[4,2]<=[2,4]T(1,0), to_apply=add
}
"#;
    let expected = r#"module @iota_groups attributes {mhlo.num_replicas = 8 : i32} {
  func.func @main(%arg0: tensor<2xf32>) -> tensor<2xf32> {
    %0 = "xla.all_reduce"(%arg0) ({
      ^bb1(%arg1: tensor<f32>, %arg2: tensor<f32>):
        %1 = "xla.add"(%arg1, %arg2) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "xla.return"(%1) : (tensor<f32>) -> ()
      }) {replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>} : (tensor<2xf32>) -> tensor<2xf32>
    %2 = "xla.all_reduce"(%0) ({
      ^bb2(%arg3: tensor<f32>, %arg4: tensor<f32>):
        %3 = "xla.add"(%arg3, %arg4) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "xla.return"(%3) : (tensor<f32>) -> ()
      }) {replica_groups = dense<[[0, 4], [1, 5], [2, 6], [3, 7]]> : tensor<4x2xi64>} : (tensor<2xf32>) -> tensor<2xf32>
    "func.return"(%2) : (tensor<2xf32>) -> ()
  }
}
"#;
    assert_imports_to(hlo, expected);
}

/// Optimized HLO as XLA prints it after compiling: debug tables between the
/// header and the computations, signatures ending in `-> shape {`, and
/// `fusion`s, which call their computation.
#[test]
fn optimized_hlo_with_fusions_and_debug_tables() {
    let hlo = r#"HloModule jit_f, is_scheduled=true, entry_computation_layout={(f32[4]{0})->f32[4]{0}}

FileNames
1 "<string>"

StackFrames
1 {file_location_id=1 parent_frame_id=1}

%fused_computation (param_0: f32[4]) -> f32[4] {
  %param_0 = f32[4]{0} parameter(0)
  ROOT %exp.0 = f32[4]{0} exponential(%param_0), metadata={op_name="jit(f)/exp" stack_frame_id=1}
}

ENTRY %main.3 (a.1: f32[4]) -> f32[4] {
  %a.1 = f32[4]{0} parameter(0), metadata={op_name="a"}
  ROOT %exp_fusion = f32[4]{0} fusion(%a.1), kind=kLoop, calls=%fused_computation, backend_config={"outer_dimension_partitions":[]}
}
"#;
    let expected = r#"module @jit_f {
  func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = "func.call"(%arg0) {callee = @fused_computation} : (tensor<4xf32>) -> tensor<4xf32>
    "func.return"(%0) : (tensor<4xf32>) -> ()
  }
  func.func private @fused_computation(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = "xla.exponential"(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
    "func.return"(%0) : (tensor<4xf32>) -> ()
  }
}
"#;
    assert_imports_to(hlo, expected);
}
