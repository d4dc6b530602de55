// RUN: strata opt %s | strata opt /dev/stdin | FileCheck %s

// Round trip of the ops with regions or callees: while, if, case, map, sort, scan, composite and custom_call.

// CHECK-LABEL: func.func @while
// CHECK-SAME: (%[[N:.*]]: tensor<i32>, %[[X:.*]]: tensor<3xf32>)
func.func @while(%n: tensor<i32>, %x: tensor<3xf32>) -> (tensor<i32>, tensor<3xf32>) {
  // CHECK: %[[ONE:.*]] = "xla.constant"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %c = stablehlo.constant dense<1> : tensor<i32>
  // CHECK: %[[W:.*]]:2 = "xla.while"(%[[N]], %[[X]]) ({
  // CHECK-NEXT: ^{{.*}}(%[[I:.*]]: tensor<i32>, %{{.*}}: tensor<3xf32>):
  // CHECK-NEXT: %[[LT:.*]] = "xla.compare"(%[[I]], %[[ONE]]) {comparison_direction = #stablehlo<comparison_direction LT>, compare_type = #stablehlo<comparison_type SIGNED>} : (tensor<i32>, tensor<i32>) -> tensor<i1>
  // CHECK-NEXT: "xla.return"(%[[LT]]) : (tensor<i1>) -> ()
  // CHECK-NEXT: }, {
  // CHECK-NEXT: ^{{.*}}(%[[J:.*]]: tensor<i32>, %[[V:.*]]: tensor<3xf32>):
  // CHECK-NEXT: %[[NEXT:.*]] = "xla.add"(%[[J]], %[[ONE]]) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  // CHECK-NEXT: %[[NEG:.*]] = "xla.negate"(%[[V]]) : (tensor<3xf32>) -> tensor<3xf32>
  // CHECK-NEXT: "xla.return"(%[[NEXT]], %[[NEG]]) : (tensor<i32>, tensor<3xf32>) -> ()
  // CHECK-NEXT: }) : (tensor<i32>, tensor<3xf32>) -> (tensor<i32>, tensor<3xf32>)
  %0:2 = stablehlo.while(%iterArg = %n, %iterArg_1 = %x) : tensor<i32>, tensor<3xf32>
   cond {
    %1 = stablehlo.compare  LT, %iterArg, %c,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %1 = stablehlo.add %iterArg, %c : tensor<i32>
    %2 = stablehlo.negate %iterArg_1 : tensor<3xf32>
    stablehlo.return %1, %2 : tensor<i32>, tensor<3xf32>
  }
  // CHECK: "func.return"(%[[W]]#0, %[[W]]#1)
  return %0#0, %0#1 : tensor<i32>, tensor<3xf32>
}

// CHECK-LABEL: func.func @if
// CHECK-SAME: (%[[P:.*]]: tensor<i1>, %[[A:.*]]: tensor<2xf32>)
func.func @if(%p: tensor<i1>, %a: tensor<2xf32>) -> tensor<2xf32> {
  // CHECK: %[[R:.*]] = "xla.if"(%[[P]]) ({
  // CHECK-NEXT: "xla.return"(%[[A]]) : (tensor<2xf32>) -> ()
  // CHECK-NEXT: }, {
  // CHECK-NEXT: %[[NEG:.*]] = "xla.negate"(%[[A]]) : (tensor<2xf32>) -> tensor<2xf32>
  // CHECK-NEXT: "xla.return"(%[[NEG]]) : (tensor<2xf32>) -> ()
  // CHECK-NEXT: }) : (tensor<i1>) -> tensor<2xf32>
  %0 = "stablehlo.if"(%p) ({
    stablehlo.return %a : tensor<2xf32>
  }, {
    %1 = stablehlo.negate %a : tensor<2xf32>
    stablehlo.return %1 : tensor<2xf32>
  }) : (tensor<i1>) -> tensor<2xf32>
  // CHECK: "func.return"(%[[R]])
  return %0 : tensor<2xf32>
}

// CHECK-LABEL: func.func @case
// CHECK-SAME: (%[[I:.*]]: tensor<i32>, %[[A:.*]]: tensor<2xf32>)
func.func @case(%i: tensor<i32>, %a: tensor<2xf32>) -> tensor<2xf32> {
  // CHECK: %[[R:.*]] = "xla.case"(%[[I]]) ({
  // CHECK-NEXT: "xla.return"(%[[A]]) : (tensor<2xf32>) -> ()
  // CHECK-NEXT: }, {
  // CHECK-NEXT: %[[NEG:.*]] = "xla.negate"(%[[A]]) : (tensor<2xf32>) -> tensor<2xf32>
  // CHECK-NEXT: "xla.return"(%[[NEG]]) : (tensor<2xf32>) -> ()
  // CHECK-NEXT: }, {
  // CHECK-NEXT: %[[ABS:.*]] = "xla.abs"(%[[A]]) : (tensor<2xf32>) -> tensor<2xf32>
  // CHECK-NEXT: "xla.return"(%[[ABS]]) : (tensor<2xf32>) -> ()
  // CHECK-NEXT: }) : (tensor<i32>) -> tensor<2xf32>
  %0 = "stablehlo.case"(%i) ({
    stablehlo.return %a : tensor<2xf32>
  }, {
    %1 = stablehlo.negate %a : tensor<2xf32>
    stablehlo.return %1 : tensor<2xf32>
  }, {
    %1 = stablehlo.abs %a : tensor<2xf32>
    stablehlo.return %1 : tensor<2xf32>
  }) : (tensor<i32>) -> tensor<2xf32>
  // CHECK: "func.return"(%[[R]])
  return %0 : tensor<2xf32>
}

// CHECK-LABEL: func.func @map
// CHECK-SAME: (%[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<2x3xf32>)
func.func @map(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // CHECK: %[[R:.*]] = "xla.map"(%[[A]], %[[B]]) ({
  // CHECK-NEXT: ^{{.*}}(%[[X:.*]]: tensor<f32>, %[[Y:.*]]: tensor<f32>):
  // CHECK-NEXT: %[[M:.*]] = "xla.multiply"(%[[X]], %[[Y]]) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  // CHECK-NEXT: "xla.return"(%[[M]]) : (tensor<f32>) -> ()
  // CHECK-NEXT: }) {dimensions = array<i64: 0, 1>} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %0 = "stablehlo.map"(%a, %b) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %1 = stablehlo.multiply %x, %y : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: "func.return"(%[[R]])
  return %0 : tensor<2x3xf32>
}

// Sorting values with their indices, descending by the values.
// CHECK-LABEL: func.func @sort
// CHECK-SAME: (%[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<2x3xi32>)
func.func @sort(%a: tensor<2x3xf32>, %b: tensor<2x3xi32>) -> (tensor<2x3xf32>, tensor<2x3xi32>) {
  // CHECK: %[[S:.*]]:2 = "xla.sort"(%[[A]], %[[B]]) ({
  // CHECK-NEXT: ^{{.*}}(%[[X:.*]]: tensor<f32>, %[[Y:.*]]: tensor<f32>, %{{.*}}: tensor<i32>, %{{.*}}: tensor<i32>):
  // CHECK-NEXT: %[[GT:.*]] = "xla.compare"(%[[X]], %[[Y]]) {comparison_direction = #stablehlo<comparison_direction GT>, compare_type = #stablehlo<comparison_type TOTALORDER>} : (tensor<f32>, tensor<f32>) -> tensor<i1>
  // CHECK-NEXT: "xla.return"(%[[GT]]) : (tensor<i1>) -> ()
  // CHECK-NEXT: }) {dimension = 1 : i64, is_stable = true} : (tensor<2x3xf32>, tensor<2x3xi32>) -> (tensor<2x3xf32>, tensor<2x3xi32>)
  %0:2 = "stablehlo.sort"(%a, %b) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>, %p: tensor<i32>, %q: tensor<i32>):
    %1 = stablehlo.compare  GT, %x, %y,  TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }) : (tensor<2x3xf32>, tensor<2x3xi32>) -> (tensor<2x3xf32>, tensor<2x3xi32>)
  // CHECK: "func.return"(%[[S]]#0, %[[S]]#1)
  return %0#0, %0#1 : tensor<2x3xf32>, tensor<2x3xi32>
}

// A reversed cumulative sum: num_inputs counts the scanned operands.
// CHECK-LABEL: func.func @scan
// CHECK-SAME: (%[[IN:.*]]: tensor<4xi32>, %[[INIT:.*]]: tensor<i32>)
func.func @scan(%input: tensor<4xi32>, %init: tensor<i32>) -> (tensor<4xi32>, tensor<i32>) {
  // CHECK: %[[S:.*]]:2 = "xla.scan"(%[[IN]], %[[INIT]]) ({
  // CHECK-NEXT: ^{{.*}}(%[[X:.*]]: tensor<i32>, %[[C:.*]]: tensor<i32>):
  // CHECK-NEXT: %[[SUM:.*]] = "xla.add"(%[[X]], %[[C]]) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  // CHECK-NEXT: "xla.return"(%[[SUM]], %[[SUM]]) : (tensor<i32>, tensor<i32>) -> ()
  // CHECK-NEXT: }) {dimension = 0 : i64, num_inputs = 1 : i64, is_reverse = true} : (tensor<4xi32>, tensor<i32>) -> (tensor<4xi32>, tensor<i32>)
  %0:2 = chlo.scan(%input) inits(%init) dimension=0 attributes {is_reverse = true} {
  ^bb0(%x: tensor<i32>, %c: tensor<i32>):
    %1 = stablehlo.add %x, %c : tensor<i32>
    stablehlo.return %1, %1 : tensor<i32>, tensor<i32>
  } : (tensor<4xi32>, tensor<i32>) -> (tensor<4xi32>, tensor<i32>)
  // CHECK: "func.return"(%[[S]]#0, %[[S]]#1)
  return %0#0, %0#1 : tensor<4xi32>, tensor<i32>
}

// CHECK-LABEL: func.func @composite
// CHECK-SAME: (%[[X:.*]]: tensor<3xf32>)
func.func @composite(%x: tensor<3xf32>) -> tensor<3xf32> {
  // CHECK: %[[R:.*]] = "xla.composite"(%[[X]]) {name = "my.double", composite_attributes = {factor = 2 : i64}, decomposition = @my.double.impl, version = 1 : i32} : (tensor<3xf32>) -> tensor<3xf32>
  %0 = stablehlo.composite "my.double" %x {composite_attributes = {factor = 2 : i64}, decomposition = @my.double.impl, version = 1 : i32} : (tensor<3xf32>) -> tensor<3xf32>
  // CHECK: "func.return"(%[[R]])
  return %0 : tensor<3xf32>
}

// CHECK-LABEL: func.func private @my.double.impl
func.func private @my.double.impl(%x: tensor<3xf32>) -> tensor<3xf32> {
  // CHECK: "xla.add"
  %0 = stablehlo.add %x, %x : tensor<3xf32>
  return %0 : tensor<3xf32>
}

// CHECK-LABEL: func.func @custom_call
// CHECK-SAME: (%[[A:.*]]: tensor<2xf32>)
func.func @custom_call(%a: tensor<2xf32>) -> (tensor<2xf32>, tensor<i32>, tensor<2xf32>) {
  // CHECK: %[[C:.*]]:2 = "xla.custom_call"(%[[A]]) {api_version = 2 : i32, backend_config = "cfg", has_side_effect = true, call_target_name = "my_target"} : (tensor<2xf32>) -> (tensor<2xf32>, tensor<i32>)
  %0:2 = stablehlo.custom_call @my_target(%a) {api_version = 2 : i32, backend_config = "cfg", has_side_effect = true} : (tensor<2xf32>) -> (tensor<2xf32>, tensor<i32>)
  // A typed-FFI backend_config dictionary, layouts and an operand alias.
  // CHECK: %[[D:.*]] = "xla.custom_call"(%[[C]]#0)
  // CHECK-SAME: {api_version = 4 : i32, backend_config = {alpha = 1.5 : f32, name = "x"}, operand_layouts = [dense<[0]> : tensor<1xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 0 : i64, operand_tuple_indices = []>], result_layouts = [dense<[0]> : tensor<1xindex>], call_target_name = "my_ffi_target"}
  // CHECK-SAME: : (tensor<2xf32>) -> tensor<2xf32>
  %1 = stablehlo.custom_call @my_ffi_target(%0#0) {api_version = 4 : i32, backend_config = {alpha = 1.5 : f32, name = "x"}, operand_layouts = [dense<0> : tensor<1xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<0> : tensor<1xindex>]} : (tensor<2xf32>) -> tensor<2xf32>
  // CHECK: "func.return"(%[[C]]#0, %[[C]]#1, %[[D]])
  return %0#0, %0#1, %1 : tensor<2xf32>, tensor<i32>, tensor<2xf32>
}
