//! Point-to-point and host transfers: send/recv on channels (between
//! device threads, or over MPI), infeed and outfeed through the host's
//! hooks.

use super::*;

/// `int32_t strata_rt_send(int64_t channel, const void *data, int64_t bytes)`:
/// queues a copy of `data` for the `recv` on the same channel.
///
/// # Safety
/// `data` points to `bytes` readable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn strata_rt_send(channel: i64, data: *const c_void, bytes: i64) -> c_int {
    let run = with_device(|d| d.run.clone());
    if run.mpi {
        set_error("send/recv are not supported over MPI yet");
        return 1;
    }
    let Ok(n) = usize::try_from(bytes) else {
        set_error("negative send size");
        return 1;
    };
    // SAFETY: the caller's contract.
    let copy = unsafe { std::slice::from_raw_parts(data as *const u8, n) }.to_vec();
    lock(&run.mailbox)
        .entry(channel)
        .or_default()
        .push_back(copy);
    run.mail.notify_all();
    0
}

/// `int32_t strata_rt_recv(int64_t channel, void *out, int64_t bytes)`:
/// takes the oldest message on `channel`, waiting for one (up to the
/// collective timeout).
///
/// # Safety
/// `out` points to `bytes` writable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn strata_rt_recv(channel: i64, out: *mut c_void, bytes: i64) -> c_int {
    let run = with_device(|d| d.run.clone());
    let timeout = match &run.timeout {
        Ok(t) => *t,
        Err(msg) => {
            set_error(msg);
            return 1;
        }
    };
    let deadline = deadline_after(timeout);
    let mut mail = lock(&run.mailbox);
    loop {
        if let Some(msg) = mail.get_mut(&channel).and_then(|q| q.pop_front()) {
            if msg.len() as i64 != bytes {
                drop(mail);
                set_error(&format!(
                    "recv on channel {channel} expects {bytes} bytes, but {} were sent",
                    msg.len()
                ));
                return 1;
            }
            // SAFETY: the caller's contract; sizes checked.
            unsafe { std::ptr::copy_nonoverlapping(msg.as_ptr(), out as *mut u8, msg.len()) };
            return 0;
        }
        let now = Instant::now();
        if now >= deadline {
            drop(mail);
            set_error(&format!(
                "recv on channel {channel} timed out after {} ms: nothing was sent",
                timeout.as_millis()
            ));
            return 1;
        }
        mail = run
            .mail
            .wait_timeout(mail, deadline - now)
            .map(|(g, _)| g)
            .unwrap_or_else(|e| e.into_inner().0);
    }
}

/// `int32_t strata_rt_infeed_push(const void *data, int64_t bytes)`: adds a
/// value for the next run's `infeed` ops (interpreter.run_parallel's
/// `infeed = [...]`), on the thread that starts the run.
///
/// # Safety
/// `data` points to `bytes` readable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn strata_rt_infeed_push(data: *const c_void, bytes: i64) -> c_int {
    let n = usize::try_from(bytes).unwrap_or(0);
    // SAFETY: the caller's contract.
    let copy = unsafe { std::slice::from_raw_parts(data as *const u8, n) }.to_vec();
    PENDING_INFEED.with(|q| q.borrow_mut().push_back(copy));
    0
}

/// `int32_t strata_rt_infeed(void *out, int64_t bytes)`: the run's next
/// infeed value.
///
/// # Safety
/// `out` points to `bytes` writable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn strata_rt_infeed(out: *mut c_void, bytes: i64) -> c_int {
    let run = with_device(|d| d.run.clone());
    let next = lock(&run.infeed).pop_front();
    match next {
        Some(v) if v.len() as i64 == bytes => {
            // SAFETY: the caller's contract; sizes checked.
            unsafe { std::ptr::copy_nonoverlapping(v.as_ptr(), out as *mut u8, v.len()) };
            0
        }
        Some(v) => {
            set_error(&format!(
                "infeed expects {bytes} bytes, the queue holds {}",
                v.len()
            ));
            1
        }
        None => match hook(&INFEED_HOOK) {
            // SAFETY: the host's hook, given the buffer it must fill.
            Some((f, user)) => call_hook(f, user, out, bytes, "infeed"),
            None => {
                set_error(
                    "infeed: no host hook registered (P_set_infeed) and no value queued by interpreter.run_parallel",
                );
                1
            }
        },
    }
}

/// A host's feed hook: `int32_t hook(int32_t device, void *data, int64_t
/// bytes, void *user)`, returning 0 or an error status.
type FeedHook = unsafe extern "C" fn(i32, *mut c_void, i64, *mut c_void) -> i32;

static INFEED_HOOK: Mutex<Option<(FeedHook, usize)>> = Mutex::new(None);
static OUTFEED_HOOK: Mutex<Option<(FeedHook, usize)>> = Mutex::new(None);

fn hook(slot: &Mutex<Option<(FeedHook, usize)>>) -> Option<(FeedHook, usize)> {
    *lock(slot)
}

/// Calls a feed hook for this device; a non-zero status fails the call.
fn call_hook(f: FeedHook, user: usize, data: *mut c_void, bytes: i64, what: &str) -> c_int {
    let device = with_device(|d| (d.replica * d.run.partitions + d.partition) as i32);
    // SAFETY: the host registered `f` for exactly this use.
    let status = unsafe { f(device, data, bytes, user as *mut c_void) };
    if status != 0 {
        set_error(&format!(
            "the host's {what} hook returned {status} (device {device}, {bytes} bytes)"
        ));
        return status;
    }
    0
}

/// `void strata_rt_set_infeed(hook, void *user)` (the library's
/// `P_set_infeed`): `infeed` ops ask `hook(device, out, bytes, user)` to
/// fill their buffer. NULL unregisters it.
#[unsafe(no_mangle)]
pub extern "C" fn strata_rt_set_infeed(f: Option<FeedHook>, user: *mut c_void) {
    *lock(&INFEED_HOOK) = f.map(|f| (f, user as usize));
}

/// `void strata_rt_set_outfeed(hook, void *user)` (the library's
/// `P_set_outfeed`): `outfeed` ops hand `hook(device, data, bytes, user)`
/// their values. NULL unregisters it.
#[unsafe(no_mangle)]
pub extern "C" fn strata_rt_set_outfeed(f: Option<FeedHook>, user: *mut c_void) {
    *lock(&OUTFEED_HOOK) = f.map(|f| (f, user as usize));
}

/// `int32_t strata_rt_outfeed(const void *data, int64_t bytes)`: hands the
/// value to the host's outfeed hook. Without one, an interpreter run
/// (`strata check`) drops it, as StableHLO's interpreter does, and a host
/// program's call fails with a message.
#[unsafe(no_mangle)]
pub extern "C" fn strata_rt_outfeed(data: *const c_void, bytes: i64) -> c_int {
    match hook(&OUTFEED_HOOK) {
        Some((f, user)) => call_hook(f, user, data as *mut c_void, bytes, "outfeed"),
        None if with_device(|d| d.run.interpreter) => 0,
        None => {
            set_error("outfeed: no host hook registered (P_set_outfeed)");
            1
        }
    }
}
