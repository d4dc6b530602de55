//! Collectives across processes through MPI, for libraries compiled with
//! `--collectives mpi`: each MPI process is one device.
//!
//! MPI is loaded when a run starts (`dlopen` of Open MPI's `libmpi.so.40`,
//! Debian's `libopenmpi3`), not linked: a library links the same runtime
//! either way, and only a process that runs `P_replicas_run` of an MPI
//! library needs MPI installed. Handles follow Open MPI's ABI (communicators,
//! datatypes and requests are pointers to its objects); another MPI is
//! refused with a message.
//!
//! A collective's group gets its own communicator (`MPI_Comm_split` of
//! `MPI_COMM_WORLD`), created the first time the collective runs — every
//! rank runs the same collectives in the same order, so communicators are
//! created in the same order everywhere — and kept for the process. The
//! exchange is `MPI_Iallgather` of every member's operands (`fetch` then
//! copies from the gathered bytes), or `MPI_Iallreduce` for floats' sums
//! and products.
//!
//! Nothing waits without a deadline (`STRATA_COLLECTIVE_TIMEOUT_MS`, as on
//! threads). On reaching a collective, each member sends every other member
//! a 16-byte arrival note (the collective's number and its operands' size)
//! and waits for theirs, polling with `MPI_Test`: the notes that never came
//! name the ranks that did not arrive, and notes that disagree catch ranks
//! running different collectives or operand sizes before any data moves.
//! The communicator split is blocking, so all ranks of the world exchange
//! notes first (on `MPI_COMM_WORLD`, tag [`ARRIVAL_TAG`]); the data moves
//! with non-blocking collectives polled against the same deadline. Buffers
//! MPI may still touch are the runtime's own copies, never the caller's.
//!
//! After a timeout, requests stay pending in MPI: their buffers are leaked
//! (MPI may still write them), every later collective of the process fails
//! at once, and the process skips `MPI_Finalize` at exit (finalizing with
//! pending requests can wait forever). `mpirun` then ends the job, since a
//! rank left without finalizing.

use std::ffi::{c_char, c_int, c_void};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use libloading::os::unix::{Library, RTLD_GLOBAL, RTLD_NOW, Symbol};

type Handle = *mut c_void;

/// Open MPI's `MPI_UNDEFINED` and `MPI_THREAD_SERIALIZED`.
const MPI_UNDEFINED: c_int = -32766;
const MPI_THREAD_SERIALIZED: c_int = 2;

/// The tag of arrival notes on `MPI_COMM_WORLD` (and on the runtime's own
/// communicators). Within MPI's guaranteed tag range (up to 32767) and far
/// from small tags a host program would pick; a host that receives on
/// `MPI_COMM_WORLD` with `MPI_ANY_TAG` while a collective is being set up
/// could take a note.
pub(crate) const ARRIVAL_TAG: c_int = 32_123;

type Isend = unsafe extern "C" fn(*const c_void, c_int, Handle, c_int, c_int, Handle, *mut Handle) -> c_int;
type Irecv = unsafe extern "C" fn(*mut c_void, c_int, Handle, c_int, c_int, Handle, *mut Handle) -> c_int;

struct Mpi {
    _lib: Library,
    comm_world: Handle,
    byte: Handle,
    comm_rank: unsafe extern "C" fn(Handle, *mut c_int) -> c_int,
    comm_size: unsafe extern "C" fn(Handle, *mut c_int) -> c_int,
    comm_split: unsafe extern "C" fn(Handle, c_int, c_int, *mut Handle) -> c_int,
    comm_set_errhandler: unsafe extern "C" fn(Handle, Handle) -> c_int,
    errors_return: Handle,
    isend: Isend,
    irecv: Irecv,
    test: unsafe extern "C" fn(*mut Handle, *mut c_int, *mut c_void) -> c_int,
    iallgather: unsafe extern "C" fn(
        *const c_void,
        c_int,
        Handle,
        *mut c_void,
        c_int,
        Handle,
        Handle,
        *mut Handle,
    ) -> c_int,
    iallreduce: unsafe extern "C" fn(
        *const c_void,
        *mut c_void,
        c_int,
        Handle,
        Handle,
        Handle,
        *mut Handle,
    ) -> c_int,
    float: Handle,
    double: Handle,
    op_sum: Handle,
    op_prod: Handle,
    finalize: unsafe extern "C" fn() -> c_int,
    finalized: unsafe extern "C" fn(*mut c_int) -> c_int,
}

// SAFETY: the handles are addresses of Open MPI's global objects; calls are
// serialized by the device thread (MPI_THREAD_SERIALIZED).
unsafe impl Send for Mpi {}
unsafe impl Sync for Mpi {}

static MPI: OnceLock<Result<Mpi, String>> = OnceLock::new();
/// Communicators by collective (descriptor words and layout).
static COMMS: Mutex<Vec<(Vec<i64>, usize)>> = Mutex::new(Vec::new());

fn load() -> Result<Mpi, String> {
    let lib = ["libmpi.so.40", "libmpi.so"]
        .iter()
        .find_map(|name| unsafe { Library::open(Some(name), RTLD_NOW | RTLD_GLOBAL) }.ok())
        .ok_or("cannot load MPI (libmpi.so.40): install Open MPI (Debian: libopenmpi3) and run under mpirun")?;
    // SAFETY: symbols of Open MPI's C API with these signatures.
    unsafe {
        fn sym<T: Copy>(lib: &Library, name: &str) -> Result<T, String> {
            let s: Symbol<T> = unsafe { lib.get(name.as_bytes()) }
                .map_err(|_| format!("the loaded MPI has no {name}: only Open MPI is supported"))?;
            Ok(*s)
        }
        fn object(lib: &Library, name: &str) -> Result<Handle, String> {
            let s: Symbol<*mut c_void> = unsafe { lib.get(name.as_bytes()) }
                .map_err(|_| format!("the loaded MPI has no {name}: only Open MPI is supported"))?;
            // The symbol's address is the handle (Open MPI passes `&ompi_mpi_comm_world`).
            Ok(*s)
        }
        let initialized: unsafe extern "C" fn(*mut c_int) -> c_int = sym(&lib, "MPI_Initialized")?;
        let init_thread: unsafe extern "C" fn(
            *mut c_int,
            *mut *mut *mut c_char,
            c_int,
            *mut c_int,
        ) -> c_int = sym(&lib, "MPI_Init_thread")?;
        let mpi = Mpi {
            comm_world: object(&lib, "ompi_mpi_comm_world")?,
            byte: object(&lib, "ompi_mpi_byte")?,
            comm_rank: sym(&lib, "MPI_Comm_rank")?,
            comm_size: sym(&lib, "MPI_Comm_size")?,
            comm_split: sym(&lib, "MPI_Comm_split")?,
            comm_set_errhandler: sym(&lib, "MPI_Comm_set_errhandler")?,
            errors_return: object(&lib, "ompi_mpi_errors_return")?,
            isend: sym(&lib, "MPI_Isend")?,
            irecv: sym(&lib, "MPI_Irecv")?,
            test: sym(&lib, "MPI_Test")?,
            iallgather: sym(&lib, "MPI_Iallgather")?,
            iallreduce: sym(&lib, "MPI_Iallreduce")?,
            float: object(&lib, "ompi_mpi_float")?,
            double: object(&lib, "ompi_mpi_double")?,
            op_sum: object(&lib, "ompi_mpi_op_sum")?,
            op_prod: object(&lib, "ompi_mpi_op_prod")?,
            finalize: sym(&lib, "MPI_Finalize")?,
            finalized: sym(&lib, "MPI_Finalized")?,
            _lib: lib,
        };
        let mut flag = 0;
        initialized(&mut flag);
        if flag == 0 {
            let mut provided = 0;
            if init_thread(
                std::ptr::null_mut(),
                std::ptr::null_mut(),
                MPI_THREAD_SERIALIZED,
                &mut provided,
            ) != 0
            {
                return Err("MPI_Init_thread failed".into());
            }
            atexit(finalize_at_exit);
        }
        Ok(mpi)
    }
}

unsafe extern "C" {
    fn atexit(f: extern "C" fn()) -> c_int;
}

/// Finalizes MPI when the process exits, if this runtime initialized it and
/// no collective left requests pending (see the module's notes).
extern "C" fn finalize_at_exit() {
    if broken().is_some() {
        return;
    }
    if let Some(Ok(m)) = MPI.get() {
        let mut done = 0;
        // SAFETY: Open MPI's API; nothing else runs at exit.
        unsafe {
            (m.finalized)(&mut done);
            if done == 0 {
                (m.finalize)();
            }
        }
    }
}

fn mpi() -> Result<&'static Mpi, String> {
    MPI.get_or_init(load).as_ref().map_err(|e| e.clone())
}

/// This process's rank and the world size, initializing MPI if needed.
pub(crate) fn world() -> Result<(usize, usize), String> {
    let m = mpi()?;
    let (mut rank, mut size) = (0, 0);
    // SAFETY: Open MPI's API on its world communicator.
    unsafe {
        (m.comm_rank)(m.comm_world, &mut rank);
        (m.comm_size)(m.comm_world, &mut size);
    }
    Ok((rank as usize, size as usize))
}

/// Why MPI collectives can no longer run in this process: the first
/// collective that timed out with requests still pending.
static BROKEN: Mutex<Option<String>> = Mutex::new(None);

fn broken() -> Option<String> {
    BROKEN.lock().unwrap_or_else(|e| e.into_inner()).clone()
}

/// Records a timeout that left requests pending; returns `msg`.
fn break_with(msg: String) -> String {
    BROKEN
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get_or_insert_with(|| msg.clone());
    msg
}

/// MPI, unless an earlier collective left it unusable.
fn usable() -> Result<&'static Mpi, String> {
    let m = mpi()?;
    match broken() {
        Some(why) => Err(format!(
            "no MPI collective can run after an earlier one failed with requests pending ({why})"
        )),
        None => Ok(m),
    }
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
/// left pending by a timeout never writes into freed memory. Words, so MPI's
/// reductions read aligned floats.
struct Pinned(&'static mut [u64]);

impl Pinned {
    fn zeroed(bytes: usize) -> Pinned {
        Pinned(Box::leak(vec![0u64; bytes.div_ceil(8)].into_boxed_slice()))
    }

    fn ptr(&mut self) -> *mut c_void {
        self.0.as_mut_ptr().cast()
    }

    fn bytes(&self) -> &[u8] {
        // SAFETY: the words' own bytes.
        unsafe { std::slice::from_raw_parts(self.0.as_ptr().cast(), self.0.len() * 8) }
    }

    fn bytes_mut(&mut self) -> &mut [u8] {
        // SAFETY: the words' own bytes.
        unsafe { std::slice::from_raw_parts_mut(self.0.as_mut_ptr().cast(), self.0.len() * 8) }
    }

    /// Frees the buffer: every request on it has completed.
    fn release(self) {
        // SAFETY: leaked from a Box in `zeroed`; no request refers to it.
        drop(unsafe { Box::from_raw(self.0 as *mut [u64]) });
    }
}

/// Polls `requests` with `MPI_Test` until all have completed (Ok(None)) or
/// the deadline passes (Ok(Some(indices still pending))). Spins briefly,
/// then yields, then sleeps a millisecond between polls, so a rank waiting
/// long for another does not take the CPU from it.
fn wait(m: &Mpi, requests: &mut [Option<Handle>], deadline: Instant) -> Result<Option<Vec<usize>>, String> {
    let start = Instant::now();
    loop {
        let mut pending = Vec::new();
        for (i, slot) in requests.iter_mut().enumerate() {
            let Some(request) = slot.as_mut() else {
                continue;
            };
            let mut flag = 0;
            // SAFETY: a request MPI returned; MPI_STATUS_IGNORE is NULL in Open MPI.
            let rc = unsafe { (m.test)(request, &mut flag, std::ptr::null_mut()) };
            if rc != 0 {
                return Err(format!("MPI_Test failed ({rc})"));
            }
            if flag != 0 {
                *slot = None;
            } else {
                pending.push(i);
            }
        }
        if pending.is_empty() {
            return Ok(None);
        }
        let now = Instant::now();
        if now >= deadline {
            return Ok(Some(pending));
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

/// Exchanges arrival notes with every other rank of `comm` (`group[j]` is
/// the device of comm rank j; this rank is `me`): fails, naming them, when
/// some do not arrive by the deadline, or when a rank is at another
/// collective or has operands of another size.
fn arrive(
    m: &Mpi,
    comm: Handle,
    group: &[usize],
    me: usize,
    bytes: u64,
    at: &Arrival,
    what: &str,
) -> Result<(), String> {
    let g = group.len();
    let mut mine = Pinned::zeroed(16);
    mine.0[0] = at.seq;
    mine.0[1] = bytes;
    let mut theirs: Vec<Pinned> = (0..g).map(|_| Pinned::zeroed(16)).collect();
    // Receives first (indices 0..g), then sends (g..2g).
    let mut requests: Vec<Option<Handle>> = vec![None; 2 * g];
    for j in (0..g).filter(|&j| j != me) {
        let mut r: Handle = std::ptr::null_mut();
        // SAFETY: 16-byte pinned buffers; ranks of `comm`.
        let rc = unsafe { (m.irecv)(theirs[j].ptr(), 16, m.byte, j as c_int, ARRIVAL_TAG, comm, &mut r) };
        if rc != 0 {
            return Err(break_with(format!("MPI_Irecv failed ({rc})")));
        }
        requests[j] = Some(r);
        let mut s: Handle = std::ptr::null_mut();
        // SAFETY: as above.
        let rc = unsafe { (m.isend)(mine.ptr(), 16, m.byte, j as c_int, ARRIVAL_TAG, comm, &mut s) };
        if rc != 0 {
            return Err(break_with(format!("MPI_Isend failed ({rc})")));
        }
        requests[g + j] = Some(s);
    }
    if let Some(pending) = wait(m, &mut requests, at.deadline)? {
        let missing: Vec<usize> = pending.iter().filter(|&&i| i < g).map(|&i| group[i]).collect();
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
        return Err(break_with(msg));
    }
    // No request refers to the buffers any more.
    let notes: Vec<[u64; 2]> = theirs.iter().map(|t| [t.0[0], t.0[1]]).collect();
    mine.release();
    theirs.into_iter().for_each(Pinned::release);
    for (j, note) in notes.iter().enumerate().filter(|&(j, _)| j != me) {
        if note[0] != at.seq {
            return Err(format!(
                "device {} is at its collective #{} while device {} is at #{} (the ranks run different programs?)",
                group[j], note[0], group[me], at.seq
            ));
        }
        if note[1] != bytes {
            return Err(format!(
                "collective #{}: operands differ in size between processes (device {}: {} bytes, device {}: {bytes})",
                at.seq, group[j], note[1], group[me]
            ));
        }
    }
    Ok(())
}

/// The communicator of the group `members` (device = rank) that `key`
/// identifies, created collectively on first use: `color` is the group's
/// first member (MPI_UNDEFINED for a rank in no group), `position` orders it.
/// Before the blocking split, all ranks of the world exchange arrival notes.
fn communicator(
    m: &Mpi,
    key: Vec<i64>,
    color: Option<usize>,
    position: usize,
    at: &Arrival,
) -> Result<Handle, String> {
    let mut comms = COMMS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, c)) = comms.iter().find(|(k, _)| *k == key) {
        return Ok(*c as Handle);
    }
    let (rank, size) = world()?;
    let everyone: Vec<usize> = (0..size).collect();
    arrive(
        m,
        m.comm_world,
        &everyone,
        rank,
        0,
        at,
        &format!("the MPI world {everyone:?}, whose every rank sets up a collective's communicator,"),
    )?;
    let mut comm: Handle = std::ptr::null_mut();
    let color = color.map_or(MPI_UNDEFINED, |c| c as c_int);
    // SAFETY: every rank of the world has arrived at this split.
    let rc = unsafe { (m.comm_split)(m.comm_world, color, position as c_int, &mut comm) };
    if rc != 0 {
        return Err(format!("MPI_Comm_split failed ({rc})"));
    }
    if color != MPI_UNDEFINED {
        // Failures on the runtime's own communicators come back as codes
        // (which become error messages), not as an abort of the job.
        // SAFETY: a communicator MPI just created; Open MPI's handler object.
        unsafe { (m.comm_set_errhandler)(comm, m.errors_return) };
    }
    comms.push((key, comm as usize));
    Ok(comm)
}

/// Gathers every member's `operands` (in member order) through MPI: returns
/// the concatenation, `members` x the operands' total bytes.
pub(crate) fn exchange(
    key: Vec<i64>,
    members: &[usize],
    position: usize,
    operands: &[(usize, usize)],
    at: &Arrival,
) -> Result<Vec<u8>, String> {
    let m = usable()?;
    let comm = communicator(m, key, members.first().copied(), position, at)?;
    let total: usize = operands.iter().map(|&(_, b)| b).sum();
    let g = members.len();
    let group = format!("group {members:?}");
    arrive(m, comm, members, position, total as u64, at, &group)?;
    if total.saturating_mul(g) > i32::MAX as usize {
        return Err(format!(
            "a collective of {total} bytes per process exceeds MPI's int counts"
        ));
    }
    let mut packed = Pinned::zeroed(total);
    let mut at_byte = 0;
    for &(address, bytes) in operands {
        // SAFETY: the operand buffers the generated code registered.
        let src = unsafe { std::slice::from_raw_parts(address as *const u8, bytes) };
        packed.bytes_mut()[at_byte..at_byte + bytes].copy_from_slice(src);
        at_byte += bytes;
    }
    let mut gathered = Pinned::zeroed(total * g);
    let mut request: Handle = std::ptr::null_mut();
    // SAFETY: pinned buffers of the sizes given; MPI_BYTE counts.
    let rc = unsafe {
        (m.iallgather)(
            packed.ptr(),
            total as c_int,
            m.byte,
            gathered.ptr(),
            total as c_int,
            m.byte,
            comm,
            &mut request,
        )
    };
    if rc != 0 {
        return Err(format!("MPI_Iallgather failed ({rc})"));
    }
    finish(m, request, at, &group)?;
    let out = gathered.bytes()[..total * g].to_vec();
    packed.release();
    gathered.release();
    Ok(out)
}

/// Waits for a collective request whose members all arrived.
fn finish(m: &Mpi, request: Handle, at: &Arrival, group: &str) -> Result<(), String> {
    let mut requests = [Some(request)];
    match wait(m, &mut requests, at.deadline)? {
        None => Ok(()),
        Some(_) => Err(break_with(format!(
            "collective #{} timed out after {} ms exchanging data in {group}, which had all arrived (STRATA_COLLECTIVE_TIMEOUT_MS sets the limit)",
            at.seq,
            at.timeout.as_millis()
        ))),
    }
}

/// Keeps one split per key order: a rank in no group still takes part.
pub(crate) fn join_split(key: Vec<i64>, at: &Arrival) -> Result<(), String> {
    let m = usable()?;
    communicator(m, key, None, 0, at).map(|_| ())
}

/// `MPI_Iallreduce` for floats' sums and products (MPI's own reduction; the
/// order it combines members in is its own, the same on every rank).
/// Returns false for other reductions, which the caller gathers and folds.
#[allow(clippy::too_many_arguments)]
pub(crate) fn all_reduce(
    key: Vec<i64>,
    members: &[usize],
    position: usize,
    op: strata_abi::ReduceOp,
    code: strata_abi::ElemCode,
    input: *const c_void,
    out: *mut c_void,
    count: usize,
    at: &Arrival,
) -> Result<bool, String> {
    let m = usable()?;
    let dtype = match code {
        strata_abi::ElemCode::F32 => m.float,
        strata_abi::ElemCode::F64 => m.double,
        _ => return Ok(false),
    };
    let mpi_op = match op {
        strata_abi::ReduceOp::Add => m.op_sum,
        strata_abi::ReduceOp::Mul => m.op_prod,
        _ => return Ok(false),
    };
    let Ok(n) = c_int::try_from(count) else {
        return Ok(false);
    };
    let comm = communicator(m, key, members.first().copied(), position, at)?;
    let bytes = count * code.storage_bytes() as usize;
    let group = format!("group {members:?}");
    arrive(m, comm, members, position, bytes as u64, at, &group)?;
    // MPI works on copies: after a timeout the request may still read and
    // write them, long after the caller's buffers are gone.
    let mut send = Pinned::zeroed(bytes);
    // SAFETY: `input` holds `count` elements (the caller's contract).
    send.bytes_mut()[..bytes]
        .copy_from_slice(unsafe { std::slice::from_raw_parts(input as *const u8, bytes) });
    let mut recv = Pinned::zeroed(bytes);
    let mut request: Handle = std::ptr::null_mut();
    // SAFETY: pinned buffers of `count` elements.
    let rc = unsafe { (m.iallreduce)(send.ptr(), recv.ptr(), n, dtype, mpi_op, comm, &mut request) };
    if rc != 0 {
        return Err(format!("MPI_Iallreduce failed ({rc})"));
    }
    finish(m, request, at, &group)?;
    // SAFETY: `out` holds `count` elements (the caller's contract).
    unsafe { std::ptr::copy_nonoverlapping(recv.bytes().as_ptr(), out as *mut u8, bytes) };
    send.release();
    recv.release();
    Ok(true)
}
