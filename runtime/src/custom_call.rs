//! Custom calls by registration, as XLA's custom-call registry works: a
//! model's `custom_call @target` runs the implementation the host
//! registered for `target` with the library's `P_register_custom_call`,
//! and nothing else. No target is ever bound to a process symbol by a name
//! the model chose.
//!
//! The generated code owns the registry: an array of
//! [`CustomCallTarget`] entries, one per target the model names, whose
//! names are constants of the library. The runtime fills and reads the
//! entries under one lock (per runtime copy, hence per library), so
//! registration is thread-safe and may happen before or between calls,
//! and a call always sees a consistent (function, user) pair.

use std::ffi::{CStr, c_char, c_void};
use std::sync::Mutex;

use strata_abi::{CustomCallFn, CustomCallTarget};

use crate::error::set_error;
use crate::ffi_guard;

/// Guards every read and write of a registry entry's function and user.
static REGISTRY: Mutex<()> = Mutex::new(());

/// The entries of a registry as a slice (empty for a NULL table).
///
/// # Safety
/// `table` points to `count` entries (or is NULL with `count` 0).
unsafe fn entries<'a>(table: *mut CustomCallTarget, count: i64) -> &'a mut [CustomCallTarget] {
    if table.is_null() || count <= 0 {
        return &mut [];
    }
    // SAFETY: the caller's contract.
    unsafe { std::slice::from_raw_parts_mut(table, count as usize) }
}

/// An entry's name (a NUL-terminated constant of the generated code).
fn name_text(name: *const c_char) -> String {
    if name.is_null() {
        return "?".into();
    }
    // SAFETY: generated code stores NUL-terminated constants here.
    unsafe { CStr::from_ptr(name) }
        .to_string_lossy()
        .into_owned()
}

/// `int32_t strata_rt_register_custom_call(CustomCallTarget *table,
/// int64_t count, const char *target, CustomCallFn fn, void *user)`: the
/// library's `P_register_custom_call`. Sets the implementation of the
/// entry named `target` (NULL `fn` removes it) and returns 0; returns 1
/// with a message when `target` is not one of the library's targets.
///
/// # Safety
/// `table` holds `count` entries; `target` is NULL or NUL-terminated.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn strata_rt_register_custom_call(
    table: *mut CustomCallTarget,
    count: i64,
    target: *const c_char,
    function: Option<CustomCallFn>,
    user: *mut c_void,
) -> i32 {
    ffi_guard(1, || {
        if target.is_null() {
            set_error("register_custom_call: target is NULL");
            return 1;
        }
        // SAFETY: the caller's contract.
        let target = unsafe { CStr::from_ptr(target) };
        let _guard = REGISTRY.lock().unwrap_or_else(|e| e.into_inner());
        // SAFETY: the caller's contract.
        let entries = unsafe { entries(table, count) };
        for entry in entries.iter_mut() {
            // SAFETY: the names are the generated code's constants.
            if !entry.name.is_null() && unsafe { CStr::from_ptr(entry.name) } == target {
                entry.function = function;
                entry.user = user;
                return 0;
            }
        }
        let known: Vec<String> = entries.iter().map(|e| name_text(e.name)).collect();
        let shown = target.to_string_lossy();
        let shown: String = shown.chars().take(256).collect();
        set_error(&if known.is_empty() {
            format!(
                "register_custom_call: '{shown}' is not a custom-call target of this library (it has none)"
            )
        } else {
            format!(
                "register_custom_call: '{shown}' is not a custom-call target of this library (its targets: {})",
                known.join(", ")
            )
        });
        1
    })
}

/// `int32_t strata_rt_custom_call(CustomCallTarget *entry, const void
/// *const *operands, void *const *results)`: runs the implementation
/// registered for `entry`. Returns 0; the implementation's non-zero status
/// (with a message naming the target); or 1 when none is registered. The
/// generated code zero-fills the results before the call, so a failed or
/// unregistered call, or an implementation that writes nothing, never
/// exposes uninitialised memory.
///
/// # Safety
/// `entry` is an entry of the library's registry; `operands` and `results`
/// hold the pointers the target's signature lists.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn strata_rt_custom_call(
    entry: *const CustomCallTarget,
    operands: *const *const c_void,
    results: *const *mut c_void,
) -> i32 {
    if entry.is_null() {
        set_error("custom call: no registry entry");
        return 1;
    }
    // SAFETY: the caller's contract; read under the lock so the pair is
    // consistent with the last registration.
    let (function, user, name) = {
        let _guard = REGISTRY.lock().unwrap_or_else(|e| e.into_inner());
        let e = unsafe { &*entry };
        (e.function, e.user, e.name)
    };
    let Some(function) = function else {
        let name = name_text(name);
        set_error(&format!(
            "custom_call target '{name}' is not registered: the host must register an implementation with register_custom_call(\"{name}\", ...) before calling a function that reaches it"
        ));
        return 1;
    };
    // The host's function runs outside the lock: it may register others.
    // SAFETY: the host registered `function` for exactly these buffers.
    let status = unsafe { function(user, operands, results) };
    if status != 0 {
        let name = name_text(name);
        set_error(&format!("custom call @{name} failed with status {status}"));
    }
    status
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::last_error;

    unsafe extern "C" fn double_it(
        user: *mut c_void,
        operands: *const *const c_void,
        results: *const *mut c_void,
    ) -> i32 {
        unsafe {
            let x = *(*operands as *const f32);
            *(*results as *mut f32) = 2.0 * x;
            *(user as *mut i32) += 1;
        }
        0
    }

    unsafe extern "C" fn refuse(
        _: *mut c_void,
        _: *const *const c_void,
        _: *const *mut c_void,
    ) -> i32 {
        7
    }

    fn table() -> Vec<CustomCallTarget> {
        [c"scale", c"other"]
            .iter()
            .map(|n| CustomCallTarget {
                name: n.as_ptr(),
                function: None,
                user: std::ptr::null_mut(),
            })
            .collect()
    }

    #[test]
    fn registered_targets_run_and_others_fail_by_name() {
        let mut t = table();
        let (ptr, n) = (t.as_mut_ptr(), t.len() as i64);
        let x = 3.0f32;
        let mut y = 0.0f32;
        let ops = [&x as *const f32 as *const c_void];
        let res = [&mut y as *mut f32 as *mut c_void];
        unsafe {
            assert_eq!(strata_rt_custom_call(ptr, ops.as_ptr(), res.as_ptr()), 1);
            assert!(
                last_error().contains("'scale' is not registered"),
                "{}",
                last_error()
            );
            let mut calls = 0i32;
            let user = &mut calls as *mut i32 as *mut c_void;
            assert_eq!(
                strata_rt_register_custom_call(ptr, n, c"scale".as_ptr(), Some(double_it), user),
                0
            );
            assert_eq!(strata_rt_custom_call(ptr, ops.as_ptr(), res.as_ptr()), 0);
            assert_eq!((y, calls), (6.0, 1));
            assert_eq!(
                strata_rt_register_custom_call(ptr, n, c"scale".as_ptr(), Some(refuse), user),
                0
            );
            assert_eq!(strata_rt_custom_call(ptr, ops.as_ptr(), res.as_ptr()), 7);
            assert!(
                last_error().contains("@scale failed with status 7"),
                "{}",
                last_error()
            );
            assert_eq!(
                strata_rt_register_custom_call(ptr, n, c"system".as_ptr(), Some(refuse), user),
                1
            );
            assert!(
                last_error().contains("'system' is not a custom-call target"),
                "{}",
                last_error()
            );
            assert!(last_error().contains("scale, other"), "{}", last_error());
            assert_eq!(
                strata_rt_register_custom_call(ptr, n, c"scale".as_ptr(), None, user),
                0
            );
            assert_eq!(strata_rt_custom_call(ptr, ops.as_ptr(), res.as_ptr()), 1);
            assert_eq!(
                strata_rt_register_custom_call(std::ptr::null_mut(), 0, c"x".as_ptr(), None, user),
                1
            );
            assert!(last_error().contains("it has none"), "{}", last_error());
        }
    }
}
