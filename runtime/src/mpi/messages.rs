//! The messages behind MPI collectives: arrival notes and data, sent and
//! received without blocking and polled against the collective's deadline
//! (see the parent module's notes), into buffers that outlive a timeout.

use std::ffi::{c_int, c_void};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::{Handle, Mpi};

/// The tag of arrival notes on `MPI_COMM_WORLD` (and on the runtime's own
/// communicators). Within MPI's guaranteed tag range (up to 32767) and far
/// from small tags a host program would pick; a host that receives on
/// `MPI_COMM_WORLD` with `MPI_ANY_TAG` while a collective is being set up
/// could take a note.
const ARRIVAL_TAG: c_int = 32_123;

/// Why MPI collectives can no longer run in this process (the first
/// collective that failed with requests still pending), and its timeout.
static BROKEN: Mutex<Option<(String, Duration)>> = Mutex::new(None);

pub(super) fn broken() -> Option<(String, Duration)> {
    BROKEN.lock().unwrap_or_else(|e| e.into_inner()).clone()
}

/// Records a failure of `at` that left requests pending; returns `msg`.
pub(super) fn break_with(msg: String, at: &Arrival) -> String {
    BROKEN
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get_or_insert_with(|| (msg.clone(), at.timeout));
    msg
}

/// A collective as MPI sees it: its number on this device, when it must be
/// done by, and the limit that deadline came from (for messages).
pub(crate) struct Arrival {
    pub seq: u64,
    pub deadline: Instant,
    pub timeout: Duration,
}

impl Arrival {
    pub fn new(seq: u64, timeout: Duration) -> Arrival {
        let now = Instant::now();
        // Past any real wait: a timeout too large for the clock never ends.
        let deadline = now
            .checked_add(timeout)
            .unwrap_or_else(|| now + Duration::from_secs(100 * 365 * 24 * 3600));
        Arrival {
            seq,
            deadline,
            timeout,
        }
    }

    fn late(&self, missing: &[usize], group: &str) -> String {
        format!(
            "collective #{} timed out after {} ms: device(s) {missing:?} of {group} did not arrive (MPI ranks; STRATA_COLLECTIVE_TIMEOUT_MS sets the limit)",
            self.seq,
            self.timeout.as_millis()
        )
    }
}

/// A buffer MPI reads or writes while a request is pending: leaked unless
/// [`Pinned::release`] says no request can touch it any more, so a request
/// left pending by a timeout never writes into freed memory. Words, so the
/// slices all_reduce folds are aligned for their elements. It may be longer
/// than asked for (a reused one); users address explicit ranges.
pub(super) struct Pinned(&'static mut [u64]);

/// Data buffers kept for the next collectives: allocating and zeroing fresh
/// ones (page faults included) for each collective made a 1 MiB all_reduce
/// over 4 ranks up to twice as slow. At most [`SPARE_BUFFERS`], the smallest dropped
/// first, so a process keeps a few buffers of its largest collective.
static SPARE: Mutex<Vec<Box<[u64]>>> = Mutex::new(Vec::new());
const SPARE_BUFFERS: usize = 8;

impl Pinned {
    /// A new zeroed buffer.
    pub(super) fn zeroed(bytes: usize) -> Pinned {
        Pinned(Box::leak(vec![0u64; bytes.div_ceil(8)].into_boxed_slice()))
    }

    /// A buffer of at least `bytes` bytes, reused when one is spare (its
    /// contents are then an earlier collective's: callers write every
    /// byte they read).
    pub(super) fn reused(bytes: usize) -> Pinned {
        let words = bytes.div_ceil(8);
        let mut spare = SPARE.lock().unwrap_or_else(|e| e.into_inner());
        let fit = spare
            .iter()
            .enumerate()
            .filter(|(_, b)| b.len() >= words)
            .min_by_key(|(_, b)| b.len())
            .map(|(i, _)| i);
        match fit {
            Some(i) => Pinned(Box::leak(spare.swap_remove(i))),
            None => {
                drop(spare);
                Pinned::zeroed(bytes)
            }
        }
    }

    pub(super) fn ptr(&mut self) -> *mut c_void {
        self.0.as_mut_ptr().cast()
    }

    pub(super) fn bytes(&self) -> &[u8] {
        // SAFETY: the words' own bytes.
        unsafe { std::slice::from_raw_parts(self.0.as_ptr().cast(), self.0.len() * 8) }
    }

    pub(super) fn bytes_mut(&mut self) -> &mut [u8] {
        // SAFETY: the words' own bytes.
        unsafe { std::slice::from_raw_parts_mut(self.0.as_mut_ptr().cast(), self.0.len() * 8) }
    }

    /// Gives the buffer back (kept for reuse or freed): every request on it
    /// has completed.
    pub(super) fn release(self) {
        // SAFETY: leaked from a Box in `zeroed` or `reused`; no request
        // refers to it.
        let b = unsafe { Box::from_raw(self.0 as *mut [u64]) };
        // Small buffers are cheap to allocate; keeping them would only
        // push out large ones.
        if b.len() < 512 {
            return;
        }
        let mut spare = SPARE.lock().unwrap_or_else(|e| e.into_inner());
        spare.push(b);
        if spare.len() > SPARE_BUFFERS {
            if let Some((i, _)) = spare.iter().enumerate().min_by_key(|(_, b)| b.len()) {
                spare.swap_remove(i);
            }
        }
    }
}

/// Open MPI's `MPI_Status`.
#[repr(C)]
#[derive(Clone, Copy, Default)]
struct Status {
    source: c_int,
    tag: c_int,
    error: c_int,
    cancelled: c_int,
    count: usize,
}

/// The message for a failed request's code.
fn describe(code: c_int) -> String {
    if code == MPI_ERR_TRUNCATE {
        return "a member sent more bytes than this one expects: operands differ in size between processes (MPI_ERR_TRUNCATE)".into();
    }
    format!("an MPI request failed (error {code})")
}

/// Polls `requests` with `MPI_Testall` until all have completed (Ok(None))
/// or the deadline passes (Ok(Some(indices still pending))). One
/// `MPI_Testall` per poll rather than an `MPI_Test` per request: each call
/// runs MPI's progress engine once. Spins for 200 µs (with 4 ranks on 2
/// cores, shorter spins or none made 1 KiB all_reduces slower and longer
/// ones made 1 MiB ones slower), then yields, then past 20 ms sleeps a
/// millisecond between polls, so a rank waiting long for another does not
/// take the CPU from it.
pub(super) fn wait(
    m: &Mpi,
    requests: &mut [Option<Handle>],
    deadline: Instant,
) -> Result<Option<Vec<usize>>, String> {
    let index: Vec<usize> = (0..requests.len())
        .filter(|&i| requests[i].is_some())
        .collect();
    let mut active: Vec<Handle> = requests.iter().flatten().copied().collect();
    let mut statuses = vec![Status::default(); active.len()];
    let start = Instant::now();
    loop {
        let mut flag = 0;
        // SAFETY: requests MPI returned, and a status for each.
        let rc = unsafe {
            (m.testall)(
                active.len() as c_int,
                active.as_mut_ptr(),
                &mut flag,
                statuses.as_mut_ptr().cast(),
            )
        };
        if rc != 0 {
            // MPI_ERR_IN_STATUS: the failing requests' codes are in their
            // statuses.
            let code = statuses
                .iter()
                .map(|s| s.error)
                .find(|&e| e != 0)
                .unwrap_or(rc);
            return Err(describe(code));
        }
        let now = Instant::now();
        if flag == 0 && now >= deadline {
            // Which are still pending: MPI_Testall completed none of them
            // unless it completed all.
            let mut pending = Vec::new();
            for (k, request) in active.iter_mut().enumerate() {
                let mut done = 0;
                // SAFETY: as above; MPI_STATUS_IGNORE is NULL too.
                let rc = unsafe { (m.test)(request, &mut done, std::ptr::null_mut()) };
                if rc != 0 {
                    return Err(describe(rc));
                }
                if done == 0 {
                    pending.push(index[k]);
                }
            }
            requests.iter_mut().for_each(|r| *r = None);
            return Ok((!pending.is_empty()).then_some(pending));
        }
        if flag != 0 {
            requests.iter_mut().for_each(|r| *r = None);
            return Ok(None);
        }
        let waited = now - start;
        if waited < Duration::from_micros(200) {
            std::hint::spin_loop();
        } else if waited < Duration::from_millis(20) {
            std::thread::yield_now();
        } else {
            std::thread::sleep(Duration::from_millis(1).min(deadline - now));
        }
    }
}

/// Open MPI's `MPI_ERR_TRUNCATE`: a message longer than its receive.
const MPI_ERR_TRUNCATE: c_int = 15;

/// Bytes of an arrival note: the collective's number and the sender's
/// operand bytes, two little-endian u64.
pub(super) const NOTE: usize = 16;

/// Writes this member's note for `at` into the first [`NOTE`] bytes of `out`.
pub(super) fn write_note(out: &mut [u8], at: &Arrival, bytes: usize) {
    out[..8].copy_from_slice(&at.seq.to_le_bytes());
    out[8..NOTE].copy_from_slice(&(bytes as u64).to_le_bytes());
}

/// Checks the notes other members sent (comm rank j, its note's first
/// [`NOTE`] bytes): a member at another collective, or with operands of
/// another size, fails the collective before any data is used.
pub(super) fn check_notes<'a>(
    group: &[usize],
    me: usize,
    notes: impl Iterator<Item = (usize, &'a [u8])>,
    at: &Arrival,
    bytes: usize,
) -> Result<(), String> {
    let word = |b: &[u8]| u64::from_le_bytes(b.try_into().unwrap_or([0xff; 8]));
    for (j, note) in notes {
        let (seq, size) = (word(&note[..8]), word(&note[8..NOTE]));
        if seq != at.seq {
            return Err(format!(
                "device {} is at its collective #{seq} while device {} is at #{} (the ranks run different programs?)",
                group[j], group[me], at.seq
            ));
        }
        if size != bytes as u64 {
            return Err(format!(
                "collective #{}: operands differ in size between processes (device {}: {size} bytes, device {}: {bytes})",
                at.seq, group[j], group[me]
            ));
        }
    }
    Ok(())
}

/// Exchanges arrival notes with every other rank of `comm` (`group[j]` is
/// the device of comm rank j; this rank is `me`): fails, naming them, when
/// some do not arrive by the deadline, or when a rank is at another
/// collective or has operands of another size. (Collectives on their own
/// communicators send the note at the head of their first data message
/// instead, saving a round trip: see [`transfer`].)
pub(super) fn arrive(
    m: &Mpi,
    comm: Handle,
    group: &[usize],
    me: usize,
    bytes: usize,
    at: &Arrival,
    what: &str,
) -> Result<(), String> {
    let g = group.len();
    let mut mine = Pinned::zeroed(NOTE);
    write_note(mine.bytes_mut(), at, bytes);
    let mut theirs: Vec<Pinned> = (0..g).map(|_| Pinned::zeroed(NOTE)).collect();
    // Receives first (indices 0..g), then sends (g..2g).
    let mut requests: Vec<Option<Handle>> = vec![None; 2 * g];
    for j in (0..g).filter(|&j| j != me) {
        let mut r: Handle = std::ptr::null_mut();
        // SAFETY: 16-byte pinned buffers; ranks of `comm`.
        let rc = unsafe {
            (m.irecv)(
                theirs[j].ptr(),
                16,
                m.byte,
                j as c_int,
                ARRIVAL_TAG,
                comm,
                &mut r,
            )
        };
        if rc != 0 {
            return Err(break_with(format!("MPI_Irecv failed ({rc})"), at));
        }
        requests[j] = Some(r);
        let mut s: Handle = std::ptr::null_mut();
        // SAFETY: as above.
        let rc = unsafe {
            (m.isend)(
                mine.ptr(),
                16,
                m.byte,
                j as c_int,
                ARRIVAL_TAG,
                comm,
                &mut s,
            )
        };
        if rc != 0 {
            return Err(break_with(format!("MPI_Isend failed ({rc})"), at));
        }
        requests[g + j] = Some(s);
    }
    let waited = wait(m, &mut requests, at.deadline).map_err(|e| break_with(e, at))?;
    if let Some(pending) = waited {
        let missing: Vec<usize> = pending
            .iter()
            .filter(|&&i| i < g)
            .map(|&i| group[i])
            .collect();
        let msg = if missing.is_empty() {
            // Every note came in but one of ours is not delivered yet.
            format!(
                "collective #{} timed out after {} ms sending arrival notes to {what}",
                at.seq,
                at.timeout.as_millis()
            )
        } else {
            at.late(&missing, what)
        };
        return Err(break_with(msg, at));
    }
    // No request refers to the buffers any more.
    let checked = check_notes(
        group,
        me,
        theirs
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != me)
            .map(|(j, t)| (j, t.bytes())),
        at,
        bytes,
    );
    mine.release();
    theirs.into_iter().for_each(Pinned::release);
    checked
}

/// The tag of the data messages of a collective (on the runtime's own
/// communicators only).
const DATA_TAG: c_int = 32_124;

/// One message of a [`transfer`]: `bytes` bytes at `data`, to or from rank
/// `peer` of the communicator. `data` points into a [`Pinned`] buffer.
pub(super) struct Part {
    peer: usize,
    data: *mut u8,
    bytes: usize,
}

impl Part {
    /// `bytes` bytes at `offset` into `buffer`.
    pub(super) fn of(peer: usize, buffer: &mut Pinned, offset: usize, bytes: usize) -> Part {
        assert!(
            offset + bytes <= buffer.0.len() * 8,
            "a message outside its buffer"
        );
        Part {
            peer,
            // SAFETY: inside the buffer (checked above).
            data: unsafe { buffer.ptr().cast::<u8>().add(offset) },
            bytes,
        }
    }
}

/// What a [`transfer`]'s messages are to the members.
pub(super) enum Phase {
    /// The first messages of a collective, each headed by the sender's
    /// arrival note: a message that never comes means its sender did not
    /// arrive.
    Arriving,
    /// Later messages: every member has arrived.
    Data,
}

/// Receives `recvs` and sends `sends` (into and from pinned buffers: after
/// a timeout MPI may still use them), non-blocking, polled against the
/// deadline; past it, fails naming the members whose messages did not come.
pub(super) fn transfer(
    m: &Mpi,
    comm: Handle,
    group: &[usize],
    sends: &[Part],
    recvs: &[Part],
    at: &Arrival,
    phase: Phase,
) -> Result<(), String> {
    let mut requests: Vec<Option<Handle>> = vec![None; recvs.len() + sends.len()];
    for (i, r) in recvs.iter().enumerate() {
        let mut h: Handle = std::ptr::null_mut();
        let Ok(count) = c_int::try_from(r.bytes) else {
            return Err(break_with(
                format!("a message of {} bytes exceeds MPI's int counts", r.bytes),
                at,
            ));
        };
        // SAFETY: a range of a pinned buffer, which outlives the request.
        let rc = unsafe {
            (m.irecv)(
                r.data.cast(),
                count,
                m.byte,
                r.peer as c_int,
                DATA_TAG,
                comm,
                &mut h,
            )
        };
        if rc != 0 {
            return Err(break_with(format!("MPI_Irecv failed ({rc})"), at));
        }
        requests[i] = Some(h);
    }
    for (i, s) in sends.iter().enumerate() {
        let mut h: Handle = std::ptr::null_mut();
        let Ok(count) = c_int::try_from(s.bytes) else {
            return Err(break_with(
                format!("a message of {} bytes exceeds MPI's int counts", s.bytes),
                at,
            ));
        };
        // SAFETY: as above.
        let rc = unsafe {
            (m.isend)(
                s.data.cast(),
                count,
                m.byte,
                s.peer as c_int,
                DATA_TAG,
                comm,
                &mut h,
            )
        };
        if rc != 0 {
            return Err(break_with(format!("MPI_Isend failed ({rc})"), at));
        }
        requests[recvs.len() + i] = Some(h);
    }
    let waited = wait(m, &mut requests, at.deadline).map_err(|e| break_with(e, at))?;
    let Some(pending) = waited else {
        return Ok(());
    };
    let silent: Vec<usize> = pending
        .iter()
        .filter(|&&i| i < recvs.len())
        .map(|&i| group[recvs[i].peer])
        .collect();
    let msg = match phase {
        Phase::Arriving if !silent.is_empty() => at.late(&silent, &format!("group {group:?}")),
        _ => format!(
            "collective #{} timed out after {} ms: device(s) {silent:?} of group {group:?} arrived but did not send all their data (MPI ranks; STRATA_COLLECTIVE_TIMEOUT_MS sets the limit)",
            at.seq,
            at.timeout.as_millis()
        ),
    };
    Err(break_with(msg, at))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reused buffers: the smallest that fits, at most SPARE_BUFFERS kept
    /// (the smallest dropped first), and small ones never kept.
    #[test]
    fn spare_buffers_are_reused_smallest_first_and_bounded() {
        let words = |p: &Pinned| p.0.len();
        let big: Vec<Pinned> = (1..=SPARE_BUFFERS + 2)
            .map(|k| Pinned::reused(k * 8 * 1024))
            .collect();
        let ptrs: Vec<usize> = big.iter().map(|p| p.0.as_ptr() as usize).collect();
        big.into_iter().for_each(Pinned::release);
        assert_eq!(SPARE.lock().unwrap().len(), SPARE_BUFFERS);
        // The two smallest (8 and 16 KiB) were dropped: 20 KiB gets 24 KiB.
        let p = Pinned::reused(20 * 1024);
        assert_eq!(words(&p), 3 * 1024);
        assert_eq!(p.0.as_ptr() as usize, ptrs[2]);
        p.release();
        let small = Pinned::reused(16);
        assert!(words(&small) >= 2);
        let before = SPARE.lock().unwrap().len();
        Pinned::zeroed(16).release();
        assert_eq!(
            SPARE.lock().unwrap().len(),
            before,
            "small buffers are not kept"
        );
        small.release();
        SPARE.lock().unwrap().clear();
    }
}
