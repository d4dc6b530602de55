//! Inline `f32` versions of `exp` and `tanh`: straight-line arithmetic that
//! LLVM vectorizes, where libm calls would stay scalar (the largest cost in
//! softmax and activation-heavy code). Range reduction and polynomial
//! coefficients are the classic single-precision ones (Cephes `expf` and
//! `tanhf`, error within about 2 ulp); special values are handled exactly:
//! NaN propagates, exp overflows to +inf and underflows through subnormals
//! to 0, tanh saturates at ±1 and keeps -0.

use inkwell::FloatPredicate;
use inkwell::values::{FloatValue, IntValue};
use strata_diag::Result;

use crate::ice;
use crate::state::Lowerer;

impl<'ctx> Lowerer<'ctx, '_> {
    fn f(&self, v: f64) -> FloatValue<'ctx> {
        self.cx.f32_type().const_float(v)
    }

    /// `c0 + x·(c1 + x·(c2 + ...))` with the coefficients from the highest.
    /// Each step is `llvm.fmuladd`: one fused instruction where the target
    /// has FMA, a multiply and an add where it does not (the polynomials'
    /// error bounds hold either way).
    fn horner(&self, x: FloatValue<'ctx>, coeffs: &[f64]) -> Result<FloatValue<'ctx>> {
        let mut acc = self.f(coeffs[0]);
        for &c in &coeffs[1..] {
            acc = self.float_intrinsic("llvm.fmuladd", &[acc, x, self.f(c)])?;
        }
        Ok(acc)
    }

    /// 2^n for an i32 n in [-126, 127], as an f32 built from its bits.
    fn pow2(&self, n: IntValue<'ctx>) -> Result<FloatValue<'ctx>> {
        let i32t = self.cx.i32_type();
        let b = &self.b;
        let e = b
            .build_int_add(n, i32t.const_int(127, false), "")
            .map_err(ice)?;
        let bits = b
            .build_left_shift(e, i32t.const_int(23, false), "")
            .map_err(ice)?;
        Ok(b.build_bit_cast(bits, self.cx.f32_type(), "")
            .map_err(ice)?
            .into_float_value())
    }

    pub(crate) fn exp_f32(&self, x: FloatValue<'ctx>) -> Result<FloatValue<'ctx>> {
        let b = &self.b;
        let i32t = self.cx.i32_type();
        // Beyond these, the result is +inf / 0 (and NaN stays NaN).
        let hi = self.f(88.722_839);
        let lo = self.f(-103.972_08);
        let xc = self.float_intrinsic("llvm.minnum", &[x, hi])?;
        let xc = self.float_intrinsic("llvm.maxnum", &[xc, lo])?;
        // n = round(x / ln 2); r = x - n ln 2 in two parts.
        let t = b
            .build_float_mul(xc, self.f(std::f64::consts::LOG2_E), "")
            .map_err(ice)?;
        let t = b.build_float_add(t, self.f(0.5), "").map_err(ice)?;
        let nf = self.float_intrinsic("llvm.floor", &[t])?;
        let r = b
            .build_float_sub(
                xc,
                b.build_float_mul(nf, self.f(0.693_359_375), "")
                    .map_err(ice)?,
                "",
            )
            .map_err(ice)?;
        let r = b
            .build_float_sub(
                r,
                b.build_float_mul(nf, self.f(-2.121_944_4e-4), "")
                    .map_err(ice)?,
                "",
            )
            .map_err(ice)?;
        let z = b.build_float_mul(r, r, "").map_err(ice)?;
        let p = self.horner(
            r,
            &[
                1.987_569_15e-4,
                1.398_199_950_7e-3,
                8.333_451_907_3e-3,
                4.166_579_589_4e-2,
                1.666_666_545_9e-1,
                5.000_000_120_1e-1,
            ],
        )?;
        let p = b.build_float_mul(p, z, "").map_err(ice)?;
        let p = b.build_float_add(p, r, "").map_err(ice)?;
        let p = b.build_float_add(p, self.f(1.0), "").map_err(ice)?;
        // Scale by 2^n in two steps so that subnormal results are exact.
        let n = b.build_float_to_signed_int(nf, i32t, "").map_err(ice)?;
        let n1 = b
            .build_right_shift(n, i32t.const_int(1, false), true, "")
            .map_err(ice)?;
        let n2 = b.build_int_sub(n, n1, "").map_err(ice)?;
        let y = b.build_float_mul(p, self.pow2(n1)?, "").map_err(ice)?;
        let y = b.build_float_mul(y, self.pow2(n2)?, "").map_err(ice)?;
        let over = b
            .build_float_compare(FloatPredicate::OGT, x, hi, "")
            .map_err(ice)?;
        let y = b
            .build_select(over, self.f(f64::INFINITY), y, "")
            .map_err(ice)?
            .into_float_value();
        let under = b
            .build_float_compare(FloatPredicate::OLT, x, lo, "")
            .map_err(ice)?;
        let y = b
            .build_select(under, self.f(0.0), y, "")
            .map_err(ice)?
            .into_float_value();
        let nan = b
            .build_float_compare(FloatPredicate::UNO, x, x, "")
            .map_err(ice)?;
        Ok(b.build_select(nan, x, y, "")
            .map_err(ice)?
            .into_float_value())
    }

    pub(crate) fn tanh_f32(&self, x: FloatValue<'ctx>) -> Result<FloatValue<'ctx>> {
        let b = &self.b;
        let ax = self.float_intrinsic("llvm.fabs", &[x])?;
        // Small |x|: odd polynomial, accurate where 1 - 2/(e^2x + 1) cancels.
        let z = b.build_float_mul(x, x, "").map_err(ice)?;
        let p = self.horner(
            z,
            &[
                -5.704_988_727_45e-3,
                2.063_908_879_54e-2,
                -5.373_971_555_31e-2,
                1.333_144_220_36e-1,
                -3.333_328_194_22e-1,
            ],
        )?;
        let p = b.build_float_mul(p, z, "").map_err(ice)?;
        let p = b.build_float_mul(p, x, "").map_err(ice)?;
        let small = b.build_float_add(p, x, "").map_err(ice)?;
        // Otherwise 1 - 2 / (e^(2|x|) + 1) with the sign of x; saturates at 1.
        let clamped = self.float_intrinsic("llvm.minnum", &[ax, self.f(10.0)])?;
        let e = self.exp_f32(b.build_float_mul(clamped, self.f(2.0), "").map_err(ice)?)?;
        let d = b.build_float_add(e, self.f(1.0), "").map_err(ice)?;
        let q = b.build_float_div(self.f(2.0), d, "").map_err(ice)?;
        let big = b.build_float_sub(self.f(1.0), q, "").map_err(ice)?;
        let big = self.float_intrinsic("llvm.copysign", &[big, x])?;
        let is_small = b
            .build_float_compare(FloatPredicate::OLT, ax, self.f(0.625), "")
            .map_err(ice)?;
        let y = b
            .build_select(is_small, small, big, "")
            .map_err(ice)?
            .into_float_value();
        let nan = b
            .build_float_compare(FloatPredicate::UNO, x, x, "")
            .map_err(ice)?;
        Ok(b.build_select(nan, x, y, "")
            .map_err(ice)?
            .into_float_value())
    }
}
