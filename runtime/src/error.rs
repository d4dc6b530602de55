//! Thread-local last-error message.
//!
//! Generated functions return a non-zero status on a runtime error after storing a message with
//! `strata_rt_set_error`; the public `P_last_error()` of an artifact returns
//! `strata_rt_last_error()`. The message is per thread, so concurrent callers do not see each
//! other's errors.

use std::cell::RefCell;
use std::ffi::{CStr, c_char};

use crate::ffi_guard;

thread_local! {
    /// The message and its NUL terminator. A Vec, not a CString, so setting
    /// and clearing reuse its memory: every call clears it, and a call must
    /// not allocate (a library called with scratch allocates nothing).
    static LAST_ERROR: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

thread_local! {
    /// While a device of a run executes on this thread (see
    /// `collectives`): the first error message set since, so a run can
    /// report which device failed even when the device's program returned
    /// normally afterwards (`P_replicas_run` bodies return nothing).
    /// `None` when no device is running here.
    static FIRST_FAILURE: RefCell<Option<Option<String>>> = const { RefCell::new(None) };
}

/// Starts recording the first error set on this thread; returns the
/// recording it replaces (a device run nested in another's thread), for
/// [`end_failure_record`].
pub(crate) fn begin_failure_record() -> Option<Option<String>> {
    FIRST_FAILURE.with(|f| f.borrow_mut().replace(None))
}

/// Ends the recording begun by [`begin_failure_record`], putting back the
/// one it replaced; returns the first error set meanwhile.
pub(crate) fn end_failure_record(previous: Option<Option<String>>) -> Option<String> {
    FIRST_FAILURE.with(|f| std::mem::replace(&mut *f.borrow_mut(), previous).flatten())
}

fn note_failure(msg: &str) {
    let _ = FIRST_FAILURE.try_with(|f| {
        if let Ok(mut f) = f.try_borrow_mut()
            && let Some(first @ None) = f.as_mut()
            && !msg.is_empty()
        {
            *first = Some(msg.to_string());
        }
    });
}

/// Returned when the thread-local storage is unavailable (thread teardown) or on a panic.
static EMPTY: &CStr = c"";

/// Stores `msg` as this thread's last error. Interior NUL bytes are replaced by spaces.
/// Never panics (silently does nothing during thread teardown).
pub fn set_error(msg: &str) {
    note_failure(msg);
    let _ = LAST_ERROR.try_with(|e| {
        if let Ok(mut slot) = e.try_borrow_mut() {
            slot.clear();
            slot.extend(msg.bytes().map(|b| if b == 0 { b' ' } else { b }));
            slot.push(0);
        }
    });
}

/// Clears this thread's last error.
pub fn clear_error() {
    set_error("");
}

/// This thread's last error message (empty when none), as an owned string.
pub fn last_error() -> String {
    LAST_ERROR
        .try_with(|e| {
            e.try_borrow()
                .map(|s| String::from_utf8_lossy(s.strip_suffix(&[0]).unwrap_or(&s)).into_owned())
                .unwrap_or_default()
        })
        .unwrap_or_default()
}

/// `const char *strata_rt_last_error(void)`: this thread's last error message, NUL-terminated;
/// the empty string when there is none. The pointer stays valid until the next
/// `strata_rt_set_error`/`strata_rt_clear_error` on the same thread.
#[unsafe(no_mangle)]
pub extern "C" fn strata_rt_last_error() -> *const c_char {
    ffi_guard(EMPTY.as_ptr(), || {
        LAST_ERROR
            .try_with(|e| {
                e.try_borrow()
                    .ok()
                    .filter(|s| s.last() == Some(&0))
                    .map_or(EMPTY.as_ptr(), |s| s.as_ptr().cast::<c_char>())
            })
            .unwrap_or(EMPTY.as_ptr())
    })
}

/// `void strata_rt_set_error(const char *msg)`: stores a copy of `msg` as this thread's last
/// error. A null `msg` clears the error.
///
/// # Safety
/// `msg` must be null or point to a NUL-terminated string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn strata_rt_set_error(msg: *const c_char) {
    ffi_guard((), || {
        if msg.is_null() {
            clear_error();
        } else {
            // SAFETY: the caller guarantees a NUL-terminated string.
            let s = unsafe { CStr::from_ptr(msg) };
            set_error(&s.to_string_lossy());
        }
    })
}

/// `void strata_rt_clear_error(void)`: clears this thread's last error.
#[unsafe(no_mangle)]
pub extern "C" fn strata_rt_clear_error() {
    ffi_guard((), clear_error)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_last() -> String {
        // SAFETY: strata_rt_last_error always returns a valid NUL-terminated string.
        unsafe { CStr::from_ptr(strata_rt_last_error()) }
            .to_string_lossy()
            .into_owned()
    }

    #[test]
    fn empty_by_default() {
        std::thread::spawn(|| assert_eq!(read_last(), ""))
            .join()
            .unwrap();
    }

    #[test]
    fn set_and_read_back() {
        let msg = c"division by zero in @main";
        unsafe { strata_rt_set_error(msg.as_ptr()) };
        assert_eq!(read_last(), "division by zero in @main");
        assert_eq!(last_error(), "division by zero in @main");
        unsafe { strata_rt_set_error(std::ptr::null()) };
        assert_eq!(read_last(), "");
        set_error("again");
        assert_eq!(read_last(), "again");
        strata_rt_clear_error();
        assert_eq!(read_last(), "");
    }

    #[test]
    fn interior_nul_is_replaced() {
        set_error("a\0b");
        assert_eq!(read_last(), "a b");
    }

    #[test]
    fn errors_are_per_thread() {
        set_error("main thread");
        std::thread::spawn(|| {
            assert_eq!(read_last(), "");
            set_error("other thread");
            assert_eq!(read_last(), "other thread");
        })
        .join()
        .unwrap();
        assert_eq!(read_last(), "main thread");
    }

    #[test]
    fn panics_are_caught() {
        let r = ffi_guard(7, || -> i32 { panic!("boom") });
        assert_eq!(r, 7);
        assert!(read_last().contains("boom"), "{}", read_last());
    }
}
