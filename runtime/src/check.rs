//! Conformance checks (`check.expect_eq`, `check.expect_almost_eq`, `check.expect_close`).
//!
//! Generated code calls [`strata_rt_check`] once per check op with the actual and expected
//! buffers. Failures are recorded in a process-wide list keyed by the check's id; `strata check`
//! loads the compiled library, runs its functions and reads the failures back through
//! [`strata_rt_check_failure_count`], [`strata_rt_check_failure_id`] and
//! [`strata_rt_check_failure_message`], then calls [`strata_rt_check_reset`].
//!
//! Semantics follow StableHLO's reference interpreter (`stablehlo/tests/CheckOps.cpp`,
//! `stablehlo/reference/Element.cpp`), with these deliberate choices:
//! - `expect_eq`: floats compare with `==` (so `-0.0 == 0.0`), except that NaN equals NaN (the
//!   interpreter's APFloat `==` says NaN != NaN; we treat "both NaN" as equal, as the design
//!   notes specify). Complex: both parts. Integers and pred: exact.
//! - `expect_almost_eq`: `|a - e| <= tolerance` computed in f64; equal values (including the
//!   same infinity) pass, NaN vs NaN passes, NaN vs number and inf vs anything else fail —
//!   the interpreter's `areApproximatelyEqual` case for case. Complex: both parts. Integers
//!   and pred compare exactly.
//! - `expect_close`: ULP distance within `[min_ulp, max_ulp]` (`stablehlo.custom_call
//!   @check.expect_close`: [0, 3]), defined as in the interpreter (`ULPDifference`), in the
//!   element type's own ULPs (f16 and bf16 count their 16-bit patterns):
//!   bitwise-equal → 0; both finite → distance between the magnitudes' bit patterns (summed when
//!   the signs differ, so `-0.0` and `0.0` are 0 apart); both NaN → 0; otherwise the maximum.
//!   Complex: the larger of the two parts' distances. Integers and pred compare exactly.

use std::ffi::{CString, c_char, c_void};
use std::fmt::Write as _;
use std::sync::{Mutex, MutexGuard};

use crate::ffi_guard;
use crate::float::{bf16_to_f32, f16_to_f32};

/// Check kinds (the `kind` argument of [`strata_rt_check`]), as `strata_abi` numbers them.
pub mod kind {
    use strata_abi::CheckKind;
    pub const EXPECT_EQ: i32 = CheckKind::ExpectEq as i32;
    pub const EXPECT_ALMOST_EQ: i32 = CheckKind::ExpectAlmostEq as i32;
    pub const EXPECT_CLOSE: i32 = CheckKind::ExpectClose as i32;
}

/// Element type codes (the `elem` argument of [`strata_rt_check`]), as `strata_abi` numbers them.
pub mod elem {
    use strata_abi::ElemCode as E;
    pub const PRED: i32 = E::Pred as i32;
    pub const S8: i32 = E::S8 as i32;
    pub const S16: i32 = E::S16 as i32;
    pub const S32: i32 = E::S32 as i32;
    pub const S64: i32 = E::S64 as i32;
    pub const U8: i32 = E::U8 as i32;
    pub const U16: i32 = E::U16 as i32;
    pub const U32: i32 = E::U32 as i32;
    pub const U64: i32 = E::U64 as i32;
    pub const F16: i32 = E::F16 as i32;
    pub const BF16: i32 = E::BF16 as i32;
    pub const F32: i32 = E::F32 as i32;
    pub const F64: i32 = E::F64 as i32;
    pub const C64: i32 = E::C64 as i32;
    pub const C128: i32 = E::C128 as i32;
    /// Small floats: this + the `strata_minifloat::FloatKind` code (one byte each).
    pub const MINIFLOAT_BASE: i32 = strata_abi::MINIFLOAT_BASE;
}

/// How many mismatching elements a failure message lists before "(N more)".
const MAX_LISTED: usize = 5;

static FAILURES: Mutex<Vec<(i64, CString)>> = Mutex::new(Vec::new());

fn failures() -> MutexGuard<'static, Vec<(i64, CString)>> {
    // A poisoned lock only means a panic happened while it was held; the data is still a Vec.
    FAILURES.lock().unwrap_or_else(|e| e.into_inner())
}

fn record_failure(check_id: i64, msg: String) {
    let bytes: Vec<u8> = msg
        .into_bytes()
        .into_iter()
        .map(|b| if b == 0 { b' ' } else { b })
        .collect();
    let c = CString::new(bytes).unwrap_or_default();
    failures().push((check_id, c));
}

/// Snapshot of the recorded failures (for Rust callers and tests).
pub fn recorded_failures() -> Vec<(i64, String)> {
    failures()
        .iter()
        .map(|(id, m)| (*id, m.to_string_lossy().into_owned()))
        .collect()
}

/// A float decoded exactly to f64, with its original bit pattern for ULP distances.
#[derive(Clone, Copy, Debug)]
struct Float {
    value: f64,
    bits: u64,
    sign_mask: u64,
    /// Print with f32 precision (f16, bf16, f32) rather than f64.
    narrow: bool,
}

impl Float {
    fn narrow(value: f32, bits: u64, width: u32) -> Self {
        Float {
            value: value as f64,
            bits,
            sign_mask: 1 << (width - 1),
            narrow: true,
        }
    }
    fn wide(value: f64) -> Self {
        Float {
            value,
            bits: value.to_bits(),
            sign_mask: 1 << 63,
            narrow: false,
        }
    }
}

impl std::fmt::Display for Float {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.narrow {
            write!(f, "{}", self.value as f32)
        } else {
            write!(f, "{}", self.value)
        }
    }
}

#[derive(Clone, Copy, Debug)]
enum Value {
    Int(i128),
    Float(Float),
    Complex(Float, Float),
}

impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Value::Int(v) => write!(f, "{v}"),
            Value::Float(v) => write!(f, "{v}"),
            Value::Complex(re, im) => write!(f, "({re}, {im})"),
        }
    }
}

/// Size in bytes of one element of type `elem`, or None for an unknown code.
fn elem_size(elem: i32) -> Option<usize> {
    if let Some(code) = strata_abi::ElemCode::from_i32(elem) {
        return Some(code.storage_bytes() as usize);
    }
    strata_minifloat::FloatKind::from_code(elem - elem::MINIFLOAT_BASE).map(|_| 1)
}

/// Reads element `i` of type `elem` from `base`.
///
/// # Safety
/// `base` must point to at least `(i + 1) * elem_size(elem)` readable bytes.
unsafe fn read(elem: i32, base: *const u8, i: usize) -> Value {
    // SAFETY (whole body): guaranteed by the caller; unaligned reads tolerate any alignment.
    unsafe {
        macro_rules! rd {
            ($t:ty) => {
                (base as *const $t).add(i).read_unaligned()
            };
        }
        match elem {
            elem::PRED => Value::Int((rd!(u8) != 0) as i128),
            elem::S8 => Value::Int(rd!(i8) as i128),
            elem::S16 => Value::Int(rd!(i16) as i128),
            elem::S32 => Value::Int(rd!(i32) as i128),
            elem::S64 => Value::Int(rd!(i64) as i128),
            elem::U8 => Value::Int(rd!(u8) as i128),
            elem::U16 => Value::Int(rd!(u16) as i128),
            elem::U32 => Value::Int(rd!(u32) as i128),
            elem::U64 => Value::Int(rd!(u64) as i128),
            elem::F16 => {
                let b = rd!(u16);
                Value::Float(Float::narrow(f16_to_f32(b), b as u64, 16))
            }
            elem::BF16 => {
                let b = rd!(u16);
                Value::Float(Float::narrow(bf16_to_f32(b), b as u64, 16))
            }
            elem::F32 => {
                let b = rd!(u32);
                Value::Float(Float::narrow(f32::from_bits(b), b as u64, 32))
            }
            elem::F64 => Value::Float(Float::wide(rd!(f64))),
            elem::C64 => {
                let p = base as *const u32;
                let re = p.add(2 * i).read_unaligned();
                let im = p.add(2 * i + 1).read_unaligned();
                Value::Complex(
                    Float::narrow(f32::from_bits(re), re as u64, 32),
                    Float::narrow(f32::from_bits(im), im as u64, 32),
                )
            }
            elem::C128 => {
                let p = base as *const f64;
                Value::Complex(
                    Float::wide(p.add(2 * i).read_unaligned()),
                    Float::wide(p.add(2 * i + 1).read_unaligned()),
                )
            }
            e => match strata_minifloat::FloatKind::from_code(e - elem::MINIFLOAT_BASE) {
                Some(k) => {
                    let b = rd!(u8);
                    let width = if (k as i32) >= 8 {
                        if k == strata_minifloat::FloatKind::F4E2M1FN {
                            4
                        } else {
                            6
                        }
                    } else {
                        8
                    };
                    Value::Float(Float::narrow(
                        strata_minifloat::decode(b, k) as f32,
                        b as u64,
                        width,
                    ))
                }
                None => unreachable!("element code validated by the caller"),
            },
        }
    }
}

fn float_eq(a: Float, e: Float) -> bool {
    a.value == e.value || (a.value.is_nan() && e.value.is_nan())
}

fn float_almost_eq(a: Float, e: Float, tolerance: f64) -> bool {
    if a.value == e.value {
        return true; // also the same infinity
    }
    if a.value.is_nan() || e.value.is_nan() {
        return a.value.is_nan() && e.value.is_nan();
    }
    if a.value.is_infinite() || e.value.is_infinite() {
        return false;
    }
    (a.value - e.value).abs() <= tolerance
}

/// ULP distance as StableHLO's interpreter defines it (see the module docs).
fn ulp_distance(a: Float, e: Float) -> u64 {
    if a.bits == e.bits {
        return 0;
    }
    if a.value.is_finite() && e.value.is_finite() {
        let mag_a = a.bits & !a.sign_mask;
        let mag_e = e.bits & !e.sign_mask;
        let neg_a = a.bits & a.sign_mask != 0;
        let neg_e = e.bits & e.sign_mask != 0;
        return if neg_a != neg_e {
            mag_a.saturating_add(mag_e)
        } else {
            mag_a.abs_diff(mag_e)
        };
    }
    if a.value.is_nan() && e.value.is_nan() {
        return 0;
    }
    u64::MAX
}

/// Compares one element pair. Returns None when they match, or Some(extra detail) (possibly
/// empty) describing the mismatch.
fn compare(
    kind: i32,
    a: Value,
    e: Value,
    tolerance: f64,
    min_ulp: u64,
    max_ulp: u64,
) -> Option<String> {
    let ok_or = |ok: bool, detail: String| if ok { None } else { Some(detail) };
    match (a, e) {
        (Value::Int(x), Value::Int(y)) => ok_or(x == y, String::new()),
        (Value::Float(x), Value::Float(y)) => match kind {
            kind::EXPECT_EQ => ok_or(float_eq(x, y), String::new()),
            kind::EXPECT_ALMOST_EQ => ok_or(float_almost_eq(x, y, tolerance), String::new()),
            _ => {
                let d = ulp_distance(x, y);
                ok_or(d >= min_ulp && d <= max_ulp, ulp_detail(d))
            }
        },
        (Value::Complex(xr, xi), Value::Complex(yr, yi)) => match kind {
            kind::EXPECT_EQ => ok_or(float_eq(xr, yr) && float_eq(xi, yi), String::new()),
            kind::EXPECT_ALMOST_EQ => ok_or(
                float_almost_eq(xr, yr, tolerance) && float_almost_eq(xi, yi, tolerance),
                String::new(),
            ),
            _ => {
                let d = ulp_distance(xr, yr).max(ulp_distance(xi, yi));
                ok_or(d >= min_ulp && d <= max_ulp, ulp_detail(d))
            }
        },
        _ => Some(" (internal error: mixed element kinds)".to_string()),
    }
}

fn ulp_detail(d: u64) -> String {
    if d == u64::MAX {
        " (ULP difference: unbounded)".to_string()
    } else {
        format!(" (ULP difference {d})")
    }
}

/// Runs a check over `count` elements; returns the failure message, if any.
///
/// # Safety
/// `actual` and `expected` must each point to `count` elements of type `elem` (when `count > 0`).
#[allow(clippy::too_many_arguments)]
unsafe fn run_check(
    kind: i32,
    elem: i32,
    actual: *const c_void,
    expected: *const c_void,
    count: i64,
    tolerance: f64,
    min_ulp: i64,
    max_ulp: i64,
) -> Option<String> {
    if !(kind::EXPECT_EQ..=kind::EXPECT_CLOSE).contains(&kind) {
        return Some(format!("invalid check kind {kind}"));
    }
    if elem_size(elem).is_none() {
        return Some(format!("invalid element type code {elem}"));
    }
    if count <= 0 {
        return None;
    }
    if actual.is_null() || expected.is_null() {
        return Some("null buffer passed to check".to_string());
    }
    let tolerance = if tolerance.is_nan() { 0.0 } else { tolerance };
    let min_ulp = min_ulp.max(0) as u64;
    let max_ulp = max_ulp.max(0) as u64;
    let (a, e) = (actual as *const u8, expected as *const u8);
    let mut listed = String::new();
    let mut mismatches = 0usize;
    for i in 0..count as usize {
        // SAFETY: the caller guarantees `count` elements in both buffers.
        let (x, y) = unsafe { (read(elem, a, i), read(elem, e, i)) };
        if let Some(detail) = compare(kind, x, y, tolerance, min_ulp, max_ulp) {
            if mismatches < MAX_LISTED {
                if !listed.is_empty() {
                    listed.push_str("; ");
                }
                let _ = write!(listed, "element {i}: expected {y}, got {x}{detail}");
            }
            mismatches += 1;
        }
    }
    if mismatches == 0 {
        return None;
    }
    if mismatches > MAX_LISTED {
        let _ = write!(listed, "; ({} more)", mismatches - MAX_LISTED);
    }
    Some(listed)
}

/// `int32_t strata_rt_check(int32_t kind, int32_t elem, const void *actual,
/// const void *expected, int64_t count, double tolerance, int64_t min_ulp, int64_t max_ulp,
/// int64_t check_id)`
///
/// Compares `count` elements of type `elem` (see [`elem`]) with the check `kind` (see [`kind`]).
/// `tolerance` is used by `expect_almost_eq`, `min_ulp`/`max_ulp` by `expect_close`; integer
/// and pred elements always compare exactly. On mismatch records a failure message under
/// `check_id` and returns 1; returns 0 on success. Invalid arguments (unknown kind or element
/// code, null buffers) are recorded as failures too.
///
/// # Safety
/// When `count > 0`, `actual` and `expected` must each point to `count` readable elements of
/// type `elem` (complex elements are two floats each).
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn strata_rt_check(
    kind: i32,
    elem: i32,
    actual: *const c_void,
    expected: *const c_void,
    count: i64,
    tolerance: f64,
    min_ulp: i64,
    max_ulp: i64,
    check_id: i64,
) -> i32 {
    // SAFETY: forwarded from the caller's contract.
    let outcome = ffi_guard(Some(Err(())), || unsafe {
        run_check(
            kind, elem, actual, expected, count, tolerance, min_ulp, max_ulp,
        )
        .map(Ok)
    });
    match outcome {
        None => 0,
        Some(result) => {
            let msg = result.unwrap_or_else(|()| {
                format!("internal runtime error: {}", crate::error::last_error())
            });
            ffi_guard((), || record_failure(check_id, msg));
            1
        }
    }
}

/// `int64_t strata_rt_check_failure_count(void)`: number of failures recorded since the last reset.
#[unsafe(no_mangle)]
pub extern "C" fn strata_rt_check_failure_count() -> i64 {
    ffi_guard(0, || failures().len() as i64)
}

/// `int64_t strata_rt_check_failure_id(int64_t i)`: the check id of failure `i`, or -1 when `i`
/// is out of range.
#[unsafe(no_mangle)]
pub extern "C" fn strata_rt_check_failure_id(i: i64) -> i64 {
    ffi_guard(-1, || {
        let f = failures();
        usize::try_from(i)
            .ok()
            .and_then(|i| f.get(i))
            .map_or(-1, |(id, _)| *id)
    })
}

/// `const char *strata_rt_check_failure_message(int64_t i)`: the message of failure `i`
/// (NUL-terminated), or the empty string when `i` is out of range. The pointer stays valid
/// until `strata_rt_check_reset`.
#[unsafe(no_mangle)]
pub extern "C" fn strata_rt_check_failure_message(i: i64) -> *const c_char {
    ffi_guard(c"".as_ptr(), || {
        let f = failures();
        // The CString's heap buffer does not move when the Vec grows, so the pointer outlives
        // the lock until the entry is dropped by a reset.
        usize::try_from(i)
            .ok()
            .and_then(|i| f.get(i))
            .map_or(c"".as_ptr(), |(_, m)| m.as_ptr())
    })
}

/// `void strata_rt_check_reset(void)`: forgets all recorded failures.
#[unsafe(no_mangle)]
pub extern "C" fn strata_rt_check_reset() {
    ffi_guard((), || failures().clear())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::CStr;

    /// The failure list is process-global; tests that touch it run under this lock.
    static SERIAL: Mutex<()> = Mutex::new(());

    fn serial() -> MutexGuard<'static, ()> {
        SERIAL.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Runs one check and returns (status, message recorded by it).
    #[allow(clippy::too_many_arguments)]
    fn run<T>(
        kind: i32,
        elem: i32,
        actual: &[T],
        expected: &[T],
        count: i64,
        tol: f64,
        lo: i64,
        hi: i64,
    ) -> (i32, Option<String>) {
        let before = strata_rt_check_failure_count();
        let r = unsafe {
            strata_rt_check(
                kind,
                elem,
                actual.as_ptr() as *const c_void,
                expected.as_ptr() as *const c_void,
                count,
                tol,
                lo,
                hi,
                42,
            )
        };
        let after = strata_rt_check_failure_count();
        let msg = if after > before {
            assert_eq!(after, before + 1);
            assert_eq!(strata_rt_check_failure_id(before), 42);
            Some(
                unsafe { CStr::from_ptr(strata_rt_check_failure_message(before)) }
                    .to_string_lossy()
                    .into_owned(),
            )
        } else {
            None
        };
        assert_eq!(r == 1, msg.is_some());
        (r, msg)
    }

    /// Element count of a test slice (complex buffers hold two floats per element).
    fn n<T>(elem: i32, a: &[T], e: &[T]) -> i64 {
        assert_eq!(a.len(), e.len());
        let per = if elem == elem::C64 || elem == elem::C128 {
            2
        } else {
            1
        };
        (a.len() / per) as i64
    }
    fn eq<T>(elem: i32, a: &[T], e: &[T]) -> bool {
        run(kind::EXPECT_EQ, elem, a, e, n(elem, a, e), 0.0, 0, 0).0 == 0
    }
    fn almost<T>(elem: i32, a: &[T], e: &[T], tol: f64) -> bool {
        run(kind::EXPECT_ALMOST_EQ, elem, a, e, n(elem, a, e), tol, 0, 0).0 == 0
    }
    fn close<T>(elem: i32, a: &[T], e: &[T], lo: i64, hi: i64) -> bool {
        run(kind::EXPECT_CLOSE, elem, a, e, n(elem, a, e), 0.0, lo, hi).0 == 0
    }

    #[test]
    fn eq_integers_and_pred() {
        let _g = serial();
        assert!(eq(elem::S32, &[1i32, -2, 3], &[1, -2, 3]));
        assert!(!eq(elem::S32, &[1i32, -2, 3], &[1, 2, 3]));
        assert!(eq(elem::S8, &[-128i8, 127], &[-128, 127]));
        assert!(!eq(elem::S8, &[-1i8], &[1]));
        assert!(eq(elem::S16, &[-300i16], &[-300]));
        assert!(eq(elem::S64, &[i64::MIN, i64::MAX], &[i64::MIN, i64::MAX]));
        assert!(!eq(elem::S64, &[i64::MIN], &[i64::MAX]));
        assert!(eq(elem::U8, &[255u8], &[255]));
        assert!(eq(elem::U16, &[65535u16], &[65535]));
        assert!(eq(elem::U32, &[u32::MAX], &[u32::MAX]));
        assert!(!eq(elem::U64, &[u64::MAX], &[u64::MAX - 1]));
        assert!(eq(elem::PRED, &[0u8, 1, 1], &[0, 1, 1]));
        assert!(!eq(elem::PRED, &[0u8], &[1]));
        // Any non-zero byte is `true`.
        assert!(eq(elem::PRED, &[2u8], &[1]));
    }

    #[test]
    fn eq_floats() {
        let _g = serial();
        assert!(eq(
            elem::F32,
            &[1.5f32, -0.0, f32::INFINITY],
            &[1.5, 0.0, f32::INFINITY]
        ));
        assert!(eq(elem::F32, &[f32::NAN], &[-f32::NAN]));
        assert!(!eq(elem::F32, &[f32::NAN], &[1.0]));
        assert!(!eq(elem::F32, &[1.0], &[1.0 + f32::EPSILON]));
        assert!(!eq(elem::F32, &[f32::INFINITY], &[f32::NEG_INFINITY]));
        assert!(eq(elem::F64, &[0.1f64, -0.0], &[0.1, 0.0]));
        assert!(!eq(elem::F64, &[0.1f64], &[0.1 + 1e-17 * 2.0]));
        // f16: 0x3c00 = 1.0, 0xbc00 = -1.0, 0x8000 = -0.0, 0x7e00 NaN, 0x7c01 NaN (other payload)
        assert!(eq(
            elem::F16,
            &[0x3c00u16, 0x8000, 0x7e00],
            &[0x3c00, 0x0000, 0x7c01]
        ));
        assert!(!eq(elem::F16, &[0x3c00u16], &[0xbc00]));
        // bf16: 0x3f80 = 1.0, 0x3f81 = next value up
        assert!(eq(elem::BF16, &[0x3f80u16, 0x8000], &[0x3f80, 0x0000]));
        assert!(!eq(elem::BF16, &[0x3f80u16], &[0x3f81]));
    }

    #[test]
    fn eq_complex() {
        let _g = serial();
        assert!(eq(
            elem::C64,
            &[1.0f32, 2.0, f32::NAN, -0.0],
            &[1.0, 2.0, f32::NAN, 0.0]
        ));
        assert!(!eq(elem::C64, &[1.0f32, 2.0], &[1.0, 2.5]));
        assert!(!eq(elem::C64, &[1.5f32, 2.0], &[1.0, 2.0]));
        assert!(eq(elem::C128, &[1.0f64, -3.0], &[1.0, -3.0]));
        assert!(!eq(elem::C128, &[1.0f64, -3.0], &[1.0, 3.0]));
    }

    #[test]
    fn almost_eq_floats() {
        let _g = serial();
        assert!(almost(elem::F32, &[1.0f32], &[1.00005], 1e-4));
        assert!(!almost(elem::F32, &[1.0f32], &[1.0002], 1e-4));
        assert!(almost(elem::F32, &[f32::NAN], &[f32::NAN], 1e-4));
        assert!(!almost(elem::F32, &[f32::NAN], &[0.0], 1e-4));
        assert!(!almost(elem::F32, &[0.0f32], &[f32::NAN], 1e-4));
        assert!(almost(
            elem::F32,
            &[f32::INFINITY, f32::NEG_INFINITY],
            &[f32::INFINITY, f32::NEG_INFINITY],
            1e-4
        ));
        assert!(!almost(
            elem::F32,
            &[f32::INFINITY],
            &[f32::NEG_INFINITY],
            1e-4
        ));
        assert!(!almost(
            elem::F32,
            &[f32::MAX],
            &[f32::INFINITY],
            f64::INFINITY
        ));
        assert!(almost(elem::F32, &[-0.0f32], &[0.0], 0.0));
        assert!(almost(elem::F64, &[2.0f64], &[2.0 + 1e-5], 1e-4));
        assert!(!almost(elem::F64, &[2.0f64], &[2.1], 1e-4));
        // Boundary: exactly the tolerance passes (computed in f64).
        assert!(almost(elem::F64, &[1.0f64], &[1.5], 0.5));
        // f16 1.0 vs 1.0009765625 (0x3c01) within 1e-3
        assert!(almost(elem::F16, &[0x3c00u16], &[0x3c01], 1e-3));
        assert!(!almost(elem::F16, &[0x3c00u16], &[0x3c01], 1e-4));
        // bf16 1.0 vs 1.0078125 (0x3f81)
        assert!(almost(elem::BF16, &[0x3f80u16], &[0x3f81], 1e-2));
        assert!(!almost(elem::BF16, &[0x3f80u16], &[0x3f81], 1e-3));
    }

    #[test]
    fn almost_eq_complex_and_ints() {
        let _g = serial();
        assert!(almost(elem::C64, &[1.0f32, 2.0], &[1.00001, 1.99999], 1e-4));
        assert!(!almost(elem::C64, &[1.0f32, 2.0], &[1.00001, 2.1], 1e-4));
        assert!(!almost(elem::C128, &[1.0f64, 2.0], &[1.1, 2.0], 1e-4));
        assert!(almost(elem::C128, &[f64::NAN, 2.0], &[f64::NAN, 2.0], 1e-4));
        // Integers ignore the tolerance.
        assert!(!almost(elem::S32, &[1i32], &[2], 10.0));
        assert!(almost(elem::S32, &[1i32], &[1], 0.0));
        assert!(!almost(elem::PRED, &[1u8], &[0], 10.0));
    }

    #[test]
    fn close_ulp() {
        let _g = serial();
        let one = 1.0f32;
        let next = f32::from_bits(one.to_bits() + 1);
        let next3 = f32::from_bits(one.to_bits() + 3);
        let next4 = f32::from_bits(one.to_bits() + 4);
        assert!(close(elem::F32, &[one], &[one], 0, 3));
        assert!(close(elem::F32, &[one], &[next], 0, 3));
        assert!(close(elem::F32, &[next3], &[one], 0, 3));
        assert!(!close(elem::F32, &[next4], &[one], 0, 3));
        // min bound: identical values are 0 ULP apart.
        assert!(!close(elem::F32, &[one], &[one], 1, 3));
        assert!(close(elem::F32, &[next], &[one], 1, 3));
        // Across zero: the distances to zero add up; -0 and +0 are 0 apart.
        let tiny = f32::from_bits(1);
        assert!(close(elem::F32, &[-tiny], &[tiny], 2, 2));
        assert!(close(elem::F32, &[-0.0f32], &[0.0], 0, 0));
        // NaN vs NaN: 0; NaN vs number and inf vs finite: unbounded.
        assert!(close(elem::F32, &[f32::NAN], &[-f32::NAN], 0, 0));
        assert!(!close(elem::F32, &[f32::NAN], &[1.0], 0, i64::MAX));
        assert!(!close(
            elem::F32,
            &[f32::INFINITY],
            &[f32::MAX],
            0,
            i64::MAX
        ));
        assert!(close(elem::F32, &[f32::INFINITY], &[f32::INFINITY], 0, 0));
        // f64
        let d = 2.0f64;
        assert!(close(
            elem::F64,
            &[d],
            &[f64::from_bits(d.to_bits() + 2)],
            0,
            3
        ));
        assert!(!close(
            elem::F64,
            &[d],
            &[f64::from_bits(d.to_bits() + 5)],
            0,
            3
        ));
        // f16 / bf16 count ULPs in their own formats.
        assert!(close(elem::F16, &[0x3c00u16], &[0x3c03], 0, 3));
        assert!(!close(elem::F16, &[0x3c00u16], &[0x3c04], 0, 3));
        assert!(close(elem::F16, &[0x8001u16], &[0x0001], 2, 2));
        assert!(close(elem::BF16, &[0x3f80u16], &[0x3f82], 0, 3));
        assert!(!close(elem::BF16, &[0x3f80u16], &[0x3f84], 0, 3));
        // complex: the larger part distance
        let c = [one, one];
        assert!(close(elem::C64, &c, &[next, next3], 0, 3));
        assert!(!close(elem::C64, &c, &[one, next4], 0, 3));
        // ints exact
        assert!(close(elem::S32, &[5i32], &[5], 1, 3));
        assert!(!close(elem::S32, &[5i32], &[6], 0, 3));
    }

    #[test]
    fn message_format() {
        let _g = serial();
        let (r, msg) = run(
            kind::EXPECT_EQ,
            elem::F32,
            &[1.0f32, 1.25, 3.0],
            &[1.0f32, 1.5, 3.0],
            3,
            0.0,
            0,
            0,
        );
        assert_eq!(r, 1);
        assert_eq!(msg.unwrap(), "element 1: expected 1.5, got 1.25");

        let a: Vec<i32> = (0..10).collect();
        let e: Vec<i32> = (0..10).map(|x| x + 1).collect();
        let (_, msg) = run(kind::EXPECT_EQ, elem::S32, &a, &e, 10, 0.0, 0, 0);
        let msg = msg.unwrap();
        assert!(
            msg.starts_with("element 0: expected 1, got 0; element 1: expected 2, got 1;"),
            "{msg}"
        );
        assert!(msg.contains("element 4: expected 5, got 4"), "{msg}");
        assert!(!msg.contains("element 5"), "{msg}");
        assert!(msg.ends_with("; (5 more)"), "{msg}");

        let (_, msg) = run(
            kind::EXPECT_EQ,
            elem::C64,
            &[1.0f32, 2.0],
            &[1.0f32, 2.5],
            1,
            0.0,
            0,
            0,
        );
        assert_eq!(msg.unwrap(), "element 0: expected (1, 2.5), got (1, 2)");

        let one = 1.0f32;
        let (_, msg) = run(
            kind::EXPECT_CLOSE,
            elem::F32,
            &[f32::from_bits(one.to_bits() + 4)],
            &[one],
            1,
            0.0,
            0,
            3,
        );
        assert_eq!(
            msg.unwrap(),
            "element 0: expected 1, got 1.0000005 (ULP difference 4)"
        );

        let (_, msg) = run(
            kind::EXPECT_EQ,
            elem::F16,
            &[0x3e00u16],
            &[0x3c00u16],
            1,
            0.0,
            0,
            0,
        );
        assert_eq!(msg.unwrap(), "element 0: expected 1, got 1.5");
        let (_, msg) = run(
            kind::EXPECT_EQ,
            elem::F64,
            &[f64::NAN],
            &[0.1f64],
            1,
            0.0,
            0,
            0,
        );
        assert_eq!(msg.unwrap(), "element 0: expected 0.1, got NaN");
    }

    #[test]
    fn counts_only_the_given_elements() {
        let _g = serial();
        // Element 2 differs but only the first two are compared.
        assert_eq!(
            run(
                kind::EXPECT_EQ,
                elem::S32,
                &[1i32, 2, 3],
                &[1i32, 2, 4],
                2,
                0.0,
                0,
                0
            )
            .0,
            0
        );
        // Zero elements: nothing to compare, null pointers are fine.
        let r = unsafe {
            strata_rt_check(
                0,
                elem::F32,
                std::ptr::null(),
                std::ptr::null(),
                0,
                0.0,
                0,
                0,
                1,
            )
        };
        assert_eq!(r, 0);
    }

    #[test]
    fn invalid_arguments_fail_without_crashing() {
        let _g = serial();
        let (r, msg) = run(7, elem::S32, &[1i32], &[1i32], 1, 0.0, 0, 0);
        assert_eq!(r, 1);
        assert_eq!(msg.unwrap(), "invalid check kind 7");
        let (r, msg) = run(0, 99, &[1i32], &[1i32], 1, 0.0, 0, 0);
        assert_eq!(r, 1);
        assert_eq!(msg.unwrap(), "invalid element type code 99");
        let before = strata_rt_check_failure_count();
        let r = unsafe {
            strata_rt_check(
                0,
                elem::S32,
                std::ptr::null(),
                std::ptr::null(),
                3,
                0.0,
                0,
                0,
                5,
            )
        };
        assert_eq!(r, 1);
        assert_eq!(strata_rt_check_failure_id(before), 5);
    }

    #[test]
    fn failure_list_and_reset() {
        let _g = serial();
        strata_rt_check_reset();
        assert_eq!(strata_rt_check_failure_count(), 0);
        assert_eq!(strata_rt_check_failure_id(0), -1);
        assert_eq!(
            unsafe { CStr::from_ptr(strata_rt_check_failure_message(0)) }.to_bytes(),
            b""
        );
        assert_eq!(strata_rt_check_failure_id(-1), -1);

        let ok = [1i32];
        let bad = [2i32];
        let p = |x: &[i32]| x.as_ptr() as *const c_void;
        unsafe {
            assert_eq!(
                strata_rt_check(0, elem::S32, p(&ok), p(&bad), 1, 0.0, 0, 0, 10),
                1
            );
            assert_eq!(
                strata_rt_check(0, elem::S32, p(&ok), p(&ok), 1, 0.0, 0, 0, 11),
                0
            );
            assert_eq!(
                strata_rt_check(0, elem::S32, p(&bad), p(&ok), 1, 0.0, 0, 0, 12),
                1
            );
        }
        assert_eq!(strata_rt_check_failure_count(), 2);
        assert_eq!(strata_rt_check_failure_id(0), 10);
        assert_eq!(strata_rt_check_failure_id(1), 12);
        let m0 = strata_rt_check_failure_message(0);
        // Pointers stay valid while more failures are recorded.
        for id in 100..200 {
            unsafe { strata_rt_check(0, elem::S32, p(&ok), p(&bad), 1, 0.0, 0, 0, id) };
        }
        assert_eq!(
            unsafe { CStr::from_ptr(m0) }.to_str().unwrap(),
            "element 0: expected 2, got 1"
        );
        assert_eq!(
            recorded_failures()[1],
            (12, "element 0: expected 1, got 2".to_string())
        );
        strata_rt_check_reset();
        assert_eq!(strata_rt_check_failure_count(), 0);
    }

    #[test]
    fn unaligned_buffers() {
        let _g = serial();
        let mut bytes = [0u8; 1 + 3 * 8];
        for (i, v) in [1.0f64, 2.0, 3.0].iter().enumerate() {
            bytes[1 + 8 * i..1 + 8 * (i + 1)].copy_from_slice(&v.to_ne_bytes());
        }
        let expected = [1.0f64, 2.0, 3.0];
        let r = unsafe {
            strata_rt_check(
                0,
                elem::F64,
                bytes[1..].as_ptr() as *const c_void,
                expected.as_ptr() as *const c_void,
                3,
                0.0,
                0,
                0,
                1,
            )
        };
        assert_eq!(r, 0);
    }
}
