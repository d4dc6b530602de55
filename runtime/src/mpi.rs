//! Collectives across processes through MPI, for libraries compiled with
//! `--collectives mpi`: each MPI process is one device.
//!
//! MPI is loaded when a run starts (`dlopen` of Open MPI's `libmpi.so.40`,
//! Debian's `libopenmpi3`), not linked: a library links the same runtime
//! either way, and only a process that runs `P_replicas_run` of an MPI
//! library needs MPI installed. Handles follow Open MPI's ABI (communicators
//! and datatypes are pointers to its exported objects); another MPI is
//! refused with a message.
//!
//! A collective's group gets its own communicator (`MPI_Comm_split` of
//! `MPI_COMM_WORLD`), created the first time the collective runs — every
//! rank runs the same collectives in the same order, so communicators are
//! created in the same order everywhere — and kept for the process. The
//! exchange is `MPI_Allgather` of every member's operands (their sizes
//! first, so members that disagree fail with a message rather than
//! corrupting memory); `fetch` then copies from the gathered bytes.

use std::ffi::{c_char, c_int, c_void};
use std::sync::{Mutex, OnceLock};

use libloading::os::unix::{Library, RTLD_GLOBAL, RTLD_NOW, Symbol};

type Handle = *mut c_void;

/// Open MPI's `MPI_UNDEFINED` and `MPI_THREAD_SERIALIZED`.
const MPI_UNDEFINED: c_int = -32766;
const MPI_THREAD_SERIALIZED: c_int = 2;

struct Mpi {
    _lib: Library,
    comm_world: Handle,
    byte: Handle,
    comm_rank: unsafe extern "C" fn(Handle, *mut c_int) -> c_int,
    comm_size: unsafe extern "C" fn(Handle, *mut c_int) -> c_int,
    comm_split: unsafe extern "C" fn(Handle, c_int, c_int, *mut Handle) -> c_int,
    allgather: unsafe extern "C" fn(
        *const c_void,
        c_int,
        Handle,
        *mut c_void,
        c_int,
        Handle,
        Handle,
    ) -> c_int,
    allreduce:
        unsafe extern "C" fn(*const c_void, *mut c_void, c_int, Handle, Handle, Handle) -> c_int,
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
            allgather: sym(&lib, "MPI_Allgather")?,
            allreduce: sym(&lib, "MPI_Allreduce")?,
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

/// Finalizes MPI when the process exits, if this runtime initialized it.
extern "C" fn finalize_at_exit() {
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

/// The communicator of the group `members` (device = rank) that `key`
/// identifies, created collectively on first use: `color` is the group's
/// first member (MPI_UNDEFINED for a rank in no group), `position` orders it.
fn communicator(key: Vec<i64>, color: Option<usize>, position: usize) -> Result<Handle, String> {
    let m = mpi()?;
    let mut comms = COMMS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, c)) = comms.iter().find(|(k, _)| *k == key) {
        return Ok(*c as Handle);
    }
    let mut comm: Handle = std::ptr::null_mut();
    let color = color.map_or(MPI_UNDEFINED, |c| c as c_int);
    // SAFETY: every rank reaches this split in the same order.
    let rc = unsafe { (m.comm_split)(m.comm_world, color, position as c_int, &mut comm) };
    if rc != 0 {
        return Err(format!("MPI_Comm_split failed ({rc})"));
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
) -> Result<Vec<u8>, String> {
    let m = mpi()?;
    let comm = communicator(key, members.first().copied(), position)?;
    let total: usize = operands.iter().map(|&(_, b)| b).sum();
    let g = members.len();
    let mine = (total as u64).to_le_bytes();
    let mut sizes = vec![0u8; 8 * g];
    // SAFETY: buffers of the sizes given; MPI_BYTE counts.
    let rc = unsafe {
        (m.allgather)(
            mine.as_ptr().cast(),
            8,
            m.byte,
            sizes.as_mut_ptr().cast(),
            8,
            m.byte,
            comm,
        )
    };
    if rc != 0 {
        return Err(format!("MPI_Allgather failed ({rc})"));
    }
    if sizes.chunks(8).any(|c| c != mine) {
        return Err("collective operands differ in size between processes".into());
    }
    if total.saturating_mul(g) > i32::MAX as usize {
        return Err(format!(
            "a collective of {total} bytes per process exceeds MPI's int counts"
        ));
    }
    let mut packed = Vec::with_capacity(total);
    for &(address, bytes) in operands {
        // SAFETY: the operand buffers the generated code registered.
        packed
            .extend_from_slice(unsafe { std::slice::from_raw_parts(address as *const u8, bytes) });
    }
    let mut gathered = vec![0u8; total * g];
    // SAFETY: as above.
    let rc = unsafe {
        (m.allgather)(
            packed.as_ptr().cast(),
            total as c_int,
            m.byte,
            gathered.as_mut_ptr().cast(),
            total as c_int,
            m.byte,
            comm,
        )
    };
    if rc != 0 {
        return Err(format!("MPI_Allgather failed ({rc})"));
    }
    Ok(gathered)
}

/// Keeps one split per key order: a rank in no group still takes part.
pub(crate) fn join_split(key: Vec<i64>) -> Result<(), String> {
    communicator(key, None, 0).map(|_| ())
}

/// `MPI_Allreduce` for floats' sums and products (MPI's own reduction; the
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
) -> Result<bool, String> {
    let m = mpi()?;
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
    let comm = communicator(key, members.first().copied(), position)?;
    // SAFETY: `input`/`out` hold `count` elements (the caller's contract).
    let rc = unsafe { (m.allreduce)(input, out, n, dtype, mpi_op, comm) };
    if rc != 0 {
        return Err(format!("MPI_Allreduce failed ({rc})"));
    }
    Ok(true)
}
