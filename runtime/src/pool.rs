//! The runtime's thread pool, for kernels that split their work (GEMM) and
//! for the parallel loops the compiler outlines (`strata_rt_parallel_for`).
//!
//! A private `rayon` pool, not rayon's global one, so a Strata library never
//! competes with, or is configured by, a host program that also uses rayon.
//! rayon was chosen over a pool of our own because it already gives what the
//! runtime needs: the calling thread works too (it blocks in `install` while
//! the pool runs the job, and nested parallel work runs on the same workers,
//! inline when no worker is free), concurrent callers from several host
//! threads queue on the same workers instead of oversubscribing the cores,
//! and work stealing cannot deadlock on nested joins.
//!
//! Size: `STRATA_NUM_THREADS` if set to a positive number, else the CPUs the
//! process may run on (`sched_getaffinity`, through
//! `std::thread::available_parallelism`); `P_set_num_threads(n)` (the
//! runtime's `strata_rt_set_num_threads`) changes it at run time.

use std::ffi::{c_int, c_void};
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::{Arc, Mutex, RwLock};

use rayon::iter::{IntoParallelIterator, ParallelIterator};
use strata_abi::ParallelTask;

use crate::error::{last_error, set_error};
use crate::ffi_guard;

static POOL: RwLock<Option<Arc<rayon::ThreadPool>>> = RwLock::new(None);

fn default_threads() -> usize {
    std::env::var("STRATA_NUM_THREADS")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|&n| n > 0)
        .or_else(|| std::thread::available_parallelism().ok().map(|n| n.get()))
        .unwrap_or(1)
}

fn build(threads: usize) -> Option<Arc<rayon::ThreadPool>> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("strata-{i}"))
        .build()
        .ok()
        .map(Arc::new)
}

/// The pool, built on first use; None when no thread could be started (the
/// work then runs on the calling thread alone).
fn pool() -> Option<Arc<rayon::ThreadPool>> {
    if let Some(p) = POOL.read().unwrap_or_else(|e| e.into_inner()).as_ref() {
        return Some(p.clone());
    }
    let mut slot = POOL.write().unwrap_or_else(|e| e.into_inner());
    if slot.is_none() {
        *slot = build(default_threads());
    }
    slot.clone()
}

/// Runs `work(threads)` with the pool's threads available to it; already
/// inside the pool (a nested call), it runs inline with the same count.
pub fn install<R: Send>(work: impl FnOnce(usize) -> R + Send) -> R {
    if rayon::current_thread_index().is_some() {
        return work(rayon::current_num_threads());
    }
    match pool() {
        Some(p) => p.install(|| work(rayon::current_num_threads())),
        None => work(1),
    }
}

/// Work below which a parallel loop runs on the calling thread alone; this
/// keeps small calls under a microsecond.
const MIN_PARALLEL_WORK: u64 = strata_abi::PARALLEL_MIN_WORK;
/// Work of the smallest chunk handed to a thread.
const MIN_CHUNK_WORK: u64 = 1 << 15;
/// Chunks per thread: a few, so a thread slowed down by another process
/// does not hold up the others for long.
const CHUNKS_PER_THREAD: u64 = 4;

/// The number of threads parallel work would get, without starting the pool.
fn threads_hint() -> usize {
    if rayon::current_thread_index().is_some() {
        return rayon::current_num_threads();
    }
    match POOL.read().unwrap_or_else(|e| e.into_inner()).as_ref() {
        Some(p) => p.current_num_threads(),
        None => default_threads(),
    }
}

/// The iterations `lb, lb + step, ... < ub`, as a count (0 when empty or
/// when the step is not positive).
fn trip_count(lb: i64, ub: i64, step: i64) -> u64 {
    if step <= 0 || ub <= lb {
        return 0;
    }
    let span = (ub as i128 - lb as i128) as u128;
    span.div_ceil(step as u128) as u64
}

/// How many chunks `n` iterations of `cost` each are split into.
fn chunk_count(n: u64, cost: u64, threads: usize) -> u64 {
    let work = n.saturating_mul(cost.max(1));
    if threads <= 1 || n <= 1 || work < MIN_PARALLEL_WORK {
        return 1;
    }
    n.min(work / MIN_CHUNK_WORK)
        .min(threads as u64 * CHUNKS_PER_THREAD)
        .max(1)
}

/// `int32_t strata_rt_parallel_for(task, ctx, lb, ub, step, cost)`: runs
/// the loop `for i = lb; i < ub; i += step` as `task(ctx, begin, end)` over
/// consecutive chunks, on the pool when the work (`cost` per iteration, as
/// the compiler estimates it) is worth it, else in one call on this thread.
/// Returns 0, or the first failing chunk's status with its message as this
/// thread's last error.
///
/// # Safety
/// `task` must be a function of the [`ParallelTask`] contract and `ctx`
/// what it expects; both must stay valid for the duration of the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn strata_rt_parallel_for(
    task: ParallelTask,
    ctx: *mut c_void,
    lb: i64,
    ub: i64,
    step: i64,
    cost: i64,
) -> c_int {
    let n = trip_count(lb, ub, step);
    if n == 0 {
        return 0;
    }
    // Device threads of a run share the cores: each splits its loops over
    // its share of the pool (none once there are as many devices as cores).
    let threads = threads_hint() / crate::collectives::devices_in_process().max(1);
    let chunks = chunk_count(n, cost.max(1) as u64, threads);
    if chunks <= 1 {
        // SAFETY: the caller's contract.
        return unsafe { task(ctx, lb, ub) };
    }
    // The context pointer crosses threads; the task only reads through it.
    struct Shared(*mut c_void);
    // SAFETY: the generated task reads the captured values and writes
    // disjoint elements of the buffers they point to.
    unsafe impl Sync for Shared {}
    let shared = Shared(ctx);
    let failed = AtomicI32::new(0);
    let message: Mutex<Option<String>> = Mutex::new(None);
    ffi_guard(1, || {
        install(|_| {
            (0..chunks).into_par_iter().for_each(|c| {
                if failed.load(Ordering::Relaxed) != 0 {
                    return;
                }
                let first = (n as u128 * c as u128 / chunks as u128) as i128;
                let last = (n as u128 * (c + 1) as u128 / chunks as u128) as i128;
                let begin = (lb as i128 + first * step as i128) as i64;
                let end = (lb as i128 + last * step as i128).min(ub as i128) as i64;
                let shared = &shared;
                // SAFETY: the caller's contract; chunks are disjoint.
                let status = unsafe { task(shared.0, begin, end) };
                if status != 0
                    && failed
                        .compare_exchange(0, status, Ordering::AcqRel, Ordering::Relaxed)
                        .is_ok()
                {
                    *message.lock().unwrap_or_else(|e| e.into_inner()) = Some(last_error());
                }
            })
        });
        let status = failed.load(Ordering::Acquire);
        if status != 0 {
            if let Some(msg) = message.lock().unwrap_or_else(|e| e.into_inner()).take() {
                set_error(&msg);
            }
        }
        status
    })
}

/// `int32_t strata_rt_set_num_threads(int32_t n)`: resizes the pool (n >= 1;
/// n <= 0 restores the default). Returns 0, or 1 with the last error set
/// when the threads cannot be started. Calls running at the time finish on
/// the pool they started on.
#[unsafe(no_mangle)]
pub extern "C" fn strata_rt_set_num_threads(n: c_int) -> c_int {
    ffi_guard(1, || {
        let threads = if n > 0 { n as usize } else { default_threads() };
        match build(threads) {
            Some(p) => {
                *POOL.write().unwrap_or_else(|e| e.into_inner()) = Some(p);
                0
            }
            None => {
                set_error(&format!("cannot start {threads} runtime threads"));
                1
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tests resize the one pool; they take turns.
    static SERIAL: Mutex<()> = Mutex::new(());

    /// Writes `begin..end` (step 3) into the i64 array at `ctx`; fails
    /// (status 7, message "chunk with 30") on the chunk holding index 30.
    unsafe extern "C" fn mark(ctx: *mut c_void, begin: i64, end: i64) -> i32 {
        let out = ctx as *mut i64;
        let mut i = begin;
        while i < end {
            // SAFETY: the test's buffer holds every index below `ub`.
            unsafe { *out.add(i as usize) = i };
            if i == 30 {
                set_error("chunk with 30");
                return 7;
            }
            i += 3;
        }
        0
    }

    #[test]
    fn chunks_cover_the_iterations_once_and_failures_reach_the_caller() {
        let _turn = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        assert_eq!(strata_rt_set_num_threads(2), 0);
        let mut out = vec![-1i64; 10_000];
        let ctx = out.as_mut_ptr() as *mut c_void;
        // Large enough a cost to be split; 31..10_000 by 3 never hits 30.
        let status = unsafe { strata_rt_parallel_for(mark, ctx, 31, 9_999, 3, 1 << 20) };
        assert_eq!(status, 0);
        for (i, &v) in out.iter().enumerate() {
            let expected = if i >= 31 && i < 9_999 && (i - 31) % 3 == 0 {
                i as i64
            } else {
                -1
            };
            assert_eq!(v, expected, "index {i}");
        }
        assert_eq!(chunk_count(3323, 1 << 20, 2), 8);
        assert_eq!(chunk_count(3323, 1, 2), 1, "small work stays on the caller");
        crate::error::clear_error();
        let status = unsafe { strata_rt_parallel_for(mark, ctx, 0, 9_000, 3, 1 << 20) };
        assert_eq!(status, 7);
        assert_eq!(last_error(), "chunk with 30");
        assert_eq!(
            unsafe { strata_rt_parallel_for(mark, ctx, 5, 5, 1, 1 << 20) },
            0
        );
        assert_eq!(strata_rt_set_num_threads(0), 0);
    }

    #[test]
    fn resizing_takes_effect_and_nested_calls_run_inline() {
        let _turn = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        assert_eq!(strata_rt_set_num_threads(3), 0);
        assert_eq!(install(|n| n), 3);
        assert_eq!(install(|_| install(|n| n)), 3);
        assert_eq!(strata_rt_set_num_threads(1), 0);
        assert_eq!(install(|n| n), 1);
        assert_eq!(strata_rt_set_num_threads(0), 0);
        assert_eq!(install(|n| n), default_threads());
    }
}
