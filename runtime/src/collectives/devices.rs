//! Runs of devices: the device ids, `strata_rt_run_devices` (a program's
//! `run_parallel`) and the libraries' `P_replicas_run` on threads or MPI
//! ranks.

use super::*;
use crate::error::{begin_failure_record, end_failure_record};

/// `uint32_t strata_rt_replica_id(void)`.
#[unsafe(no_mangle)]
pub extern "C" fn strata_rt_replica_id() -> u32 {
    ffi_guard(0, || with_device(|d| d.replica as u32))
}

/// `uint32_t strata_rt_partition_id(void)`.
#[unsafe(no_mangle)]
pub extern "C" fn strata_rt_partition_id() -> u32 {
    ffi_guard(0, || with_device(|d| d.partition as u32))
}

/// Runs `body(device)` for every device of a `replicas` x `partitions`
/// run, each on its own thread; returns 0, or sets this thread's last
/// error to the first failing device's message and returns its status.
pub(super) fn run_devices(
    replicas: usize,
    partitions: usize,
    interpreter: bool,
    body: &(dyn Fn(usize) -> c_int + Sync),
) -> c_int {
    if DEVICE.with(|d| {
        d.borrow()
            .as_ref()
            .is_some_and(|d| d.run.replicas * d.run.partitions > 1)
    }) {
        set_error("a run of devices cannot start inside another run");
        return 1;
    }
    let Some(count) = replicas
        .checked_mul(partitions)
        .filter(|&c| c <= MAX_DEVICES)
    else {
        set_error(&format!(
            "a run of {replicas} replica(s) x {partitions} partition(s) exceeds the {MAX_DEVICES} devices a process runs (one thread each)"
        ));
        return 1;
    };
    let mut run = Run::new(replicas, partitions, false);
    if let Err(msg) = &run.timeout {
        set_error(msg);
        return 1;
    }
    run.interpreter = interpreter;
    let run = Arc::new(run);
    *lock(&run.infeed) = PENDING_INFEED.with(|q| std::mem::take(&mut *q.borrow_mut()));
    let outcomes: Vec<(c_int, Option<String>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..count)
            .map(|device| {
                let run = run.clone();
                std::thread::Builder::new()
                    .name(format!("strata-device-{device}"))
                    .spawn_scoped(scope, move || {
                        DEVICE.with(|slot| {
                            *slot.borrow_mut() = Some(Device {
                                run,
                                replica: device / partitions,
                                partition: device % partitions,
                                seq: 0,
                                pending: None,
                            })
                        });
                        clear_error();
                        let record = begin_failure_record();
                        let status = body(device);
                        let failure = end_failure_record(record);
                        DEVICE.with(|slot| slot.borrow_mut().take());
                        let message = if status != 0 {
                            Some(last_error())
                        } else {
                            failure
                        };
                        (status, message)
                    })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| match h {
                Ok(h) => h
                    .join()
                    .unwrap_or((1, Some("a device thread panicked".into()))),
                Err(e) => (1, Some(format!("cannot start a device thread: {e}"))),
            })
            .collect()
    });
    for (device, (status, message)) in outcomes.into_iter().enumerate() {
        if status != 0 || message.is_some() {
            let msg = message.unwrap_or_default();
            set_error(&format!("device {device}: {msg}"));
            return if status != 0 { status } else { 1 };
        }
    }
    0
}

/// `int32_t strata_rt_run_devices(task, ctx, replicas, partitions)`: runs
/// `task(ctx, d, d + 1)` for every device d on its own thread.
///
/// # Safety
/// `task` and `ctx` follow the `strata_abi::DeviceTask` contract and stay
/// valid during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn strata_rt_run_devices(
    task: DeviceTask,
    ctx: *mut c_void,
    replicas: i64,
    partitions: i64,
) -> c_int {
    let (Ok(r), Ok(p)) = (usize::try_from(replicas), usize::try_from(partitions)) else {
        set_error("negative device count");
        return 1;
    };
    if r == 0 || p == 0 {
        set_error("a run needs at least one replica and one partition");
        return 1;
    }
    let shared = ctx as usize;
    ffi_guard(1, || {
        // SAFETY: the caller's contract; each device gets its own index.
        run_devices(r, p, true, &|d| unsafe {
            task(shared as *mut c_void, d as i64, d as i64 + 1)
        })
    })
}

/// `int32_t strata_rt_replicas_run(int32_t n, void (*body)(int32_t, void *),
/// void *user, int32_t as_partitions)`: the library's `P_replicas_run`.
/// The n devices are replicas 0..n-1, or with `as_partitions` (a module of
/// `mhlo.num_partitions` > 1, as JAX's pmap and shard_map export) the
/// partitions 0..n-1 of one replica.
///
/// # Safety
/// `body` is callable with `user` from any thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn strata_rt_replicas_run(
    n: i32,
    body: Option<unsafe extern "C" fn(i32, *mut c_void)>,
    user: *mut c_void,
    as_partitions: i32,
) -> c_int {
    let Some(body) = body else {
        set_error("P_replicas_run: body is NULL");
        return 1;
    };
    if n < 1 {
        set_error(&format!("P_replicas_run: n must be at least 1, got {n}"));
        return 1;
    }
    if n as usize > MAX_DEVICES {
        set_error(&format!(
            "P_replicas_run: n = {n} exceeds the {MAX_DEVICES} devices a process runs (one thread each)"
        ));
        return 1;
    }
    let shared = user as usize;
    let (replicas, partitions) = if as_partitions != 0 {
        (1, n as usize)
    } else {
        (n as usize, 1)
    };
    ffi_guard(1, || {
        run_devices(replicas, partitions, false, &|d| {
            // SAFETY: the caller's contract.
            unsafe { body(d as i32, shared as *mut c_void) };
            0
        })
    })
}

/// `int32_t strata_rt_replicas_run_mpi(int32_t n, void (*body)(int32_t,
/// void *), void *user, int32_t as_partitions)`: `P_replicas_run` of a
/// `--collectives mpi` library. This process is one device: `body` runs
/// once, with its MPI rank, and `n` must be the MPI world's size.
///
/// # Safety
/// `body` is callable with `user`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn strata_rt_replicas_run_mpi(
    n: i32,
    body: Option<unsafe extern "C" fn(i32, *mut c_void)>,
    user: *mut c_void,
    as_partitions: i32,
) -> c_int {
    let Some(body) = body else {
        set_error("P_replicas_run: body is NULL");
        return 1;
    };
    ffi_guard(1, || {
        let (rank, size) = match crate::mpi::world() {
            Ok(w) => w,
            Err(msg) => {
                set_error(&msg);
                return 1;
            }
        };
        if n < 1 || n as usize != size {
            set_error(&format!(
                "P_replicas_run({n}) in an MPI world of {size} process(es): n must equal the world size (mpirun -np {n})"
            ));
            return 1;
        }
        let (replicas, partitions) = if as_partitions != 0 {
            (1, size)
        } else {
            (size, 1)
        };
        let run = Run::new(replicas, partitions, true);
        if let Err(msg) = &run.timeout {
            set_error(msg);
            return 1;
        }
        let run = Arc::new(run);
        let previous = DEVICE.with(|slot| {
            slot.borrow_mut().replace(Device {
                run,
                replica: rank / partitions,
                partition: rank % partitions,
                seq: 0,
                pending: None,
            })
        });
        clear_error();
        let record = begin_failure_record();
        // SAFETY: the caller's contract.
        unsafe { body(rank as i32, user) };
        let failure = end_failure_record(record);
        DEVICE.with(|slot| *slot.borrow_mut() = previous);
        match failure {
            Some(msg) => {
                set_error(&format!("device {rank}: {msg}"));
                1
            }
            None => 0,
        }
    })
}
