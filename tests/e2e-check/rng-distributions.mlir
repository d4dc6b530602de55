// RUN: strata check %s | FileCheck %s
// RUN: strata check --backend mlir %s | FileCheck %s
// CHECK: {{^}}5 passed, 0 failed{{$}}
// stablehlo.rng (xla-expand-rng): 100,000 numbers per call, their range and
// moments against the distributions' own (uniform on [a, b): mean (a+b)/2,
// variance (b-a)²/12; integers on [a, b): variance ((b-a)²-1)/12; normal:
// mean a, deviation b), with tolerances of about 6 standard errors.

func.func @uniform_f32() {
  %a = stablehlo.constant dense<-1.0> : tensor<f32>
  %b = stablehlo.constant dense<3.0> : tensor<f32>
  %s = stablehlo.constant dense<[100000]> : tensor<1xi64>
  %r = stablehlo.rng %a, %b, %s, distribution = UNIFORM : (tensor<f32>, tensor<f32>, tensor<1xi64>) -> tensor<100000xf32>
  %x = stablehlo.convert %r : (tensor<100000xf32>) -> tensor<100000xf64>
  %zero = stablehlo.constant dense<0.0> : tensor<f64>
  %n = stablehlo.constant dense<100000.0> : tensor<f64>
  %sum = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<100000xf64>, tensor<f64>) -> tensor<f64>
  %mean = stablehlo.divide %sum, %n : tensor<f64>
  %sq = stablehlo.multiply %x, %x : tensor<100000xf64>
  %sumsq = stablehlo.reduce(%sq init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<100000xf64>, tensor<f64>) -> tensor<f64>
  %msq = stablehlo.divide %sumsq, %n : tensor<f64>
  %m2 = stablehlo.multiply %mean, %mean : tensor<f64>
  %var = stablehlo.subtract %msq, %m2 : tensor<f64>
  check.expect_almost_eq_const %mean, dense<1.0> : tensor<f64> {tolerance = 2.2e-02 : f64}
  check.expect_almost_eq_const %var, dense<1.3333333333333333> : tensor<f64> {tolerance = 2.5e-02 : f64}
  %big = stablehlo.constant dense<1.0e30> : tensor<f32>
  %lo = stablehlo.reduce(%r init: %big) applies stablehlo.minimum across dimensions = [0] : (tensor<100000xf32>, tensor<f32>) -> tensor<f32>
  %nbig = stablehlo.negate %big : tensor<f32>
  %hi = stablehlo.reduce(%r init: %nbig) applies stablehlo.maximum across dimensions = [0] : (tensor<100000xf32>, tensor<f32>) -> tensor<f32>
  %lo_ok = stablehlo.compare GE, %lo, %a : (tensor<f32>, tensor<f32>) -> tensor<i1>
  %hi_ok = stablehlo.compare LT, %hi, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
  %both = stablehlo.and %lo_ok, %hi_ok : tensor<i1>
  check.expect_eq_const %both, dense<true> : tensor<i1>
  check.expect_almost_eq_const %lo, dense<-1.0> : tensor<f32> {tolerance = 1.0e-03 : f64}
  check.expect_almost_eq_const %hi, dense<3.0> : tensor<f32> {tolerance = 1.0e-03 : f64}
  return
}

// -----

func.func @uniform_i32() {
  %a = stablehlo.constant dense<-5> : tensor<i32>
  %b = stablehlo.constant dense<5> : tensor<i32>
  %s = stablehlo.constant dense<[100000]> : tensor<1xi64>
  %r = stablehlo.rng %a, %b, %s, distribution = UNIFORM : (tensor<i32>, tensor<i32>, tensor<1xi64>) -> tensor<100000xi32>
  %x = stablehlo.convert %r : (tensor<100000xi32>) -> tensor<100000xf64>
  %zero = stablehlo.constant dense<0.0> : tensor<f64>
  %n = stablehlo.constant dense<100000.0> : tensor<f64>
  %sum = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<100000xf64>, tensor<f64>) -> tensor<f64>
  %mean = stablehlo.divide %sum, %n : tensor<f64>
  %sq = stablehlo.multiply %x, %x : tensor<100000xf64>
  %sumsq = stablehlo.reduce(%sq init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<100000xf64>, tensor<f64>) -> tensor<f64>
  %msq = stablehlo.divide %sumsq, %n : tensor<f64>
  %m2 = stablehlo.multiply %mean, %mean : tensor<f64>
  %var = stablehlo.subtract %msq, %m2 : tensor<f64>
  check.expect_almost_eq_const %mean, dense<-0.5> : tensor<f64> {tolerance = 5.5e-02 : f64}
  check.expect_almost_eq_const %var, dense<8.25> : tensor<f64> {tolerance = 1.2e-01 : f64}
  %big = stablehlo.constant dense<1000> : tensor<i32>
  %lo = stablehlo.reduce(%r init: %big) applies stablehlo.minimum across dimensions = [0] : (tensor<100000xi32>, tensor<i32>) -> tensor<i32>
  %nbig = stablehlo.negate %big : tensor<i32>
  %hi = stablehlo.reduce(%r init: %nbig) applies stablehlo.maximum across dimensions = [0] : (tensor<100000xi32>, tensor<i32>) -> tensor<i32>
  check.expect_eq_const %lo, dense<-5> : tensor<i32>
  check.expect_eq_const %hi, dense<4> : tensor<i32>
  return
}

// -----

func.func @normal_f64() {
  %a = stablehlo.constant dense<10.0> : tensor<f64>
  %b = stablehlo.constant dense<2.0> : tensor<f64>
  %s = stablehlo.constant dense<[200, 500]> : tensor<2xi64>
  %r = stablehlo.rng %a, %b, %s, distribution = NORMAL : (tensor<f64>, tensor<f64>, tensor<2xi64>) -> tensor<200x500xf64>
  %zero = stablehlo.constant dense<0.0> : tensor<f64>
  %n = stablehlo.constant dense<100000.0> : tensor<f64>
  %sum = stablehlo.reduce(%r init: %zero) applies stablehlo.add across dimensions = [0, 1] : (tensor<200x500xf64>, tensor<f64>) -> tensor<f64>
  %mean = stablehlo.divide %sum, %n : tensor<f64>
  %sq = stablehlo.multiply %r, %r : tensor<200x500xf64>
  %sumsq = stablehlo.reduce(%sq init: %zero) applies stablehlo.add across dimensions = [0, 1] : (tensor<200x500xf64>, tensor<f64>) -> tensor<f64>
  %msq = stablehlo.divide %sumsq, %n : tensor<f64>
  %m2 = stablehlo.multiply %mean, %mean : tensor<f64>
  %var = stablehlo.subtract %msq, %m2 : tensor<f64>
  check.expect_almost_eq_const %mean, dense<10.0> : tensor<f64> {tolerance = 4.0e-02 : f64}
  check.expect_almost_eq_const %var, dense<4.0> : tensor<f64> {tolerance = 1.2e-01 : f64}
  return
}

// -----

// Two calls (and two ops) draw different numbers.
func.func @calls_differ() {
  %a = stablehlo.constant dense<0.0> : tensor<f32>
  %b = stablehlo.constant dense<1.0> : tensor<f32>
  %s = stablehlo.constant dense<[64]> : tensor<1xi64>
  %r0 = stablehlo.rng %a, %b, %s, distribution = UNIFORM : (tensor<f32>, tensor<f32>, tensor<1xi64>) -> tensor<64xf32>
  %r1 = stablehlo.rng %a, %b, %s, distribution = UNIFORM : (tensor<f32>, tensor<f32>, tensor<1xi64>) -> tensor<64xf32>
  %same = stablehlo.compare EQ, %r0, %r1 : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xi1>
  %false = stablehlo.constant dense<false> : tensor<i1>
  %any = stablehlo.reduce(%same init: %false) applies stablehlo.or across dimensions = [0] : (tensor<64xi1>, tensor<i1>) -> tensor<i1>
  check.expect_eq_const %any, dense<false> : tensor<i1>
  return
}

// -----

// bf16 on [0, 1) and ui8 on [200, 255): inside the interval, both ends reached.
func.func @narrow_types() {
  %a = stablehlo.constant dense<0.0> : tensor<bf16>
  %b = stablehlo.constant dense<1.0> : tensor<bf16>
  %s = stablehlo.constant dense<[20000]> : tensor<1xi64>
  %r = stablehlo.rng %a, %b, %s, distribution = UNIFORM : (tensor<bf16>, tensor<bf16>, tensor<1xi64>) -> tensor<20000xbf16>
  %nbig = stablehlo.constant dense<-2.0> : tensor<bf16>
  %hi = stablehlo.reduce(%r init: %nbig) applies stablehlo.maximum across dimensions = [0] : (tensor<20000xbf16>, tensor<bf16>) -> tensor<bf16>
  %hi_ok = stablehlo.compare LT, %hi, %b : (tensor<bf16>, tensor<bf16>) -> tensor<i1>
  check.expect_eq_const %hi_ok, dense<true> : tensor<i1>
  %ua = stablehlo.constant dense<200> : tensor<ui8>
  %ub = stablehlo.constant dense<255> : tensor<ui8>
  %ru = stablehlo.rng %ua, %ub, %s, distribution = UNIFORM : (tensor<ui8>, tensor<ui8>, tensor<1xi64>) -> tensor<20000xui8>
  %big = stablehlo.constant dense<255> : tensor<ui8>
  %lo = stablehlo.reduce(%ru init: %big) applies stablehlo.minimum across dimensions = [0] : (tensor<20000xui8>, tensor<ui8>) -> tensor<ui8>
  %small = stablehlo.constant dense<0> : tensor<ui8>
  %top = stablehlo.reduce(%ru init: %small) applies stablehlo.maximum across dimensions = [0] : (tensor<20000xui8>, tensor<ui8>) -> tensor<ui8>
  check.expect_eq_const %lo, dense<200> : tensor<ui8>
  check.expect_eq_const %top, dense<254> : tensor<ui8>
  return
}
