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
//! process may run on (`sched_getaffinity` and cgroup quotas, through
//! `std::thread::available_parallelism`); `P_set_num_threads(n)` (the
//! runtime's `strata_rt_set_num_threads`) changes it at run time. Both are
//! capped at [`MAX_THREADS_PER_CPU`] threads per CPU (see [`max_threads`]);
//! a `STRATA_NUM_THREADS` that is not a positive whole number is ignored.
//!
//! Fork: a child of `fork()` inherits the pool's bookkeeping but none of its
//! threads, so work handed to it would wait forever. The pool records the
//! process that started it; a `pthread_atfork` child handler drops the
//! inherited pool, and [`pool`] also rebuilds it when the process id
//! changed (a fork that bypassed the handlers, such as a raw `clone`). The
//! inherited pool is leaked, never dropped: dropping a rayon pool wakes its
//! workers through locks that threads which no longer exist may have held.
//! The prepare handler takes the pool's lock so that no other thread holds
//! it at the moment of the fork (the child could never take it otherwise).
//! A fork from inside a call (a host hook running on a pool thread) is not
//! covered: that thread would be a worker of the parent's pool in the child.

use std::cell::{Cell, RefCell};
use std::ffi::{c_int, c_void};
use std::sync::atomic::{AtomicI32, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, Once, RwLock, RwLockReadGuard, RwLockWriteGuard};

use rayon::iter::{IntoParallelIterator, ParallelIterator};
use strata_abi::ParallelTask;

use crate::error::{clear_error, last_error, set_error};
use crate::ffi_guard;

/// A running pool and the process that started it.
struct Slot {
    pid: u32,
    pool: Arc<rayon::ThreadPool>,
}

static POOL: RwLock<Option<Slot>> = RwLock::new(None);

/// The size `P_set_num_threads` chose (0: the default), which a pool
/// rebuilt in the child of a fork keeps.
static CHOSEN: AtomicUsize = AtomicUsize::new(0);

/// Threads per CPU the pool may have at most. The pool runs compute-bound
/// chunks, so threads beyond the CPUs only add switching; a small multiple
/// still lets a host oversubscribe on purpose (other processes sharing the
/// CPUs, tests of the pool on a small machine), while 10,000 threads, which
/// took minutes per call and exhausted the machine's threads, are refused.
pub const MAX_THREADS_PER_CPU: usize = 4;

/// The CPUs this process may run on (at least 1).
fn cpus() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The most threads the pool may have: [`MAX_THREADS_PER_CPU`] x the CPUs
/// the process may run on. `STRATA_NUM_THREADS` and `P_set_num_threads`
/// above it get this many.
pub fn max_threads() -> usize {
    cpus().saturating_mul(MAX_THREADS_PER_CPU)
}

/// `STRATA_NUM_THREADS` as a thread count: a positive whole number (capped
/// at [`max_threads`]; digits beyond u64 count as huge, not as garbage);
/// None for anything else (unset, empty, `0`, `-1`, `abc`, `1.5`).
fn threads_from_env(value: Option<&str>) -> Option<usize> {
    let v = value?.trim();
    if v.is_empty() || !v.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n = v.parse::<u64>().unwrap_or(u64::MAX);
    if n == 0 {
        return None;
    }
    Some(usize::try_from(n).unwrap_or(usize::MAX).min(max_threads()))
}

fn default_threads() -> usize {
    threads_from_env(std::env::var("STRATA_NUM_THREADS").ok().as_deref()).unwrap_or_else(cpus)
}

/// The size a new pool gets: `P_set_num_threads`'s choice, else the default.
fn chosen_threads() -> usize {
    match CHOSEN.load(Ordering::Relaxed) {
        0 => default_threads(),
        n => n,
    }
}

fn build(threads: usize) -> Option<Slot> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("strata-{i}"))
        .build()
        .ok()
        .map(|pool| Slot {
            pid: std::process::id(),
            pool: Arc::new(pool),
        })
}

/// Puts `new` in the pool's slot. A pool inherited from the parent of a
/// fork is leaked (see the module's notes); one of this process is dropped
/// once the calls running on it finish.
fn replace(slot: &mut Option<Slot>, new: Option<Slot>) {
    if let Some(old) = std::mem::replace(slot, new) {
        if old.pid != std::process::id() {
            std::mem::forget(old);
        }
    }
}

/// The pool, built on first use (and again in the child of a fork); None
/// when no thread could be started (the work then runs on the calling
/// thread alone).
fn pool() -> Option<Arc<rayon::ThreadPool>> {
    let pid = std::process::id();
    if let Some(s) = read_pool().as_ref() {
        if s.pid == pid {
            return Some(s.pool.clone());
        }
    }
    let mut slot = write_pool();
    if slot.as_ref().is_none_or(|s| s.pid != pid) {
        let new = build(chosen_threads());
        replace(&mut slot, new);
    }
    slot.as_ref().map(|s| s.pool.clone())
}

unsafe extern "C" {
    /// glibc's (from libc_nonshared.a, which records the calling object's
    /// `__dso_handle`, so the handlers are removed when a library that
    /// registered them is unloaded).
    fn pthread_atfork(
        prepare: Option<extern "C" fn()>,
        parent: Option<extern "C" fn()>,
        child: Option<extern "C" fn()>,
    ) -> c_int;
}

thread_local! {
    /// The pool's lock, held by the forking thread from the prepare handler
    /// to the parent's or the child's handler.
    static HELD: RefCell<Option<RwLockWriteGuard<'static, Option<Slot>>>> =
        const { RefCell::new(None) };
    /// Whether this thread runs a chunk of a parallel loop that already
    /// keeps every thread of the pool busy ([`strata_rt_parallel_for`]).
    static IN_BUSY_LOOP: Cell<bool> = const { Cell::new(false) };
}

/// The pool's slot, read. Every use of the lock but the fork handlers'
/// goes through [`read_pool`] or [`write_pool`], which register the
/// handlers first: a fork while a thread holds the lock, unprotected, would
/// leave it held forever in the child.
fn read_pool() -> RwLockReadGuard<'static, Option<Slot>> {
    watch_forks();
    POOL.read().unwrap_or_else(|e| e.into_inner())
}

/// The pool's slot, to change (see [`read_pool`]).
fn write_pool() -> RwLockWriteGuard<'static, Option<Slot>> {
    watch_forks();
    POOL.write().unwrap_or_else(|e| e.into_inner())
}

/// Registers the fork handlers, once, before the pool's lock is first
/// taken.
fn watch_forks() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // SAFETY: the handlers are plain functions of this library. A
        // failure (ENOMEM) leaves the process-id check in `pool`.
        unsafe {
            pthread_atfork(
                Some(before_fork),
                Some(after_fork_parent),
                Some(after_fork_child),
            )
        };
    });
}

extern "C" fn before_fork() {
    let guard = POOL.write().unwrap_or_else(|e| e.into_inner());
    // A thread that forks while its thread-locals are being destroyed
    // forks without the lock held (the process-id check still applies).
    let _ = HELD.try_with(|h| {
        if let Ok(mut h) = h.try_borrow_mut() {
            *h = Some(guard);
        }
    });
}

extern "C" fn after_fork_parent() {
    let _ = HELD.try_with(|h| h.try_borrow_mut().map(|mut h| h.take()));
}

extern "C" fn after_fork_child() {
    let _ = HELD.try_with(|h| {
        if let Ok(mut h) = h.try_borrow_mut() {
            if let Some(mut guard) = h.take() {
                // The parent's pool: its threads are not in this process.
                if let Some(inherited) = guard.take() {
                    std::mem::forget(inherited);
                }
            }
        }
    });
}

/// Runs `work(threads)` with the pool's threads available to it; already
/// inside the pool (a nested call), it runs inline with the same count, or
/// with one thread inside a parallel loop that keeps them all busy: a
/// kernel called from a loop body (a convolution's GEMM per block of
/// positions) splitting itself again only made the idle-looking threads
/// spin in `sched_yield` (a 3x3 convolution to 8 features: 2x its time).
pub fn install<R: Send>(work: impl FnOnce(usize) -> R + Send) -> R {
    if rayon::current_thread_index().is_some() {
        let threads = match IN_BUSY_LOOP.with(Cell::get) {
            true => 1,
            false => rayon::current_num_threads(),
        };
        return work(threads);
    }
    match pool() {
        Some(p) => p.install(|| work(rayon::current_num_threads())),
        None => work(1),
    }
}

/// `int32_t strata_rt_call_on_pool(body, ctx, arena_bytes, scratch)`: runs an
/// exported function's body on a pool thread, so that its parallel loops and
/// kernels are forked from inside the pool: otherwise every one of them is
/// handed from the caller to the pool and back (two futex round trips, and
/// the idle workers spin against the caller's serial code) — a training
/// loop's hundreds of small regions per call lost a fifth of its time so.
/// The body's arenas are cut from `scratch` (`P_f_with_scratch`; checked as
/// there) or else from the caller's own stack (`arena_bytes`, the function's
/// plan), so memory stays one plan per calling thread. Runs
/// `body` inline when the pool has one thread, on a pool thread already, or
/// on a device thread of a multi-device run (whose threads must not occupy
/// the pool while they wait for each other). Returns the body's status; its
/// message becomes the caller's last error.
///
/// # Safety
/// `body` and `ctx` follow [`strata_abi::PoolBody`]'s contract.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn strata_rt_call_on_pool(
    body: strata_abi::PoolBody,
    ctx: *mut c_void,
    arena_bytes: i64,
    scratch: *mut c_void,
) -> c_int {
    ffi_guard(1, || {
        let inline = rayon::current_thread_index().is_some()
            || crate::collectives::on_device_thread()
            || threads_hint() <= 1;
        let pool = if inline { None } else { pool() };
        let Some(pool) = pool else {
            if scratch.is_null() {
                // SAFETY: the caller's contract.
                return unsafe { body(ctx) };
            }
            // `P_f_with_scratch` on this thread, as without the pool.
            if crate::arena::strata_rt_arena_use_scratch(scratch, arena_bytes) != 0 {
                return 1;
            }
            // SAFETY: the caller's contract.
            let status = unsafe { body(ctx) };
            crate::arena::strata_rt_arena_end_scratch();
            return status;
        };
        let bytes = usize::try_from(arena_bytes).unwrap_or(0);
        if !scratch.is_null() {
            if let Err(message) = crate::arena::check_scratch(scratch, bytes) {
                set_error(&message);
                return 1;
            }
        }
        let mark = crate::arena::strata_rt_arena_mark();
        let block = if !scratch.is_null() {
            // The caller's scratch: the body's arenas come from it.
            scratch.cast::<u8>()
        } else if bytes > 0 {
            crate::arena::strata_rt_arena_acquire(arena_bytes).cast::<u8>()
        } else {
            std::ptr::null_mut()
        };
        let (ctx_addr, block_addr) = (ctx as usize, block as usize);
        let (status, message) = pool.install(|| {
            crate::arena::with_borrowed_block(block_addr as *mut u8, bytes, || {
                clear_error();
                // SAFETY: the caller's contract; the caller waits here, so
                // ctx and the block stay valid.
                let status = unsafe { body(ctx_addr as *mut c_void) };
                (status, (status != 0).then(last_error))
            })
        });
        crate::arena::strata_rt_arena_reset(mark);
        if let Some(message) = message {
            set_error(&message);
        }
        status
    })
}

/// Copies below this many bytes per thread are not split: a thread's share
/// must outweigh handing it over (from outside the pool, a futex round trip
/// of tens of microseconds on a VM; from inside, a steal).
fn copy_share_min(in_pool: bool) -> usize {
    if in_pool { 512 << 10 } else { 2 << 20 }
}

/// `void strata_rt_copy(void *dst, const void *src, int64_t bytes)`: a copy
/// between two distinct buffers (generated code skips copying a buffer onto
/// itself), in 64-byte-aligned slices over the pool when it is large enough.
///
/// # Safety
/// `dst` and `src` address `bytes` bytes each and do not overlap.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn strata_rt_copy(dst: *mut c_void, src: *const c_void, bytes: i64) {
    ffi_guard((), || {
        let n = usize::try_from(bytes).unwrap_or(0);
        let (d, s) = (dst as usize, src as usize);
        in_parts_by_bytes(n, |i, parts| {
            let at = |j: usize| {
                if j == parts {
                    n
                } else {
                    n * j / parts / 64 * 64
                }
            };
            let (start, end) = (at(i), at(i + 1));
            // SAFETY: the caller's contract; slices are disjoint parts of
            // the two buffers.
            unsafe {
                std::ptr::copy_nonoverlapping(
                    (s as *const u8).add(start),
                    (d as *mut u8).add(start),
                    end - start,
                )
            };
        });
    })
}

/// Runs `part(i, parts)` for `i < parts`: memory-bound work of `bytes`
/// bytes in parts over the pool, as many as there are threads and
/// [`copy_share_min`] shares of the bytes (one part, on the calling thread,
/// when that is one or on a device thread of a collective run).
pub(crate) fn in_parts_by_bytes(bytes: usize, part: impl Fn(usize, usize) + Sync) {
    let in_pool = rayon::current_thread_index().is_some();
    let threads = threads_hint().min(bytes / copy_share_min(in_pool)).max(1);
    if threads <= 1 || crate::collectives::on_device_thread() {
        part(0, 1);
        return;
    }
    install(|t| {
        let parts = t.min(threads).max(1);
        (0..parts).into_par_iter().for_each(|i| part(i, parts));
    });
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
    match read_pool().as_ref() {
        Some(s) => s.pool.current_num_threads(),
        None => chosen_threads(),
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
                let outer = IN_BUSY_LOOP.with(|busy| busy.replace(chunks >= threads as u64));
                // SAFETY: the caller's contract; chunks are disjoint.
                let status = unsafe { task(shared.0, begin, end) };
                IN_BUSY_LOOP.with(|busy| busy.set(outer));
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

/// `int32_t strata_rt_set_num_threads(int32_t n)`: resizes the pool to n
/// threads, at most [`max_threads`] (more is capped to it); n <= 0
/// restores the default. Returns 0, or 1 with the last error set when the
/// threads cannot be started. Calls running at the time finish on the pool
/// they started on.
#[unsafe(no_mangle)]
pub extern "C" fn strata_rt_set_num_threads(n: c_int) -> c_int {
    ffi_guard(1, || {
        let (chosen, threads) = if n > 0 {
            let t = (n as usize).min(max_threads());
            (t, t)
        } else {
            (0, default_threads())
        };
        match build(threads) {
            Some(p) => {
                let mut slot = write_pool();
                CHOSEN.store(chosen, Ordering::Relaxed);
                replace(&mut slot, Some(p));
                0
            }
            None => {
                set_error(&format!("cannot start {threads} runtime threads"));
                1
            }
        }
    })
}

/// `f` on this thread's buffers kept in `cell` across calls (a steady state
/// allocates nothing), or on fresh ones when a call nested in this thread's
/// own holds them: a thread waiting on the pool runs other tasks, which may
/// call the same kernel.
pub(crate) fn with_thread_buffers<B: Default, R>(
    cell: &std::cell::RefCell<B>,
    f: impl FnOnce(&mut B) -> R,
) -> R {
    match cell.try_borrow_mut() {
        Ok(mut buffers) => f(&mut buffers),
        Err(_) => f(&mut B::default()),
    }
}

#[cfg(test)]
mod tests {
    /// Copies of every size around the thresholds, on several threads,
    /// land whole (odd sizes: the last slice takes the remainder).
    #[test]
    fn large_copies_split_over_the_pool_land_whole() {
        assert_eq!(strata_rt_set_num_threads(3), 0);
        for n in [0usize, 1, 4097, (3 << 20) + 13, (9 << 20) + 1] {
            let src: Vec<u8> = (0..n).map(|i| (i * 31 % 251) as u8).collect();
            let mut dst = vec![0u8; n];
            unsafe { strata_rt_copy(dst.as_mut_ptr().cast(), src.as_ptr().cast(), n as i64) };
            assert!(dst == src, "{n} bytes");
        }
    }

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

    /// Runs the loop of the first test on the pool; whether every element
    /// is right.
    fn loop_on_the_pool() -> bool {
        let mut out = vec![-1i64; 10_000];
        let ctx = out.as_mut_ptr() as *mut c_void;
        // SAFETY: `mark` and its buffer, which holds every index below ub.
        let status = unsafe { strata_rt_parallel_for(mark, ctx, 31, 9_999, 3, 1 << 20) };
        status == 0
            && out.iter().enumerate().all(|(i, &v)| {
                let on = (31..9_999).contains(&i) && (i - 31) % 3 == 0;
                v == if on { i as i64 } else { -1 }
            })
    }

    unsafe extern "C" {
        fn fork() -> i32;
        fn waitpid(pid: i32, status: *mut i32, options: i32) -> i32;
        fn alarm(seconds: u32) -> u32;
        fn _exit(code: i32) -> !;
    }

    /// The child of a fork (Python's multiprocessing) finds the parent's
    /// pool without its threads: its parallel work must run on a pool of
    /// its own, of the size the parent chose, instead of waiting forever.
    #[test]
    fn a_forked_child_runs_parallel_work_on_a_pool_of_its_own() {
        let _turn = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        assert_eq!(strata_rt_set_num_threads(2), 0);
        assert!(loop_on_the_pool(), "the parent's loop");
        // SAFETY: the child only runs the runtime's code and then _exit.
        let pid = unsafe { fork() };
        assert!(pid >= 0, "fork failed");
        if pid == 0 {
            // A hang kills the child (SIGALRM), which fails the test below.
            unsafe { alarm(20) };
            let code = if !loop_on_the_pool() {
                1
            } else if install(|n| n) != 2 {
                2
            } else if strata_rt_set_num_threads(3) != 0 || install(|n| n) != 3 {
                3
            } else if !loop_on_the_pool() {
                4
            } else {
                0
            };
            // SAFETY: ends the child without running the harness's exit.
            unsafe { _exit(code) };
        }
        let mut status = 0;
        // SAFETY: waits for the child started above.
        assert_eq!(unsafe { waitpid(pid, &mut status, 0) }, pid);
        let (signal, code) = (status & 0x7f, (status >> 8) & 0xff);
        assert_eq!(
            signal, 0,
            "the child was killed by signal {signal} (14: it hung)"
        );
        assert_eq!(code, 0, "the child's check {code} failed");
        assert!(loop_on_the_pool(), "the parent's pool after the fork");
        assert_eq!(strata_rt_set_num_threads(0), 0);
    }

    #[test]
    fn thread_counts_are_capped_and_bad_environment_values_ignored() {
        let cap = max_threads();
        assert_eq!(cap, cpus() * MAX_THREADS_PER_CPU);
        assert_eq!(threads_from_env(Some("3")), Some(3.min(cap)));
        assert_eq!(threads_from_env(Some(" 2 ")), Some(2.min(cap)));
        assert_eq!(threads_from_env(Some("10000")), Some(cap));
        assert_eq!(threads_from_env(Some("99999999999999999999999")), Some(cap));
        for bad in ["", "0", "-1", "abc", "1.5", "+4", "4 threads"] {
            assert_eq!(threads_from_env(Some(bad)), None, "{bad:?}");
        }
        assert_eq!(threads_from_env(None), None);
        let _turn = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        let start = std::time::Instant::now();
        assert_eq!(strata_rt_set_num_threads(10_000), 0);
        assert_eq!(install(|n| n), cap);
        assert_eq!(strata_rt_set_num_threads(i32::MAX), 0);
        assert_eq!(install(|n| n), cap);
        assert!(loop_on_the_pool());
        assert!(start.elapsed().as_secs() < 10, "{:?}", start.elapsed());
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
