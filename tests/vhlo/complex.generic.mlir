"builtin.module"() <{sym_name = "jit_f"}> ({
  "func.func"() <{function_type = (tensor<2xcomplex<f32>>, tensor<8xf32>) -> (tensor<2xcomplex<f32>>, tensor<2xf32>, tensor<8xcomplex<f32>>, tensor<8xcomplex<f32>>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}, {jax.result_info = "result[3]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg1: tensor<2xcomplex<f32>>, %arg2: tensor<8xf32>):
    %2 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<2xf32>}> : () -> tensor<2xf32>
    %3 = "stablehlo.constant"() <{value = dense<5.000000e-01> : tensor<2xf32>}> : () -> tensor<2xf32>
    %4 = "stablehlo.constant"() <{value = dense<0x7F800000> : tensor<2xf32>}> : () -> tensor<2xf32>
    %5 = "stablehlo.real"(%arg1) : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
    %6 = "stablehlo.imag"(%arg1) : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
    %7 = "stablehlo.negate"(%6) : (tensor<2xf32>) -> tensor<2xf32>
    %8 = "stablehlo.complex"(%5, %7) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xcomplex<f32>>
    %9 = "stablehlo.multiply"(%arg1, %8) : (tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>>
    %10 = "stablehlo.real"(%arg1) : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
    %11 = "stablehlo.exponential"(%10) : (tensor<2xf32>) -> tensor<2xf32>
    %12 = "stablehlo.compare"(%11, %4) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
    %13 = "stablehlo.multiply"(%10, %3) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %14 = "stablehlo.exponential"(%13) : (tensor<2xf32>) -> tensor<2xf32>
    %15 = "stablehlo.imag"(%arg1) : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
    %16 = "stablehlo.cosine"(%15) : (tensor<2xf32>) -> tensor<2xf32>
    %17 = "stablehlo.multiply"(%14, %16) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %18 = "stablehlo.multiply"(%17, %14) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %19 = "stablehlo.multiply"(%11, %16) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %20 = "stablehlo.select"(%12, %18, %19) : (tensor<2xi1>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %21 = "stablehlo.compare"(%15, %2) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
    %22 = "stablehlo.sine"(%15) : (tensor<2xf32>) -> tensor<2xf32>
    %23 = "stablehlo.multiply"(%14, %22) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %24 = "stablehlo.multiply"(%23, %14) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %25 = "stablehlo.multiply"(%11, %22) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %26 = "stablehlo.select"(%12, %24, %25) : (tensor<2xi1>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %27 = "stablehlo.select"(%21, %2, %26) : (tensor<2xi1>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %28 = "stablehlo.complex"(%20, %27) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xcomplex<f32>>
    %29 = "stablehlo.add"(%9, %28) : (tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>>
    %30 = "stablehlo.real"(%29) : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
    %31 = "stablehlo.imag"(%29) : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
    %32 = "stablehlo.add"(%30, %31) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %33 = "stablehlo.abs"(%arg1) : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
    %34 = "stablehlo.add"(%32, %33) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %35 = "func.call"(%arg2) <{callee = @fft}> : (tensor<8xf32>) -> tensor<8xcomplex<f32>>
    %36 = "stablehlo.convert"(%arg2) : (tensor<8xf32>) -> tensor<8xcomplex<f32>>
    "func.return"(%29, %34, %35, %36) : (tensor<2xcomplex<f32>>, tensor<2xf32>, tensor<8xcomplex<f32>>, tensor<8xcomplex<f32>>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<8xf32>) -> tensor<8xcomplex<f32>>, sym_name = "fft", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<8xf32>):
    %0 = "stablehlo.convert"(%arg0) : (tensor<8xf32>) -> tensor<8xcomplex<f32>>
    %1 = "stablehlo.fft"(%0) <{fft_length = array<i64: 8>, fft_type = #stablehlo<fft_type FFT>}> : (tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>>
    "func.return"(%1) : (tensor<8xcomplex<f32>>) -> ()
  }) : () -> ()
}) {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
