//! Small float formats (f8, f6, f4 families): decoding by formula and
//! encoding by exhaustive nearest search, which is exact for formats this
//! small (at most 256 codes). `half` covers f16/bf16; no maintained crate
//! covers all of these formats, so they are done here.

use crate::types::FloatKind;

struct Format {
    exp_bits: u32,
    man_bits: u32,
    bias: i32,
    /// IEEE-style: all-ones exponent is inf/NaN.
    ieee: bool,
    /// FNUZ: 0x80 is the only NaN, no negative zero, no infinity.
    fnuz: bool,
    /// Has a sign bit.
    signed: bool,
    /// All-ones pattern (sign aside) is NaN (the "FN" formats).
    fn_nan: bool,
}

fn format(k: FloatKind) -> Format {
    let f = |exp_bits, man_bits, bias, ieee, fnuz, fn_nan| Format { exp_bits, man_bits, bias, ieee, fnuz, signed: true, fn_nan };
    match k {
        FloatKind::F8E3M4 => f(3, 4, 3, true, false, false),
        FloatKind::F8E4M3 => f(4, 3, 7, true, false, false),
        FloatKind::F8E4M3FN => f(4, 3, 7, false, false, true),
        FloatKind::F8E4M3FNUZ => f(4, 3, 8, false, true, false),
        FloatKind::F8E4M3B11FNUZ => f(4, 3, 11, false, true, false),
        FloatKind::F8E5M2 => f(5, 2, 15, true, false, false),
        FloatKind::F8E5M2FNUZ => f(5, 2, 16, false, true, false),
        FloatKind::F8E8M0FNU => Format { exp_bits: 8, man_bits: 0, bias: 127, ieee: false, fnuz: false, signed: false, fn_nan: true },
        FloatKind::F6E2M3FN => f(2, 3, 1, false, false, false),
        FloatKind::F6E3M2FN => f(3, 2, 3, false, false, false),
        FloatKind::F4E2M1FN => f(2, 1, 1, false, false, false),
        // Not small formats; never called for these.
        FloatKind::F16 | FloatKind::BF16 | FloatKind::F32 | FloatKind::F64 | FloatKind::TF32 => f(5, 10, 15, true, false, false),
    }
}

pub fn decode(bits: u8, k: FloatKind) -> f64 {
    let f = format(k);
    let width = f.exp_bits + f.man_bits + f.signed as u32;
    let bits = (bits as u32) & ((1 << width) - 1);
    let sign_bit = if f.signed { (bits >> (width - 1)) & 1 } else { 0 };
    let exp = (bits >> f.man_bits) & ((1 << f.exp_bits) - 1);
    let man = bits & ((1 << f.man_bits) - 1);
    let sign = if sign_bit == 1 { -1.0 } else { 1.0 };
    let exp_max = (1 << f.exp_bits) - 1;
    if f.fnuz && sign_bit == 1 && exp == 0 && man == 0 {
        return f64::NAN;
    }
    if f.ieee && exp == exp_max {
        return if man == 0 { sign * f64::INFINITY } else { f64::NAN };
    }
    if f.fn_nan && exp == exp_max && man == (1 << f.man_bits) - 1 {
        return f64::NAN;
    }
    if f.man_bits == 0 {
        return 2f64.powi(exp as i32 - f.bias);
    }
    let frac = man as f64 / (1u32 << f.man_bits) as f64;
    if exp == 0 {
        sign * frac * 2f64.powi(1 - f.bias)
    } else {
        sign * (1.0 + frac) * 2f64.powi(exp as i32 - f.bias)
    }
}

/// Nearest representable value, ties to even; values past the largest
/// finite one become infinity where the format has it, else NaN.
pub fn encode(v: f64, k: FloatKind) -> u8 {
    let f = format(k);
    let width = f.exp_bits + f.man_bits + f.signed as u32;
    let codes = 1u32 << width;
    let nan_code = (0..codes).find(|&c| decode(c as u8, k).is_nan());
    if v.is_nan() {
        return nan_code.unwrap_or(0) as u8;
    }
    let mut best: Option<(u32, f64)> = None;
    let mut max_finite = 0.0f64;
    for c in 0..codes {
        let d = decode(c as u8, k);
        if !d.is_finite() {
            continue;
        }
        max_finite = max_finite.max(d.abs());
        let dist = (d - v).abs();
        let better = match best {
            None => true,
            Some((bc, bd)) => {
                dist < bd
                    || (dist == bd && (c & 1) == 0 && (bc & 1) == 1)
                    || (dist == bd && d == 0.0 && d.is_sign_negative() == v.is_sign_negative())
            }
        };
        if better {
            best = Some((c, dist));
        }
    }
    // Past the largest finite value by at least half a step: overflow.
    if v.abs() > max_finite {
        let top = (0..codes).map(|c| decode(c as u8, k)).filter(|d| d.is_finite() && *d > 0.0).fold(0.0, f64::max);
        let below = (0..codes).map(|c| decode(c as u8, k)).filter(|d| d.is_finite() && *d < top).fold(0.0, f64::max);
        if v.abs() >= top + (top - below) / 2.0 {
            if f.ieee {
                let inf = (0..codes).find(|&c| decode(c as u8, k) == v.signum() * f64::INFINITY);
                if let Some(c) = inf {
                    return c as u8;
                }
            }
            return nan_code.unwrap_or(best.map(|b| b.0).unwrap_or(0)) as u8;
        }
    }
    best.map(|b| b.0).unwrap_or(0) as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn e4m3fn_round_trips_and_specials() {
        assert_eq!(decode(0x38, FloatKind::F8E4M3FN), 1.0);
        assert!(decode(0x7F, FloatKind::F8E4M3FN).is_nan());
        assert_eq!(decode(0x7E, FloatKind::F8E4M3FN), 448.0);
        assert_eq!(encode(0.1, FloatKind::F8E4M3FN), 0x1D);
        assert_eq!(decode(0x1D, FloatKind::F8E4M3FN), 0.1015625);
        assert_eq!(encode(3.1415, FloatKind::F8E4M3FN), 0x45);
    }

    #[test]
    fn fnuz_has_single_nan() {
        assert!(decode(0x80, FloatKind::F8E5M2FNUZ).is_nan());
        assert_eq!(decode(0x00, FloatKind::F8E5M2FNUZ), 0.0);
    }
}
