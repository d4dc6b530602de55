//! Inline `f32` versions of `exp`, `expm1`, `tanh`, `log` and `log1p`: straight-line
//! arithmetic that LLVM vectorizes, where libm calls would stay scalar (the
//! largest cost in softmax and activation-heavy code).
//!
//! They are XLA:CPU's own approximations, step for step (the Cephes `expf`
//! polynomial, Eigen's rational `tanh`, `expm1` built from the two, and
//! Cephes' `logf`), as
//! its LLVM IR shows them. Every multiply XLA's backend fuses with the add
//! that consumes it (it compiles with `FPOpFusion::Fast`) is an
//! `llvm.fmuladd` here, so where the target has FMA both fuse the same pairs
//! and the results agree bit for bit; a libm-accurate `expf` differs from
//! XLA's by an ULP often enough that formulas built on it (cosh, sinh,
//! complex sin) miss XLA's results by several.
//!
//! Special values: NaN propagates; exp overflows to +inf and gives 0 where
//! XLA's does (results below 2^-126 are flushed, as XLA's are); tanh
//! saturates at ±1 and keeps -0; expm1(-inf) = -1.

use inkwell::FloatPredicate;
use inkwell::values::FloatValue;
use strata_diag::Result;

use super::Llvm;
use crate::ice;

/// An f32 constant from its bit pattern (XLA's constants, exactly).
fn bits(b: u32) -> f64 {
    f32::from_bits(b) as f64
}

impl<'ctx> Llvm<'ctx> {
    fn f(&self, v: f64) -> FloatValue<'ctx> {
        self.cx.f32_type().const_float(v)
    }

    /// `a·b + c` as `llvm.fmuladd`: one rounding where the target has FMA.
    fn fmuladd(
        &self,
        a: FloatValue<'ctx>,
        b: FloatValue<'ctx>,
        c: FloatValue<'ctx>,
    ) -> Result<FloatValue<'ctx>> {
        self.float_intrinsic("llvm.fmuladd", &[a, b, c])
    }

    fn mul(&self, a: FloatValue<'ctx>, b: FloatValue<'ctx>) -> Result<FloatValue<'ctx>> {
        self.b.build_float_mul(a, b, "").map_err(ice)
    }

    fn add(&self, a: FloatValue<'ctx>, b: FloatValue<'ctx>) -> Result<FloatValue<'ctx>> {
        self.b.build_float_add(a, b, "").map_err(ice)
    }

    fn select_f(
        &self,
        pred: FloatPredicate,
        x: FloatValue<'ctx>,
        y: FloatValue<'ctx>,
        then: FloatValue<'ctx>,
        other: FloatValue<'ctx>,
    ) -> Result<FloatValue<'ctx>> {
        let c = self.b.build_float_compare(pred, x, y, "").map_err(ice)?;
        Ok(self
            .b
            .build_select(c, then, other, "")
            .map_err(ice)?
            .into_float_value())
    }

    /// x clamped to [lo, hi] as XLA clamps (`x >= lo ? x : lo`, unordered
    /// comparisons), so that NaN passes through.
    fn clamp_f(&self, x: FloatValue<'ctx>, lo: f64, hi: f64) -> Result<FloatValue<'ctx>> {
        let x = self.select_f(FloatPredicate::UGE, x, self.f(lo), x, self.f(lo))?;
        self.select_f(FloatPredicate::ULE, x, self.f(hi), x, self.f(hi))
    }

    /// XLA:CPU's `exp` for f32: e^x = e^r · 2^n with n = floor(x log2 e + 1/2)
    /// clamped to [-127, 127] (2^-127 is built as 0, which flushes results
    /// below 2^-126) and r = x - n ln 2 in two parts; e^r is Cephes'
    /// degree-7 polynomial. x is clamped to [-87.8, 88.8] first.
    pub(crate) fn exp_f32(&self, x: FloatValue<'ctx>) -> Result<FloatValue<'ctx>> {
        let b = &self.b;
        let i32t = self.cx.i32_type();
        let xc = self.clamp_f(x, -87.8, 88.8)?;
        let t = self.fmuladd(xc, self.f(bits(0x3FB8_AA3B)), self.f(0.5))?;
        let n = self.float_intrinsic("llvm.floor", &[t])?;
        let n = self.clamp_f(n, -127.0, 127.0)?;
        // r = x - n·C1 - n·C2 (C1 + C2 = ln 2, C1 exact in few bits).
        let r = self.fmuladd(n, self.f(-bits(0x3F31_8000)), xc)?;
        let r = self.fmuladd(n, self.f(-bits(0xB95E_8083)), r)?;
        let mut z = self.fmuladd(r, self.f(bits(0x3950_6967)), self.f(bits(0x3AB7_43CE)))?;
        for c in [0x3C08_8908, 0x3D2A_A9C1, 0x3E2A_AAAA] {
            z = self.fmuladd(z, r, self.f(bits(c)))?;
        }
        z = self.fmuladd(z, r, self.f(0.5))?;
        let r2 = self.mul(r, r)?;
        z = self.fmuladd(z, r2, r)?;
        z = self.add(z, self.f(1.0))?;
        // 2^n from its exponent bits; NaN (only from a NaN x, which z
        // carries) would make the conversion poison, so it is zeroed first.
        let nan = b
            .build_float_compare(FloatPredicate::UNO, n, n, "")
            .map_err(ice)?;
        let n = b
            .build_select(nan, self.f(0.0), n, "")
            .map_err(ice)?
            .into_float_value();
        let ni = b.build_float_to_signed_int(n, i32t, "").map_err(ice)?;
        let e = b
            .build_int_add(ni, i32t.const_int(127, false), "")
            .map_err(ice)?;
        let e = b
            .build_left_shift(e, i32t.const_int(23, false), "")
            .map_err(ice)?;
        let pow2 = b
            .build_bit_cast(e, self.cx.f32_type(), "")
            .map_err(ice)?
            .into_float_value();
        self.mul(z, pow2)
    }

    /// XLA:CPU's (Eigen's) `tanh` for f32: an odd rational function of x
    /// clamped to ±7.998812 (where it reaches ±1 in f32); x itself for
    /// |x| < 0.0004 and ±1 for |x| >= 20.
    pub(crate) fn tanh_f32(&self, x: FloatValue<'ctx>) -> Result<FloatValue<'ctx>> {
        let limit = bits(0x40FF_F644);
        let xc = self.select_f(FloatPredicate::OLT, x, self.f(-limit), self.f(-limit), x)?;
        let xc = self.select_f(FloatPredicate::OGT, xc, self.f(limit), self.f(limit), xc)?;
        let x2 = self.mul(xc, xc)?;
        let mut p = self.fmuladd(x2, self.f(bits(0xA59F_25C0)), self.f(bits(0x2A61_337E)))?;
        for c in [
            0xAEBD_37FF,
            0x335C_0041,
            0x3779_434A,
            0x3A27_0DED,
            0x3BA0_59DC,
        ] {
            p = self.fmuladd(x2, p, self.f(bits(c)))?;
        }
        let p = self.mul(xc, p)?;
        let mut q = self.fmuladd(x2, self.f(bits(0x35A0_D3D8)), self.f(bits(0x38F8_95D6)))?;
        for c in [0x3B14_AA05, 0x3BA0_59DD] {
            q = self.fmuladd(x2, q, self.f(bits(c)))?;
        }
        let r = self.b.build_float_div(p, q, "").map_err(ice)?;
        let ax = self.float_intrinsic("llvm.fabs", &[x])?;
        let r = self.select_f(FloatPredicate::OLT, ax, self.f(0.0004), x, r)?;
        let one = self.float_intrinsic("llvm.copysign", &[self.f(1.0), x])?;
        self.select_f(FloatPredicate::OGE, ax, self.f(20.0), one, r)
    }

    /// XLA:CPU's `expm1` for f32: e^x - 1 for |x| > 1/2, where it does not
    /// cancel; tanh(x/2) (e^x + 1) below; x itself when x/2 is 0.
    pub(crate) fn expm1_f32(&self, x: FloatValue<'ctx>) -> Result<FloatValue<'ctx>> {
        let e = self.exp_f32(x)?;
        let big = self.b.build_float_sub(e, self.f(1.0), "").map_err(ice)?;
        let h = self.mul(x, self.f(0.5))?;
        let th = self.tanh_f32(h)?;
        let ep1 = self.add(e, self.f(1.0))?;
        let small = self.mul(th, ep1)?;
        let ax = self.float_intrinsic("llvm.fabs", &[x])?;
        let r = self.select_f(FloatPredicate::OGT, ax, self.f(0.5), big, small)?;
        self.select_f(FloatPredicate::OEQ, h, self.f(0.0), x, r)
    }

    /// XLA:CPU's (Eigen's, Cephes') `log` for f32: x = m·2^e with m in
    /// [sqrt(1/2), sqrt 2), log m by a degree-9 polynomial in m - 1 (three
    /// interleaved Horner chains), plus e·ln 2 in two parts. Subnormal x are
    /// taken as the smallest normal; NaN for x < 0 and NaN, -inf at 0, +inf
    /// at +inf.
    pub(crate) fn log_f32(&self, x0: FloatValue<'ctx>) -> Result<FloatValue<'ctx>> {
        let b = &self.b;
        let i32t = self.cx.i32_type();
        let f32t = self.cx.f32_type();
        let as_int = |v: FloatValue<'ctx>| -> Result<inkwell::values::IntValue<'ctx>> {
            Ok(b.build_bit_cast(v, i32t, "").map_err(ice)?.into_int_value())
        };
        let as_float = |v: inkwell::values::IntValue<'ctx>| -> Result<FloatValue<'ctx>> {
            Ok(b.build_bit_cast(v, f32t, "")
                .map_err(ice)?
                .into_float_value())
        };
        let min_normal = self.f(bits(0x0080_0000));
        let x = self.select_f(FloatPredicate::UGE, min_normal, x0, min_normal, x0)?;
        let xi = as_int(x)?;
        let expo = b
            .build_right_shift(xi, i32t.const_int(23, false), false, "")
            .map_err(ice)?;
        let mant = b
            .build_and(xi, i32t.const_int(0x807F_FFFF, false), "")
            .map_err(ice)?;
        let mant = b
            .build_or(mant, i32t.const_int(0x3F00_0000, false), "")
            .map_err(ice)?;
        let m = as_float(mant)?; // in [1/2, 1)
        let expo = b
            .build_int_sub(expo, i32t.const_int(127, false), "")
            .map_err(ice)?;
        let e = b.build_signed_int_to_float(expo, f32t, "").map_err(ice)?;
        let e = self.add(e, self.f(1.0))?;
        // m < sqrt(1/2): use 2m and e - 1.
        let small = b
            .build_float_compare(FloatPredicate::OLT, m, self.f(bits(0x3F35_04F3)), "")
            .map_err(ice)?;
        let zero = self.f(0.0);
        let tmp = b
            .build_select(small, m, zero, "")
            .map_err(ice)?
            .into_float_value();
        let xm = b.build_float_sub(m, self.f(1.0), "").map_err(ice)?;
        let one_if = b
            .build_select(small, self.f(1.0), zero, "")
            .map_err(ice)?
            .into_float_value();
        let e = b.build_float_sub(e, one_if, "").map_err(ice)?;
        let x = self.add(xm, tmp)?;
        let x2 = self.mul(x, x)?;
        let x3 = self.mul(x2, x)?;
        let c = |v: u32| self.f(bits(v));
        let y = self.fmuladd(x, c(0x3D90_21BB), c(0xBDEB_D1B8))?;
        let y1 = self.fmuladd(x, c(0xBDFE_5D4F), c(0x3E11_E9BF))?;
        let y2 = self.fmuladd(x, c(0x3E4C_CEAC), c(0xBE7F_FFFC))?;
        let y = self.fmuladd(y, x, c(0x3DEF_251A))?;
        let y1 = self.fmuladd(y1, x, c(0xBE2A_AE50))?;
        let y2 = self.fmuladd(y2, x, c(0x3EAA_AAAA))?;
        let y = self.fmuladd(y, x3, y1)?;
        let y = self.fmuladd(y, x3, y2)?;
        let eq1 = self.mul(e, c(0xB95E_8083))?;
        let y = self.fmuladd(y, x3, eq1)?;
        let xx = self.fmuladd(x2, self.f(-0.5), x)?;
        let s = self.add(xx, y)?;
        let s = self.fmuladd(e, c(0x3F31_8000), s)?;
        // Special values, selected as XLA's bit masks select them.
        let invalid = self.select_f(FloatPredicate::ULE, x0, zero, self.f(f64::NAN), s)?;
        let r = self.select_f(
            FloatPredicate::OEQ,
            x0,
            zero,
            self.f(f64::NEG_INFINITY),
            invalid,
        )?;
        self.select_f(
            FloatPredicate::OEQ,
            x0,
            self.f(f64::INFINITY),
            self.f(f64::INFINITY),
            r,
        )
    }

    /// XLA:CPU's `log1p` for f32: log(1 + x) (its `log` above) for
    /// |x| >= sqrt 2 - 1; below, x - x²/2 + x³·P(x)/Q(x) with two degree-6
    /// polynomials, each Horner step one FMA as XLA's backend fuses them.
    pub(crate) fn log1p_f32(&self, x: FloatValue<'ctx>) -> Result<FloatValue<'ctx>> {
        let c = |v: u32| self.f(bits(v));
        let big = self.log_f32(self.add(x, self.f(1.0))?)?;
        let x2 = self.mul(x, x)?;
        // x·0 (NaN for an infinite x, as in XLA's) starts both polynomials.
        let z = self.mul(x, self.f(0.0))?;
        let mut den = self.add(z, self.f(1.0))?;
        for v in [
            0x4171_01AD,
            0x42A6_185B,
            0x435D_C32D,
            0x439A_8CA3,
            0x4358_6D8A,
            0x4270_7982,
        ] {
            den = self.fmuladd(den, x, c(v))?;
        }
        let mut num = self.add(z, self.f(4.527e-5))?;
        for v in [
            0x3EFF_40C5,
            0x40D2_84FA,
            0x41EF_4B9C,
            0x4273_CC76,
            0x4264_73AD,
            0x41A0_5101,
        ] {
            num = self.fmuladd(num, x, c(v))?;
        }
        let r = self.b.build_float_div(num, den, "").map_err(ice)?;
        let x3 = self.mul(x, x2)?;
        let half_x2 = self.mul(x2, self.f(-0.5))?;
        let s = self.fmuladd(x3, r, half_x2)?;
        let small = self.add(x, s)?;
        let ax = self.float_intrinsic("llvm.fabs", &[x])?;
        self.select_f(FloatPredicate::OLT, ax, c(0x3ED4_13CD), small, big)
    }
}
