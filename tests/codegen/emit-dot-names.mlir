// RUN: strata compile %s -o %t.dot && FileCheck %s < %t.dot

// The graph labels arguments and results with the model's paths for them:
// the name location JAX writes for each argument (its pytree path) and
// each result's `jax.result_info`, escaped for the label.

// CHECK: f0_arg0 [shape=ellipse, label="%arg0\nparams['w']\n4x8xf32"];
// CHECK: f0_arg1 [shape=ellipse, label="%arg1\nx\"quoted\"\n2x4xf32"];
// CHECK: [label="return\nresult['y']", shape=ellipse];

func.func @main(%w: tensor<4x8xf32> loc("params['w']"), %x: tensor<2x4xf32> loc("x\"quoted\"")) -> (tensor<2x8xf32> {jax.result_info = "result['y']"}) {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<2x4xf32>, tensor<4x8xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}
