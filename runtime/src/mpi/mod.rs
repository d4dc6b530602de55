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
//! created in the same order everywhere — and kept for the process.
//!
//! Nothing waits without a deadline (`STRATA_COLLECTIVE_TIMEOUT_MS`, as on
//! threads): every message is non-blocking (`MPI_Isend`/`MPI_Irecv`),
//! polled with `MPI_Testall` against the deadline, since a member may give
//! up at any step. The first message a member sends each other member at a
//! collective starts with a 16-byte arrival note (the collective's number
//! and its operands' size): the first messages that never came name the
//! ranks that did not arrive, and notes that disagree catch ranks running
//! different collectives or operand sizes before any data is used. The
//! communicator split is blocking, so all ranks of the world exchange
//! notes alone first (on `MPI_COMM_WORLD`, tag 32123:
//! `messages::ARRIVAL_TAG`).
//!
//! The exchange behind `fetch` sends each member's note and operands to
//! every other member. all_reduce is a reduce-scatter then an all-gather
//! of slices (small ones: one round, every input to every member), folding
//! members in member order as the threads backend does, so both give the
//! same bits. MPI's non-blocking collectives (`MPI_Iallreduce`) were
//! measured first: Open MPI 4.1's libnbc ran a 1 MiB f32 sum over 4 ranks
//! (on 2 cores) about 6x slower than its blocking `MPI_Allreduce`; these
//! messages reach 0.8-1.0x of the blocking call's bandwidth from 1 KiB to
//! 64 MiB (bench/collectives/results.md). Buffers MPI may still touch are
//! the runtime's own copies (reused between collectives), never the
//! caller's.
//!
//! After a timeout, requests stay pending in MPI: their buffers are leaked
//! (MPI may still write them), and every later collective of the process
//! fails at once. At exit the process still finalizes MPI, which waits for
//! every rank to finalize: when the missing rank left (or failed too) that
//! ends the job normally, with the hosts' exit codes. A rank stuck elsewhere
//! would hold it forever, so finalizing gets at most the collective's
//! timeout; past it the process exits without finalizing and `mpirun` ends
//! the job. (Skipping `MPI_Finalize` outright made Open MPI 4.1.4's
//! `mpirun` hang in its own teardown, `PMIx_server_finalize`, with every
//! rank gone, in 2 of 15 runs of tests/e2e/faults/mpi_leave.c; finalizing
//! ended 20 of 20.)

use std::ffi::{c_char, c_int, c_void};
use std::sync::{Mutex, OnceLock};

use libloading::os::unix::{Library, RTLD_GLOBAL, RTLD_NOW, Symbol};

mod messages;

pub(crate) use messages::Arrival;
use messages::{NOTE, Part, Phase, Pinned, arrive, broken, check_notes, transfer, write_note};

type Handle = *mut c_void;

/// Open MPI's `MPI_UNDEFINED` and `MPI_THREAD_SERIALIZED`.
const MPI_UNDEFINED: c_int = -32766;
const MPI_THREAD_SERIALIZED: c_int = 2;

type Isend =
    unsafe extern "C" fn(*const c_void, c_int, Handle, c_int, c_int, Handle, *mut Handle) -> c_int;
type Irecv =
    unsafe extern "C" fn(*mut c_void, c_int, Handle, c_int, c_int, Handle, *mut Handle) -> c_int;

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
    testall: unsafe extern "C" fn(c_int, *mut Handle, *mut c_int, *mut c_void) -> c_int,
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
            testall: sym(&lib, "MPI_Testall")?,
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

/// Finalizes MPI when the process exits, if this runtime initialized it.
/// After a collective timed out, MPI_Finalize (which waits for every rank
/// to finalize) gets at most that collective's timeout, on a thread of its
/// own; past it the process exits without finalizing (see the module's
/// notes).
extern "C" fn finalize_at_exit() {
    let Some(Ok(m)) = MPI.get() else {
        return;
    };
    let mut done = 0;
    // SAFETY: Open MPI's API; the host makes no MPI call during exit.
    unsafe { (m.finalized)(&mut done) };
    if done != 0 {
        return;
    }
    let Some((_, limit)) = broken() else {
        // SAFETY: as above.
        unsafe { (m.finalize)() };
        return;
    };
    let (tx, rx) = std::sync::mpsc::channel();
    let finalizing = std::thread::Builder::new()
        .name("strata-mpi-finalize".into())
        .spawn(move || {
            // SAFETY: as above; this thread is the only one calling MPI.
            unsafe { (m.finalize)() };
            let _ = tx.send(());
        });
    if finalizing.is_ok() {
        let _ = rx.recv_timeout(limit);
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

/// MPI, unless an earlier collective left it unusable.
fn usable() -> Result<&'static Mpi, String> {
    let m = mpi()?;
    match broken() {
        Some((why, _)) => Err(format!(
            "no MPI collective can run after an earlier one failed with requests pending ({why})"
        )),
        None => Ok(m),
    }
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
        &format!(
            "the MPI world {everyone:?}, whose every rank sets up a collective's communicator,"
        ),
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

/// Every member's operands, gathered over MPI: member m's block, at
/// `m * stride`, holds its arrival note and then its operands.
pub(crate) struct Gathered {
    words: Pinned,
    stride: usize,
}

impl Gathered {
    /// Member `m`'s operands, concatenated.
    pub fn member(&self, m: usize) -> &[u8] {
        &self.words.bytes()[m * self.stride + NOTE..(m + 1) * self.stride]
    }
}

impl Drop for Gathered {
    fn drop(&mut self) {
        // Every request on it completed before it was handed out.
        std::mem::replace(&mut self.words, Pinned::zeroed(0)).release();
    }
}

/// Gathers every member's `operands` (in member order) through MPI: each
/// member sends its note and operands to every other one, in one message.
pub(crate) fn exchange(
    key: Vec<i64>,
    members: &[usize],
    position: usize,
    operands: &[(usize, usize)],
    at: &Arrival,
) -> Result<Gathered, String> {
    let m = usable()?;
    let comm = communicator(m, key, members.first().copied(), position, at)?;
    gather(m, comm, members, position, operands, at)
}

/// [`exchange`] on the collective's communicator.
fn gather(
    m: &Mpi,
    comm: Handle,
    members: &[usize],
    position: usize,
    operands: &[(usize, usize)],
    at: &Arrival,
) -> Result<Gathered, String> {
    let total: usize = operands.iter().map(|&(_, b)| b).sum();
    let g = members.len();
    let stride = NOTE + total;
    // Every member computes the same bound from its own size; a member of
    // another size fails on the notes (or on MPI_ERR_TRUNCATE) instead.
    if stride > i32::MAX as usize {
        return Err(format!(
            "a collective of {total} bytes per process exceeds MPI's int counts"
        ));
    }
    let mut gathered = Pinned::reused(stride * g);
    let mine = position * stride;
    write_note(&mut gathered.bytes_mut()[mine..], at, total);
    let mut at_byte = mine + NOTE;
    for &(address, bytes) in operands {
        // SAFETY: the operand buffers the generated code registered.
        let src = unsafe { std::slice::from_raw_parts(address as *const u8, bytes) };
        gathered.bytes_mut()[at_byte..at_byte + bytes].copy_from_slice(src);
        at_byte += bytes;
    }
    // Sends read this member's block while receives fill the others'.
    let others = (0..g).filter(|&j| j != position);
    let sends: Vec<Part> = others
        .clone()
        .map(|j| Part::of(j, &mut gathered, mine, stride))
        .collect();
    let recvs: Vec<Part> = others
        .clone()
        .map(|j| Part::of(j, &mut gathered, j * stride, stride))
        .collect();
    transfer(m, comm, members, &sends, &recvs, at, Phase::Arriving)?;
    let gathered = Gathered {
        words: gathered,
        stride,
    };
    let notes = others.map(|j| (j, &gathered.words.bytes()[j * stride..]));
    check_notes(members, position, notes, at, total)?;
    Ok(gathered)
}

/// Keeps one split per key order: a rank in no group still takes part.
pub(crate) fn join_split(key: Vec<i64>, at: &Arrival) -> Result<(), String> {
    let m = usable()?;
    communicator(m, key, None, 0, at).map(|_| ())
}

/// Bytes a member receives, at most, for an all_reduce to take one round
/// (every input to every member) instead of two (reduce-scatter then
/// all-gather). Measured with 4 ranks on 2 cores: one round took 15 µs at
/// 1 KiB (two: 31, MPI_Allreduce: 18) and 94 µs at 16 KiB (164, 88); two
/// rounds win from 64 KiB (115 µs against 128; MPI_Allreduce 115).
const ONE_ROUND_BYTES: usize = 64 << 10;

/// Folds the members' slices (in member order) into the output slice.
pub(crate) type Fold<'a> = &'a dyn Fn(&[&[u8]], &mut [u8]);

/// all_reduce over MPI of `count` elements of `elem` bytes, by
/// point-to-point messages: a reduce-scatter then an all-gather, where
/// member i reduces slice i (elements `[i * count / g, (i + 1) * count /
/// g)`, as on threads) of every member's input with `fold`, in member
/// order, and sends the result to all; or, for small inputs, one round in
/// which every member folds every input. Either way every element is
/// folded in member order: every rank gets the same bits, and the same as
/// the threads backend.
#[allow(clippy::too_many_arguments)]
pub(crate) fn all_reduce(
    key: Vec<i64>,
    members: &[usize],
    position: usize,
    elem: usize,
    count: usize,
    input: *const c_void,
    out: *mut c_void,
    at: &Arrival,
    fold: Fold,
) -> Result<(), String> {
    let m = usable()?;
    let comm = communicator(m, key, members.first().copied(), position, at)?;
    let bytes = count * elem;
    let g = members.len();
    if bytes.saturating_mul(g - 1) <= ONE_ROUND_BYTES {
        // Small: every member's whole input to every member in one round,
        // each folding all of them (the same order, so the same bits).
        let gathered = gather(m, comm, members, position, &[(input as usize, bytes)], at)?;
        let views: Vec<&[u8]> = (0..g).map(|j| gathered.member(j)).collect();
        let mut result = Pinned::reused(bytes);
        fold(&views, &mut result.bytes_mut()[..bytes]);
        // SAFETY: `out` holds `count` elements (the caller's contract).
        unsafe { std::ptr::copy_nonoverlapping(result.bytes().as_ptr(), out as *mut u8, bytes) };
        result.release();
        return Ok(());
    }
    // Every member computes the same bound from its own size (see exchange).
    if NOTE + bytes > i32::MAX as usize {
        return Err(format!(
            "an all_reduce of {bytes} bytes per process exceeds MPI's int counts"
        ));
    }
    let slice = |j: usize| (j * count / g * elem, (j + 1) * count / g * elem);
    let (lo, hi) = slice(position);
    // MPI works on copies: after a timeout a request may still read and
    // write them, long after the caller's buffers are gone. `mine` holds,
    // for each member j, this member's note and slice j of its input: the
    // first message to j, which also says this member arrived.
    let mut heads = Vec::with_capacity(g);
    let mut end = 0;
    for j in 0..g {
        let (a, b) = slice(j);
        heads.push(end);
        end += NOTE + (b - a);
    }
    let mut mine = Pinned::reused(end);
    for (j, &head) in heads.iter().enumerate() {
        let (a, b) = slice(j);
        let block = &mut mine.bytes_mut()[head..head + NOTE + (b - a)];
        write_note(block, at, bytes);
        // SAFETY: `input` holds `count` elements (the caller's contract).
        block[NOTE..].copy_from_slice(unsafe {
            std::slice::from_raw_parts((input as *const u8).add(a), b - a)
        });
    }
    let others: Vec<usize> = (0..g).filter(|&j| j != position).collect();
    // Reduce-scatter: slice j of this input to member j; slice `position`
    // of every other member's input (after its note) into a buffer of its own.
    let mut parts: Vec<Pinned> = others
        .iter()
        .map(|_| Pinned::reused(NOTE + hi - lo))
        .collect();
    let sends: Vec<Part> = others
        .iter()
        .map(|&j| {
            let (a, b) = slice(j);
            Part::of(j, &mut mine, heads[j], NOTE + (b - a))
        })
        .collect();
    let recvs: Vec<Part> = others
        .iter()
        .zip(parts.iter_mut())
        .map(|(&j, part)| Part::of(j, part, 0, NOTE + hi - lo))
        .collect();
    transfer(m, comm, members, &sends, &recvs, at, Phase::Arriving)?;
    let notes = others.iter().zip(&parts).map(|(&j, p)| (j, p.bytes()));
    if let Err(e) = check_notes(members, position, notes, at, bytes) {
        mine.release();
        parts.into_iter().for_each(Pinned::release);
        return Err(e);
    }
    let mut result = Pinned::reused(bytes);
    {
        let mut views: Vec<&[u8]> = parts
            .iter()
            .map(|p| &p.bytes()[NOTE..NOTE + hi - lo])
            .collect();
        let own = heads[position] + NOTE;
        views.insert(position, &mine.bytes()[own..own + hi - lo]);
        fold(&views, &mut result.bytes_mut()[lo..hi]);
    }
    // All-gather: this member's reduced slice to all; theirs into place.
    let sends: Vec<Part> = others
        .iter()
        .map(|&j| Part::of(j, &mut result, lo, hi - lo))
        .collect();
    let recvs: Vec<Part> = others
        .iter()
        .map(|&j| {
            let (a, b) = slice(j);
            Part::of(j, &mut result, a, b - a)
        })
        .collect();
    transfer(m, comm, members, &sends, &recvs, at, Phase::Data)?;
    // SAFETY: `out` holds `count` elements (the caller's contract).
    unsafe { std::ptr::copy_nonoverlapping(result.bytes().as_ptr(), out as *mut u8, bytes) };
    mine.release();
    parts.into_iter().for_each(Pinned::release);
    result.release();
    Ok(())
}
