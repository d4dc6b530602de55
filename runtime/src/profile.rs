//! The timer table of a library compiled with `--profile` (the
//! `loop-profile` pass): each timed op of an exported function reads the
//! clock before it (`strata_rt_profile_now`) and adds its time to its row
//! after (`strata_rt_profile_add`); `P_profile()` reads the table with the
//! op's labels (`strata_rt_profile_report`).
//!
//! Timed ops run on the calling thread (a parallel loop returns when its
//! chunks are done), so a row is the wall time the caller spent in the op.
//! The table is the process's (one per runtime copy, so one per library):
//! calls from several threads add to the same rows.

use std::cell::RefCell;
use std::ffi::{CStr, c_char};
use std::sync::{Mutex, OnceLock};
use std::time::Instant;

use crate::ffi_guard;

/// Calls and nanoseconds of each timed op, by its id.
static TABLE: Mutex<Vec<[u64; 2]>> = Mutex::new(Vec::new());

/// Ids beyond this are ignored (a module's timed ops are far fewer).
const MAX_ROWS: usize = 1 << 20;

thread_local! {
    /// The last report made on this thread, NUL-terminated.
    static REPORT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

fn epoch() -> Instant {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    *EPOCH.get_or_init(Instant::now)
}

/// `int64_t strata_rt_profile_now(void)`: a monotonic clock in nanoseconds.
#[unsafe(no_mangle)]
pub extern "C" fn strata_rt_profile_now() -> i64 {
    i64::try_from(epoch().elapsed().as_nanos()).unwrap_or(i64::MAX)
}

/// `void strata_rt_profile_add(int64_t id, int64_t start)`: one more call of
/// timed op `id`, which began at `start` (`strata_rt_profile_now`).
#[unsafe(no_mangle)]
pub extern "C" fn strata_rt_profile_add(id: i64, start: i64) {
    let took = strata_rt_profile_now().saturating_sub(start).max(0) as u64;
    let Ok(id) = usize::try_from(id) else {
        return;
    };
    if id >= MAX_ROWS {
        return;
    }
    let mut table = TABLE.lock().unwrap_or_else(|e| e.into_inner());
    if table.len() <= id {
        table.resize(id + 1, [0, 0]);
    }
    table[id][0] += 1;
    table[id][1] += took;
}

/// `const char *strata_rt_profile_report(const char *labels)`: the table as
/// JSON, `{"labels": LABELS, "rows": [[calls, nanoseconds], ...]}` with
/// one row per label (`labels` is the module's JSON array of them, copied
/// as is). The pointer stays valid until the next report on this thread.
///
/// # Safety
/// `labels` must point to a NUL-terminated string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn strata_rt_profile_report(labels: *const c_char) -> *const c_char {
    ffi_guard(c"".as_ptr(), || {
        // SAFETY: the caller's contract (the library passes its own constant).
        let labels = unsafe { CStr::from_ptr(labels) }.to_bytes();
        let rows = label_count(labels);
        let table = TABLE.lock().unwrap_or_else(|e| e.into_inner()).clone();
        let mut text = Vec::with_capacity(labels.len() + 32 * rows);
        text.extend_from_slice(b"{\"labels\": ");
        text.extend_from_slice(labels);
        text.extend_from_slice(b", \"rows\": [");
        for i in 0..rows {
            let [calls, nanos] = table.get(i).copied().unwrap_or([0, 0]);
            let sep = if i == 0 { "" } else { ", " };
            text.extend_from_slice(format!("{sep}[{calls}, {nanos}]").as_bytes());
        }
        text.extend_from_slice(b"]}\0");
        REPORT
            .try_with(|r| {
                let mut r = r.borrow_mut();
                *r = text;
                r.as_ptr().cast::<c_char>()
            })
            .unwrap_or(c"".as_ptr())
    })
}

/// How many strings a JSON array of strings holds (the labels the
/// `loop-profile` pass writes: no nesting).
fn label_count(labels: &[u8]) -> usize {
    let (mut count, mut in_string, mut escaped) = (0, false, false);
    for &c in labels {
        match (in_string, escaped, c) {
            (true, true, _) => escaped = false,
            (true, false, b'\\') => escaped = true,
            (true, false, b'"') => in_string = false,
            (false, _, b'"') => {
                in_string = true;
                count += 1;
            }
            _ => {}
        }
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_counted_with_escaped_quotes() {
        assert_eq!(label_count(br#"[]"#), 0);
        assert_eq!(label_count(br#"["a", "b \"c\" d", "e\\"]"#), 3);
    }

    #[test]
    fn reports_rows_for_every_label() {
        let start = strata_rt_profile_now();
        strata_rt_profile_add(2, start);
        strata_rt_profile_add(2, start);
        let labels = c"[\"x\", \"y\", \"z\"]";
        // SAFETY: a NUL-terminated string.
        let report = unsafe { CStr::from_ptr(strata_rt_profile_report(labels.as_ptr())) };
        let text = report.to_str().expect("utf-8");
        assert!(text.starts_with("{\"labels\": [\"x\", \"y\", \"z\"], \"rows\": [["));
        let rows = text.split("\"rows\": ").nth(1).expect("rows");
        assert_eq!(rows.matches('[').count(), 4, "{text}");
        assert!(rows.contains(", [2, "), "{text}");
    }
}
