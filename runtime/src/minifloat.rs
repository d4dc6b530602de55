//! Arithmetic support for the small float formats (f8, f6, f4 families):
//! generated code keeps their elements as bytes and computes in f64, calling
//! these to decode and to round back (nearest, ties to even).

use crate::ffi_guard;
use strata_minifloat::FloatKind;

/// `double strata_rt_minifloat_decode(int32_t format, uint8_t bits)`: the
/// value of `bits` in `format` (a code of `strata_minifloat::FloatKind`);
/// NaN for an unknown format.
#[unsafe(no_mangle)]
pub extern "C" fn strata_rt_minifloat_decode(format: i32, bits: u8) -> f64 {
    ffi_guard(f64::NAN, || {
        FloatKind::from_code(format)
            .map(|k| strata_minifloat::decode(bits, k))
            .unwrap_or(f64::NAN)
    })
}

/// `uint8_t strata_rt_minifloat_encode(int32_t format, double value)`: the
/// nearest code (ties to even; overflow to infinity or NaN as the format
/// allows); 0 for an unknown format.
#[unsafe(no_mangle)]
pub extern "C" fn strata_rt_minifloat_encode(format: i32, value: f64) -> u8 {
    ffi_guard(0, || {
        FloatKind::from_code(format)
            .map(|k| strata_minifloat::encode(value, k))
            .unwrap_or(0)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_e4m3fn() {
        let code = FloatKind::F8E4M3FN.code();
        assert_eq!(strata_rt_minifloat_encode(code, 1.0), 0x38);
        assert_eq!(strata_rt_minifloat_decode(code, 0x38), 1.0);
        assert!(strata_rt_minifloat_decode(code, 0x7F).is_nan());
        assert!(strata_rt_minifloat_decode(99, 0).is_nan());
    }
}
