//! How long a device waits for the others (`STRATA_COLLECTIVE_TIMEOUT_MS`).

use std::time::{Duration, Instant};

use super::DEFAULT_TIMEOUT_MS;

/// `STRATA_COLLECTIVE_TIMEOUT_MS` as a duration: [`DEFAULT_TIMEOUT_MS`]
/// when unset; when set, a positive whole number of milliseconds (spaces
/// around it allowed; digits beyond u64 count as u64::MAX ms, which never
/// ends), else an error naming the value (`0`, `-1`, `abc`, empty): a run
/// refuses to start with it rather than silently using the default.
pub(crate) fn timeout_from(value: Option<&std::ffi::OsStr>) -> Result<Duration, String> {
    let Some(raw) = value else {
        return Ok(Duration::from_millis(DEFAULT_TIMEOUT_MS));
    };
    let text = raw.to_string_lossy();
    let v = text.trim();
    let ms = if !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()) {
        v.parse::<u64>().unwrap_or(u64::MAX)
    } else {
        0
    };
    if ms == 0 {
        return Err(format!(
            "STRATA_COLLECTIVE_TIMEOUT_MS={text:?} is not a positive whole number of milliseconds (unset it for the default, {DEFAULT_TIMEOUT_MS})"
        ));
    }
    Ok(Duration::from_millis(ms))
}

pub(crate) fn timeout() -> Result<Duration, String> {
    timeout_from(std::env::var_os("STRATA_COLLECTIVE_TIMEOUT_MS").as_deref())
}

/// `now + timeout`, or a time no wait reaches when that is past the clock.
pub(crate) fn deadline_after(timeout: Duration) -> Instant {
    let now = Instant::now();
    now.checked_add(timeout)
        .unwrap_or_else(|| now + Duration::from_secs(100 * 365 * 24 * 3600))
}
