//! Compiler support routines that LLVM calls but the system's libgcc may lack.
//!
//! On x86-64 without AVX512-BF16, LLVM lowers `fptrunc float/double to bfloat` to calls to
//! `__truncsfbf2` / `__truncdfbf2`. GCC only ships them from GCC 13 on (Debian 12 has GCC 12,
//! whose libgcc does provide the f16 routines `__truncsfhf2`, `__extendhfsf2`, ...), so the runtime
//! defines them. They are linked into artifacts only when generated code references them, and
//! stay hidden in shared libraries (not part of the exported API).
//!
//! Calling convention: the result is a `bfloat` value, which the x86-64 and AArch64 ABIs return
//! in the low 16 bits of the first floating-point register. Rust has no stable bf16 type, so the
//! functions return an `f32` whose bit pattern holds the bf16 bits in its low half: that puts
//! exactly those bits where the caller reads them.

/// Rounds f32 to bf16 bits, to nearest even; NaN stays NaN (quieted, sign kept).
pub fn f32_to_bf16_bits(a: f32) -> u16 {
    let bits = a.to_bits();
    if a.is_nan() {
        return ((bits >> 16) as u16) | 0x0040;
    }
    let rounding_bias = 0x7fff + ((bits >> 16) & 1);
    (bits.wrapping_add(rounding_bias) >> 16) as u16
}

/// Rounds f64 to bf16 bits, to nearest even, without double rounding: the value is first
/// rounded to f32 with round-to-odd (which keeps enough information for the second rounding to
/// be correct, f32 having far more than two extra bits over bf16), then to bf16.
pub fn f64_to_bf16_bits(a: f64) -> u16 {
    if a.is_nan() {
        let sign = if a.is_sign_negative() { 0x8000 } else { 0 };
        return sign | 0x7fc0;
    }
    let mut f = a as f32;
    if f as f64 != a {
        // Inexact: truncate toward zero (a finite value beyond the f32 range becomes ±f32::MAX),
        // then force the last bit to 1 (round to odd).
        if (f as f64).abs() > a.abs() {
            f = f32::from_bits(f.to_bits() - 1);
        }
        f = f32::from_bits(f.to_bits() | 1);
    }
    f32_to_bf16_bits(f)
}

/// `__bf16 __truncsfbf2(float)`
#[unsafe(no_mangle)]
pub extern "C" fn __truncsfbf2(a: f32) -> f32 {
    f32::from_bits(f32_to_bf16_bits(a) as u32)
}

/// `__bf16 __truncdfbf2(double)`
#[unsafe(no_mangle)]
pub extern "C" fn __truncdfbf2(a: f64) -> f32 {
    f32::from_bits(f64_to_bf16_bits(a) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::float::bf16_to_f32;

    /// Reference: the nearest bf16 by exhaustive comparison with neighbours (ties to even).
    fn reference(a: f64) -> u16 {
        if a.is_nan() {
            return if a.is_sign_negative() { 0xffc0 } else { 0x7fc0 };
        }
        let sign: u16 = if a.is_sign_negative() { 0x8000 } else { 0 };
        let m = a.abs();
        // Largest bf16 magnitude <= m (bit patterns of non-negative bf16 are ordered).
        let (mut lo, mut hi) = (0u16, 0x7f80u16);
        while lo < hi {
            let mid = (lo + hi).div_ceil(2);
            if bf16_to_f32(mid) as f64 <= m {
                lo = mid
            } else {
                hi = mid - 1
            }
        }
        if bf16_to_f32(lo) as f64 == m || lo == 0x7f80 {
            return sign | lo;
        }
        let up = lo + 1;
        // Above the largest finite bf16 the "next" value is 2^128 (rounding to infinity).
        let up_value = if up == 0x7f80 {
            2f64.powi(128)
        } else {
            bf16_to_f32(up) as f64
        };
        let (dl, du) = (m - bf16_to_f32(lo) as f64, up_value - m);
        let pick = if dl < du {
            lo
        } else if du < dl {
            up
        } else if lo & 1 == 0 {
            lo
        } else {
            up
        };
        sign | pick
    }

    #[test]
    fn f32_rounding() {
        assert_eq!(f32_to_bf16_bits(1.0), 0x3f80);
        assert_eq!(f32_to_bf16_bits(-2.0), 0xc000);
        assert_eq!(f32_to_bf16_bits(3.140625), 0x4049);
        // Halfway cases go to even.
        assert_eq!(f32_to_bf16_bits(f32::from_bits(0x3f80_8000)), 0x3f80);
        assert_eq!(f32_to_bf16_bits(f32::from_bits(0x3f81_8000)), 0x3f82);
        assert_eq!(f32_to_bf16_bits(f32::from_bits(0x3f80_8001)), 0x3f81);
        assert_eq!(f32_to_bf16_bits(f32::MAX), 0x7f80);
        assert_eq!(f32_to_bf16_bits(f32::INFINITY), 0x7f80);
        assert_eq!(f32_to_bf16_bits(f32::NEG_INFINITY), 0xff80);
        assert_eq!(f32_to_bf16_bits(-0.0), 0x8000);
        assert!(bf16_to_f32(f32_to_bf16_bits(f32::NAN)).is_nan());
        // A NaN whose payload lives only in the low bits must not become infinity.
        assert!(bf16_to_f32(f32_to_bf16_bits(f32::from_bits(0x7f80_0001))).is_nan());
        for bits in (0u32..=0xffff_ffff).step_by(65_537) {
            let a = f32::from_bits(bits);
            if a.is_nan() {
                continue;
            }
            assert_eq!(f32_to_bf16_bits(a), reference(a as f64), "{bits:#010x}");
        }
    }

    #[test]
    fn f64_rounding_without_double_rounding() {
        // 1 + 2^-8 + 2^-30: to f32 (RNE) it would become 1 + 2^-8 exactly (a tie), then to
        // bf16 a tie to even 1.0; the correct result is 1 + 2^-7.
        let a = 1.0 + 2f64.powi(-8) + 2f64.powi(-30);
        assert_eq!(f64_to_bf16_bits(a), 0x3f81);
        assert_eq!(reference(a), 0x3f81);
        assert_eq!(f64_to_bf16_bits(1.0 + 2f64.powi(-8)), 0x3f80);
        assert_eq!(f64_to_bf16_bits(1e300), 0x7f80);
        assert_eq!(f64_to_bf16_bits(-1e300), 0xff80);
        assert_eq!(f64_to_bf16_bits(1e-300), 0x0000);
        assert_eq!(f64_to_bf16_bits(-1e-300), 0x8000);
        assert_eq!(f64_to_bf16_bits(f64::INFINITY), 0x7f80);
        assert!(bf16_to_f32(f64_to_bf16_bits(f64::NAN)).is_nan());
        // Just above and below the overflow threshold (max bf16 + half an ulp = 2^128 - 2^119).
        let threshold = 2f64.powi(128) - 2f64.powi(119);
        assert_eq!(f64_to_bf16_bits(threshold), 0x7f80); // tie → even (infinity)
        assert_eq!(f64_to_bf16_bits(threshold - 2f64.powi(80)), 0x7f7f);
        // A sweep over the f64 range, including subnormal bf16 results.
        let mut x = 1.234_567_890_123e-45f64;
        while x < 1e39 {
            for v in [
                x,
                -x,
                x * (1.0 + 2f64.powi(-9)),
                x * (1.0 + 3.0 * 2f64.powi(-9)),
            ] {
                assert_eq!(f64_to_bf16_bits(v), reference(v), "{v:e}");
            }
            x *= 1.000_731;
        }
    }

    #[test]
    fn abi_wrappers_put_the_bits_low() {
        assert_eq!(__truncsfbf2(1.0).to_bits(), 0x3f80);
        assert_eq!(__truncdfbf2(-2.0).to_bits(), 0xc000);
    }
}
