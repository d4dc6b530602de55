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

/// `STRATA_COLLECTIVE_TIMEOUT_MS` as a duration: [`DEFAULT_TIMEOUT_MS`]
/// when unset; when set, a positive whole number of milliseconds (spaces
/// around it allowed; digits beyond u64 count as u64::MAX ms, which never
/// ends), else an error naming the value (`0`, `-1`, `abc`, empty): a run
/// refuses to start with it rather than silently using the default.
fn timeout_from(value: Option<&std::ffi::OsStr>) -> Result<Duration, String> {
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

fn timeout() -> Result<Duration, String> {
    timeout_from(std::env::var_os("STRATA_COLLECTIVE_TIMEOUT_MS").as_deref())
}

/// `now + timeout`, or a time no wait reaches when that is past the clock.
fn deadline_after(timeout: Duration) -> Instant {
    let now = Instant::now();
    now.checked_add(timeout)
        .unwrap_or_else(|| now + Duration::from_secs(100 * 365 * 24 * 3600))
}

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
    /// The first error reported on this device (see [`note_failure`]).
    failure: Option<String>,
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
            failure: None,
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

/// Records the first error message set on a device thread, so a run can
/// report which device failed even when the device's program returned
/// normally afterwards (`P_replicas_run` bodies return nothing).
pub(crate) fn note_failure(msg: &str) {
    let _ = DEVICE.try_with(|slot| {
        if let Ok(mut slot) = slot.try_borrow_mut() {
            if let Some(d) = slot.as_mut() {
                if d.failure.is_none() && !msg.is_empty() {
                    d.failure = Some(msg.to_string());
                }
            }
        }
    });
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

/// An element type the runtime's all_reduce combines itself.
trait Element: Copy + Send + Sync {
    fn add(a: Self, b: Self) -> Self;
    fn mul(a: Self, b: Self) -> Self;
    fn max(a: Self, b: Self) -> Self;
    fn min(a: Self, b: Self) -> Self;
}

macro_rules! int_element {
    ($($t:ty),*) => {$(
        impl Element for $t {
            fn add(a: Self, b: Self) -> Self { a.wrapping_add(b) }
            fn mul(a: Self, b: Self) -> Self { a.wrapping_mul(b) }
            fn max(a: Self, b: Self) -> Self { Ord::max(a, b) }
            fn min(a: Self, b: Self) -> Self { Ord::min(a, b) }
        }
    )*};
}
int_element!(i32, i64, u32, u64);

macro_rules! float_element {
    ($($t:ty),*) => {$(
        impl Element for $t {
            fn add(a: Self, b: Self) -> Self { a + b }
            fn mul(a: Self, b: Self) -> Self { a * b }
            // StableHLO's (and the generated code's) maximum: NaN if either
            // is NaN, and +0 above -0.
            fn max(a: Self, b: Self) -> Self {
                if a.is_nan() || b.is_nan() { <$t>::NAN }
                else if a == b { if a.is_sign_negative() { b } else { a } }
                else if a > b { a } else { b }
            }
            fn min(a: Self, b: Self) -> Self {
                if a.is_nan() || b.is_nan() { <$t>::NAN }
                else if a == b { if a.is_sign_negative() { a } else { b } }
                else if a < b { a } else { b }
            }
        }
    )*};
}
float_element!(f32, f64);

/// Folds `parts` (each `range` long) in order into `acc` with `f`, one
/// member at a time so the loop vectorizes.
fn fold_parts<T: Element>(acc: &mut [T], parts: &[&[T]], f: impl Fn(T, T) -> T) {
    acc.copy_from_slice(parts[0]);
    for part in &parts[1..] {
        for (a, &x) in acc.iter_mut().zip(part.iter()) {
            *a = f(*a, x);
        }
    }
}

fn fold_by_op<T: Element>(op: strata_abi::ReduceOp, acc: &mut [T], parts: &[&[T]]) {
    use strata_abi::ReduceOp::*;
    match op {
        Add => fold_parts(acc, parts, T::add),
        Mul => fold_parts(acc, parts, T::mul),
        Max => fold_parts(acc, parts, T::max),
        Min => fold_parts(acc, parts, T::min),
    }
}

/// Device `position` of `inputs.len()` reduces elements
/// `[position * count / g, (position + 1) * count / g)` of every input, in
/// member order, and writes them into every output.
///
/// # Safety
/// Every pointer addresses `count` elements of `T`; outputs overlap nothing.
unsafe fn reduce_my_slice<T: Element>(
    op: strata_abi::ReduceOp,
    inputs: &[usize],
    outputs: &[usize],
    position: usize,
    count: usize,
) {
    let g = inputs.len();
    let (lo, hi) = (position * count / g, (position + 1) * count / g);
    if lo == hi {
        return;
    }
    // SAFETY: the caller's contract.
    let parts: Vec<&[T]> = inputs
        .iter()
        .map(|&p| unsafe { std::slice::from_raw_parts((p as *const T).add(lo), hi - lo) })
        .collect();
    let mut acc = parts[0].to_vec();
    fold_by_op(op, &mut acc, &parts);
    for &o in outputs {
        // SAFETY: the caller's contract; each device writes only its slice.
        unsafe { std::ptr::copy_nonoverlapping(acc.as_ptr(), (o as *mut T).add(lo), hi - lo) };
    }
}

/// Elements of `T` in `bytes`: borrowed when aligned (MPI's buffers always
/// are), else copied.
fn elems<T: Element>(bytes: &[u8]) -> std::borrow::Cow<'_, [T]> {
    // SAFETY: every bit pattern is a valid T (integers and floats).
    let (pre, mid, post) = unsafe { bytes.align_to::<T>() };
    if pre.is_empty() && post.is_empty() {
        return std::borrow::Cow::Borrowed(mid);
    }
    let size = std::mem::size_of::<T>();
    std::borrow::Cow::Owned(
        bytes
            .chunks_exact(size)
            // SAFETY: `size` bytes each, read unaligned.
            .map(|c| unsafe { (c.as_ptr() as *const T).read_unaligned() })
            .collect(),
    )
}

/// The all_reduce fold over MPI: `parts` (one slice per member, in member
/// order, as bytes) folded with `op` into `acc`.
fn fold_bytes<T: Element>(op: strata_abi::ReduceOp, parts: &[&[u8]], acc: &mut [u8]) {
    if acc.is_empty() {
        return;
    }
    let owned: Vec<std::borrow::Cow<'_, [T]>> = parts.iter().map(|b| elems::<T>(b)).collect();
    let views: Vec<&[T]> = owned.iter().map(|c| &**c).collect();
    // SAFETY: as in `elems`.
    let (pre, mid, post) = unsafe { acc.align_to_mut::<T>() };
    if pre.is_empty() && post.is_empty() {
        fold_by_op(op, mid, &views);
        return;
    }
    let mut folded = views[0].to_vec();
    fold_by_op(op, &mut folded, &views);
    let size = std::mem::size_of::<T>();
    for (c, v) in acc.chunks_exact_mut(size).zip(folded) {
        // SAFETY: `size` bytes each, written unaligned.
        unsafe { (c.as_mut_ptr() as *mut T).write_unaligned(v) };
    }
}

/// Dispatches `body` on the element type.
macro_rules! by_elem {
    ($code:expr, $body:ident, $($arg:expr),*) => {
        match $code {
            strata_abi::ElemCode::S32 => $body::<i32>($($arg),*),
            strata_abi::ElemCode::S64 => $body::<i64>($($arg),*),
            strata_abi::ElemCode::U32 => $body::<u32>($($arg),*),
            strata_abi::ElemCode::U64 => $body::<u64>($($arg),*),
            strata_abi::ElemCode::F32 => $body::<f32>($($arg),*),
            strata_abi::ElemCode::F64 => $body::<f64>($($arg),*),
            _ => return Err(format!("all_reduce of element code {:?} is not built in", $code)),
        }
    };
}

/// `int32_t strata_rt_all_reduce(desc, op, elem, in, out, count)`: see
/// `strata_abi::runtime::ALL_REDUCE.name`. On threads, members exchange input and
/// output pointers and each reduces its slice straight from the others'
/// inputs into every output (no copies of whole operands); over MPI, a
/// reduce-scatter and all-gather of the same slices (see `mpi/mod.rs`), so both
/// backends fold members in the same order and give the same bits.
///
/// # Safety
/// `desc` is valid; `input` and `out` hold `count` elements of `elem`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn strata_rt_all_reduce(
    desc: *const CollectiveDesc,
    op: i32,
    elem: i32,
    input: *const c_void,
    out: *mut c_void,
    count: i64,
) -> c_int {
    let (Some(op), Some(code), Ok(count)) = (
        strata_abi::ReduceOp::from_i32(op),
        strata_abi::ElemCode::from_i32(elem),
        usize::try_from(count),
    ) else {
        set_error("bad all_reduce arguments");
        return 1;
    };
    let bytes = (count * code.storage_bytes() as usize) as i64;
    // SAFETY: the caller's contract.
    unsafe {
        let status = strata_rt_collective_begin(desc);
        if status != 0 {
            return status;
        }
        for buf in [input, out as *const c_void] {
            let status = strata_rt_collective_add(buf, bytes);
            if status != 0 {
                return status;
            }
        }
    }
    let mpi = with_device(|d| d.run.mpi);
    if mpi {
        return with_pending(|d| {
            let timeout = d.run.timeout.clone()?;
            let p = d.pending.take().ok_or("all_reduce outside a collective")?;
            let pos = p
                .position
                .ok_or("this device is in no group of an all_reduce")?;
            // Chosen before any message moves: a type the runtime cannot
            // fold fails here, on every member alike.
            type FoldFn = fn(strata_abi::ReduceOp, &[&[u8]], &mut [u8]);
            let fold: FoldFn = match code {
                strata_abi::ElemCode::S32 => fold_bytes::<i32>,
                strata_abi::ElemCode::S64 => fold_bytes::<i64>,
                strata_abi::ElemCode::U32 => fold_bytes::<u32>,
                strata_abi::ElemCode::U64 => fold_bytes::<u64>,
                strata_abi::ElemCode::F32 => fold_bytes::<f32>,
                strata_abi::ElemCode::F64 => fold_bytes::<f64>,
                _ => {
                    return Err(format!(
                        "all_reduce of element code {code:?} is not built in"
                    ));
                }
            };
            let at = crate::mpi::Arrival::new(p.key.0, timeout);
            crate::mpi::all_reduce(
                p.signature.clone(),
                &p.members,
                pos,
                code.storage_bytes() as usize,
                count,
                input,
                out,
                &at,
                &|parts: &[&[u8]], acc: &mut [u8]| fold(op, parts, acc),
            )
        });
    }
    let mut info = [0i64; 2];
    // SAFETY: two writable words.
    let status = unsafe { strata_rt_collective_meet(info.as_mut_ptr()) };
    if status != 0 {
        return status;
    }
    let status = with_pending(|d| {
        let p = d
            .pending
            .as_ref()
            .ok_or("all_reduce outside a collective")?;
        let meeting = p.meeting.clone().ok_or("all_reduce before the meeting")?;
        let position = p
            .position
            .ok_or("this device is in no group of an all_reduce")?;
        let (inputs, outputs) = {
            let mut st = lock(&meeting.state);
            if st.abandoned {
                return Err(abandoned(p, &st));
            }
            let mut inputs = Vec::new();
            let mut outputs = Vec::new();
            for ops in st.operands.iter().flatten() {
                if ops.len() != 2 || ops[0].bytes as i64 != bytes {
                    return Err("all_reduce operands differ between devices".into());
                }
                inputs.push(ops[0].address);
                outputs.push(ops[1].address);
            }
            st.copying += 1;
            (inputs, outputs)
        };
        // SAFETY: members' buffers stay valid until all have left; each
        // device writes only its own slice of the outputs.
        let r: Result<(), String> = (|| {
            unsafe {
                by_elem!(
                    code,
                    reduce_my_slice,
                    op,
                    &inputs,
                    &outputs,
                    position,
                    count
                )
            };
            Ok(())
        })();
        let mut st = lock(&meeting.state);
        st.copying -= 1;
        meeting.changed.notify_all();
        r
    });
    if status != 0 {
        return status;
    }
    strata_rt_collective_leave()
}

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
fn run_devices(
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
                                failure: None,
                            })
                        });
                        clear_error();
                        let status = body(device);
                        let failure = DEVICE
                            .with(|slot| slot.borrow_mut().take())
                            .and_then(|d| d.failure);
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
                failure: None,
            })
        });
        clear_error();
        // SAFETY: the caller's contract.
        unsafe { body(rank as i32, user) };
        let failure = DEVICE
            .with(|slot| std::mem::replace(&mut *slot.borrow_mut(), previous))
            .and_then(|d| d.failure);
        match failure {
            Some(msg) => {
                set_error(&format!("device {rank}: {msg}"));
                1
            }
            None => 0,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn desc(mode: CollectiveMode, groups: &[&[i64]]) -> CollectiveDesc {
        let mut d = CollectiveDesc {
            mode: mode as i64,
            group_count: groups.len() as i64,
            group_size: groups.first().map_or(0, |g| g.len() as i64),
            ..CollectiveDesc::default()
        };
        for (i, id) in groups.iter().flat_map(|g| g.iter()).enumerate() {
            d.ids[i] = *id;
        }
        d
    }

    #[test]
    fn groups_follow_the_spec_examples() {
        let g = process_groups(
            &desc(CollectiveMode::CrossReplica, &[&[0, 1], &[2, 3]]),
            4,
            2,
        );
        // (r, p) as r * 2 + p: [[(0,0),(1,0)], [(0,1),(1,1)], [(2,0),(3,0)], [(2,1),(3,1)]]
        assert_eq!(
            g.unwrap(),
            vec![vec![0, 2], vec![1, 3], vec![4, 6], vec![5, 7]]
        );
        let g = process_groups(&desc(CollectiveMode::CrossPartition, &[&[0, 1]]), 4, 2);
        assert_eq!(
            g.unwrap(),
            vec![vec![0, 1], vec![2, 3], vec![4, 5], vec![6, 7]]
        );
        let g = process_groups(
            &desc(
                CollectiveMode::CrossReplicaAndPartition,
                &[&[0, 1], &[2, 3]],
            ),
            4,
            2,
        );
        assert_eq!(g.unwrap(), vec![vec![0, 2, 1, 3], vec![4, 6, 5, 7]]);
        let g = process_groups(&desc(CollectiveMode::FlattenedIds, &[&[0, 1, 2, 3]]), 2, 2);
        assert_eq!(g.unwrap(), vec![vec![0, 1, 2, 3]]);
        let bad = process_groups(&desc(CollectiveMode::CrossReplica, &[&[0, 5]]), 2, 1);
        assert!(bad.unwrap_err().contains("names id 5"));
    }

    /// Four devices sum their device numbers through the protocol.
    #[test]
    fn devices_meet_and_fetch_each_others_operands() {
        let _turn = ENV.lock().unwrap_or_else(|e| e.into_inner());
        let d = desc(CollectiveMode::CrossReplica, &[&[0, 1, 2, 3]]);
        let sums = Mutex::new(vec![0i64; 4]);
        let status = run_devices(4, 1, false, &|device| {
            let mine = [device as i64 * 10];
            let mut info = [0i64; 2];
            let mut total = 0;
            unsafe {
                assert_eq!(strata_rt_collective_begin(&d), 0);
                assert_eq!(
                    strata_rt_collective_add(mine.as_ptr() as *const c_void, 8),
                    0
                );
                assert_eq!(strata_rt_collective_meet(info.as_mut_ptr()), 0);
                assert_eq!(info, [device as i64, 4]);
                for m in 0..4 {
                    let mut v = [0i64];
                    assert_eq!(
                        strata_rt_collective_fetch(m, 0, v.as_mut_ptr() as *mut c_void, 8),
                        0
                    );
                    total += v[0];
                }
            }
            assert_eq!(strata_rt_collective_leave(), 0);
            lock(&sums)[device] = total;
            0
        });
        assert_eq!(status, 0);
        assert_eq!(*lock(&sums), vec![60; 4]);
    }

    /// Tests that set `STRATA_COLLECTIVE_TIMEOUT_MS` or start runs (which
    /// read it) take turns.
    static ENV: Mutex<()> = Mutex::new(());

    fn with_timeout_env<R>(value: Option<&str>, f: impl FnOnce() -> R) -> R {
        let _turn = ENV.lock().unwrap_or_else(|e| e.into_inner());
        // SAFETY: every test of this module that reads the variable holds
        // ENV; no other module reads it.
        unsafe {
            match value {
                Some(v) => std::env::set_var("STRATA_COLLECTIVE_TIMEOUT_MS", v),
                None => std::env::remove_var("STRATA_COLLECTIVE_TIMEOUT_MS"),
            }
        }
        let r = f();
        unsafe { std::env::remove_var("STRATA_COLLECTIVE_TIMEOUT_MS") };
        r
    }

    /// Device 0 waits at a collective of devices 0 and 1; device 1 returns
    /// at once, or (late) arrives well after device 0 gave up. Returns the
    /// run's status and error and device 1's own error.
    fn run_with_missing_device(late: bool) -> (c_int, String, String) {
        let d = desc(CollectiveMode::CrossReplica, &[&[0, 1]]);
        let second = Mutex::new(String::new());
        let status = run_devices(2, 1, false, &|device| {
            if device == 1 && !late {
                return 0; // never arrives
            }
            if device == 1 {
                std::thread::sleep(Duration::from_millis(600));
            }
            let mine = [1i64];
            let mut info = [0i64; 2];
            let status = unsafe {
                strata_rt_collective_begin(&d);
                strata_rt_collective_add(mine.as_ptr() as *const c_void, 8);
                strata_rt_collective_meet(info.as_mut_ptr())
            };
            if device == 1 {
                *lock(&second) = last_error();
            }
            status
        });
        let second = lock(&second).clone();
        (status, last_error(), second)
    }

    #[test]
    fn a_missing_device_times_out_with_a_message() {
        let (status, msg, _) = with_timeout_env(Some("200"), || run_with_missing_device(false));
        assert_ne!(status, 0);
        assert!(
            msg.contains("device 0: collective #1 timed out after 200 ms: device(s) [1] of group [0, 1] did not arrive"),
            "{msg}"
        );
    }

    /// A device that arrives after the others gave up names the devices
    /// they waited for (it used to say `device(s) []`).
    #[test]
    fn a_late_device_names_the_devices_the_others_gave_up_on() {
        let (status, first, late) = with_timeout_env(Some("200"), || run_with_missing_device(true));
        assert_ne!(status, 0);
        assert!(
            first.contains("device(s) [1] of group [0, 1] did not arrive"),
            "{first}"
        );
        assert!(
            late.contains("collective #1 timed out: device(s) [1] of group [0, 1] did not arrive within 200 ms, and this device arrived after the others had given up"),
            "{late}"
        );
    }

    #[test]
    fn timeouts_must_be_positive_whole_milliseconds() {
        use std::ffi::OsStr;
        let ms = |v: &str| timeout_from(Some(OsStr::new(v)));
        assert_eq!(
            timeout_from(None),
            Ok(Duration::from_millis(DEFAULT_TIMEOUT_MS))
        );
        assert_eq!(ms("2000"), Ok(Duration::from_millis(2000)));
        assert_eq!(ms(" 15 "), Ok(Duration::from_millis(15)));
        assert_eq!(
            ms("99999999999999999999999"),
            Ok(Duration::from_millis(u64::MAX))
        );
        for bad in ["0", "-1", "abc", "", "1.5", "+5", "10ms"] {
            let err = ms(bad).unwrap_err();
            assert!(
                err.contains(&format!("STRATA_COLLECTIVE_TIMEOUT_MS={bad:?} is not a positive whole number of milliseconds")),
                "{err}"
            );
        }
        // The deadline of a huge timeout does not overflow the clock.
        assert!(deadline_after(Duration::from_millis(u64::MAX)) > Instant::now());
    }

    /// A run refuses a bad timeout up front (it used to mean the default).
    #[test]
    fn runs_refuse_a_bad_timeout() {
        for bad in ["0", "-1", "abc"] {
            let ran = std::sync::atomic::AtomicBool::new(false);
            let status = with_timeout_env(Some(bad), || {
                run_devices(2, 1, false, &|_| {
                    ran.store(true, std::sync::atomic::Ordering::Relaxed);
                    0
                })
            });
            assert_eq!(status, 1, "{bad}");
            assert!(!ran.load(std::sync::atomic::Ordering::Relaxed), "{bad}");
            let msg = last_error();
            assert!(
                msg.contains(&format!("STRATA_COLLECTIVE_TIMEOUT_MS={bad:?}")),
                "{msg}"
            );
        }
    }

    unsafe extern "C" fn count_device(_device: i32, user: *mut c_void) {
        // SAFETY: the test passes an AtomicUsize.
        let n = unsafe { &*(user as *const std::sync::atomic::AtomicUsize) };
        n.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }

    /// Device counts above MAX_DEVICES fail with a message instead of
    /// starting threads until the host aborts.
    #[test]
    fn device_counts_are_capped() {
        let _turn = ENV.lock().unwrap_or_else(|e| e.into_inner());
        let n = std::sync::atomic::AtomicUsize::new(0);
        let user = &n as *const _ as *mut c_void;
        for count in [i32::MAX, MAX_DEVICES as i32 + 1] {
            let status = unsafe { strata_rt_replicas_run(count, Some(count_device), user, 0) };
            assert_eq!(status, 1);
            let msg = last_error();
            assert!(
                msg.contains(&format!(
                    "P_replicas_run: n = {count} exceeds the 4096 devices"
                )),
                "{msg}"
            );
        }
        assert_eq!(n.load(std::sync::atomic::Ordering::Relaxed), 0);
        // replicas x partitions past usize, and past the cap.
        for (r, p) in [(i64::MAX, 4), (4097, 1), (64, 65)] {
            let status = unsafe { strata_rt_run_devices(device_task, user, r, p) };
            assert_eq!(status, 1);
            let msg = last_error();
            assert!(
                msg.contains("exceeds the 4096 devices a process runs"),
                "{msg}"
            );
        }
        let status = unsafe { strata_rt_replicas_run(3, Some(count_device), user, 0) };
        assert_eq!(status, 0, "{}", last_error());
        assert_eq!(n.load(std::sync::atomic::Ordering::Relaxed), 3);
    }

    unsafe extern "C" fn device_task(_ctx: *mut c_void, _begin: i64, _end: i64) -> i32 {
        0
    }
}
