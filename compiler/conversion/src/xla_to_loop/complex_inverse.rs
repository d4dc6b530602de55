//! Inverse trigonometric and hyperbolic functions of complex numbers
//! (principal branches, as C99's `casin` family and XLA define them).
//!
//! `asin` and `acos` follow Hull, Fairgrieve and Tang, "Implementing the
//! complex arcsine and arccosine functions using exception handling" (ACM
//! TOMS 23(3), 1997): with r = |z + 1|, s = |z - 1| and a = (r + s) / 2,
//! Re asin z = asin(x / a) and Im asin z = log(a + sqrt(a² - 1)), each
//! rewritten where it would cancel (x / a near 1, a near 1), and asymptotic
//! forms where a² would overflow or y² underflow. The others are made from
//! them and from `atanh`:
//! asinh z = -i asin(i z), acosh z = (Im-part of acos, ±Re-part of acos),
//! atan z = -i atanh(i z), atanh z = log((1 + z) / (1 - z)) / 2 written as
//! Re = log1p(4x / ((1 - x)² + y²)) / 4 (or (log|1 + z| - log|1 - z|) / 2
//! near ±1, where 1 + q cancels), Im = atan2(2y, (1 - x)(1 + x) - y²) / 2.

use strata_ir::{Type, Value};

use super::complex::{C, abs};
use crate::builder::Builder;

/// Crossovers of Hull et al.: beyond `A_CROSSOVER` a² - 1 does not cancel;
/// below `B_CROSSOVER` asin(x / a) is accurate.
const A_CROSSOVER: f64 = 1.5;
const B_CROSSOVER: f64 = 0.6417;

/// Scalar arithmetic in one float type, to keep the formulas readable.
struct F<'b, 'c> {
    b: &'b mut Builder<'c>,
    t: Type,
}

impl F<'_, '_> {
    fn k(&mut self, v: f64) -> Value {
        self.b.const_float(v, self.t)
    }
    fn add(&mut self, x: Value, y: Value) -> Value {
        self.b.binary("arith.addf", x, y)
    }
    fn sub(&mut self, x: Value, y: Value) -> Value {
        self.b.binary("arith.subf", x, y)
    }
    fn mul(&mut self, x: Value, y: Value) -> Value {
        self.b.binary("arith.mulf", x, y)
    }
    fn div(&mut self, x: Value, y: Value) -> Value {
        self.b.binary("arith.divf", x, y)
    }
    fn f(&mut self, name: &'static str, x: Value) -> Value {
        self.b.unary(name, x)
    }
    fn lt(&mut self, x: Value, y: Value) -> Value {
        self.b.cmpf("olt", x, y)
    }
    fn sel(&mut self, c: Value, x: Value, y: Value) -> Value {
        self.b.select(c, x, y)
    }
    fn copysign(&mut self, x: Value, sign: Value) -> Value {
        self.b.binary("arith.copysign", x, sign)
    }
    fn hypot(&mut self, x: Value, y: Value) -> Value {
        abs(self.b, (x, y))
    }
    /// Machine epsilon and largest finite value of the type.
    fn limits(&self) -> (f64, f64) {
        if self.b.ctx.types.bit_width(self.t) == 64 {
            (f64::EPSILON, f64::MAX)
        } else {
            (f32::EPSILON as f64, f32::MAX as f64)
        }
    }
}

/// The two parts of asin (or acos) for x, y >= 0: (Re asin, Re acos, Im),
/// with Im >= 0 the imaginary part of asin.
fn hull_parts(f: &mut F<'_, '_>, x: Value, y: Value) -> (Value, Value, Value) {
    let (eps, max) = f.limits();
    let one = f.k(1.0);
    let half = f.k(0.5);
    let xp1 = f.add(x, one);
    let xm1 = f.sub(x, one);
    let one_minus_x = f.sub(one, x);
    let r = f.hypot(xp1, y);
    let s = f.hypot(xm1, y);
    let rs = f.add(r, s);
    let a = f.mul(rs, half);
    let bq = f.div(x, a);
    let yy = f.mul(y, y);
    let r_xp1 = f.add(r, xp1);
    let yy_r = f.div(yy, r_xp1);
    let x_le_1 = f.b.cmpf("ole", x, one);

    // Real parts: asin(x / a) and acos(x / a), or through atan where x / a
    // is close to 1.
    let apx = f.add(a, x);
    let s_1mx = f.add(s, one_minus_x);
    let yy_s = f.div(yy, s_1mx);
    let inner_le = f.add(yy_r, s_1mx);
    let inner_le = f.mul(inner_le, apx);
    let inner_le = f.mul(inner_le, half);
    let sq_le = f.f("arith.sqrt", inner_le);
    let s_xm1 = f.add(s, xm1);
    let t1 = f.div(apx, r_xp1);
    let t2 = f.div(apx, s_xm1);
    let inner_gt = f.add(t1, t2);
    let inner_gt = f.mul(inner_gt, half);
    let sq_gt = f.f("arith.sqrt", inner_gt);
    let sq_gt = f.mul(y, sq_gt);
    let d = f.sel(x_le_1, sq_le, sq_gt);
    let asin_near = f.div(x, d);
    let asin_near = f.f("arith.atan", asin_near);
    let acos_near = f.div(d, x);
    let acos_near = f.f("arith.atan", acos_near);
    let b_cross = f.k(B_CROSSOVER);
    let bq_small = f.b.cmpf("ole", bq, b_cross);
    let asin_far = f.f("arith.asin", bq);
    let acos_far = f.f("arith.acos", bq);
    let re_asin = f.sel(bq_small, asin_far, asin_near);
    let re_acos = f.sel(bq_small, acos_far, acos_near);

    // Imaginary part: log(a + sqrt(a² - 1)), through a - 1 near a = 1.
    let am1_le = f.add(yy_r, yy_s);
    let am1_le = f.mul(am1_le, half);
    let am1_gt = f.add(yy_r, s_xm1);
    let am1_gt = f.mul(am1_gt, half);
    let am1 = f.sel(x_le_1, am1_le, am1_gt);
    let ap1 = f.add(a, one);
    let root = f.mul(am1, ap1);
    let root = f.f("arith.sqrt", root);
    let near = f.add(am1, root);
    let im_near = f.f("arith.log1p", near);
    let aa = f.mul(a, a);
    let aa1 = f.sub(aa, one);
    let root = f.f("arith.sqrt", aa1);
    let far = f.add(a, root);
    let im_far = f.f("arith.log", far);
    let a_cross = f.k(A_CROSSOVER);
    let a_small = f.lt(a, a_cross);
    let im = f.sel(a_small, im_near, im_far);

    // Huge |z|: a² overflows; asin z ~ atan2(x, y) + i (log|z| + log 2).
    let m = f.b.binary("arith.maximumf", x, y);
    let big = f.k(max.sqrt() / 8.0);
    let is_big = f.lt(big, m);
    let habs = f.hypot(x, y);
    let lg = f.f("arith.log", habs);
    let ln2 = f.k(std::f64::consts::LN_2);
    let im_big = f.add(lg, ln2);
    let re_asin_big = f.b.binary("arith.atan2", x, y);
    let re_acos_big = f.b.binary("arith.atan2", y, x);
    let re_asin = f.sel(is_big, re_asin_big, re_asin);
    let re_acos = f.sel(is_big, re_acos_big, re_acos);
    let im = f.sel(is_big, im_big, im);

    // Tiny |z|: y² underflows; asin z = z and acos z = pi/2 - z to within
    // rounding.
    let tiny = f.k(eps.sqrt() * 0.5);
    let is_tiny = f.lt(m, tiny);
    let re_asin = f.sel(is_tiny, x, re_asin);
    let half_pi = f.k(std::f64::consts::FRAC_PI_2);
    let acos_tiny = f.sub(half_pi, x);
    let re_acos = f.sel(is_tiny, acos_tiny, re_acos);
    let im = f.sel(is_tiny, y, im);
    (re_asin, re_acos, im)
}

fn parts_of<'b, 'c>(b: &'b mut Builder<'c>, z: C) -> (F<'b, 'c>, Value, Value) {
    let t = b.ty(z.0);
    let x = b.unary("arith.absf", z.0);
    let y = b.unary("arith.absf", z.1);
    (F { b, t }, x, y)
}

pub fn asin(b: &mut Builder<'_>, z: C) -> C {
    let (mut f, x, y) = parts_of(b, z);
    let (re, _, im) = hull_parts(&mut f, x, y);
    (f.copysign(re, z.0), f.copysign(im, z.1))
}

pub fn acos(b: &mut Builder<'_>, z: C) -> C {
    let (mut f, x, y) = parts_of(b, z);
    let (_, re, im) = hull_parts(&mut f, x, y);
    // Re acos(-x) = pi - Re acos(x); Im acos z has the sign opposite to y.
    let pi = f.k(std::f64::consts::PI);
    let reflected = f.sub(pi, re);
    let zero = f.k(0.0);
    let one = f.k(1.0);
    let sign = f.copysign(one, z.0);
    let is_negative = f.lt(sign, zero);
    let re = f.sel(is_negative, reflected, re);
    let neg_y = f.f("arith.negf", z.1);
    (re, f.copysign(im, neg_y))
}

/// asinh z = -i asin(i z).
pub fn asinh(b: &mut Builder<'_>, z: C) -> C {
    let neg_y = b.unary("arith.negf", z.1);
    let (re, im) = asin(b, (neg_y, z.0));
    (im, b.unary("arith.negf", re))
}

/// acosh z: Re = |Im acos z|, Im = Re acos z with the sign of y.
pub fn acosh(b: &mut Builder<'_>, z: C) -> C {
    let (re, im) = acos(b, z);
    let re_h = b.unary("arith.absf", im);
    (re_h, b.binary("arith.copysign", re, z.1))
}

pub fn atanh(b: &mut Builder<'_>, z: C) -> C {
    let t = b.ty(z.0);
    let mut f = F { b, t };
    let (x, y) = z;
    let (_, max) = f.limits();
    let one = f.k(1.0);
    let one_minus_x = f.sub(one, x);
    let one_plus_x = f.add(one, x);
    let yy = f.mul(y, y);
    let den = f.mul(one_minus_x, one_minus_x);
    let den = f.add(den, yy);
    let four = f.k(4.0);
    let four_x = f.mul(four, x);
    let q = f.div(four_x, den);
    let re = f.f("arith.log1p", q);
    let quarter = f.k(0.25);
    let re = f.mul(re, quarter);
    // Near the branch points +-1, 1 + q cancels in log1p(q); there
    // log|1 + z| - log|1 - z| does not.
    let r_plus = f.hypot(one_plus_x, y);
    let r_minus = f.hypot(one_minus_x, y);
    let l_plus = f.f("arith.log", r_plus);
    let l_minus = f.f("arith.log", r_minus);
    let ratio = f.sub(l_plus, l_minus);
    let half = f.k(0.5);
    let half_ratio = f.mul(ratio, half);
    let aq = f.f("arith.absf", q);
    let near_branch = f.lt(half, aq);
    let re = f.sel(near_branch, half_ratio, re);
    let two = f.k(2.0);
    let two_y = f.mul(two, y);
    let d = f.mul(one_minus_x, one_plus_x);
    let d = f.sub(d, yy);
    let im = f.b.binary("arith.atan2", two_y, d);
    let im = f.mul(im, half);
    // Huge |z|: the squares overflow; atanh z ~ 1/z, Im -> +-pi/2.
    let ax = f.f("arith.absf", x);
    let ay = f.f("arith.absf", y);
    let m = f.b.binary("arith.maximumf", ax, ay);
    let big = f.k(max.sqrt() / 8.0);
    let is_big = f.lt(big, m);
    let h = f.hypot(x, y);
    let re_big = f.div(x, h);
    let re_big = f.div(re_big, h);
    let half_pi = f.k(std::f64::consts::FRAC_PI_2);
    let im_big = f.copysign(half_pi, y);
    (f.sel(is_big, re_big, re), f.sel(is_big, im_big, im))
}

/// atan z = -i atanh(i z).
pub fn atan(b: &mut Builder<'_>, z: C) -> C {
    let neg_y = b.unary("arith.negf", z.1);
    let (re, im) = atanh(b, (neg_y, z.0));
    (im, b.unary("arith.negf", re))
}
