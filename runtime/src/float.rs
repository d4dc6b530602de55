//! Half-precision decoding.
//!
//! Written by hand rather than taken from the `half` crate: it is a dozen lines, both decodings
//! are exact (every f16 and bf16 value is representable in f32), and keeping the runtime free of
//! dependencies keeps the archive that is linked into every artifact small.

/// Decodes IEEE 754 binary16 bits to f32 (exact).
pub fn f16_to_f32(bits: u16) -> f32 {
    let sign = ((bits >> 15) & 1) as u32;
    let exp = ((bits >> 10) & 0x1f) as u32;
    let frac = (bits & 0x3ff) as u32;
    let out = if exp == 0 {
        if frac == 0 {
            sign << 31
        } else {
            // Subnormal: value = frac * 2^-24; exact in f32.
            let v = frac as f32 * f32::from_bits(0x3380_0000); // 2^-24
            return if sign == 1 { -v } else { v };
        }
    } else if exp == 0x1f {
        // Inf or NaN; keep the payload (shifted into the top of the f32 mantissa).
        (sign << 31) | 0x7f80_0000 | (frac << 13)
    } else {
        (sign << 31) | ((exp + 127 - 15) << 23) | (frac << 13)
    };
    f32::from_bits(out)
}

/// Decodes bfloat16 bits to f32 (exact: bf16 is the top half of an f32).
#[inline]
pub fn bf16_to_f32(bits: u16) -> f32 {
    f32::from_bits((bits as u32) << 16)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn f16_values() {
        assert_eq!(f16_to_f32(0x0000), 0.0);
        assert!(f16_to_f32(0x8000).is_sign_negative() && f16_to_f32(0x8000) == 0.0);
        assert_eq!(f16_to_f32(0x3c00), 1.0);
        assert_eq!(f16_to_f32(0xc000), -2.0);
        assert_eq!(f16_to_f32(0x3555), 0.333_251_95);
        assert_eq!(f16_to_f32(0x7bff), 65504.0);
        assert_eq!(f16_to_f32(0x0400), 6.103_515_6e-5); // smallest normal
        assert_eq!(f16_to_f32(0x0001), 5.960_464_5e-8); // smallest subnormal
        assert_eq!(f16_to_f32(0x83ff), -6.097_555e-5); // largest negative subnormal
        assert_eq!(f16_to_f32(0x7c00), f32::INFINITY);
        assert_eq!(f16_to_f32(0xfc00), f32::NEG_INFINITY);
        assert!(f16_to_f32(0x7e00).is_nan());
        assert!(f16_to_f32(0x7c01).is_nan());
    }

    #[test]
    fn f16_matches_reference_conversion_for_all_finite() {
        // Reference: value = (-1)^s * 2^(e-15) * (1 + f/1024), computed in f64.
        for bits in 0u16..=0xffff {
            let e = (bits >> 10) & 0x1f;
            if e == 0x1f {
                continue;
            }
            let f = (bits & 0x3ff) as f64;
            let s = if bits & 0x8000 != 0 { -1.0 } else { 1.0 };
            let v = if e == 0 {
                s * f * 2f64.powi(-24)
            } else {
                s * (1.0 + f / 1024.0) * 2f64.powi(e as i32 - 15)
            };
            assert_eq!(f16_to_f32(bits) as f64, v, "bits {bits:#06x}");
        }
    }

    #[test]
    fn bf16_values() {
        assert_eq!(bf16_to_f32(0x3f80), 1.0);
        assert_eq!(bf16_to_f32(0xc040), -3.0);
        assert_eq!(bf16_to_f32(0x7f80), f32::INFINITY);
        assert!(bf16_to_f32(0x7fc0).is_nan());
        assert_eq!(bf16_to_f32(0x4049), 3.140625);
    }
}
