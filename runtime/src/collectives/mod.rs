//! Replicas and collectives on threads in one process.
//!
//! A run (`strata_rt_run_devices` for `interpreter.run_parallel`, or a
//! library's `P_replicas_run`) starts one thread per device (replica,
//! partition); code compiled from the program runs on it and meets the
//! other devices at each collective. A collective is a short protocol that
//! generated code drives, so that any reducer region stays generated code:
//!
//! 1. `begin(desc)`: the grouping (see `strata_abi::CollectiveDesc`), then
//!    `add(operand, bytes)` for each operand;
//! 2. `meet(info)`: waits until every member of this device's group has
//!    arrived at the same collective (the k-th collective a device begins
//!    meets the k-th of the others), and says where this device stands;
//! 3. `fetch(member, operand, out, bytes)`: copies a member's operand
//!    straight from its buffer (pointers are exchanged, data is copied once,
//!    as XLA's in-process communicator does);
//! 4. `leave()`: waits until every member is done reading, so operands stay
//!    valid while others copy them.
//!
//! A member that never arrives makes the others fail after
//! `STRATA_COLLECTIVE_TIMEOUT_MS` (default [`DEFAULT_TIMEOUT_MS`]) with a
//! message naming it, instead of hanging; a member that arrives after the
//! others gave up fails too, naming the same devices. Over MPI the same
//! limit holds (see `mpi/mod.rs`). A run refuses to start when the variable is
//! set to anything but a positive whole number of milliseconds, and when it
//! asks for more than [`MAX_DEVICES`] device threads. Code called outside a
//! run is device (0, 0) of a 1x1 run.

use std::cell::RefCell;
use std::collections::HashMap;
use std::ffi::{c_int, c_void};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use strata_abi::{COLLECTIVE_MAX_IDS, CollectiveDesc, CollectiveKind, CollectiveMode, DeviceTask};

use crate::error::{clear_error, last_error, set_error};
use crate::ffi_guard;

/// Yields before a device waiting for the others sleeps.
const SPINS: u32 = 64;

/// How long a device waits for the others at a collective, by default.
pub const DEFAULT_TIMEOUT_MS: u64 = 30_000;

/// The most devices a run starts on threads in one process. Each device is
/// an OS thread with its own stack, blocked at collectives until the others
/// arrive, so a run is bounded by the threads a process may start (tens of
/// thousands at most; `P_replicas_run(INT_MAX, ...)` used to abort the
/// host). 4096 covers the largest meshes JAX programs are written for (a
/// TPU v4 pod) while staying far below those limits.
pub const MAX_DEVICES: usize = 4096;

/// What the devices of one run share.
struct Run {
    replicas: usize,
    partitions: usize,
    /// Devices are MPI processes (`--collectives mpi`), one per process.
    mpi: bool,
    /// Open meetings by (collective number, first member).
    meetings: Mutex<HashMap<(u64, usize), Arc<Meeting>>>,
    /// Point-to-point messages by channel, in the order they were sent.
    mailbox: Mutex<HashMap<i64, std::collections::VecDeque<Vec<u8>>>>,
    mail: Condvar,
    /// Values `infeed` takes, in order.
    infeed: Mutex<std::collections::VecDeque<Vec<u8>>>,
    /// Started by `interpreter.run_parallel` (strata check), not a host.
    interpreter: bool,
    /// How long a device waits for the others (read when the run starts;
    /// an error for a bad `STRATA_COLLECTIVE_TIMEOUT_MS`, which explicit
    /// runs refuse up front and the implicit 1x1 run reports where it
    /// would wait).
    timeout: Result<Duration, String>,
}

impl Run {
    fn new(replicas: usize, partitions: usize, mpi: bool) -> Run {
        Run {
            replicas,
            partitions,
            mpi,
            meetings: Mutex::new(HashMap::new()),
            mailbox: Mutex::new(HashMap::new()),
            mail: Condvar::new(),
            infeed: Mutex::new(std::collections::VecDeque::new()),
            interpreter: false,
            timeout: timeout(),
        }
    }
}

#[derive(Clone, Copy)]
struct Operand {
    address: usize,
    bytes: usize,
}

#[derive(Default)]
struct MeetingState {
    /// Each member's operands, by its position in the group.
    operands: Vec<Option<Vec<Operand>>>,
    arrived: usize,
    left: usize,
    /// Copies in progress (an abandoning member waits for them).
    copying: usize,
    /// Set when a member gave up waiting: nobody reads operands any more.
    abandoned: bool,
    /// The devices that had not arrived (or not finished) when the first
    /// member gave up: what every member's message names, including one
    /// that arrives after that.
    gave_up: Option<Vec<usize>>,
    /// Which members (by position) have left.
    finished: Vec<bool>,
}

struct Meeting {
    state: Mutex<MeetingState>,
    changed: Condvar,
}

/// The collective a device is in.
struct Pending {
    /// Device indices (replica * partitions + partition), in group order.
    members: Vec<usize>,
    /// This device's place in `members`; None when it is in no group.
    position: Option<usize>,
    /// Whether the ids were collective_permute's pairs.
    pairs: bool,
    /// For pairs: the member whose operand this device receives.
    source: Option<usize>,
    operands: Vec<Operand>,
    meeting: Option<Arc<Meeting>>,
    key: (u64, usize),
    /// The descriptor's words and the layout: identifies the collective's
    /// MPI communicator.
    signature: Vec<i64>,
    /// MPI: every member's operands, gathered (member-major).
    gathered: Option<crate::mpi::Gathered>,
}

struct Device {
    run: Arc<Run>,
    replica: usize,
    partition: usize,
    /// Collectives begun so far.
    seq: u64,
    pending: Option<Pending>,
}

thread_local! {
    static DEVICE: RefCell<Option<Device>> = const { RefCell::new(None) };
    /// Values pushed for the next run's `infeed` (interpreter.run_parallel's
    /// `infeed = [...]`).
    static PENDING_INFEED: RefCell<std::collections::VecDeque<Vec<u8>>> =
        const { RefCell::new(std::collections::VecDeque::new()) };
}

/// Waits on `meeting` until `done` holds or the meeting is abandoned;
/// past `deadline` this device abandons it (and wakes the others).
fn wait_until<'m>(
    meeting: &'m Meeting,
    mut st: MutexGuard<'m, MeetingState>,
    deadline: Instant,
    done: impl Fn(&MeetingState) -> bool,
) -> MutexGuard<'m, MeetingState> {
    let mut spins = 0;
    while !done(&st) && !st.abandoned {
        // Small collectives complete within microseconds: yield a few times
        // before sleeping on the condition variable.
        if spins < SPINS {
            spins += 1;
            drop(st);
            std::thread::yield_now();
            st = lock(&meeting.state);
            continue;
        }
        let now = Instant::now();
        if now >= deadline {
            st.abandoned = true;
            meeting.changed.notify_all();
            break;
        }
        st = meeting
            .changed
            .wait_timeout(st, deadline - now)
            .map(|(g, _)| g)
            .unwrap_or_else(|e| e.into_inner().0);
    }
    st
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Runs `f` on this thread's device (device (0, 0) of a 1x1 run outside a run).
fn with_device<R>(f: impl FnOnce(&mut Device) -> R) -> R {
    DEVICE.with(|slot| {
        let mut slot = slot.borrow_mut();
        let device = slot.get_or_insert_with(|| Device {
            run: Arc::new(Run::new(1, 1, false)),
            replica: 0,
            partition: 0,
            seq: 0,
            pending: None,
        });
        f(device)
    })
}

/// How many device threads this thread's run has (1 outside a run, and for
/// MPI, where each process is one device).
/// Whether this thread runs one device of a multi-device run (or is busy
/// setting one up: a slot that cannot be read counts as one).
pub(crate) fn on_device_thread() -> bool {
    DEVICE
        .try_with(|slot| slot.try_borrow().map_or(true, |d| d.is_some()))
        .unwrap_or(true)
}

pub(crate) fn devices_in_process() -> usize {
    DEVICE
        .try_with(|slot| {
            slot.try_borrow()
                .ok()
                .and_then(|d| {
                    d.as_ref().map(|d| {
                        if d.run.mpi {
                            1
                        } else {
                            d.run.replicas * d.run.partitions
                        }
                    })
                })
                .unwrap_or(1)
        })
        .unwrap_or(1)
}

/// The groups of device indices a descriptor makes, for a run of
/// `replicas` x `partitions` devices (StableHLO's grouping strategies).
fn process_groups(
    desc: &CollectiveDesc,
    replicas: usize,
    partitions: usize,
) -> Result<Vec<Vec<usize>>, String> {
    let mode = CollectiveMode::from_i64(desc.mode)
        .ok_or_else(|| format!("unknown collective mode {}", desc.mode))?;
    let ids = group_ids(desc)?;
    let limit = match mode {
        CollectiveMode::CrossReplica | CollectiveMode::CrossReplicaAndPartition => replicas,
        CollectiveMode::CrossPartition => partitions,
        CollectiveMode::FlattenedIds => replicas * partitions,
    };
    let groups: Vec<Vec<usize>> = if ids.is_empty() {
        vec![(0..limit).collect()]
    } else {
        let mut groups = Vec::new();
        for g in ids {
            let mut group = Vec::new();
            // -1 pads groups smaller than the widest.
            for id in g.into_iter().filter(|&id| id != -1) {
                if id < 0 || id as usize >= limit {
                    return Err(format!(
                        "a replica group names id {id}, but the run has {replicas} replica(s) x {partitions} partition(s)"
                    ));
                }
                group.push(id as usize);
            }
            groups.push(group);
        }
        groups
    };
    let device = |r: usize, p: usize| r * partitions + p;
    let mut out = Vec::new();
    for g in &groups {
        match mode {
            CollectiveMode::CrossReplica => {
                for p in 0..partitions {
                    out.push(g.iter().map(|&r| device(r, p)).collect());
                }
            }
            CollectiveMode::CrossPartition => {
                for r in 0..replicas {
                    out.push(g.iter().map(|&p| device(r, p)).collect());
                }
            }
            CollectiveMode::CrossReplicaAndPartition => out.push(
                (0..partitions)
                    .flat_map(|p| g.iter().map(move |&r| device(r, p)))
                    .collect(),
            ),
            CollectiveMode::FlattenedIds => out.push(g.clone()),
        }
    }
    Ok(out)
}

/// The descriptor's groups (or pairs) as lists of ids.
fn group_ids(desc: &CollectiveDesc) -> Result<Vec<Vec<i64>>, String> {
    let (count, size) = (desc.group_count, desc.group_size);
    let total = count
        .checked_mul(size)
        .filter(|&t| count >= 0 && size >= 0 && t as usize <= COLLECTIVE_MAX_IDS);
    let Some(total) = total else {
        return Err(format!(
            "bad collective descriptor: {count} groups of {size}"
        ));
    };
    if total == 0 {
        return Ok(Vec::new());
    }
    Ok(desc.ids[..total as usize]
        .chunks(size as usize)
        .map(|c| c.to_vec())
        .collect())
}

/// Members, this device's position and (for pairs) its source.
fn plan(desc: &CollectiveDesc, device: &Device) -> Result<Pending, String> {
    let (replicas, partitions) = (device.run.replicas, device.run.partitions);
    let me = device.replica * partitions + device.partition;
    let kind = [
        CollectiveKind::Groups,
        CollectiveKind::GroupsOrNone,
        CollectiveKind::Pairs,
    ]
    .into_iter()
    .find(|k| *k as i64 == desc.kind)
    .ok_or_else(|| format!("unknown collective kind {}", desc.kind))?;
    if kind == CollectiveKind::Pairs {
        // Every device along the mode's dimension meets; targets get their source's operand.
        let cross_partition = desc.mode == CollectiveMode::CrossPartition as i64;
        let (members, mine): (Vec<usize>, usize) = if cross_partition {
            let line = (0..partitions)
                .map(|p| device.replica * partitions + p)
                .collect();
            (line, device.partition)
        } else {
            let line = (0..replicas)
                .map(|r| r * partitions + device.partition)
                .collect();
            (line, device.replica)
        };
        let mut source = None;
        for pair in group_ids(desc)? {
            let [s, t] = pair[..] else {
                return Err("collective_permute pairs must have two ids".into());
            };
            if s < 0 || t < 0 || s as usize >= members.len() || t as usize >= members.len() {
                return Err(format!(
                    "source_target_pairs names ({s}, {t}), but the run has {replicas} replica(s) x {partitions} partition(s)"
                ));
            }
            if t as usize == mine {
                source = Some(s as usize);
            }
        }
        let position = members.iter().position(|&d| d == me);
        return Ok(Pending {
            key: (device.seq, members[0]),
            members,
            position,
            pairs: true,
            source,
            operands: Vec::new(),
            meeting: None,
            signature: Vec::new(),
            gathered: None,
        });
    }
    let groups = process_groups(desc, replicas, partitions)?;
    let members = groups
        .into_iter()
        .find(|g| g.contains(&me))
        .unwrap_or_default();
    let position = members.iter().position(|&d| d == me);
    if position.is_none() && kind == CollectiveKind::Groups {
        return Err(format!(
            "device (replica {}, partition {}) is in no group of a collective",
            device.replica, device.partition
        ));
    }
    if position.is_some() && desc.expect_size > 0 && members.len() as i64 != desc.expect_size {
        return Err(format!(
            "a collective compiled for groups of {} runs with a group of {} devices {members:?}",
            desc.expect_size,
            members.len()
        ));
    }
    Ok(Pending {
        key: (device.seq, members.first().copied().unwrap_or(me)),
        members,
        position,
        pairs: false,
        source: None,
        operands: Vec::new(),
        meeting: None,
        signature: Vec::new(),
        gathered: None,
    })
}

/// Runs `f` on the device's pending collective, or fails.
fn with_pending(f: impl FnOnce(&mut Device) -> Result<(), String>) -> c_int {
    let outcome = with_device(|d| {
        let r = f(d);
        if r.is_err() {
            d.pending = None;
        }
        r
    });
    match outcome {
        Ok(()) => 0,
        Err(msg) => {
            // Outside the device borrow, so the run records the failure.
            set_error(&msg);
            1
        }
    }
}

/// `int32_t strata_rt_collective_begin(const CollectiveDesc *desc)`.
///
/// # Safety
/// `desc` points to a valid descriptor.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn strata_rt_collective_begin(desc: *const CollectiveDesc) -> c_int {
    // SAFETY: the caller's contract.
    let desc = unsafe { &*desc };
    ffi_guard(1, || {
        with_pending(|d| {
            d.seq += 1;
            let mut pending = plan(desc, d)?;
            let used = 5
                + (desc.group_count * desc.group_size).clamp(0, COLLECTIVE_MAX_IDS as i64) as usize;
            pending.signature = strata_abi::Descriptor::words(desc)[..used].to_vec();
            pending
                .signature
                .extend([d.run.replicas as i64, d.run.partitions as i64]);
            d.pending = Some(pending);
            Ok(())
        })
    })
}

/// `int32_t strata_rt_collective_add(const void *operand, int64_t bytes)`.
#[unsafe(no_mangle)]
pub extern "C" fn strata_rt_collective_add(operand: *const c_void, bytes: i64) -> c_int {
    ffi_guard(1, || {
        with_pending(|d| {
            let p = d
                .pending
                .as_mut()
                .ok_or("collective operand outside a collective")?;
            p.operands.push(Operand {
                address: operand as usize,
                bytes: usize::try_from(bytes).map_err(|_| "negative operand size")?,
            });
            Ok(())
        })
    })
}

/// `int32_t strata_rt_collective_meet(int64_t info[2])`: waits for the
/// group; `info[0]` = this device's position in it (for pairs: its
/// source's, or -1 when it receives nothing; -1 too when the device is in
/// no group), `info[1]` = the group's size.
///
/// # Safety
/// `info` points to two writable `int64_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn strata_rt_collective_meet(info: *mut i64) -> c_int {
    ffi_guard(1, || {
        with_pending(|d| {
            let run = d.run.clone();
            let p = d
                .pending
                .as_mut()
                .ok_or("collective meeting outside a collective")?;
            let seq = p.key.0;
            let arrival = || Ok::<_, String>(crate::mpi::Arrival::new(seq, run.timeout.clone()?));
            let (shown, size) = match p.position {
                None if run.mpi => {
                    // Still part of the communicator split every rank makes.
                    crate::mpi::join_split(p.signature.clone(), &arrival()?)?;
                    (-1, 0)
                }
                None => (-1, 0),
                Some(pos) => {
                    if run.mpi {
                        let ops: Vec<(usize, usize)> =
                            p.operands.iter().map(|o| (o.address, o.bytes)).collect();
                        let at = arrival()?;
                        p.gathered = Some(crate::mpi::exchange(
                            p.signature.clone(),
                            &p.members,
                            pos,
                            &ops,
                            &at,
                        )?);
                    } else {
                        p.meeting = Some(join(&run, p, pos)?);
                    }
                    let shown = match (p.pairs, p.source) {
                        (true, Some(s)) => s as i64,
                        (true, None) => -1,
                        (false, _) => pos as i64,
                    };
                    (shown, p.members.len() as i64)
                }
            };
            // SAFETY: the caller's contract.
            unsafe {
                *info = shown;
                *info.add(1) = size;
            }
            Ok(())
        })
    })
}

/// Registers this device's operands in its group's meeting and waits for
/// every member.
fn join(run: &Run, p: &Pending, position: usize) -> Result<Arc<Meeting>, String> {
    let timeout = run.timeout.clone()?;
    let meeting = lock(&run.meetings)
        .entry(p.key)
        .or_insert_with(|| {
            Arc::new(Meeting {
                state: Mutex::new(MeetingState {
                    operands: vec![None; p.members.len()],
                    finished: vec![false; p.members.len()],
                    ..MeetingState::default()
                }),
                changed: Condvar::new(),
            })
        })
        .clone();
    let deadline = deadline_after(timeout);
    let mut st = lock(&meeting.state);
    if st.operands.len() != p.members.len() {
        return Err("devices disagree on a collective's group (different programs?)".into());
    }
    // The others already gave up: this device arrived too late.
    let late = st.abandoned;
    st.operands[position] = Some(p.operands.clone());
    st.arrived += 1;
    meeting.changed.notify_all();
    let everyone = p.members.len();
    st = wait_until(&meeting, st, deadline, |st| st.arrived >= everyone);
    if st.arrived < p.members.len() || st.abandoned {
        st.abandoned = true;
        let missing: Vec<usize> = st
            .operands
            .iter()
            .enumerate()
            .filter(|(_, o)| o.is_none())
            .map(|(i, _)| p.members[i])
            .collect();
        let gave_up = st.gave_up.get_or_insert(missing).clone();
        meeting.changed.notify_all();
        let ms = timeout.as_millis();
        return Err(if late {
            format!(
                "collective #{} timed out: device(s) {gave_up:?} of group {:?} did not arrive within {ms} ms, and this device arrived after the others had given up (STRATA_COLLECTIVE_TIMEOUT_MS sets the limit)",
                p.key.0, p.members
            )
        } else {
            format!(
                "collective #{} timed out after {ms} ms: device(s) {gave_up:?} of group {:?} did not arrive (STRATA_COLLECTIVE_TIMEOUT_MS sets the limit)",
                p.key.0, p.members
            )
        });
    }
    Ok(meeting.clone())
}

/// The error of a member that finds its meeting abandoned by another.
fn abandoned(p: &Pending, st: &MeetingState) -> String {
    format!(
        "collective #{} was abandoned: device(s) {:?} of group {:?} did not arrive or finish in time",
        p.key.0,
        st.gave_up.as_deref().unwrap_or_default(),
        p.members
    )
}

/// `int32_t strata_rt_collective_fetch(int64_t member, int64_t operand,
/// void *out, int64_t bytes)`: copies operand `operand` of the group's
/// `member`-th device into `out` (`bytes` long, which must be its size).
///
/// # Safety
/// `out` points to `bytes` writable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn strata_rt_collective_fetch(
    member: i64,
    operand: i64,
    out: *mut c_void,
    bytes: i64,
) -> c_int {
    ffi_guard(1, || {
        with_pending(|d| {
            let p = d
                .pending
                .as_ref()
                .ok_or("collective fetch outside a collective")?;
            if let Some(gathered) = &p.gathered {
                return fetch_gathered(p, gathered, member, operand, out, bytes);
            }
            let meeting = p
                .meeting
                .clone()
                .ok_or("collective fetch before the meeting")?;
            let src = {
                let mut st = lock(&meeting.state);
                if st.abandoned {
                    return Err(abandoned(p, &st));
                }
                let src = usize::try_from(member)
                    .ok()
                    .and_then(|m| st.operands.get(m).cloned().flatten())
                    .and_then(|ops| {
                        usize::try_from(operand)
                            .ok()
                            .and_then(|k| ops.get(k).copied())
                    })
                    .ok_or_else(|| {
                        format!("collective member {member} has no operand {operand}")
                    })?;
                if src.bytes as i64 != bytes {
                    return Err(format!(
                        "collective operands differ in size between devices ({} and {bytes} bytes)",
                        src.bytes
                    ));
                }
                st.copying += 1;
                src
            };
            // SAFETY: the member's buffer stays valid until every member
            // has left (it waits in `leave`, or for `copying` to drop when
            // abandoning); `out` is the caller's, `bytes` long.
            unsafe {
                std::ptr::copy(src.address as *const u8, out as *mut u8, src.bytes);
            }
            let mut st = lock(&meeting.state);
            st.copying -= 1;
            meeting.changed.notify_all();
            Ok(())
        })
    })
}

/// `fetch` from the operands MPI gathered.
fn fetch_gathered(
    p: &Pending,
    gathered: &crate::mpi::Gathered,
    member: i64,
    operand: i64,
    out: *mut c_void,
    bytes: i64,
) -> Result<(), String> {
    let k = usize::try_from(operand)
        .ok()
        .filter(|&k| k < p.operands.len());
    let m = usize::try_from(member)
        .ok()
        .filter(|&m| m < p.members.len());
    let (Some(k), Some(m)) = (k, m) else {
        return Err(format!(
            "collective member {member} has no operand {operand}"
        ));
    };
    let size = p.operands[k].bytes;
    if size as i64 != bytes {
        return Err(format!(
            "collective operand {operand} is {size} bytes, not {bytes}"
        ));
    }
    let start = p.operands[..k].iter().map(|o| o.bytes).sum::<usize>();
    // SAFETY: `out` holds `bytes` bytes (the caller's contract); the range
    // lies inside member m's operands (their total bytes).
    unsafe {
        std::ptr::copy_nonoverlapping(
            gathered.member(m)[start..start + size].as_ptr(),
            out as *mut u8,
            size,
        )
    };
    Ok(())
}

/// `int32_t strata_rt_collective_leave(void)`: ends the collective once
/// every member has fetched what it needs.
#[unsafe(no_mangle)]
pub extern "C" fn strata_rt_collective_leave() -> c_int {
    ffi_guard(1, || {
        with_pending(|d| {
            let run = d.run.clone();
            let Some(p) = d.pending.take() else {
                return Err("collective leave outside a collective".into());
            };
            let Some(meeting) = p.meeting else {
                return Ok(()); // MPI, or a device in no group
            };
            let timeout = run.timeout.clone()?;
            let deadline = deadline_after(timeout);
            let mut st = lock(&meeting.state);
            st.left += 1;
            if let Some(f) = p.position.and_then(|i| st.finished.get_mut(i)) {
                *f = true;
            }
            meeting.changed.notify_all();
            let everyone = p.members.len();
            st = wait_until(&meeting, st, deadline, |st| st.left >= everyone);
            // Nobody may still be copying from this device's operands.
            while st.copying > 0 {
                st = meeting.changed.wait(st).unwrap_or_else(|e| e.into_inner());
            }
            let done = st.left >= everyone && !st.abandoned;
            if !done && st.gave_up.is_none() {
                let unfinished = (0..everyone)
                    .filter(|&i| !st.finished.get(i).copied().unwrap_or(false))
                    .map(|i| p.members[i])
                    .collect();
                st.gave_up = Some(unfinished);
            }
            let gave_up = st.gave_up.clone().unwrap_or_default();
            meeting.changed.notify_all();
            drop(st);
            if done {
                lock(&run.meetings).remove(&p.key);
                return Ok(());
            }
            Err(format!(
                "collective #{} timed out after {} ms: device(s) {gave_up:?} of group {:?} did not finish it",
                p.key.0,
                timeout.as_millis(),
                p.members
            ))
        })
    })
}

mod all_reduce;
mod devices;
mod timeout;
mod transfers;

pub use all_reduce::*;
pub use devices::*;
use timeout::{deadline_after, timeout};
pub use transfers::*;

#[cfg(test)]
mod tests;
