//! Complex elementary functions on (re, im) pairs, by the textbook
//! identities (principal branches).

use crate::builder::Builder;
use strata_ir::Value;

pub type C = (Value, Value);

pub fn add(b: &mut Builder<'_>, x: C, y: C) -> C {
    (
        b.binary("arith.addf", x.0, y.0),
        b.binary("arith.addf", x.1, y.1),
    )
}

pub fn sub(b: &mut Builder<'_>, x: C, y: C) -> C {
    (
        b.binary("arith.subf", x.0, y.0),
        b.binary("arith.subf", x.1, y.1),
    )
}

pub fn mul(b: &mut Builder<'_>, x: C, y: C) -> C {
    let (ac, bd) = (
        b.binary("arith.mulf", x.0, y.0),
        b.binary("arith.mulf", x.1, y.1),
    );
    let (ad, bc) = (
        b.binary("arith.mulf", x.0, y.1),
        b.binary("arith.mulf", x.1, y.0),
    );
    (
        b.binary("arith.subf", ac, bd),
        b.binary("arith.addf", ad, bc),
    )
}

pub fn div(b: &mut Builder<'_>, x: C, y: C) -> C {
    let (cc, dd) = (
        b.binary("arith.mulf", y.0, y.0),
        b.binary("arith.mulf", y.1, y.1),
    );
    let den = b.binary("arith.addf", cc, dd);
    let (ac, bd) = (
        b.binary("arith.mulf", x.0, y.0),
        b.binary("arith.mulf", x.1, y.1),
    );
    let (bc, ad) = (
        b.binary("arith.mulf", x.1, y.0),
        b.binary("arith.mulf", x.0, y.1),
    );
    let re = b.binary("arith.addf", ac, bd);
    let im = b.binary("arith.subf", bc, ad);
    (
        b.binary("arith.divf", re, den),
        b.binary("arith.divf", im, den),
    )
}

/// |z| without overflow or underflow in the squares: m·sqrt(1 + (n/m)²)
/// with m = max(|re|, |im|), n = min(...); 0 when m is 0, inf when m is.
pub fn abs(b: &mut Builder<'_>, x: C) -> Value {
    let t = b.ty(x.0);
    let (ar, ai) = (b.unary("arith.absf", x.0), b.unary("arith.absf", x.1));
    let m = b.binary("arith.maximumf", ar, ai);
    let n = b.binary("arith.minimumf", ar, ai);
    let q = b.binary("arith.divf", n, m);
    let qq = b.binary("arith.mulf", q, q);
    let one = b.const_float(1.0, t);
    let s = b.binary("arith.addf", one, qq);
    let root = b.unary("arith.sqrt", s);
    let r = b.binary("arith.mulf", m, root);
    let zero = b.const_float(0.0, t);
    let inf = b.const_float(f64::INFINITY, t);
    let is_zero = b.cmpf("oeq", m, zero);
    let is_inf = b.cmpf("oeq", m, inf);
    let r = b.select(is_zero, zero, r);
    b.select(is_inf, inf, r)
}

pub fn exp(b: &mut Builder<'_>, x: C) -> C {
    let e = b.unary("arith.exp", x.0);
    let (c, s) = (b.unary("arith.cos", x.1), b.unary("arith.sin", x.1));
    (b.binary("arith.mulf", e, c), b.binary("arith.mulf", e, s))
}

pub fn log(b: &mut Builder<'_>, x: C) -> C {
    let r = abs(b, x);
    (b.unary("arith.log", r), b.binary("arith.atan2", x.1, x.0))
}

/// exp(z) - 1, accurate near zero: re = expm1(a)·cos(b) - 2·sin²(b/2).
pub fn expm1(b: &mut Builder<'_>, x: C) -> C {
    let t = b.ty(x.0);
    let em1 = b.unary("arith.expm1", x.0);
    let c = b.unary("arith.cos", x.1);
    let half = b.const_float(0.5, t);
    let hb = b.binary("arith.mulf", x.1, half);
    let s = b.unary("arith.sin", hb);
    let s2 = b.binary("arith.mulf", s, s);
    let two = b.const_float(2.0, t);
    let s2x2 = b.binary("arith.mulf", s2, two);
    let p = b.binary("arith.mulf", em1, c);
    let re = b.binary("arith.subf", p, s2x2);
    let e = b.unary("arith.exp", x.0);
    let sb = b.unary("arith.sin", x.1);
    (re, b.binary("arith.mulf", e, sb))
}

/// log(1 + z): re = log1p(a·(2 + a) + b²) / 2, im = atan2(b, 1 + a).
pub fn log1p(b: &mut Builder<'_>, x: C) -> C {
    let t = b.ty(x.0);
    let two = b.const_float(2.0, t);
    let one = b.const_float(1.0, t);
    let half = b.const_float(0.5, t);
    let a2 = b.binary("arith.addf", x.0, two);
    let aa = b.binary("arith.mulf", x.0, a2);
    let bb = b.binary("arith.mulf", x.1, x.1);
    let s = b.binary("arith.addf", aa, bb);
    let l = b.unary("arith.log1p", s);
    let re = b.binary("arith.mulf", l, half);
    let ap1 = b.binary("arith.addf", x.0, one);
    (re, b.binary("arith.atan2", x.1, ap1))
}

/// (cosh v, sinh v) of a real v.
fn cosh_sinh(b: &mut Builder<'_>, v: Value) -> (Value, Value) {
    let t = b.ty(v);
    let half = b.const_float(0.5, t);
    let e = b.unary("arith.exp", v);
    let n = b.unary("arith.negf", v);
    let en = b.unary("arith.exp", n);
    let c = b.binary("arith.addf", e, en);
    let s = b.binary("arith.subf", e, en);
    (
        b.binary("arith.mulf", c, half),
        b.binary("arith.mulf", s, half),
    )
}

pub fn sin(b: &mut Builder<'_>, x: C) -> C {
    let (ch, sh) = cosh_sinh(b, x.1);
    let (s, c) = (b.unary("arith.sin", x.0), b.unary("arith.cos", x.0));
    (b.binary("arith.mulf", s, ch), b.binary("arith.mulf", c, sh))
}

pub fn cos(b: &mut Builder<'_>, x: C) -> C {
    let (ch, sh) = cosh_sinh(b, x.1);
    let (s, c) = (b.unary("arith.sin", x.0), b.unary("arith.cos", x.0));
    let im = b.binary("arith.mulf", s, sh);
    (b.binary("arith.mulf", c, ch), b.unary("arith.negf", im))
}

/// tan(a + ib) = (sin 2a + i sinh 2b) / (cos 2a + cosh 2b), which does
/// not cancel as sin z / cos z does; for |b| > 20, cosh 2b overflows or
/// swamps the rest and Im = ±1.
pub fn tan(b: &mut Builder<'_>, x: C) -> C {
    let t = b.ty(x.0);
    let two = b.const_float(2.0, t);
    let a2 = b.binary("arith.mulf", x.0, two);
    let b2 = b.binary("arith.mulf", x.1, two);
    let (sa, ca) = (b.unary("arith.sin", a2), b.unary("arith.cos", a2));
    let (chb, shb) = (b.unary("arith.cosh", b2), b.unary("arith.sinh", b2));
    let den = b.binary("arith.addf", ca, chb);
    let re = b.binary("arith.divf", sa, den);
    let im = b.binary("arith.divf", shb, den);
    let ab = b.unary("arith.absf", x.1);
    let twenty = b.const_float(20.0, t);
    let large = b.cmpf("ogt", ab, twenty);
    let one = b.const_float(1.0, t);
    let unit = b.binary("arith.copysign", one, x.1);
    (re, b.select(large, unit, im))
}

/// sinh(a + ib) = sinh a cos b + i cosh a sin b.
pub fn sinh(b: &mut Builder<'_>, x: C) -> C {
    let sh = b.unary("arith.sinh", x.0);
    let ch = b.unary("arith.cosh", x.0);
    let (s, c) = (b.unary("arith.sin", x.1), b.unary("arith.cos", x.1));
    (b.binary("arith.mulf", sh, c), b.binary("arith.mulf", ch, s))
}

/// cosh(a + ib) = cosh a cos b + i sinh a sin b.
pub fn cosh(b: &mut Builder<'_>, x: C) -> C {
    let sh = b.unary("arith.sinh", x.0);
    let ch = b.unary("arith.cosh", x.0);
    let (s, c) = (b.unary("arith.sin", x.1), b.unary("arith.cos", x.1));
    (b.binary("arith.mulf", ch, c), b.binary("arith.mulf", sh, s))
}

/// tanh(z) = -i·tan(i·z).
pub fn tanh(b: &mut Builder<'_>, x: C) -> C {
    let nb = b.unary("arith.negf", x.1);
    let t = tan(b, (nb, x.0));
    let ni = b.unary("arith.negf", t.0);
    (t.1, ni)
}

/// Principal square root without cancellation: t = sqrt((|z| + |a|) / 2)
/// is the larger part; the other is |b| / 2t, placed by the sign of a; the
/// imaginary part takes the sign of b. sqrt(0 ± 0i) = 0 ± 0i, and an
/// infinite b gives (inf, b).
pub fn sqrt(b: &mut Builder<'_>, x: C) -> C {
    let t = b.ty(x.0);
    let r = abs(b, x);
    let aa = b.unary("arith.absf", x.0);
    let ab = b.unary("arith.absf", x.1);
    let half = b.const_float(0.5, t);
    let s = b.binary("arith.addf", r, aa);
    let s = b.binary("arith.mulf", s, half);
    let big = b.unary("arith.sqrt", s);
    let two_big = b.binary("arith.addf", big, big);
    let small = b.binary("arith.divf", ab, two_big);
    let zero = b.const_float(0.0, t);
    let a_negative = b.cmpf("olt", x.0, zero);
    let re = b.select(a_negative, small, big);
    let im = b.select(a_negative, big, small);
    let im = b.binary("arith.copysign", im, x.1);
    let is_zero = b.cmpf("oeq", r, zero);
    let re = b.select(is_zero, zero, re);
    let im = b.select(is_zero, x.1, im);
    let inf = b.const_float(f64::INFINITY, t);
    let b_inf = b.cmpf("oeq", ab, inf);
    (b.select(b_inf, inf, re), b.select(b_inf, x.1, im))
}

pub fn one(b: &mut Builder<'_>, like: Value) -> C {
    let t = b.ty(like);
    (b.const_float(1.0, t), b.const_float(0.0, t))
}

/// x^y as XLA:CPU's elemental emitter computes it (`EmitComplexPower`):
/// with x = a + bi, y = c + di, r = |x| and θ = atan2(b, a),
/// x^y = r^c e^(-dθ) (cos q + i sin q), q = cθ + d log r. The special
/// cases are XLA's: 0^y = (c == 0 ? 1 : 0) for d = 0, c >= 0; x^0 = 1;
/// 1^y = 1; inf^y = inf or 0 for real y > 0 or < 0. (exp(y log x) rounds
/// differently; on f32 results in the millions that is several ULP.)
pub fn pow(b: &mut Builder<'_>, x: C, y: C) -> C {
    let t = b.ty(x.0);
    let ((a, bi), (c, d)) = (x, y);
    let r = hypot(b, a, bi);
    let rc = b.binary("arith.powf", r, c);
    let neg_d = b.unary("arith.negf", d);
    let theta = b.binary("arith.atan2", bi, a);
    let e_arg = b.binary("arith.mulf", neg_d, theta);
    let e = b.unary("arith.exp", e_arg);
    let coeff = b.binary("arith.mulf", rc, e);
    let log_r = b.unary("arith.log", r);
    let c_theta = b.binary("arith.mulf", c, theta);
    let d_log = b.binary("arith.mulf", d, log_r);
    let q = b.binary("arith.addf", c_theta, d_log);
    let (cos, sin) = (b.unary("arith.cos", q), b.unary("arith.sin", q));
    let general = (
        b.binary("arith.mulf", coeff, cos),
        b.binary("arith.mulf", coeff, sin),
    );
    let zero = b.const_float(0.0, t);
    let one = b.const_float(1.0, t);
    let inf = b.const_float(f64::INFINITY, t);
    let pick = |b: &mut Builder<'_>, cond: Value, v: C, other: C| -> C {
        (b.select(cond, v.0, other.0), b.select(cond, v.1, other.1))
    };
    let r_zero = b.cmpf("oeq", r, zero);
    let d_zero = b.cmpf("oeq", d, zero);
    let c_zero = b.cmpf("oeq", c, zero);
    let bi_zero = b.cmpf("oeq", bi, zero);
    let c_nonneg = b.cmpf("ole", zero, c);
    let zero_base = pick(b, c_zero, (one, zero), (zero, zero));
    let zz = b.binary("arith.andi", r_zero, d_zero);
    let zz = b.binary("arith.andi", zz, c_nonneg);
    let v = pick(b, zz, zero_base, general);
    let y_zero = b.binary("arith.andi", c_zero, d_zero);
    let v = pick(b, y_zero, (one, zero), v);
    let a_one = b.cmpf("oeq", a, one);
    let x_one = b.binary("arith.andi", a_one, bi_zero);
    let v = pick(b, x_one, (one, zero), v);
    let a_inf = b.cmpf("oeq", a, inf);
    let x_inf = b.binary("arith.andi", a_inf, bi_zero);
    let c_pos = b.cmpf("ogt", c, zero);
    let pos = b.binary("arith.andi", d_zero, c_pos);
    let inf_pos = b.binary("arith.andi", x_inf, pos);
    let v = pick(b, inf_pos, (inf, zero), v);
    let c_neg = b.cmpf("olt", c, zero);
    let neg = b.binary("arith.andi", d_zero, c_neg);
    let inf_neg = b.binary("arith.andi", x_inf, neg);
    pick(b, inf_neg, (zero, zero), v)
}

/// sqrt(a² + b²) as XLA's `EmitHypot`: m·sqrt((n/m)² + 1), m = max(|a|, |b|),
/// n = min; where that is NaN (m is 0, or both are inf) it is n.
fn hypot(b: &mut Builder<'_>, x: Value, y: Value) -> Value {
    let t = b.ty(x);
    let (ax, ay) = (b.unary("arith.absf", x), b.unary("arith.absf", y));
    let m = b.binary("arith.maximumf", ax, ay);
    let n = b.binary("arith.minimumf", ax, ay);
    let q = b.binary("arith.divf", n, m);
    let qq = b.binary("arith.mulf", q, q);
    let one = b.const_float(1.0, t);
    let s = b.binary("arith.addf", qq, one);
    let root = b.unary("arith.sqrt", s);
    let h = b.binary("arith.mulf", m, root);
    let nan = b.cmpf("uno", h, h);
    b.select(nan, n, h)
}

/// atan2(x, y) = -i·log((y + i·x) / sqrt(x² + y²)).
pub fn atan2(b: &mut Builder<'_>, x: C, y: C) -> C {
    let ix = (b.unary("arith.negf", x.1), x.0);
    let num = add(b, y, ix);
    let xx = mul(b, x, x);
    let yy = mul(b, y, y);
    let s = add(b, xx, yy);
    let den = sqrt(b, s);
    let q = div(b, num, den);
    let l = log(b, q);
    (l.1, b.unary("arith.negf", l.0))
}

/// z / |z|; zero stays zero and NaN parts give NaN.
pub fn sign(b: &mut Builder<'_>, x: C) -> C {
    let t = b.ty(x.0);
    let r = abs(b, x);
    let zero = b.const_float(0.0, t);
    let is_zero = b.cmpf("oeq", r, zero);
    let (qr, qi) = (
        b.binary("arith.divf", x.0, r),
        b.binary("arith.divf", x.1, r),
    );
    (b.select(is_zero, x.0, qr), b.select(is_zero, x.1, qi))
}

/// Lexicographic order on (re, im): true when x > y.
pub fn greater(b: &mut Builder<'_>, x: C, y: C) -> Value {
    let gt_re = b.cmpf("ogt", x.0, y.0);
    let eq_re = b.cmpf("oeq", x.0, y.0);
    let gt_im = b.cmpf("ogt", x.1, y.1);
    let tie = b.binary("arith.andi", eq_re, gt_im);
    b.binary("arith.ori", gt_re, tie)
}
