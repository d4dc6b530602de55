//! The runtime's thread pool, for kernels that split their work (GEMM today).
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

use std::ffi::c_int;
use std::sync::{Arc, RwLock};

use crate::error::set_error;
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

    #[test]
    fn resizing_takes_effect_and_nested_calls_run_inline() {
        assert_eq!(strata_rt_set_num_threads(3), 0);
        assert_eq!(install(|n| n), 3);
        assert_eq!(install(|_| install(|n| n)), 3);
        assert_eq!(strata_rt_set_num_threads(1), 0);
        assert_eq!(install(|n| n), 1);
        assert_eq!(strata_rt_set_num_threads(0), 0);
        assert_eq!(install(|n| n), default_threads());
    }
}
