//! `strata_rt_batched_call`: a function of one dimension variable `b`
//! (compiled ahead of time for a few sizes of it, see
//! `strata_abi::batched`) called for any `b`, as chunks of those sizes.
//!
//! The compiler proved that the function keeps the rows along `b` apart
//! (row `i` of a result depends on row `i` of the batched arguments and on
//! the others), so a chunk of rows computed by the variant of its size is
//! those rows of the whole result. A chunk that fills its variant and
//! whose buffers hold their rows contiguously (`outer == 1`) runs on the
//! caller's memory at an offset; otherwise its rows are copied into
//! zero-padded buffers of the variant's size and the results' rows copied
//! back. Results without `b` (they cannot depend on batched rows) are
//! written by every chunk alike.

use std::ffi::{CStr, c_char, c_void};

use strata_abi::batched::{BatchedBuffer, Layout, chunks};

use crate::error::set_error;
use crate::ffi_guard;

/// A variant's packed entry: `int32_t P_f__bN_packed(void *const *buffers)`.
pub type PackedFn = unsafe extern "C" fn(*const *mut c_void) -> i32;

/// Calls above this many rows are refused (their buffers could not exist).
const MAX_BATCH: i64 = 1 << 40;

/// # Safety
/// `layout` holds the words of a [`BatchedCall`] with `n` sizes (generated
/// code passes its own); `variants` holds `n` entries; `message` is a C
/// string; `dims` points to `b`; `buffers` holds one pointer per buffer of
/// the layout, each to memory of its size for `b` (the header's macros).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn strata_rt_batched_call(
    layout: *const i64,
    variants: *const Option<PackedFn>,
    message: *const c_char,
    dims: *const i64,
    buffers: *const *mut c_void,
) -> i32 {
    ffi_guard(1, || {
        // SAFETY: the caller's contract above.
        unsafe { batched_call(layout, variants, message, dims, buffers) }.unwrap_or_else(|m| {
            set_error(&m);
            1
        })
    })
}

unsafe fn batched_call(
    layout: *const i64,
    variants: *const Option<PackedFn>,
    message: *const c_char,
    dims: *const i64,
    buffers: *const *mut c_void,
) -> Result<i32, String> {
    if dims.is_null() {
        return Err("the array of dimension values is NULL".into());
    }
    // SAFETY: non-NULL, and points to b (contract).
    let b = unsafe { *dims };
    // SAFETY: the layout generated code passes (contract).
    let call = unsafe { read_layout(layout) }.ok_or("corrupt batched-call layout")?;
    if b < call.min_batch {
        // SAFETY: a C string from generated code.
        let text = unsafe { CStr::from_ptr(message) }.to_string_lossy();
        return Err(text.replace('\u{1}', &b.to_string()));
    }
    if b > MAX_BATCH {
        return Err(format!("dimension value {b} is out of range"));
    }
    let n = call.len();
    if n > 0 && buffers.is_null() {
        return Err(format!("the array of {n} buffers is NULL"));
    }
    let variant = |size: i64| -> Result<PackedFn, String> {
        let index = call
            .sizes
            .iter()
            .position(|&s| s == size)
            .ok_or("chunk of no compiled size")?;
        // SAFETY: one entry per size (contract).
        Ok(unsafe { *variants.add(index) }.ok_or("missing variant")?)
    };
    // A compiled size whose rows are contiguous: the variant on the
    // caller's buffers as they are (it checks them itself).
    if call.sizes.contains(&b) && call.buffers().all(|l| !l.batched || l.outer == 1) {
        // SAFETY: the caller's array of n buffers, each of b rows.
        return Ok(unsafe { variant(b)?(buffers) });
    }
    // SAFETY: n pointers (contract).
    let user: Vec<*mut c_void> = (0..n).map(|i| unsafe { *buffers.add(i) }).collect();
    // Every buffer's size for b fits (checked), so no offset below
    // overflows.
    for (i, (&p, layout)) in user.iter().zip(call.buffers()).enumerate() {
        if bytes_of(&layout, b)? > 0 && p.is_null() {
            return Err(format!("buffer {i} is NULL"));
        }
    }
    let layouts: Vec<BatchedBuffer> = call.buffers().collect();
    for (start, rows, size) in chunks(b, call.sizes, call.costs) {
        let status = run_chunk(variant(size)?, &layouts, &user, b, start, rows, size)?;
        if status != 0 {
            return Ok(status);
        }
    }
    Ok(0)
}

/// Reads the layout: the counts, then exactly the words they announce.
unsafe fn read_layout<'a>(layout: *const i64) -> Option<Layout<'a>> {
    if layout.is_null() {
        return None;
    }
    // SAFETY: at least the header's words (contract).
    let head = unsafe { std::slice::from_raw_parts(layout, strata_abi::batched::HEAD) };
    let len = Layout::announced_len(head.try_into().ok()?)?;
    // SAFETY: as many words as the header announces (contract); generated
    // code's layouts are constants, alive as long as the library.
    Layout::parse(unsafe { std::slice::from_raw_parts(layout, len) })
}

fn bytes_of(layout: &BatchedBuffer, rows: i64) -> Result<usize, String> {
    let rows = if layout.batched { rows } else { 1 };
    layout
        .outer
        .checked_mul(rows)
        .and_then(|x| x.checked_mul(layout.row_bytes))
        .and_then(|x| usize::try_from(x).ok())
        .ok_or_else(|| format!("a buffer of {rows} rows is too large"))
}

/// Runs rows `start..start + rows` of a call of `b` rows on the variant of
/// `size` rows.
fn run_chunk(
    entry: PackedFn,
    layouts: &[BatchedBuffer],
    user: &[*mut c_void],
    b: i64,
    start: i64,
    rows: i64,
    size: i64,
) -> Result<i32, String> {
    let in_place = rows == size;
    let mut staged: Vec<Option<Vec<u8>>> = Vec::with_capacity(layouts.len());
    let mut pointers: Vec<*mut c_void> = Vec::with_capacity(layouts.len());
    for (l, &p) in layouts.iter().zip(user) {
        if !l.batched {
            staged.push(None);
            pointers.push(p);
        } else if in_place && l.outer == 1 {
            let offset = start
                .checked_mul(l.row_bytes)
                .and_then(|o| usize::try_from(o).ok())
                .ok_or("offset overflow")?;
            staged.push(None);
            // SAFETY: within the caller's buffer of b rows (start + rows <= b).
            pointers.push(unsafe { p.cast::<u8>().add(offset) }.cast());
        } else {
            let mut temp = vec![0u8; bytes_of(l, size)?];
            if !l.is_result {
                copy_rows(
                    l,
                    p.cast::<u8>(),
                    b,
                    start,
                    temp.as_mut_ptr(),
                    size,
                    rows,
                    false,
                );
            }
            pointers.push(temp.as_mut_ptr().cast());
            staged.push(Some(temp));
        }
    }
    // SAFETY: one pointer per buffer, each to memory of the variant's size.
    let status = unsafe { entry(pointers.as_ptr()) };
    if status == 0 {
        for ((l, &p), temp) in layouts.iter().zip(user).zip(&mut staged) {
            if let (true, Some(temp)) = (l.is_result, temp) {
                copy_rows(
                    l,
                    p.cast::<u8>(),
                    b,
                    start,
                    temp.as_mut_ptr(),
                    size,
                    rows,
                    true,
                );
            }
        }
    }
    Ok(status)
}

/// Copies `rows` rows between the caller's buffer of `b` rows (from row
/// `start`) and a staged one of `size` rows (from its first), block by
/// block: into the staged one, or back when `back`.
#[allow(clippy::too_many_arguments)]
fn copy_rows(
    l: &BatchedBuffer,
    user: *mut u8,
    b: i64,
    start: i64,
    staged: *mut u8,
    size: i64,
    rows: i64,
    back: bool,
) {
    let row = l.row_bytes as usize;
    for o in 0..l.outer as usize {
        let u = (o * b as usize + start as usize) * row;
        let s = o * size as usize * row;
        let len = rows as usize * row;
        if len == 0 {
            continue;
        }
        // SAFETY: both ranges lie within their buffers (rows <= size,
        // start + rows <= b) and do not overlap (one is ours).
        unsafe {
            if back {
                std::ptr::copy_nonoverlapping(staged.add(s), user.add(u), len);
            } else {
                std::ptr::copy_nonoverlapping(user.add(u), staged.add(s), len);
            }
        }
    }
}
