// RUN: strata check %s | FileCheck %s
// CHECK: {{^}}3 passed, 0 failed{{$}}

// Complex arithmetic and functions on complex<f32>. The first piece's
// expected values were computed by running the same ops through XLA:CPU
// (jax's compiler); the last two pieces check magnitudes far from 1, where
// computing |z| as sqrt(re^2 + im^2) overflows or underflows in f32 although
// the result is representable (XLA and C's cabs/hypot scale first).

func.func @ops() {
  %a = stablehlo.constant dense<[(1.0, 2.0), (-3.5, 0.5), (-1.0, -1.0), (0.5, -2.0)]> : tensor<4xcomplex<f32>>
  %b = stablehlo.constant dense<[(0.5, -1.0), (2.0, 0.0), (1.0, 1.0), (-1.5, 3.0)]> : tensor<4xcomplex<f32>>
  %b0 = stablehlo.add %a, %b : tensor<4xcomplex<f32>>
  %b1 = stablehlo.subtract %a, %b : tensor<4xcomplex<f32>>
  %b2 = stablehlo.multiply %a, %b : tensor<4xcomplex<f32>>
  %b3 = stablehlo.divide %a, %b : tensor<4xcomplex<f32>>
  %b4 = stablehlo.power %a, %b : tensor<4xcomplex<f32>>
  %b5 = stablehlo.atan2 %a, %b : tensor<4xcomplex<f32>>
  %u0 = stablehlo.abs %a : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
  %u1 = stablehlo.exponential %a : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  %u2 = stablehlo.sqrt %a : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  %u3 = stablehlo.log %a : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  %u4 = stablehlo.sine %a : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  %u5 = stablehlo.cosine %a : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  %u6 = stablehlo.tanh %a : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  %u7 = stablehlo.tan %a : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  %u8 = stablehlo.rsqrt %a : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  %u9 = stablehlo.sign %a : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  %u10 = stablehlo.negate %a : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  %u11 = stablehlo.exponential_minus_one %a : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  %u12 = stablehlo.log_plus_one %a : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  %u13 = stablehlo.logistic %a : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  check.expect_almost_eq_const %b0, dense<[(1.5, 1.0), (-1.5, 0.5), (0.0, 0.0), (-1.0, 1.0)]> : tensor<4xcomplex<f32>> // add
  check.expect_almost_eq_const %b1, dense<[(0.5, 3.0), (-5.5, 0.5), (-2.0, -2.0), (2.0, -5.0)]> : tensor<4xcomplex<f32>> // subtract
  check.expect_almost_eq_const %b2, dense<[(2.5, 0.0), (-7.0, 1.0), (0.0, -2.0), (5.25, 4.5)]> : tensor<4xcomplex<f32>> // multiply
  check.expect_almost_eq_const %b3, dense<[(-1.2000000476837158, 1.600000023841858), (-1.75, 0.25), (-1.0, 0.0), (-0.6000000238418579, 0.13333334028720856)]> : tensor<4xcomplex<f32>> // divide
  check.expect_almost_eq_const %b4, dense<[(4.382565498352051, -1.1243976354599), (12.0, -3.5000014305114746), (-6.339560508728027, -13.50723934173584), (-9.476631164550781, -15.343466758728027)]> : tensor<4xcomplex<f32>> // power
  check.expect_almost_eq_const %b5, dense<[(1.908166766166687, 0.3790868818759918), (-1.0582256317138672, 0.06090546399354935), (-0.7853981852531433, 5.960464477539063e-08), (2.5953707695007324, 0.09801061451435089)]> : tensor<4xcomplex<f32>> // atan2
  check.expect_almost_eq_const %u0, dense<[2.2360680103302, 3.535533905029297, 1.4142135381698608, 2.0615527629852295]> : tensor<4xf32> // abs
  check.expect_almost_eq_const %u1, dense<[(-1.13120436668396, 2.471726655960083), (0.026500696316361427, 0.014477397315204144), (0.1987660974264145, -0.3095598816871643), (-0.6861101388931274, -1.4991779327392578)]> : tensor<4xcomplex<f32>> // exponential
  check.expect_almost_eq_const %u2, dense<[(1.272019624710083, 0.7861514091491699), (0.13329273462295532, 1.8755711317062378), (0.45508986711502075, -1.0986840724945068), (1.1317138671875, -0.8836155533790588)]> : tensor<4xcomplex<f32>> // sqrt
  check.expect_almost_eq_const %u3, dense<[(0.8047189712524414, 1.1071487665176392), (1.262864351272583, 2.9996955394744873), (0.3465735912322998, -2.356194496154785), (0.7234594821929932, -1.3258177042007446)]> : tensor<4xcomplex<f32>> // log
  check.expect_almost_eq_const %u4, dense<[(3.165778636932373, 1.9596009254455566), (0.39555227756500244, -0.4879831373691559), (-1.2984575033187866, -0.634963870048523), (1.8036928176879883, -3.1828694343566895)]> : tensor<4xcomplex<f32>> // sine
  check.expect_almost_eq_const %u5, dense<[(2.0327229499816895, -3.0518977642059326), (-1.0559728145599365, -0.18279148638248444), (0.8337299227714539, -0.9888976812362671), (3.3016374111175537, 1.738809585571289)]> : tensor<4xcomplex<f32>> // cosine
  check.expect_almost_eq_const %u6, dense<[(1.1667362451553345, -0.24345819652080536), (-0.9990140795707703, 0.0015331326285377145), (-1.08392333984375, -0.27175256609916687), (1.321286678314209, 0.8508781790733337)]> : tensor<4xcomplex<f32>> // tanh
  check.expect_almost_eq_const %u7, dense<[(0.03381282463669777, 1.0147936344146729), (-0.28602156043052673, 0.5116282105445862), (-0.27175256609916687, -1.08392333984375), (0.03021598793566227, -0.9799408912658691)]> : tensor<4xcomplex<f32>> // tan
  check.expect_almost_eq_const %u8, dense<[(0.5688644647598267, -0.3515775799751282), (0.037700895220041275, -0.5304916501045227), (0.32179713249206543, 0.7768869996070862), (0.548961877822876, 0.4286164939403534)]> : tensor<4xcomplex<f32>> // rsqrt
  check.expect_almost_eq_const %u9, dense<[(0.4472135901451111, 0.8944271802902222), (-0.9899494647979736, 0.1414213627576828), (-0.7071067690849304, -0.7071067690849304), (0.24253563582897186, -0.9701425433158875)]> : tensor<4xcomplex<f32>> // sign
  check.expect_almost_eq_const %u10, dense<[(-1.0, -2.0), (3.5, -0.5), (1.0, 1.0), (-0.5, 2.0)]> : tensor<4xcomplex<f32>> // negate
  check.expect_almost_eq_const %u11, dense<[(-2.13120436668396, 2.471726655960083), (-0.9734992980957031, 0.014477396383881569), (-0.8012338876724243, -0.3095598816871643), (-1.686110258102417, -1.4991779327392578)]> : tensor<4xcomplex<f32>> // exponential_minus_one
  check.expect_almost_eq_const %u12, dense<[(1.0397207736968994, 0.7853981852531433), (0.9359011054039001, 2.944197177886963), (0.0, -1.5707963705062866), (0.9162907600402832, -0.9272952079772949)]> : tensor<4xcomplex<f32>> // log_plus_one
  check.expect_almost_eq_const %u13, dense<[(1.0214154720306396, 0.4034387469291687), (0.02601027861237526, 0.013736801221966743), (0.21795843541622162, -0.20194824039936066), (0.866205632686615, -0.6390190720558167)]> : tensor<4xcomplex<f32>> // logistic
  func.return
}

// -----

func.func @magnitude_large() {
  %z = stablehlo.constant dense<[(3.0e+30, 4.0e+30), (-3.0e+20, 0.0), (1.0e+30, 1.0e+30)]> : tensor<3xcomplex<f32>>
  %0 = stablehlo.abs %z : (tensor<3xcomplex<f32>>) -> tensor<3xf32>
  %e = stablehlo.constant dense<[5.0e+30, 3.0e+20, 1.41421356e+30]> : tensor<3xf32>
  check.expect_close %0, %e : tensor<3xf32>, tensor<3xf32>
  // sign(z) = z / |z|
  %1 = stablehlo.sign %z : tensor<3xcomplex<f32>>
  check.expect_almost_eq_const %1, dense<[(0.6, 0.8), (-1.0, 0.0), (0.70710678, 0.70710678)]> : tensor<3xcomplex<f32>>
  // log(z) = (log|z|, arg z)
  %2 = stablehlo.log %z : tensor<3xcomplex<f32>>
  check.expect_almost_eq_const %2, dense<[(70.68699, 0.92729524), (47.150314, 3.14159265), (69.424126, 0.78539816)]> : tensor<3xcomplex<f32>> {tolerance = 1.0e-03 : f64}
  func.return
}

// -----

func.func @magnitude_small() {
  %z = stablehlo.constant dense<[(3.0e-30, 4.0e-30), (0.0, -2.0e-25)]> : tensor<2xcomplex<f32>>
  %0 = stablehlo.abs %z : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
  %e = stablehlo.constant dense<[5.0e-30, 2.0e-25]> : tensor<2xf32>
  check.expect_close %0, %e : tensor<2xf32>, tensor<2xf32>
  %1 = stablehlo.sign %z : tensor<2xcomplex<f32>>
  check.expect_almost_eq_const %1, dense<[(0.6, 0.8), (0.0, -1.0)]> : tensor<2xcomplex<f32>>
  func.return
}
