//! Small float formats (f8, f6, f4 families): decoding by formula and
//! encoding to the nearest value (ties to even), exact for formats this
//! small (at most 256 codes). `half` covers f16/bf16; no maintained crate
//! covers all of these formats (and the runtime must stay dependency-free),
//! so they are done here, shared by the compiler (literals) and the runtime
//! (arithmetic on these types).

/// The formats, with stable codes used in the runtime's C ABI.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum FloatKind {
    F8E3M4 = 0,
    F8E4M3 = 1,
    F8E4M3FN = 2,
    F8E4M3FNUZ = 3,
    F8E4M3B11FNUZ = 4,
    F8E5M2 = 5,
    F8E5M2FNUZ = 6,
    F8E8M0FNU = 7,
    F6E2M3FN = 8,
    F6E3M2FN = 9,
    F4E2M1FN = 10,
}

impl FloatKind {
    pub const ALL: [FloatKind; 11] = [
        FloatKind::F8E3M4,
        FloatKind::F8E4M3,
        FloatKind::F8E4M3FN,
        FloatKind::F8E4M3FNUZ,
        FloatKind::F8E4M3B11FNUZ,
        FloatKind::F8E5M2,
        FloatKind::F8E5M2FNUZ,
        FloatKind::F8E8M0FNU,
        FloatKind::F6E2M3FN,
        FloatKind::F6E3M2FN,
        FloatKind::F4E2M1FN,
    ];

    pub fn code(self) -> i32 {
        self as i32
    }

    pub fn from_code(code: i32) -> Option<FloatKind> {
        FloatKind::ALL.get(usize::try_from(code).ok()?).copied()
    }
}

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
    let f = |exp_bits, man_bits, bias, ieee, fnuz, fn_nan| Format {
        exp_bits,
        man_bits,
        bias,
        ieee,
        fnuz,
        signed: true,
        fn_nan,
    };
    match k {
        FloatKind::F8E3M4 => f(3, 4, 3, true, false, false),
        FloatKind::F8E4M3 => f(4, 3, 7, true, false, false),
        FloatKind::F8E4M3FN => f(4, 3, 7, false, false, true),
        FloatKind::F8E4M3FNUZ => f(4, 3, 8, false, true, false),
        FloatKind::F8E4M3B11FNUZ => f(4, 3, 11, false, true, false),
        FloatKind::F8E5M2 => f(5, 2, 15, true, false, false),
        FloatKind::F8E5M2FNUZ => f(5, 2, 16, false, true, false),
        FloatKind::F8E8M0FNU => Format {
            exp_bits: 8,
            man_bits: 0,
            bias: 127,
            ieee: false,
            fnuz: false,
            signed: false,
            fn_nan: true,
        },
        FloatKind::F6E2M3FN => f(2, 3, 1, false, false, false),
        FloatKind::F6E3M2FN => f(3, 2, 3, false, false, false),
        FloatKind::F4E2M1FN => f(2, 1, 1, false, false, false),
    }
}

pub fn decode(bits: u8, k: FloatKind) -> f64 {
    let f = format(k);
    let width = f.exp_bits + f.man_bits + f.signed as u32;
    let bits = (bits as u32) & ((1 << width) - 1);
    let sign_bit = if f.signed {
        (bits >> (width - 1)) & 1
    } else {
        0
    };
    let exp = (bits >> f.man_bits) & ((1 << f.exp_bits) - 1);
    let man = bits & ((1 << f.man_bits) - 1);
    let sign = if sign_bit == 1 { -1.0 } else { 1.0 };
    let exp_max = (1 << f.exp_bits) - 1;
    if f.fnuz && sign_bit == 1 && exp == 0 && man == 0 {
        return f64::NAN;
    }
    if f.ieee && exp == exp_max {
        return if man == 0 {
            sign * f64::INFINITY
        } else {
            f64::NAN
        };
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

/// Decoded values of every code of a format, computed once.
fn table(k: FloatKind) -> &'static [f64] {
    use std::sync::OnceLock;
    static TABLES: [OnceLock<Vec<f64>>; 11] = [const { OnceLock::new() }; 11];
    TABLES[k as usize].get_or_init(|| {
        let f = format(k);
        let width = f.exp_bits + f.man_bits + f.signed as u32;
        (0..1u32 << width).map(|c| decode(c as u8, k)).collect()
    })
}

/// Nearest representable value, ties to even; values past the largest
/// finite one by half a step or more become infinity where the format has
/// it, else NaN.
pub fn encode(v: f64, k: FloatKind) -> u8 {
    let values = table(k);
    let nan_code = values.iter().position(|d| d.is_nan());
    if v.is_nan() {
        return nan_code.unwrap_or(0) as u8;
    }
    let mut best: Option<(usize, f64)> = None;
    let (mut top, mut below) = (0.0f64, 0.0f64);
    for (c, &d) in values.iter().enumerate() {
        if !d.is_finite() {
            continue;
        }
        if d > top {
            below = top;
            top = d;
        } else if d > below && d < top {
            below = d;
        }
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
    if v.abs() > top && v.abs() >= top + (top - below) / 2.0 {
        if format(k).ieee {
            let inf = values.iter().position(|&d| d == v.signum() * f64::INFINITY);
            if let Some(c) = inf {
                return c as u8;
            }
        }
        return nan_code.or(best.map(|b| b.0)).unwrap_or(0) as u8;
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
