//! Small float formats: the compiler side of `strata-minifloat`.

use crate::types::FloatKind;
pub use strata_minifloat::FloatKind as Format;

/// The small-float format of a float kind (`None` for f16/bf16/f32/f64/tf32).
pub fn format(k: FloatKind) -> Option<Format> {
    Some(match k {
        FloatKind::F8E3M4 => Format::F8E3M4,
        FloatKind::F8E4M3 => Format::F8E4M3,
        FloatKind::F8E4M3FN => Format::F8E4M3FN,
        FloatKind::F8E4M3FNUZ => Format::F8E4M3FNUZ,
        FloatKind::F8E4M3B11FNUZ => Format::F8E4M3B11FNUZ,
        FloatKind::F8E5M2 => Format::F8E5M2,
        FloatKind::F8E5M2FNUZ => Format::F8E5M2FNUZ,
        FloatKind::F8E8M0FNU => Format::F8E8M0FNU,
        FloatKind::F6E2M3FN => Format::F6E2M3FN,
        FloatKind::F6E3M2FN => Format::F6E3M2FN,
        FloatKind::F4E2M1FN => Format::F4E2M1FN,
        FloatKind::F16 | FloatKind::BF16 | FloatKind::F32 | FloatKind::F64 | FloatKind::TF32 => {
            return None;
        }
    })
}

pub fn decode(bits: u8, k: FloatKind) -> f64 {
    format(k)
        .map(|f| strata_minifloat::decode(bits, f))
        .unwrap_or(f64::NAN)
}

pub fn encode(v: f64, k: FloatKind) -> u8 {
    format(k)
        .map(|f| strata_minifloat::encode(v, f))
        .unwrap_or(0)
}
