//! `rng_bit_generator` with THREE_FRY, bit for bit as XLA:CPU computes it.
//!
//! The state is two u64: the Threefry-2x32 key and a 64-bit counter. Each
//! block (one counter value) gives two u32 words. For 8-byte outputs, each
//! element takes one block, `x1 << 32 | x0`, in row-major order. For
//! smaller outputs one dimension is split in halves — the first of even
//! size, else the largest (the first of equal ones) — and element i of that
//! dimension takes word i % 2 of the block at its row-major index in the
//! halved shape (i / 2 in that dimension); 1- and 2-byte elements keep the
//! low bits of their word. The new state advances the counter by the
//! number of blocks. (Measured against XLA:CPU through JAX.)

use std::ffi::c_void;

use strata_abi::RngDesc;

use crate::ffi_guard;

/// Threefry-2x32 with 20 rounds (Salmon et al., Random123).
fn threefry2x32(key: [u32; 2], counter: [u32; 2]) -> [u32; 2] {
    const ROTATIONS: [[u32; 4]; 2] = [[13, 15, 26, 6], [17, 29, 16, 24]];
    let ks = [key[0], key[1], 0x1BD1_1BDA ^ key[0] ^ key[1]];
    let mut x = [
        counter[0].wrapping_add(ks[0]),
        counter[1].wrapping_add(ks[1]),
    ];
    for i in 0..5 {
        for &r in &ROTATIONS[i % 2] {
            x[0] = x[0].wrapping_add(x[1]);
            x[1] = x[1].rotate_left(r);
            x[1] ^= x[0];
        }
        x[0] = x[0].wrapping_add(ks[(i + 1) % 3]);
        x[1] = x[1]
            .wrapping_add(ks[(i + 2) % 3])
            .wrapping_add(i as u32 + 1);
    }
    x
}

fn block(key: u64, counter: u64) -> [u32; 2] {
    threefry2x32(
        [key as u32, (key >> 32) as u32],
        [counter as u32, (counter >> 32) as u32],
    )
}

/// The dimension XLA splits in halves.
fn split_dim(dims: &[i64]) -> usize {
    if let Some(d) = dims.iter().position(|&n| n % 2 == 0) {
        return d;
    }
    let max = dims.iter().copied().max().unwrap_or(0);
    dims.iter().position(|&n| n == max).unwrap_or(0)
}

/// Fills `out` (row-major, `dims`) and returns the number of blocks used.
fn generate(key: u64, counter: u64, dims: &[i64], bytes: usize, out: &mut [u8]) -> u64 {
    let count: usize = dims.iter().map(|&n| n.max(0) as usize).product();
    if count == 0 {
        return 0;
    }
    if bytes == 8 {
        for (i, chunk) in out.chunks_exact_mut(8).take(count).enumerate() {
            let [x0, x1] = block(key, counter.wrapping_add(i as u64));
            chunk.copy_from_slice(&((u64::from(x1) << 32) | u64::from(x0)).to_le_bytes());
        }
        return count as u64;
    }
    let (d, mut half) = if dims.is_empty() {
        (0, vec![1])
    } else {
        (split_dim(dims), dims.to_vec())
    };
    let dims = if dims.is_empty() {
        vec![1]
    } else {
        dims.to_vec()
    };
    half[d] = (dims[d] + 1) / 2;
    let blocks: u64 = half.iter().map(|&n| n as u64).product();
    let mut idx = vec![0i64; dims.len()];
    for i in 0..count {
        // Row-major index in the halved shape, with this dimension halved.
        let mut f: u64 = 0;
        for (k, &x) in idx.iter().enumerate() {
            let v = if k == d { x / 2 } else { x };
            f = f * half[k] as u64 + v as u64;
        }
        let word = block(key, counter.wrapping_add(f))[(idx[d] % 2) as usize];
        out[i * bytes..(i + 1) * bytes].copy_from_slice(&word.to_le_bytes()[..bytes]);
        for k in (0..idx.len()).rev() {
            idx[k] += 1;
            if idx[k] < dims[k] {
                break;
            }
            idx[k] = 0;
        }
    }
    blocks
}

/// `void strata_rt_rng_three_fry(const RngDesc *, const uint64_t state[2],
/// uint64_t new_state[2], void *out)`.
///
/// # Safety
/// The pointers are valid; `out` holds the described output.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn strata_rt_rng_three_fry(
    desc: *const RngDesc,
    state: *const u64,
    new_state: *mut u64,
    out: *mut c_void,
) {
    ffi_guard((), || {
        // SAFETY: the caller's contract.
        let d = unsafe { &*desc };
        let rank = (d.rank.clamp(0, strata_abi::RNG_MAX_RANK as i64)) as usize;
        let dims = &d.dims[..rank];
        let bytes = d.element_bytes.clamp(1, 8) as usize;
        let count: usize = dims.iter().map(|&n| n.max(0) as usize).product();
        // SAFETY: the caller's contract.
        let (key, counter) = unsafe { (*state, *state.add(1)) };
        let out = unsafe { std::slice::from_raw_parts_mut(out as *mut u8, count * bytes) };
        let used = generate(key, counter, dims, bytes, out);
        // SAFETY: the caller's contract.
        unsafe {
            *new_state = key;
            *new_state.add(1) = counter.wrapping_add(used);
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values XLA:CPU returned for key words (0x12345678, 0x9abcdef0) and
    /// counter words (3, 7).
    #[test]
    fn matches_xla() {
        let key = 0x9abc_def0_1234_5678u64;
        let counter = (7u64 << 32) | 3;
        assert_eq!(block(key, counter), [0x17f6_3f85, 0x057a_e5e6]);
        let mut out = vec![0u8; 16];
        assert_eq!(generate(key, counter, &[2, 2], 4, &mut out), 2);
        let words: Vec<u32> = out
            .chunks(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        assert_eq!(words, [0x17f6_3f85, 0xe7c2_4301, 0x057a_e5e6, 0x51bd_5b3e]);
        assert_eq!(split_dim(&[3, 5]), 1);
        assert_eq!(split_dim(&[3, 2, 4]), 1);
        assert_eq!(split_dim(&[3, 3]), 0);
    }
}
