//! `rng_bit_generator` with THREE_FRY and PHILOX, bit for bit as XLA:CPU
//! computes them (measured against XLA:CPU through JAX).
//!
//! THREE_FRY: the state is two u64: the Threefry-2x32 key and a 64-bit counter. Each
//! block (one counter value) gives two u32 words. For 8-byte outputs, each
//! element takes one block, `x1 << 32 | x0`, in row-major order. For
//! smaller outputs one dimension is split in halves — the first of even
//! size, else the largest (the first of equal ones) — and element i of that
//! dimension takes word i % 2 of the block at its row-major index in the
//! halved shape (i / 2 in that dimension); 1- and 2-byte elements keep the
//! low bits of their word. The new state advances the counter by the
//! number of blocks.
//!
//! PHILOX (and DEFAULT, which XLA:CPU runs as Philox): Philox-4x32 with 10
//! rounds, keyed by the state's first word (low, high 32 bits). The counter
//! is 128 bits: words 1 and 2 of a 3-word state (low first); with 2 words,
//! word 1 is the low half and the key word the high half. Block `i` (counter
//! + i) gives four u32 words, outputs `4i..4i+4` in row-major order for 4-byte
//! elements; 8-byte elements take two blocks' worth: `x1 << 32 | x0` and
//! `x3 << 32 | x2` are outputs `2i` and `2i+1`; 1- and 2-byte elements are
//! generated as 4-byte ones and keep the low bits. The new state is the key
//! and the counter advanced by the blocks used (its low half alone for a
//! 2-word state).

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

/// The output's dimensions and element size a descriptor states (clamped
/// to what the ABI allows).
fn output_of(d: &RngDesc) -> (&[i64], usize) {
    let rank = d.rank.clamp(0, strata_abi::RNG_MAX_RANK as i64) as usize;
    (&d.dims[..rank], d.element_bytes.clamp(1, 8) as usize)
}

/// Philox-4x32 with 10 rounds (Salmon et al., Random123).
fn philox4x32(key: [u32; 2], counter: [u32; 4]) -> [u32; 4] {
    const MUL: [u64; 2] = [0xD251_1F53, 0xCD9E_8D57];
    const KEY_STEP: [u32; 2] = [0x9E37_79B9, 0xBB67_AE85];
    let (mut k, mut x) = (key, counter);
    for _ in 0..10 {
        let p0 = u64::from(x[0]) * MUL[0];
        let p1 = u64::from(x[2]) * MUL[1];
        x = [
            (p1 >> 32) as u32 ^ x[1] ^ k[0],
            p1 as u32,
            (p0 >> 32) as u32 ^ x[3] ^ k[1],
            p0 as u32,
        ];
        k = [
            k[0].wrapping_add(KEY_STEP[0]),
            k[1].wrapping_add(KEY_STEP[1]),
        ];
    }
    x
}

/// A 128-bit Philox counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Counter128 {
    low: u64,
    high: u64,
}

impl Counter128 {
    /// `self + n`, carrying into the high half as XLA does.
    fn plus(self, n: u64) -> Counter128 {
        let low = self.low.wrapping_add(n);
        let high = if low < self.low {
            self.high.wrapping_add(1)
        } else {
            self.high
        };
        Counter128 { low, high }
    }

    fn words(self) -> [u32; 4] {
        [
            self.low as u32,
            (self.low >> 32) as u32,
            self.high as u32,
            (self.high >> 32) as u32,
        ]
    }
}

/// Fills `out` with `count` elements of `bytes` bytes and returns the
/// number of Philox blocks used.
fn generate_philox(
    key: u64,
    counter: Counter128,
    count: usize,
    bytes: usize,
    out: &mut [u8],
) -> u64 {
    let key = [key as u32, (key >> 32) as u32];
    let block = |i: usize| philox4x32(key, counter.plus(i as u64).words());
    if bytes == 8 {
        for (i, chunk) in out.chunks_exact_mut(8).take(count).enumerate() {
            let x = block(i / 2);
            let (lo, hi) = if i % 2 == 0 {
                (x[0], x[1])
            } else {
                (x[2], x[3])
            };
            chunk.copy_from_slice(&((u64::from(hi) << 32) | u64::from(lo)).to_le_bytes());
        }
        return count.div_ceil(2) as u64;
    }
    for (i, chunk) in out.chunks_exact_mut(bytes).take(count).enumerate() {
        let word = block(i / 4)[i % 4];
        chunk.copy_from_slice(&word.to_le_bytes()[..bytes]);
    }
    count.div_ceil(4) as u64
}

/// `void strata_rt_rng_philox(const RngDesc *, const uint64_t state[w],
/// uint64_t new_state[w], void *out)`, `w` = `desc->state_words` (2 or 3).
///
/// # Safety
/// The pointers are valid; `out` holds the described output.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn strata_rt_rng_philox(
    desc: *const RngDesc,
    state: *const u64,
    new_state: *mut u64,
    out: *mut c_void,
) {
    ffi_guard((), || {
        // SAFETY: the caller's contract.
        let d = unsafe { &*desc };
        let (dims, bytes) = output_of(d);
        let count: usize = dims.iter().map(|&n| n.max(0) as usize).product();
        let three_words = d.state_words >= 3;
        // SAFETY: the caller's contract (2 or 3 words).
        let (key, low, high) = unsafe {
            let key = *state;
            let low = *state.add(1);
            (key, low, if three_words { *state.add(2) } else { key })
        };
        let counter = Counter128 { low, high };
        // SAFETY: the caller's contract.
        let out = unsafe { std::slice::from_raw_parts_mut(out as *mut u8, count * bytes) };
        let used = generate_philox(key, counter, count, bytes, out);
        let next = counter.plus(used);
        // SAFETY: the caller's contract.
        unsafe {
            *new_state = key;
            *new_state.add(1) = next.low;
            if three_words {
                *new_state.add(2) = next.high;
            }
        }
    })
}

/// The key of the process's generator for `rng` (XLA keeps one such state
/// per process too; its value is not specified).
const PROCESS_RNG_KEY: u64 = 0x5354_5241_5441_0001;

/// The counter of the process's generator: every `rng` op call takes the
/// next `delta` blocks, so calls (from any thread) draw disjoint streams.
static PROCESS_RNG_COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// `void strata_rt_rng_get_and_update_state(const RngStateDesc *, uint64_t
/// state[2])`: writes (key, counter) and advances the counter by `delta`.
///
/// # Safety
/// The pointers are valid.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn strata_rt_rng_get_and_update_state(
    desc: *const strata_abi::RngStateDesc,
    state: *mut u64,
) {
    ffi_guard((), || {
        // SAFETY: the caller's contract.
        let delta = unsafe { (*desc).delta }.max(0) as u64;
        let counter = PROCESS_RNG_COUNTER.fetch_add(delta, std::sync::atomic::Ordering::Relaxed);
        // SAFETY: the caller's contract.
        unsafe {
            *state = PROCESS_RNG_KEY;
            *state.add(1) = counter;
        }
    })
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
        let (dims, bytes) = output_of(d);
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

    /// Random123's known answers for Philox-4x32-10.
    #[test]
    fn philox_known_answers() {
        assert_eq!(
            philox4x32([0, 0], [0; 4]),
            [0x6627_e8d5, 0xe169_c58d, 0xbc57_ac4c, 0x9b00_dbd8]
        );
        assert_eq!(
            philox4x32([u32::MAX; 2], [u32::MAX; 4]),
            [0x408f_276d, 0x41c8_3b0e, 0xa20b_c7c6, 0x6d54_51fd]
        );
    }

    #[test]
    fn philox_counter_carries() {
        let c = Counter128 {
            low: u64::MAX - 1,
            high: 7,
        };
        assert_eq!(
            c.plus(1),
            Counter128 {
                low: u64::MAX,
                high: 7
            }
        );
        assert_eq!(c.plus(3), Counter128 { low: 1, high: 8 });
    }
}
