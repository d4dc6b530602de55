//! strata-dialect-mem: buffers at the loop level (see `dialects/README.md`,
//! section "mem"). Memrefs are dense row-major buffers with static shapes.
//!
//! | op | operands → results |
//! |---|---|
//! | `mem.alloc` / `mem.alloca` | () → memref |
//! | `mem.dealloc` | (memref) → () |
//! | `mem.global` | () → () with `sym_name`, `value` |
//! | `mem.get_global` | () → memref with `name` |
//! | `mem.load` / `mem.store` | element access, one `index` per dimension |
//! | `mem.load_part` / `mem.store_part` | one part of a complex element |
//! | `mem.copy` | (src, dst) → () |
//! | `mem.view` | (memref) → memref (reshape) |
//! | `mem.offset` | (memref, index) → memref starting that many elements in |
//! | `mem.arena` | () → memref<Nxi8>: the function's arena, taken on this thread's stack of arenas |
//! | `mem.arena_release` | (arena) → (): gives it back before the function returns |
//! | `mem.slice` | (arena) → memref at the constant byte `offset`: a buffer placed in the arena |

mod access;
mod arena;
mod buffer;
pub mod transforms;

pub use buffer::{lookup_global, storage_bytes};

use strata_ir::{Context, OpDef, Traits};

pub const ALLOC: &str = "mem.alloc";
pub const DEALLOC: &str = "mem.dealloc";
pub const ALLOCA: &str = "mem.alloca";
pub const GLOBAL: &str = "mem.global";
pub const GET_GLOBAL: &str = "mem.get_global";
pub const LOAD: &str = "mem.load";
pub const STORE: &str = "mem.store";
pub const LOAD_PART: &str = "mem.load_part";
pub const STORE_PART: &str = "mem.store_part";
pub const COPY: &str = "mem.copy";
pub const VIEW: &str = "mem.view";
pub const OFFSET: &str = "mem.offset";
pub const ARENA: &str = "mem.arena";
pub const ARENA_RELEASE: &str = "mem.arena_release";
pub const SLICE: &str = "mem.slice";

pub fn register(ctx: &mut Context) {
    let r = &mut ctx.registry;
    r.add(
        OpDef::new(ALLOC, Traits::NONE)
            .counts(0, 1)
            .verifier(buffer::verify_alloc),
    );
    r.add(
        OpDef::new(ALLOCA, Traits::NONE)
            .counts(0, 1)
            .verifier(buffer::verify_alloc),
    );
    r.add(
        OpDef::new(DEALLOC, Traits::NONE)
            .counts(1, 0)
            .verifier(buffer::verify_dealloc),
    );
    r.add(
        OpDef::new(GLOBAL, Traits::SYMBOL)
            .counts(0, 0)
            .verifier(buffer::verify_global),
    );
    r.add(
        OpDef::new(GET_GLOBAL, Traits::PURE)
            .counts(0, 1)
            .verifier(buffer::verify_get_global),
    );
    r.add(
        OpDef::new(COPY, Traits::NONE)
            .counts(2, 0)
            .verifier(buffer::verify_copy),
    );
    r.add(
        OpDef::new(VIEW, Traits::PURE)
            .counts(1, 1)
            .verifier(buffer::verify_view),
    );
    r.add(
        OpDef::new(OFFSET, Traits::PURE)
            .counts(2, 1)
            .verifier(buffer::verify_offset),
    );
    r.add(OpDef::new(LOAD, Traits::PURE).verifier(access::verify_load));
    r.add(OpDef::new(STORE, Traits::NONE).verifier(access::verify_store));
    r.add(OpDef::new(LOAD_PART, Traits::PURE).verifier(access::verify_load_part));
    r.add(OpDef::new(STORE_PART, Traits::NONE).verifier(access::verify_store_part));
    r.add(
        OpDef::new(ARENA, Traits::NONE)
            .counts(0, 1)
            .verifier(arena::verify_arena),
    );
    r.add(
        OpDef::new(ARENA_RELEASE, Traits::NONE)
            .counts(1, 0)
            .verifier(arena::verify_release),
    );
    r.add(
        OpDef::new(SLICE, Traits::PURE)
            .counts(1, 1)
            .verifier(arena::verify_slice),
    );
}

/// The `part` attribute of `mem.load_part` / `mem.store_part` (0 re, 1 im).
pub fn part(ctx: &Context, op: strata_ir::OpId) -> Option<u32> {
    match ctx.int_attr(op, "part") {
        Some(0) => Some(0),
        Some(1) => Some(1),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
