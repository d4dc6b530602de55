//! `strata_rt_all_reduce`: a one-operand all_reduce with a known reducer
//! on a plain element type, each device reducing its slice of every
//! member's operand in member order (as XLA's in-process communicator).

use super::*;

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
