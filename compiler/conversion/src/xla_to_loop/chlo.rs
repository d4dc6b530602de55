//! Scalar rules of the float ops that StableHLO defines by a decomposition
//! in CHLO (`chlo.lgamma`, `chlo.digamma`, `chlo.cosh`, `chlo.sinh`,
//! `chlo.erf` and `chlo.erfc` below f64;
//! `stablehlo/transforms/ChloLegalizeToStablehlo.cpp`). XLA:CPU compiles
//! exactly those decompositions, so they are followed op for op here: a
//! libm-accurate cosh, or a differently arranged Lanczos sum, lands several
//! ULP away from XLA where the decomposition's own rounding dominates
//! (x + log(1/2) for large |x|, the reflection near the poles).
//!
//! f16 and bf16 compute in f32 and round once at the end, as the
//! decompositions' `materializeWithUpcast` does; computing them in the
//! narrow type (rounding after every op) misses by up to tens of ULP.

use strata_ir::{FloatKind, Type, TypeKind, Value};

use crate::builder::Builder;

/// Runs `f` on `x` in f32 when `ty` is narrower (f16, bf16) and rounds its
/// result back to `ty` once; other types compute in their own type.
fn with_f32_upcast(
    b: &mut Builder<'_>,
    x: Value,
    ty: Type,
    f: impl FnOnce(&mut Builder<'_>, Value, Type) -> Value,
) -> Value {
    let narrow = matches!(b.ctx.types.kind(ty), TypeKind::Float(k) if k.width() < 32);
    if !narrow {
        return f(b, x, ty);
    }
    let f32t = b.ctx.types.float_ty(FloatKind::F32);
    let wide = b.cast("arith.extf", x, f32t);
    let r = f(b, wide, f32t);
    b.cast("arith.truncf", r, ty)
}

/// e^(x + log(1/2)) and e^(log(1/2) - x): the two halves of cosh and sinh,
/// shifted so that e^x = inf with e^x / 2 finite does not overflow.
fn half_exps(b: &mut Builder<'_>, x: Value, ty: Type) -> (Value, Value) {
    let log_half = b.const_float(0.5f64.ln(), ty);
    let plus = b.binary("arith.addf", x, log_half);
    let minus = b.binary("arith.subf", log_half, x);
    let e_plus = b.unary("arith.exp", plus);
    let e_minus = b.unary("arith.exp", minus);
    (e_plus, e_minus)
}

/// cosh x = e^(x + log(1/2)) + e^(log(1/2) - x) (`materializeCoshApproximation`).
pub fn cosh(b: &mut Builder<'_>, x: Value, ty: Type) -> Value {
    with_f32_upcast(b, x, ty, |b, x, ty| {
        let (p, m) = half_exps(b, x, ty);
        b.binary("arith.addf", p, m)
    })
}

/// sinh x = (expm1 x + expm1 x / (expm1 x + 1)) / 2 for |x| < 1, where
/// e^x - e^-x cancels; e^(x + log(1/2)) - e^(log(1/2) - x) otherwise
/// (`materializeSinhApproximation`).
pub fn sinh(b: &mut Builder<'_>, x: Value, ty: Type) -> Value {
    with_f32_upcast(b, x, ty, |b, x, ty| {
        let (p, m) = half_exps(b, x, ty);
        let large = b.binary("arith.subf", p, m);
        let em1 = b.unary("arith.expm1", x);
        let one = b.const_float(1.0, ty);
        let half = b.const_float(0.5, ty);
        let em1_p1 = b.binary("arith.addf", em1, one);
        let ratio = b.binary("arith.divf", em1, em1_p1);
        let sum = b.binary("arith.addf", em1, ratio);
        let small = b.binary("arith.mulf", half, sum);
        let ax = b.unary("arith.absf", x);
        let is_small = b.cmpf("olt", ax, one);
        b.select(is_small, small, large)
    })
}

/// The Lanczos approximation (g = 7, n = 9) of both decompositions:
/// Γ(z + 1) ≈ √(2π) t^(z + 1/2) e^(-t) a(z), t = z + g + 1/2,
/// a(z) = c0 + Σ c_k / (z + k).
const LANCZOS_G: f64 = 7.0;
const LANCZOS_C0: f64 = 0.999_999_999_999_809_9;
const LANCZOS: [f64; 8] = [
    676.520_368_121_885_1,
    -1_259.139_216_722_402_8,
    771.323_428_777_653_1,
    -176.615_029_162_140_6,
    12.507_343_278_686_905,
    -0.138_571_095_265_720_12,
    9.984_369_578_019_572e-6,
    1.505_632_735_149_311_6e-7,
];

/// x < 1/2 is reflected: returns (reflect?, z) with z = -x there and
/// z = x - 1 otherwise.
fn lanczos_z(b: &mut Builder<'_>, x: Value, ty: Type) -> (Value, Value) {
    let half = b.const_float(0.5, ty);
    let reflect = b.cmpf("olt", x, half);
    let neg = b.unary("arith.negf", x);
    let one = b.const_float(1.0, ty);
    let xm1 = b.binary("arith.subf", x, one);
    let z = b.select(reflect, neg, xm1);
    (reflect, z)
}

/// t = (g + 1/2) + z and log t = log(g + 1/2) + log1p(z / (g + 1/2)).
/// The division is a multiplication by the reciprocal constant, rounded to
/// `ty`: XLA's algebraic simplifier rewrites `x / c` so (and the results
/// differ by an ULP where the two round differently).
fn lanczos_t(b: &mut Builder<'_>, z: Value, ty: Type) -> (Value, Value) {
    let gh = b.const_float(LANCZOS_G + 0.5, ty);
    let t = b.binary("arith.addf", gh, z);
    let log_gh = b.const_float((LANCZOS_G + 0.5).ln(), ty);
    let inv = if b.ctx.types.bit_width(ty) == 32 {
        (1.0f32 / (LANCZOS_G + 0.5) as f32) as f64
    } else {
        1.0 / (LANCZOS_G + 0.5)
    };
    let inv_gh = b.const_float(inv, ty);
    let ratio = b.binary("arith.mulf", z, inv_gh);
    let l1p = b.unary("arith.log1p", ratio);
    let log_t = b.binary("arith.addf", log_gh, l1p);
    (t, log_t)
}

/// lgamma in `ty` with f16/bf16 upcast to f32 (`chlo.lgamma`).
pub fn lgamma(b: &mut Builder<'_>, x: Value, ty: Type) -> Value {
    with_f32_upcast(b, x, ty, lgamma_in)
}

/// log|Γ(x)| as `materializeLgamma`: the Lanczos sum for x >= 1/2, the
/// reflection log π - log|sin π frac(x)| - lgamma(1 - x) below; +inf at
/// the poles (there log sin gives -inf) and at ±inf.
pub fn lgamma_in(b: &mut Builder<'_>, x: Value, ty: Type) -> Value {
    let (reflect, z) = lanczos_z(b, x, ty);
    let mut a = b.const_float(LANCZOS_C0, ty);
    for (i, &c) in LANCZOS.iter().enumerate() {
        let cc = b.const_float(c, ty);
        let k = b.const_float((i + 1) as f64, ty);
        let zk = b.binary("arith.addf", z, k);
        let q = b.binary("arith.divf", cc, zk);
        a = b.binary("arith.addf", a, q);
    }
    let (t, log_t) = lanczos_t(b, z, ty);
    // (z + 1/2 - t / log t) · log t: (z + 1/2) log t - t without overflow.
    let half = b.const_float(0.5, ty);
    let t_over = b.binary("arith.divf", t, log_t);
    let zh = b.binary("arith.addf", z, half);
    let sum = b.binary("arith.subf", zh, t_over);
    let r = b.binary("arith.mulf", sum, log_t);
    let log_a = b.unary("arith.log", a);
    let hl2pi = b.const_float((2f64.ln() + std::f64::consts::PI.ln()) / 2.0, ty);
    let lg = b.binary("arith.addf", hl2pi, r);
    let lg = b.binary("arith.addf", lg, log_a);
    // |sin πx| = sin(π frac|x|), frac folded into [0, 1/2].
    let one = b.const_float(1.0, ty);
    let ax = b.unary("arith.absf", x);
    let fl = b.unary("arith.floor", ax);
    let frac = b.binary("arith.subf", ax, fl);
    let fold = b.cmpf("olt", half, frac);
    let one_minus = b.binary("arith.subf", one, frac);
    let frac = b.select(fold, one_minus, frac);
    let pi = b.const_float(std::f64::consts::PI, ty);
    let pf = b.binary("arith.mulf", pi, frac);
    let sin = b.unary("arith.sin", pf);
    let denom = b.unary("arith.log", sin);
    let log_pi = b.const_float(std::f64::consts::PI.ln(), ty);
    let refl = b.binary("arith.subf", log_pi, denom);
    let refl = b.binary("arith.subf", refl, lg);
    // log sin = -inf (a pole) wins over lgamma(1 - x): +inf, not NaN.
    let finite = is_finite(b, denom, ty);
    let neg_denom = b.unary("arith.negf", denom);
    let refl = b.select(finite, refl, neg_denom);
    let lg = b.select(reflect, refl, lg);
    let inf = b.const_float(f64::INFINITY, ty);
    let infinite = b.cmpf("oeq", ax, inf);
    b.select(infinite, inf, lg)
}

fn is_finite(b: &mut Builder<'_>, v: Value, ty: Type) -> Value {
    let inf = b.const_float(f64::INFINITY, ty);
    let av = b.unary("arith.absf", v);
    b.cmpf("one", av, inf)
}

/// digamma in `ty` with f16/bf16 upcast to f32 (`chlo.digamma`).
pub fn digamma(b: &mut Builder<'_>, x: Value, ty: Type) -> Value {
    with_f32_upcast(b, x, ty, digamma_in)
}

/// ψ(x) as `materializeDigamma`: log t + a'(z)/a(z) - g/t for x >= 1/2;
/// ψ(1 - x) - π cos(πr) / sin(πr) below, r = x + |floor(x + 1/2)| (x moved
/// into [-1/2, 1/2] so that πr keeps its precision near the poles). NaN at
/// the poles (the non-positive integers).
pub fn digamma_in(b: &mut Builder<'_>, x: Value, ty: Type) -> Value {
    let (reflect, z) = lanczos_z(b, x, ty);
    let zero = b.const_float(0.0, ty);
    let mut a = b.const_float(LANCZOS_C0, ty);
    let mut a_prime = zero;
    for (i, &c) in LANCZOS.iter().enumerate() {
        let cc = b.const_float(c, ty);
        let k = b.const_float((i + 1) as f64, ty);
        let zk = b.binary("arith.addf", z, k);
        let sq = b.binary("arith.mulf", zk, zk);
        let d = b.binary("arith.divf", cc, sq);
        a_prime = b.binary("arith.subf", a_prime, d);
        let q = b.binary("arith.divf", cc, zk);
        a = b.binary("arith.addf", a, q);
    }
    let (t, log_t) = lanczos_t(b, z, ty);
    let ratio = b.binary("arith.divf", a_prime, a);
    let g = b.const_float(LANCZOS_G, ty);
    let g_over_t = b.binary("arith.divf", g, t);
    let dg = b.binary("arith.addf", log_t, ratio);
    let dg = b.binary("arith.subf", dg, g_over_t);
    let half = b.const_float(0.5, ty);
    let xh = b.binary("arith.addf", x, half);
    let fl = b.unary("arith.floor", xh);
    let afl = b.unary("arith.absf", fl);
    let reduced = b.binary("arith.addf", x, afl);
    let pi = b.const_float(std::f64::consts::PI, ty);
    let pr = b.binary("arith.mulf", pi, reduced);
    let cos = b.unary("arith.cos", pr);
    let sin = b.unary("arith.sin", pr);
    let pc = b.binary("arith.mulf", pi, cos);
    let cot = b.binary("arith.divf", pc, sin);
    let refl = b.binary("arith.subf", dg, cot);
    let dg = b.select(reflect, refl, dg);
    let le_zero = b.cmpf("ole", x, zero);
    let fx = b.unary("arith.floor", x);
    let is_int = b.cmpf("oeq", x, fx);
    let pole = b.binary("arith.andi", le_zero, is_int);
    let nan = b.const_float(f64::NAN, ty);
    b.select(pole, nan, dg)
}

/// Horner's rule from the highest coefficient: `((c0 x + c1) x + c2) ...`.
fn polynomial(b: &mut Builder<'_>, x: Value, ty: Type, coefficients: &[f32]) -> Value {
    let mut p = b.const_float(f64::from(coefficients[0]), ty);
    for &c in &coefficients[1..] {
        let m = b.binary("arith.mulf", p, x);
        let k = b.const_float(f64::from(c), ty);
        p = b.binary("arith.addf", m, k);
    }
    p
}

/// Cephes's f32 coefficients of erf(x) = x T(x²) for |x| <= 1.
const ERF_T: [f32; 7] = [
    7.853_861_4e-5,
    -8.010_193_6e-4,
    5.188_327_7e-3,
    -2.685_381_2e-2,
    1.128_358_5e-1,
    -3.761_262_6e-1,
    1.128_379_2,
];
/// Cephes's f32 coefficients of erfc(x) = e^(-x²) / x P(1/x²) for 1 <= x < 2...
const ERFC_P: [f32; 9] = [
    2.326_82e-2,
    -1.387_039_4e-1,
    3.687_424_7e-1,
    -5.824_733e-1,
    6.210_004_6e-1,
    -4.944_515_3e-1,
    3.404_88e-1,
    -2.741_127e-1,
    5.638_259_4e-1,
];
/// ...and R(1/x²) for x >= 2.
const ERFC_R: [f32; 8] = [
    -1.047_766_4e1,
    1.297_72e1,
    -7.495_518_7,
    2.921_019,
    -1.015_265_3,
    4.218_463_4e-1,
    -2.820_767_4e-1,
    5.641_895e-1,
];

/// erf(x) = x T(x²) for |x| < 1 (Cephes).
fn erf_small(b: &mut Builder<'_>, x: Value, ty: Type) -> Value {
    let x2 = b.binary("arith.mulf", x, x);
    let t = polynomial(b, x2, ty, &ERF_T);
    b.binary("arith.mulf", x, t)
}

/// erfc of f32 (f16 and bf16 in f32, rounded once), as StableHLO's CHLO
/// decomposition computes it (`materializeErfcApproximationF32`), which
/// XLA:CPU compiles: 1 - erf(x) for |x| < 1, else e^(-x²)/|x| times a
/// Cephes polynomial in 1/x² (one for |x| < 2, one beyond), 0 where e^(-x²)
/// underflows, and 2 - erfc(-x) for negative x. Element-wise arithmetic
/// that vectorizes, where libm's erfcf is a scalar call per element
/// (BERT's exact GELU spent 18% of its time there). f64 keeps libm.
pub fn erfc(b: &mut Builder<'_>, x: Value, ty: Type) -> Value {
    if matches!(b.ctx.types.kind(ty), TypeKind::Float(FloatKind::F64)) {
        return b.unary("arith.erfc", x);
    }
    with_f32_upcast(b, x, ty, |b, x, ty| {
        let one = b.const_float(1.0, ty);
        let two = b.const_float(2.0, ty);
        let zero = b.const_float(0.0, ty);
        let x2 = b.binary("arith.mulf", x, x);
        let z = b.unary("arith.negf", x2);
        let ax = b.unary("arith.absf", x);
        let inv_x2 = b.binary("arith.divf", one, x2);
        let ez = b.unary("arith.exp", z);
        let inv_ax = b.binary("arith.divf", one, ax);
        let scale = b.binary("arith.mulf", ez, inv_ax);
        let below_two = b.cmpf("olt", ax, two);
        let p = polynomial(b, inv_x2, ty, &ERFC_P);
        let r = polynomial(b, inv_x2, ty, &ERFC_R);
        let poly = b.select(below_two, p, r);
        let large = b.binary("arith.mulf", scale, poly);
        // e^z underflows past z = -log(FLT_MAX).
        let max_log = b.const_float(-88.722_839_052_068_35, ty);
        let underflow = b.cmpf("olt", z, max_log);
        let large = b.select(underflow, zero, large);
        let negative = b.cmpf("olt", x, zero);
        let reflected = b.binary("arith.subf", two, large);
        let large = b.select(negative, reflected, large);
        let small_erf = erf_small(b, x, ty);
        let small = b.binary("arith.subf", one, small_erf);
        let is_small = b.cmpf("olt", ax, one);
        b.select(is_small, small, large)
    })
}

/// Eigen's (and XLA's) rational f32 erf: x α(x²) / β(x²) on x clamped to
/// [-4, 4], clamped to [-1, 1] (`materializeErfApproximationF32`).
const ERF_ALPHA: [f32; 7] = [
    -2.726_142_3e-10,
    2.770_681_4e-8,
    -2.101_024e-6,
    -5.692_506_4e-5,
    -7.349_906_3e-4,
    -2.954_6e-3,
    -1.609_603_3e-2,
];
const ERF_BETA: [f32; 5] = [
    -1.456_607_2e-5,
    -2.133_740_6e-4,
    -1.682_827e-3,
    -7.373_329_2e-3,
    -1.426_473_9e-2,
];

/// erf of f32 (f16 and bf16 in f32, rounded once) by the rational
/// approximation above, vectorizable; f64 keeps libm.
pub fn erf(b: &mut Builder<'_>, x: Value, ty: Type) -> Value {
    if matches!(b.ctx.types.kind(ty), TypeKind::Float(FloatKind::F64)) {
        return b.unary("arith.erf", x);
    }
    with_f32_upcast(b, x, ty, |b, x, ty| {
        let lo = b.const_float(-4.0, ty);
        let hi = b.const_float(4.0, ty);
        let x = b.binary("arith.maximumf", x, lo);
        let x = b.binary("arith.minimumf", x, hi);
        let x2 = b.binary("arith.mulf", x, x);
        let alpha = polynomial(b, x2, ty, &ERF_ALPHA);
        let beta = polynomial(b, x2, ty, &ERF_BETA);
        let num = b.binary("arith.mulf", x, alpha);
        let e = b.binary("arith.divf", num, beta);
        let m1 = b.const_float(-1.0, ty);
        let p1 = b.const_float(1.0, ty);
        let e = b.binary("arith.maximumf", e, m1);
        b.binary("arith.minimumf", e, p1)
    })
}
