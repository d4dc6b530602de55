//! Per-thread arenas for compiled functions' intermediate buffers.
//!
//! The `mem-plan-arena` pass gives each function one arena: every buffer
//! the function allocates is a slice of it at an offset the compiler chose
//! by liveness, and the function takes the arena on entry
//! (`strata_rt_arena_acquire`) and gives it back before it returns
//! (`strata_rt_arena_release`). Calls nest (a function's callees take
//! theirs on top of it), so a thread's arenas form a stack, kept in one
//! block of memory that outlives the call: after the first call, a call
//! allocates nothing, and the pages it uses are already mapped (no kernel
//! page-zeroing per call, which a fresh `malloc` of a large buffer costs).
//!
//! The block grows only while the thread's stack is empty (nothing points
//! into it): a request that does not fit while arenas are live gets a
//! block of its own, freed on release, and the next outermost call grows
//! the main block to the high-water mark. An exported function records the
//! stack's top on entry and resets it on return, error or not
//! (`strata_rt_arena_mark` / `strata_rt_arena_reset`), so an early return
//! never leaks stack. `P_f_with_scratch` runs the call on memory the caller
//! owns (`strata_rt_arena_use_scratch`): nothing is allocated at all.
//!
//! Memory: each thread that calls a library keeps a block as large as the
//! largest call it made, until the thread exits.

use std::alloc::{Layout, alloc, dealloc};
use std::cell::RefCell;
use std::ffi::c_void;

use crate::ffi_guard;

/// Alignment of every arena and of every buffer the compiler places in one
/// (a cache line, and what AVX-512 loads prefer).
pub const ARENA_ALIGN: usize = strata_abi::ARENA_ALIGN as usize;

/// A block of memory of the stack.
struct Block {
    ptr: *mut u8,
    len: usize,
    /// Whether the block belongs to us (else it is the caller's scratch).
    owned: bool,
}

impl Block {
    fn allocate(len: usize) -> Option<Block> {
        let layout = Layout::from_size_align(len.max(ARENA_ALIGN), ARENA_ALIGN).ok()?;
        // SAFETY: the layout has a non-zero size.
        let ptr = unsafe { alloc(layout) };
        (!ptr.is_null()).then_some(Block {
            ptr,
            len: len.max(ARENA_ALIGN),
            owned: true,
        })
    }

    fn free(&mut self) {
        if self.owned && !self.ptr.is_null() {
            // SAFETY: allocated in `allocate` with this layout.
            unsafe {
                dealloc(
                    self.ptr,
                    Layout::from_size_align_unchecked(self.len, ARENA_ALIGN),
                )
            };
        }
        self.ptr = std::ptr::null_mut();
        self.len = 0;
    }
}

/// One thread's stack of arenas.
struct Stack {
    /// Where arenas are cut from (the thread's block, or a caller's scratch).
    main: Option<Block>,
    /// Bytes of `main` in use.
    top: usize,
    /// Arenas that did not fit in `main`, each a block of its own, with the
    /// `top` of `main` when it was made (its place in the stack).
    overflow: Vec<(Block, usize)>,
    /// The most bytes the stack held at once: what `main` grows to.
    high_water: usize,
    /// The thread's own block while a caller's scratch is in use.
    parked: Option<(Option<Block>, usize)>,
}

impl Drop for Stack {
    fn drop(&mut self) {
        for (b, _) in &mut self.overflow {
            b.free();
        }
        if let Some(b) = &mut self.main {
            b.free();
        }
        if let Some((Some(b), _)) = &mut self.parked {
            b.free();
        }
    }
}

thread_local! {
    static STACK: RefCell<Stack> = const {
        RefCell::new(Stack {
            main: None,
            top: 0,
            overflow: Vec::new(),
            high_water: 0,
            parked: None,
        })
    };
}

fn round_up(n: usize) -> Option<usize> {
    n.checked_add(ARENA_ALIGN - 1)
        .map(|n| n & !(ARENA_ALIGN - 1))
}

impl Stack {
    fn in_use(&self) -> usize {
        self.top + self.overflow.iter().map(|(b, _)| b.len).sum::<usize>()
    }

    fn acquire(&mut self, bytes: usize) -> *mut u8 {
        let Some(bytes) = round_up(bytes.max(1)) else {
            return std::ptr::null_mut();
        };
        let idle = self.top == 0 && self.overflow.is_empty();
        if idle && self.parked.is_none() {
            // Nothing points into the block: grow it to what calls need.
            let want = self.high_water.max(bytes);
            if self.main.as_ref().is_none_or(|b| b.len < want) {
                if let Some(b) = &mut self.main {
                    b.free();
                }
                self.main = Block::allocate(want);
            }
        }
        let fits = self
            .main
            .as_ref()
            .is_some_and(|b| self.overflow.is_empty() && self.top + bytes <= b.len);
        let ptr = if fits {
            let b = self.main.as_ref().map_or(std::ptr::null_mut(), |b| b.ptr);
            // SAFETY: inside the block (checked above).
            let p = unsafe { b.add(self.top) };
            self.top += bytes;
            p
        } else {
            match Block::allocate(bytes) {
                Some(b) => {
                    let p = b.ptr;
                    self.overflow.push((b, self.top));
                    p
                }
                None => return std::ptr::null_mut(),
            }
        };
        self.high_water = self.high_water.max(self.in_use());
        ptr
    }

    /// Pops arenas down to (and including) the one at `ptr`.
    fn release(&mut self, ptr: *mut u8) {
        while let Some((b, _)) = self.overflow.last() {
            let mine = b.ptr == ptr;
            if let Some((mut b, _)) = self.overflow.pop() {
                b.free();
            }
            if mine {
                return;
            }
        }
        if let Some(b) = &self.main {
            let start = b.ptr as usize;
            let p = ptr as usize;
            if p >= start && p < start + b.len {
                self.top = self.top.min(p - start);
            }
        }
    }

    /// The stack's state, to return to with `reset`.
    fn mark(&self) -> i64 {
        // `top` and the overflow count fit in an i64 together (top < 2^47).
        ((self.overflow.len() as i64) << 48) | self.top as i64
    }

    fn reset(&mut self, mark: i64) {
        let (count, top) = ((mark >> 48) as usize, (mark & ((1 << 48) - 1)) as usize);
        while self.overflow.len() > count {
            if let Some((mut b, _)) = self.overflow.pop() {
                b.free();
            }
        }
        self.top = self.top.min(top);
    }
}

/// `void *strata_rt_arena_acquire(int64_t bytes)`: a 64-byte-aligned arena
/// of `bytes` on this thread's stack, or NULL when memory is exhausted.
#[unsafe(no_mangle)]
pub extern "C" fn strata_rt_arena_acquire(bytes: i64) -> *mut c_void {
    ffi_guard(std::ptr::null_mut(), || {
        let Ok(bytes) = usize::try_from(bytes) else {
            return std::ptr::null_mut();
        };
        STACK
            .try_with(|s| s.borrow_mut().acquire(bytes).cast::<c_void>())
            .unwrap_or(std::ptr::null_mut())
    })
}

/// `void strata_rt_arena_release(void *arena)`: gives back the arena at the
/// top of this thread's stack (and any left above it).
#[unsafe(no_mangle)]
pub extern "C" fn strata_rt_arena_release(arena: *mut c_void) {
    ffi_guard((), || {
        let _ = STACK.try_with(|s| s.borrow_mut().release(arena.cast::<u8>()));
    })
}

/// `int64_t strata_rt_arena_mark(void)`: the stack's current state.
#[unsafe(no_mangle)]
pub extern "C" fn strata_rt_arena_mark() -> i64 {
    ffi_guard(0, || STACK.try_with(|s| s.borrow().mark()).unwrap_or(0))
}

/// `void strata_rt_arena_reset(int64_t mark)`: pops every arena taken since
/// `mark` (an exported function's return, successful or not).
#[unsafe(no_mangle)]
pub extern "C" fn strata_rt_arena_reset(mark: i64) {
    ffi_guard((), || {
        let _ = STACK.try_with(|s| s.borrow_mut().reset(mark));
    })
}

/// A caller's scratch must be 64-byte aligned (and present when the plan
/// needs any).
pub(crate) fn check_scratch(scratch: *mut c_void, len: usize) -> Result<(), String> {
    if len > 0 && (scratch.is_null() || (scratch as usize) % ARENA_ALIGN != 0) {
        return Err(format!(
            "scratch must be a {ARENA_ALIGN}-byte aligned buffer of at least {len} bytes (got {scratch:p})"
        ));
    }
    Ok(())
}

/// `int32_t strata_rt_arena_use_scratch(void *scratch, int64_t bytes)`:
/// until `strata_rt_arena_end_scratch`, this thread's arenas are cut from
/// the caller's `scratch` (`bytes` long, 64-byte aligned). Returns 1 with a
/// message when the scratch is misaligned or the stack is already in use
/// (a call from inside a call of the same library on this thread).
#[unsafe(no_mangle)]
pub extern "C" fn strata_rt_arena_use_scratch(scratch: *mut c_void, bytes: i64) -> i32 {
    ffi_guard(1, || {
        let Ok(len) = usize::try_from(bytes) else {
            crate::error::set_error("scratch: negative size");
            return 1;
        };
        if let Err(message) = check_scratch(scratch, len) {
            crate::error::set_error(&message);
            return 1;
        }
        if !lend(scratch.cast::<u8>(), len) {
            crate::error::set_error(
                "scratch: the library is already running on this thread (a call from inside a call)",
            );
            return 1;
        }
        0
    })
}

/// `void strata_rt_arena_end_scratch(void)`: back to the thread's own block.
#[unsafe(no_mangle)]
pub extern "C" fn strata_rt_arena_end_scratch() {
    ffi_guard((), || {
        let _ = STACK.try_with(|s| {
            let mut s = s.borrow_mut();
            while let Some((mut b, _)) = s.overflow.pop() {
                b.free();
            }
            if let Some((own, high_water)) = s.parked.take() {
                s.main = own;
                s.high_water = high_water;
            }
            s.top = 0;
        });
    })
}

/// Makes `block` (`len` bytes, not owned) this thread's arena block until
/// `strata_rt_arena_end_scratch`, parking the thread's own; false, and
/// nothing changed, when the stack is in use.
fn lend(block: *mut u8, len: usize) -> bool {
    STACK
        .try_with(|s| {
            let mut s = s.borrow_mut();
            if s.parked.is_some() || s.top != 0 || !s.overflow.is_empty() {
                return false;
            }
            let own = s.main.take();
            s.parked = Some((own, s.high_water));
            s.main = Some(Block {
                ptr: block,
                len,
                owned: false,
            });
            s.top = 0;
            true
        })
        .unwrap_or(false)
}

/// Runs `body` with this thread's arenas cut from `block` (`bytes` long, 64-byte
/// aligned, owned by another thread's stack that waits meanwhile) when this
/// thread's stack is idle; a busy stack (this worker is inside another call,
/// stolen work) keeps its own memory, as does a NULL block.
pub(crate) fn with_borrowed_block<R>(block: *mut u8, bytes: usize, body: impl FnOnce() -> R) -> R {
    let borrowed = !block.is_null() && lend(block, bytes);
    let result = body();
    if borrowed {
        strata_rt_arena_end_scratch();
    }
    result
}

/// Bytes of memory this thread's stack holds now (for tests).
pub fn held_bytes() -> usize {
    STACK
        .try_with(|s| {
            let s = s.borrow();
            s.main.as_ref().filter(|b| b.owned).map_or(0, |b| b.len)
                + s.overflow.iter().map(|(b, _)| b.len).sum::<usize>()
        })
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_arenas_stack_and_the_block_is_reused() {
        let m = strata_rt_arena_mark();
        let a = strata_rt_arena_acquire(1000);
        let b = strata_rt_arena_acquire(5000);
        assert!(!a.is_null() && !b.is_null());
        assert_eq!(a as usize % ARENA_ALIGN, 0);
        assert_eq!(b as usize % ARENA_ALIGN, 0);
        assert!(b as usize >= a as usize + 1000 || (b as usize) < a as usize);
        strata_rt_arena_release(b);
        strata_rt_arena_release(a);
        // The next outermost call fits both in the one block, reused after.
        let a2 = strata_rt_arena_acquire(1000);
        let b2 = strata_rt_arena_acquire(5000);
        let held = held_bytes();
        strata_rt_arena_reset(m);
        let a3 = strata_rt_arena_acquire(1000);
        let b3 = strata_rt_arena_acquire(5000);
        assert_eq!((a2, b2), (a3, b3));
        assert_eq!(held_bytes(), held);
        strata_rt_arena_reset(m);
    }

    #[test]
    fn a_reset_pops_what_an_early_return_left() {
        let m = strata_rt_arena_mark();
        let _a = strata_rt_arena_acquire(64);
        let _big = strata_rt_arena_acquire(1 << 20);
        strata_rt_arena_reset(m);
        assert_eq!(strata_rt_arena_mark(), m);
    }

    #[test]
    fn scratch_is_used_and_checked() {
        let layout = Layout::from_size_align(4096, ARENA_ALIGN).unwrap();
        let buf = unsafe { alloc(layout) };
        assert_eq!(strata_rt_arena_use_scratch(buf.cast(), 4096), 0);
        let a = strata_rt_arena_acquire(1000);
        assert_eq!(a.cast::<u8>(), buf);
        strata_rt_arena_release(a);
        strata_rt_arena_end_scratch();
        assert_ne!(
            strata_rt_arena_use_scratch(unsafe { buf.add(8) }.cast(), 64),
            0
        );
        unsafe { dealloc(buf, layout) };
    }
}
