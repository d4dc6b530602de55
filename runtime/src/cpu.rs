//! The CPU check every exported function runs before its first call.
//!
//! A library is compiled for a target CPU (`--target-cpu`, default
//! `x86-64-v3`); the code generator records the x86 features that CPU implies
//! (plus `--target-features`) as a comma-separated string, and the exported
//! wrappers call [`strata_rt_cpu_supports`] with it once. On a machine that
//! lacks any of them the call fails with a message naming the missing
//! features, instead of the process dying of SIGILL at the first instruction
//! the CPU does not know.

use std::ffi::{CStr, c_char};

use crate::error::set_error;
use crate::ffi_guard;

/// Whether the running CPU has the x86 feature LLVM calls `name`. Features
/// the standard library cannot detect (`64bit`, `cx8`, `x87`, `sahf`,
/// `evex512`, tuning flags, ...) are reported present: they are either part
/// of every x86-64 CPU or do not change which instructions are emitted.
#[cfg(target_arch = "x86_64")]
fn has_feature(name: &str) -> bool {
    use std::arch::is_x86_feature_detected as has;
    match name {
        "sse" => has!("sse"),
        "sse2" => has!("sse2"),
        "sse3" => has!("sse3"),
        "ssse3" => has!("ssse3"),
        "sse4.1" => has!("sse4.1"),
        "sse4.2" => has!("sse4.2"),
        "sse4a" => has!("sse4a"),
        "popcnt" => has!("popcnt"),
        "cx16" => has!("cmpxchg16b"),
        "avx" => has!("avx"),
        "avx2" => has!("avx2"),
        "fma" => has!("fma"),
        "f16c" => has!("f16c"),
        "bmi" => has!("bmi1"),
        "bmi2" => has!("bmi2"),
        "lzcnt" => has!("lzcnt"),
        "movbe" => has!("movbe"),
        "xsave" => has!("xsave"),
        "xsaveopt" => has!("xsaveopt"),
        "xsavec" => has!("xsavec"),
        "xsaves" => has!("xsaves"),
        "fxsr" => has!("fxsr"),
        "aes" => has!("aes"),
        "pclmul" => has!("pclmulqdq"),
        "rdrnd" => has!("rdrand"),
        "rdseed" => has!("rdseed"),
        "adx" => has!("adx"),
        "sha" => has!("sha"),
        "tbm" => has!("tbm"),
        "gfni" => has!("gfni"),
        "vaes" => has!("vaes"),
        "vpclmulqdq" => has!("vpclmulqdq"),
        "rtm" => has!("rtm"),
        "avx512f" => has!("avx512f"),
        "avx512cd" => has!("avx512cd"),
        "avx512bw" => has!("avx512bw"),
        "avx512dq" => has!("avx512dq"),
        "avx512vl" => has!("avx512vl"),
        "avx512ifma" => has!("avx512ifma"),
        "avx512vbmi" => has!("avx512vbmi"),
        "avx512vbmi2" => has!("avx512vbmi2"),
        "avx512vnni" => has!("avx512vnni"),
        "avx512bitalg" => has!("avx512bitalg"),
        "avx512vpopcntdq" => has!("avx512vpopcntdq"),
        "avx512bf16" => has!("avx512bf16"),
        "avx512fp16" => has!("avx512fp16"),
        "avx512vp2intersect" => has!("avx512vp2intersect"),
        _ => true,
    }
}

/// Whether the running aarch64 CPU has the feature LLVM calls `name`
/// (`getauxval(AT_HWCAP)`, through the standard library). Features it cannot
/// detect are reported present, and so are `ssbs` and `dit`: they add only
/// system-register controls the generated code never touches (and
/// emulators often do not report them).
#[cfg(target_arch = "aarch64")]
fn has_feature(name: &str) -> bool {
    use std::arch::is_aarch64_feature_detected as has;
    match name {
        "sve" => has!("sve"),
        "sve2" => has!("sve2"),
        "sve2-aes" => has!("sve2-aes"),
        "sve2-bitperm" => has!("sve2-bitperm"),
        "sve2-sha3" => has!("sve2-sha3"),
        "sve2-sm4" => has!("sve2-sm4"),
        "f32mm" => has!("f32mm"),
        "f64mm" => has!("f64mm"),
        "i8mm" => has!("i8mm"),
        "bf16" => has!("bf16"),
        "dotprod" => has!("dotprod"),
        "fullfp16" => has!("fp16"),
        "fp16fml" => has!("fhm"),
        "lse" => has!("lse"),
        "lse2" => has!("lse2"),
        "rcpc" => has!("rcpc"),
        "rcpc-immo" => has!("rcpc2"),
        "rdm" => has!("rdm"),
        "crc" => has!("crc"),
        "aes" => has!("aes"),
        "sha2" => has!("sha2"),
        "sha3" => has!("sha3"),
        "sm4" => has!("sm4"),
        "jsconv" => has!("jsconv"),
        "fcma" | "complxnum" => has!("fcma"),
        "flagm" => has!("flagm"),
        "sb" => has!("sb"),
        "frintts" => has!("frintts"),
        "mte" => has!("mte"),
        "rand" => has!("rand"),
        "bti" => has!("bti"),
        "tme" => has!("tme"),
        "pauth" => has!("paca") && has!("pacg"),
        _ => true,
    }
}

/// On other architectures the compiler records no features to check.
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
fn has_feature(_name: &str) -> bool {
    true
}

/// What to compile for instead, in the message of a failed check.
const OLDER_CPUS: &str = if cfg!(target_arch = "aarch64") {
    "generic"
} else {
    "x86-64 or x86-64-v2"
};

/// The features of `list` ("avx2,fma,...", an optional `+` before each) the
/// running CPU lacks.
pub fn missing_features(list: &str) -> Vec<&str> {
    list.split(',')
        .map(|f| f.trim().trim_start_matches('+'))
        .filter(|f| !f.is_empty() && !has_feature(f))
        .collect()
}

/// Returns 0 when the running CPU has every feature in `features` (a
/// NUL-terminated comma-separated list); otherwise sets the last error to a
/// message naming the missing ones and returns 1.
///
/// # Safety
/// `features` must be null or point to a NUL-terminated string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn strata_rt_cpu_supports(features: *const c_char) -> i32 {
    ffi_guard(1, || {
        if features.is_null() {
            return 0;
        }
        // SAFETY: the caller passes a NUL-terminated string (generated code: a constant).
        let list = unsafe { CStr::from_ptr(features) }.to_string_lossy();
        let missing = missing_features(&list);
        if missing.is_empty() {
            return 0;
        }
        set_error(&format!(
            "this library was compiled for CPU features this machine lacks ({}); \
             recompile it with an older --target-cpu (e.g. {OLDER_CPUS})",
            missing.join(", ")
        ));
        1
    })
}

/// Runs `work` compiled for AVX2 when the running CPU has it: the runtime
/// is built for the baseline x86-64 (SSE2, four f32 lanes), and a loop
/// inlined here vectorizes eight f32 lanes wide. `work` is a closure whose
/// body, called once, LLVM inlines into the AVX2 function (the functions
/// it calls need `#[inline(always)]` to be compiled for AVX2 as well).
#[inline(always)]
pub(crate) fn with_avx2<R>(work: impl FnOnce() -> R) -> R {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2.
        return unsafe { run_avx2(work) };
    }
    work()
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn run_avx2<R>(work: impl FnOnce() -> R) -> R {
    work()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn baseline_features_are_present() {
        assert!(missing_features("+sse,+sse2,+cx8,+x87,+64bit").is_empty());
        assert!(missing_features("").is_empty());
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn a_missing_feature_is_named() {
        // The host's own features are present; one it lacks is reported.
        let probe = ["avx512f", "avx512vp2intersect", "sse4a", "tbm"];
        for f in probe {
            let lacks = !has_feature(f);
            assert_eq!(missing_features(&format!("+sse2,+{f}")) == vec![f], lacks);
        }
    }

    #[test]
    fn the_c_entry_point_sets_the_last_error() {
        let ok = c"+sse2";
        assert_eq!(unsafe { strata_rt_cpu_supports(ok.as_ptr()) }, 0);
        assert_eq!(unsafe { strata_rt_cpu_supports(std::ptr::null()) }, 0);
    }
}
