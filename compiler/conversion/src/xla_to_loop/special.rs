//! Special functions and bit-level operations of the element-wise ops
//! whose scalar code is long: erf⁻¹, Bessel i1e, Hurwitz zeta, polygamma,
//! next_after and reduce_precision (XLA's algorithms, emitted as `arith`).

use strata_ir::{FloatKind, Type, TypeKind, Value};

use super::chlo;

use crate::builder::Builder;

/// Giles' single-precision approximation of erf⁻¹ ("Approximating the
/// erfinv function", GPU Computing Gems, 2011), the one XLA uses for f32:
/// a polynomial in w = -log((1 - x)(1 + x)), one for w < 5 and one in
/// sqrt(w) - 3 beyond; ±1 give ±inf, |x| > 1 NaN.
const ERF_INV_CENTRAL: [f64; 9] = [
    2.81022636e-08,
    3.43273939e-07,
    -3.5233877e-06,
    -4.39150654e-06,
    0.00021858087,
    -0.00125372503,
    -0.00417768164,
    0.246640727,
    1.50140941,
];
const ERF_INV_TAIL: [f64; 9] = [
    -0.000200214257,
    0.000100950558,
    0.00134934322,
    -0.00367342844,
    0.00573950773,
    -0.0076224613,
    0.00943887047,
    1.00167406,
    2.83297682,
];

fn horner(b: &mut Builder<'_>, coeffs: &[f64], w: Value, ty: Type) -> Value {
    let mut p = b.const_float(coeffs[0], ty);
    for &c in &coeffs[1..] {
        let k = b.const_float(c, ty);
        let pw = b.binary("arith.mulf", p, w);
        p = b.binary("arith.addf", k, pw);
    }
    p
}

/// Chebyshev coefficients (Cephes, Moshier) of exp(-x) I1(x) / x on
/// [0, 8], in the variable x/2 - 2; highest order first.
const I1E_SMALL: [f64; 29] = [
    2.77791411276104639959E-18,
    -2.11142121435816608115E-17,
    1.55363195773620046921E-16,
    -1.10559694773538630805E-15,
    7.60068429473540693410E-15,
    -5.04218550472791168711E-14,
    3.22379336594557470981E-13,
    -1.98397439776494371520E-12,
    1.17361862988909016308E-11,
    -6.66348972350202774223E-11,
    3.62559028155211703701E-10,
    -1.88724975172282928790E-9,
    9.38153738649577178388E-9,
    -4.44505912879632808065E-8,
    2.00329475355213526229E-7,
    -8.56872026469545474066E-7,
    3.47025130813767847674E-6,
    -1.32731636560394358279E-5,
    4.78156510755005422638E-5,
    -1.61760815825896745588E-4,
    5.12285956168575772895E-4,
    -1.51357245063125314899E-3,
    4.15642294431288815669E-3,
    -1.05640848946261981558E-2,
    2.47264490306265168283E-2,
    -5.29459812080949914269E-2,
    1.02643658689847095384E-1,
    -1.76416518357834055153E-1,
    2.52587186443633654823E-1,
];

/// Chebyshev coefficients (Cephes) of exp(-x) sqrt(x) I1(x) on [8, inf),
/// in the variable 32/x - 2; highest order first.
const I1E_LARGE: [f64; 25] = [
    7.51729631084210481353E-18,
    4.41434832307170791151E-18,
    -4.65030536848935832153E-17,
    -3.20952592199342395980E-17,
    2.96262899764595013876E-16,
    3.30820231092092828324E-16,
    -1.88035477551078244854E-15,
    -3.81440307243700780478E-15,
    1.04202769841288027642E-14,
    4.27244001671195135429E-14,
    -2.10154184277266431302E-14,
    -4.08355111109219731823E-13,
    -7.19855177624590851209E-13,
    2.03562854414708950722E-12,
    1.41258074366137813316E-11,
    3.25260358301548823856E-11,
    -1.89749581235054123450E-11,
    -5.58974346219658380687E-10,
    -3.83538038596423702205E-9,
    -2.63146884688951950684E-8,
    -2.51223623787020892529E-7,
    -3.88256480887769039346E-6,
    -1.10588938762623716291E-4,
    -9.76109749136146840777E-3,
    7.78576235018280120474E-1,
];

/// The Chebyshev series sum' c_k T_k(w / 2) (Clenshaw's recurrence; the
/// constant term halved), coefficients highest order first.
fn chebyshev(b: &mut Builder<'_>, coeffs: &[f64], w: Value, ty: Type) -> Value {
    let mut b0 = b.const_float(coeffs[0], ty);
    let mut b1 = b.const_float(0.0, ty);
    let mut b2 = b1;
    for &c in &coeffs[1..] {
        b2 = b1;
        b1 = b0;
        let wb = b.binary("arith.mulf", w, b1);
        let d = b.binary("arith.subf", wb, b2);
        let k = b.const_float(c, ty);
        b0 = b.binary("arith.addf", d, k);
    }
    let diff = b.binary("arith.subf", b0, b2);
    let half = b.const_float(0.5, ty);
    b.binary("arith.mulf", diff, half)
}

/// exp(-|x|) I1(x) in `ty`, computed in f64 (rounded once for f32): the
/// series above for |x| <= 8, the asymptotic one beyond; odd in x.
pub(super) fn bessel_i1e(b: &mut Builder<'_>, x: Value, ty: Type) -> Value {
    let f64t = b.ctx.types.float_ty(FloatKind::F64);
    let wide = b.ctx.types.bit_width(ty) < 64;
    let xd = if wide {
        b.cast("arith.extf", x, f64t)
    } else {
        x
    };
    let z = b.unary("arith.absf", xd);
    let half = b.const_float(0.5, f64t);
    let two = b.const_float(2.0, f64t);
    let zh = b.binary("arith.mulf", z, half);
    let w_small = b.binary("arith.subf", zh, two);
    let s = chebyshev(b, &I1E_SMALL, w_small, f64t);
    let small = b.binary("arith.mulf", s, z);
    let thirty_two = b.const_float(32.0, f64t);
    let q = b.binary("arith.divf", thirty_two, z);
    let w_large = b.binary("arith.subf", q, two);
    let l = chebyshev(b, &I1E_LARGE, w_large, f64t);
    let root = b.unary("arith.sqrt", z);
    let large = b.binary("arith.divf", l, root);
    let eight = b.const_float(8.0, f64t);
    let is_small = b.cmpf("ole", z, eight);
    let r = b.select(is_small, small, large);
    let r = b.binary("arith.copysign", r, xd);
    if wide {
        b.cast("arith.truncf", r, ty)
    } else {
        r
    }
}

/// erf⁻¹(x) in `ty` (f32 or f64). f64 refines the f32 approximation with
/// two Newton steps on erf (libm's), which reach double precision.
pub(super) fn erf_inv(b: &mut Builder<'_>, x: Value, ty: Type) -> Value {
    let one = b.const_float(1.0, ty);
    let one_minus = b.binary("arith.subf", one, x);
    let one_plus = b.binary("arith.addf", one, x);
    let prod = b.binary("arith.mulf", one_minus, one_plus);
    let log = b.unary("arith.log", prod);
    let w = b.unary("arith.negf", log);
    let five = b.const_float(5.0, ty);
    let central = b.cmpf("olt", w, five);
    let w_c = {
        let k = b.const_float(2.5, ty);
        b.binary("arith.subf", w, k)
    };
    let w_t = {
        let r = b.unary("arith.sqrt", w);
        let k = b.const_float(3.0, ty);
        b.binary("arith.subf", r, k)
    };
    let p_c = horner(b, &ERF_INV_CENTRAL, w_c, ty);
    let p_t = horner(b, &ERF_INV_TAIL, w_t, ty);
    let p = b.select(central, p_c, p_t);
    let mut y = b.binary("arith.mulf", p, x);
    if matches!(
        b.ctx.types.kind(ty),
        TypeKind::Float(strata_ir::FloatKind::F64)
    ) {
        // y -= (erf(y) - x) / (2/sqrt(pi) exp(-y^2)), twice. The residual
        // is sign(x) ((1 - |x|) - erfc(|y|)), which keeps its precision near
        // ±1, where erf(y) - x would cancel.
        let ax = b.unary("arith.absf", x);
        let one_minus_ax = b.binary("arith.subf", one, ax);
        let sign = b.binary("arith.copysign", one, x);
        for _ in 0..2 {
            let ay = b.unary("arith.absf", y);
            let c = b.unary("arith.erfc", ay);
            let r = b.binary("arith.subf", one_minus_ax, c);
            let r = b.binary("arith.mulf", r, sign);
            let yy = b.binary("arith.mulf", y, y);
            let ey = b.unary("arith.exp", yy);
            let half_sqrt_pi = b.const_float(std::f64::consts::PI.sqrt() / 2.0, ty);
            let step = b.binary("arith.mulf", r, ey);
            let step = b.binary("arith.mulf", step, half_sqrt_pi);
            y = b.binary("arith.subf", y, step);
        }
    }
    // ±1 give ±inf (the polynomials would give inf * 0 there).
    let ax = b.unary("arith.absf", x);
    let at_one = b.cmpf("oeq", ax, one);
    let inf = b.const_float(f64::INFINITY, ty);
    let signed_inf = b.binary("arith.mulf", x, inf);
    b.select(at_one, signed_inf, y)
}

/// `reduce_precision` as XLA does it: round the mantissa to `m` bits (to
/// nearest, ties to even), then send exponents beyond `e` bits' range to
/// ±inf (overflow) or ±0 (underflow, no subnormals). NaN stays NaN unless
/// no mantissa bit is left (then it becomes inf, as XLA's).
pub(super) fn reduce_precision(b: &mut Builder<'_>, x: Value, e: u32, m: u32) -> Value {
    let t = b.ty(x);
    // The bit layout of the type the value is stored in: f16 and bf16 are
    // rounded on their own 16 bits (their bits do not fit an i32 bitcast).
    let (w, src_e, src_m) = match b.ctx.types.kind(t) {
        TypeKind::Float(strata_ir::FloatKind::F64) => (64u32, 11u32, 52u32),
        TypeKind::Float(strata_ir::FloatKind::F16) => (16, 5, 10),
        TypeKind::Float(strata_ir::FloatKind::BF16) => (16, 8, 7),
        _ => (32, 8, 23),
    };
    let it = b.ctx.types.int_ty(w);
    let int = |b: &mut Builder<'_>, v: u64| b.const_int(v as i64 as i128, it);
    let mut bits = b.cast("arith.bitcast", x, it);
    if m < src_m {
        let shift = src_m - m;
        let last_bit_mask = 1u64 << shift;
        let bias = (last_bit_mask >> 1) - 1;
        let mask_c = int(b, last_bit_mask);
        let last = b.binary("arith.andi", bits, mask_c);
        let sh = int(b, shift as u64);
        let last = b.binary("arith.shrui", last, sh);
        let bias_c = int(b, bias);
        let rounding = b.binary("arith.addi", last, bias_c);
        let rounded = b.binary("arith.addi", bits, rounding);
        let truncation = int(b, !(last_bit_mask - 1));
        bits = b.binary("arith.andi", rounded, truncation);
    }
    if e < src_e {
        let sign_mask = 1u64 << (w - 1);
        let exp_mask = ((1u64 << src_e) - 1) << src_m;
        let bias = (1u64 << (src_e - 1)) - 1;
        let reduced_bias = (1u64 << (e - 1)) - 1;
        let max_exp = (bias + reduced_bias) << src_m;
        let min_exp = (bias - reduced_bias) << src_m;
        let exp_c = int(b, exp_mask);
        let exponent = b.binary("arith.andi", bits, exp_c);
        let max_c = int(b, max_exp);
        let min_c = int(b, min_exp);
        let overflows = b.cmpi("ugt", exponent, max_c);
        let underflows = b.cmpi("ule", exponent, min_c);
        let sign_c = int(b, sign_mask);
        let signed_zero = b.binary("arith.andi", bits, sign_c);
        let signed_inf = b.binary("arith.ori", signed_zero, exp_c);
        let kept = b.select(underflows, signed_zero, bits);
        bits = b.select(overflows, signed_inf, kept);
    }
    let r = b.cast("arith.bitcast", bits, t);
    let nan = b.cmpf("uno", x, x);
    if m > 0 {
        return b.select(nan, x, r);
    }
    // No mantissa bit left to mark a NaN: it becomes inf of its sign.
    let inf = b.const_float(f64::INFINITY, t);
    let signed_inf = b.binary("arith.copysign", inf, x);
    b.select(nan, signed_inf, r)
}

/// nextafter(x, y): the float after x toward y (C's nextafter): NaN if
/// either is NaN, y if x == y, the smallest subnormal of y's sign from
/// zero, else x's bits one step up or down in magnitude.
pub(super) fn next_after(b: &mut Builder<'_>, x: Value, y: Value) -> Value {
    let t = b.ty(x);
    let w = b.ctx.types.bit_width(t);
    let it = b.ctx.types.int_ty(w);
    let ix = b.cast("arith.bitcast", x, it);
    let zero = b.const_float(0.0, t);
    let one = b.const_int(1, it);
    let x_pos = b.cmpf("ogt", x, zero);
    let toward_up = b.cmpf("olt", x, y);
    // Magnitude grows when moving away from zero.
    let grows = b.cmpi("eq", x_pos, toward_up);
    let up = b.binary("arith.addi", ix, one);
    let down = b.binary("arith.subi", ix, one);
    let stepped = b.select(grows, up, down);
    let stepped = b.cast("arith.bitcast", stepped, t);
    // From zero: the smallest subnormal with y's sign.
    let tiny = b.cast("arith.bitcast", one, t);
    let from_zero = b.binary("arith.copysign", tiny, y);
    let x_zero = b.cmpf("oeq", x, zero);
    let r = b.select(x_zero, from_zero, stepped);
    let equal = b.cmpf("oeq", x, y);
    let r = b.select(equal, y, r);
    let unordered = b.cmpf("uno", x, y);
    let nan = b.binary("arith.addf", x, y);
    b.select(unordered, nan, r)
}

/// (2k)! / B_2k for k = 1..12: the Euler-Maclaurin correction terms of the
/// Hurwitz zeta function (Cephes' table, which XLA's zeta also uses).
const ZETA_EM: [f64; 12] = [
    12.0,
    -720.0,
    30240.0,
    -1209600.0,
    47900160.0,
    -1.8924375803183791606e9,
    7.47242496e10,
    -2.950130727918164224e12,
    1.1646782814350067249e14,
    -4.5979787224074726105e15,
    1.8152105401943546773e17,
    -7.1661652561756670113e18,
];
/// Direct terms summed before the Euler-Maclaurin tail.
const ZETA_TERMS: i64 = 10;

/// The Hurwitz zeta function ζ(x, q) = Σ_k (q + k)^-x: the terms up to
/// q + 10, then the integral and twelve Euler-Maclaurin corrections there.
/// +inf at x = 1 and at the poles q = 0, -1, ...; NaN for x < 1, and for
/// q < 0 with x not an integer.
pub(super) fn zeta(b: &mut Builder<'_>, x: Value, q: Value, ty: Type) -> Value {
    let neg_x = b.unary("arith.negf", x);
    let mut s = b.const_float(0.0, ty);
    // Σ_{k=0..N} (q + k)^-x; the tail below starts at w = q + N, whose
    // term is in the sum (and is half taken back out).
    for k in 0..=ZETA_TERMS {
        let kk = b.const_float(k as f64, ty);
        let a = b.binary("arith.addf", q, kk);
        let term = b.binary("arith.powf", a, neg_x);
        s = b.binary("arith.addf", s, term);
    }
    let n = b.const_float(ZETA_TERMS as f64, ty);
    let w = b.binary("arith.addf", q, n);
    let mut bb = b.binary("arith.powf", w, neg_x);
    // + w^(1-x) / (x - 1) - w^-x / 2
    let one = b.const_float(1.0, ty);
    let xm1 = b.binary("arith.subf", x, one);
    let bw = b.binary("arith.mulf", bb, w);
    let integral = b.binary("arith.divf", bw, xm1);
    s = b.binary("arith.addf", s, integral);
    let half = b.const_float(0.5, ty);
    let hb = b.binary("arith.mulf", half, bb);
    s = b.binary("arith.subf", s, hb);
    let mut a = b.const_float(1.0, ty);
    let mut k = 0.0;
    for &c in &ZETA_EM {
        let kx = b.const_float(k, ty);
        let xk = b.binary("arith.addf", x, kx);
        a = b.binary("arith.mulf", a, xk);
        bb = b.binary("arith.divf", bb, w);
        let ab = b.binary("arith.mulf", a, bb);
        let cc = b.const_float(c, ty);
        let t = b.binary("arith.divf", ab, cc);
        s = b.binary("arith.addf", s, t);
        let kx1 = b.const_float(k + 1.0, ty);
        let xk1 = b.binary("arith.addf", x, kx1);
        a = b.binary("arith.mulf", a, xk1);
        bb = b.binary("arith.divf", bb, w);
        k += 2.0;
    }
    let inf = b.const_float(f64::INFINITY, ty);
    let nan = b.const_float(f64::NAN, ty);
    let zero = b.const_float(0.0, ty);
    let x_fl = b.unary("arith.floor", x);
    let x_int = b.cmpf("oeq", x_fl, x);
    let q_fl = b.unary("arith.floor", q);
    let q_int = b.cmpf("oeq", q_fl, q);
    let q_nonpos = b.cmpf("ole", q, zero);
    let q_pole = b.binary("arith.andi", q_nonpos, q_int);
    let t = b.ctx.types.int_ty(1);
    let yes = b.const_int(1, t);
    let x_frac = b.binary("arith.xori", x_int, yes);
    let q_neg = b.cmpf("olt", q, zero);
    let domain = b.binary("arith.andi", q_neg, x_frac);
    let r = b.select(domain, nan, s);
    let r = b.select(q_pole, inf, r);
    let below = b.cmpf("olt", x, one);
    let r = b.select(below, nan, r);
    let at_one = b.cmpf("oeq", x, one);
    b.select(at_one, inf, r)
}

/// polygamma(n, x) = (-1)^(n+1) n! ζ(n + 1, x) for integers n >= 1,
/// digamma(x) for n = 0, NaN for other n.
pub(super) fn polygamma(b: &mut Builder<'_>, n: Value, x: Value, ty: Type) -> Value {
    let one = b.const_float(1.0, ty);
    let np1 = b.binary("arith.addf", n, one);
    let z = zeta(b, np1, x, ty);
    let lg = chlo::lgamma_in(b, np1, ty);
    let fact = b.unary("arith.exp", lg);
    // (-1)^(n+1): +1 for odd n, -1 for even n.
    let two = b.const_float(2.0, ty);
    let rem = b.binary("arith.remf", n, two);
    let zero = b.const_float(0.0, ty);
    let even = b.cmpf("oeq", rem, zero);
    let minus = b.const_float(-1.0, ty);
    let sign = b.select(even, minus, one);
    let r = b.binary("arith.mulf", fact, z);
    let r = b.binary("arith.mulf", r, sign);
    let d = chlo::digamma_in(b, x, ty);
    let n_zero = b.cmpf("oeq", n, zero);
    let r = b.select(n_zero, d, r);
    let fl = b.unary("arith.floor", n);
    let n_int = b.cmpf("oeq", fl, n);
    let n_nonneg = b.cmpf("oge", n, zero);
    let valid = b.binary("arith.andi", n_int, n_nonneg);
    let nan = b.const_float(f64::NAN, ty);
    b.select(valid, r, nan)
}
