//! `mem` ops: buffers (malloc/free, entry-block allocas, private constant
//! globals) and row-major element access with `getelementptr inbounds`.

use inkwell::AddressSpace;
use inkwell::module::Linkage;
use inkwell::values::{BasicValue, BasicValueEnum, IntValue, PointerValue};
use strata_diag::{Diagnostic, Result};
use strata_dialect_mem as mem;
use strata_ir::{AttrKind, OpId, Signedness, Type, TypeKind, dense};

use crate::ice;
use crate::state::Lowerer;
use crate::types::{memref_bytes, storage_int_width, storage_type, unit_bytes};

/// Alignment of allocations and globals (a cache line).
const BUFFER_ALIGN: u32 = 64;

pub(crate) fn lower_mem<'ctx>(lw: &mut Lowerer<'ctx, '_>, op: OpId) -> Result<()> {
    match lw.ir.op(op).name {
        mem::ALLOC => lower_alloc(lw, op),
        mem::ALLOCA => lower_alloca(lw, op),
        mem::DEALLOC => {
            let ptr = lw.ll.cx.ptr_type(AddressSpace::default());
            let free = lw
                .ll
                .external("free", lw.ll.cx.void_type().fn_type(&[ptr.into()], false));
            lw.ll.call(free, &[lw.ptr(op, 0)?.into()]).map(|_| ())
        }
        mem::GET_GLOBAL => {
            let name = match lw.ir.attr_of(op, "name").map(|a| lw.ir.attr_kind(a)) {
                Some(AttrKind::SymbolRef(s)) => s.clone(),
                _ => return Err(lw.internal(op, "has no 'name'")),
            };
            let g = *lw
                .globals
                .get(&name)
                .ok_or_else(|| lw.internal(op, format!("refers to unknown '@{name}'")))?;
            lw.bind(op, 0, g.into())
        }
        mem::VIEW => {
            let p = lw.ptr(op, 0)?;
            lw.bind(op, 0, p.into())
        }
        mem::OFFSET => lower_offset(lw, op),
        mem::ARENA => lower_arena(lw, op),
        mem::ARENA_RELEASE => {
            let release = lw.ll.runtime_fn(&strata_abi::runtime::ARENA_RELEASE);
            lw.ll.call(release, &[lw.ptr(op, 0)?.into()]).map(|_| ())
        }
        mem::SLICE => {
            let offset = lw
                .ir
                .int_attr(op, "offset")
                .and_then(|o| u64::try_from(o).ok())
                .ok_or_else(|| lw.internal(op, "has no valid 'offset'"))?;
            let base = lw.ptr(op, 0)?;
            // SAFETY (of the GEP): the verifier keeps the slice inside the arena.
            let p = unsafe {
                lw.ll
                    .b
                    .build_in_bounds_gep(lw.ll.cx.i8_type(), base, &[lw.ll.i64(offset)], "slice")
                    .map_err(ice)?
            };
            lw.bind(op, 0, p.into())
        }
        mem::COPY => lower_copy(lw, op),
        mem::LOAD => lower_load(lw, op, None),
        mem::LOAD_PART => lower_load(lw, op, Some(part(lw, op)?)),
        mem::STORE => lower_store(lw, op, None),
        mem::STORE_PART => lower_store(lw, op, Some(part(lw, op)?)),
        name => Err(Diagnostic::unsupported(
            lw.loc(op),
            format!("'{name}' op cannot be lowered to LLVM IR"),
        )),
    }
}

fn part<'ctx>(lw: &Lowerer<'ctx, '_>, op: OpId) -> Result<u64> {
    mem::part(lw.ir, op)
        .map(u64::from)
        .ok_or_else(|| lw.internal(op, "has no valid 'part'"))
}

/// `mem.arena`: the function's arena from the runtime's per-thread
/// stack; NULL (memory exhausted) fails the function with a message.
fn lower_arena<'ctx>(lw: &mut Lowerer<'ctx, '_>, op: OpId) -> Result<()> {
    let bytes = memref_bytes(lw.ir, lw.result_ty(op)?).max(1);
    let acquire = lw.ll.runtime_fn(&strata_abi::runtime::ARENA_ACQUIRE);
    let p = lw
        .ll
        .call(acquire, &[lw.ll.i64(bytes).into()])?
        .ok_or_else(|| ice("strata_rt_arena_acquire returns nothing"))?;
    fail_if_null(lw, p.into_pointer_value(), bytes)?;
    lw.bind(op, 0, p)
}

/// Returns status 1 with an out-of-memory message when `p` is NULL (in
/// a status-returning function).
fn fail_if_null<'ctx>(lw: &mut Lowerer<'ctx, '_>, p: PointerValue<'ctx>, bytes: u64) -> Result<()> {
    if !lw.returns_status {
        return Ok(());
    }
    let msg = format!("out of memory: cannot allocate {bytes} bytes");
    lw.ll.fail_if_null(p, &msg, "oom")
}

fn lower_alloc<'ctx>(lw: &mut Lowerer<'ctx, '_>, op: OpId) -> Result<()> {
    let bytes = memref_bytes(lw.ir, lw.result_ty(op)?).max(1);
    let ptr = lw.ll.cx.ptr_type(AddressSpace::default());
    let malloc = lw
        .ll
        .external("malloc", ptr.fn_type(&[lw.ll.cx.i64_type().into()], false));
    let p = lw
        .ll
        .call(malloc, &[lw.ll.i64(bytes).into()])?
        .ok_or_else(|| ice("malloc returns nothing"))?;
    // Out of memory is a runtime error: set the message, return 1.
    fail_if_null(lw, p.into_pointer_value(), bytes)?;
    lw.bind(op, 0, p)
}

fn lower_alloca<'ctx>(lw: &mut Lowerer<'ctx, '_>, op: OpId) -> Result<()> {
    let ty = lw.result_ty(op)?;
    let entry = lw
        .alloca_block
        .ok_or_else(|| lw.internal(op, "is outside a function"))?;
    let bytes = memref_bytes(lw.ir, ty);
    let eb = lw.ll.cx.create_builder();
    eb.position_at_end(entry);
    let arr = lw.ll.cx.i8_type().array_type(bytes.max(1) as u32);
    let p = eb.build_alloca(arr, "buf").map_err(ice)?;
    if let Some(inst) = p.as_instruction_value() {
        inst.set_alignment(BUFFER_ALIGN.min(16.max(bytes.next_power_of_two() as u32)))
            .map_err(ice)?;
    }
    lw.bind(op, 0, p.into())
}

/// `mem.global`: a private constant global holding the raw element bytes.
pub(crate) fn lower_global<'ctx>(lw: &mut Lowerer<'ctx, '_>, op: OpId) -> Result<()> {
    let name = lw
        .ir
        .str_attr(op, "sym_name")
        .ok_or_else(|| lw.internal(op, "has no 'sym_name'"))?
        .to_string();
    let (_, bytes) = global_bytes(lw.ir, op)?;
    let init = lw.ll.cx.const_string(&bytes, false);
    let g = lw
        .ll
        .module
        .add_global(init.get_type(), None, &format!("{}.{name}", lw.prefix));
    g.set_initializer(&init);
    g.set_constant(true);
    g.set_linkage(Linkage::Private);
    g.set_unnamed_addr(true);
    g.set_alignment(BUFFER_ALIGN);
    lw.globals.insert(name, g.as_pointer_value());
    Ok(())
}

fn lower_copy<'ctx>(lw: &mut Lowerer<'ctx, '_>, op: OpId) -> Result<()> {
    let (src, dst) = (lw.ptr(op, 0)?, lw.ptr(op, 1)?);
    let ty = lw.operand_ty(op, 0)?;
    let align = unit_bytes(lw.ir, lw.ir.types.elem(ty)).clamp(1, 16) as u32;
    let bytes = memref_bytes(lw.ir, ty);
    if bytes == 0 {
        return Ok(());
    }
    // A buffer copied onto itself (a donated argument that is also its
    // result's buffer) is left alone: no pass over it at all.
    let f = lw.ll.current_fn()?;
    let (copy, done) = (
        lw.ll.cx.append_basic_block(f, "copy"),
        lw.ll.cx.append_basic_block(f, "copied"),
    );
    let same = lw
        .ll
        .b
        .build_int_compare(inkwell::IntPredicate::EQ, src, dst, "")
        .map_err(ice)?;
    lw.ll
        .b
        .build_conditional_branch(same, done, copy)
        .map_err(ice)?;
    lw.ll.b.position_at_end(copy);
    if bytes >= strata_abi::PARALLEL_COPY_MIN_BYTES {
        // Large copies (a loop's carried state, a KV cache that is not
        // donated) are split over the pool by the runtime.
        let copy_fn = lw.ll.runtime_fn(&strata_abi::runtime::COPY);
        lw.ll
            .call(copy_fn, &[dst.into(), src.into(), lw.ll.i64(bytes).into()])?;
    } else {
        lw.ll
            .b
            .build_memcpy(dst, align, src, align, lw.ll.i64(bytes))
            .map_err(ice)?;
    }
    lw.ll.b.build_unconditional_branch(done).map_err(ice)?;
    lw.ll.b.position_at_end(done);
    Ok(())
}

/// Address of the element (or part) that operands `first..` index in
/// the memref operand `first - 1`.
fn element_ptr<'ctx>(
    lw: &Lowerer<'ctx, '_>,
    op: OpId,
    first: usize,
    part: Option<u64>,
) -> Result<(PointerValue<'ctx>, Type)> {
    let base = lw.ptr(op, first - 1)?;
    let mty = lw.operand_ty(op, first - 1)?;
    let shape = lw
        .ir
        .types
        .shape(mty)
        .ok_or_else(|| lw.internal(op, "expects a memref"))?
        .to_vec();
    let mut lin: Option<IntValue> = None;
    for (k, &dim) in shape.iter().enumerate() {
        let idx = lw.int(op, first + k)?;
        lin = Some(match lin {
            None => idx,
            Some(acc) => {
                let scaled = lw
                    .ll
                    .b
                    .build_int_nsw_mul(acc, lw.ll.i64(dim as u64), "")
                    .map_err(ice)?;
                lw.ll.b.build_int_nsw_add(scaled, idx, "").map_err(ice)?
            }
        });
    }
    let elem = lw.ir.types.elem(mty);
    let mut lin = lin.unwrap_or(lw.ll.i64(0));
    if let Some(p) = part {
        let twice = lw
            .ll
            .b
            .build_int_nsw_mul(lin, lw.ll.i64(2), "")
            .map_err(ice)?;
        lin = lw
            .ll
            .b
            .build_int_nsw_add(twice, lw.ll.i64(p), "")
            .map_err(ice)?;
    }
    let unit = storage_type(lw.ir, lw.ll.cx, elem, lw.loc(op))?;
    // SAFETY: the index is in bounds of the buffer for verified input.
    let p = unsafe { lw.ll.b.build_in_bounds_gep(unit, base, &[lin], "") }.map_err(ice)?;
    Ok((p, elem))
}

/// `mem.offset`: the base pointer moved by the offset's elements
/// (addressing units: two per complex element).
fn lower_offset<'ctx>(lw: &mut Lowerer<'ctx, '_>, op: OpId) -> Result<()> {
    let base = lw.ptr(op, 0)?;
    let n = lw.int(op, 1)?;
    let elem = lw.ir.types.elem(lw.operand_ty(op, 0)?);
    let units = crate::types::units_per_elem(lw.ir, elem);
    let n = lw
        .ll
        .b
        .build_int_nsw_mul(n, lw.ll.i64(units), "")
        .map_err(ice)?;
    let unit = storage_type(lw.ir, lw.ll.cx, elem, lw.loc(op))?;
    // SAFETY: producers keep the offset buffer inside the operand.
    let p = unsafe { lw.ll.b.build_in_bounds_gep(unit, base, &[n], "") }.map_err(ice)?;
    lw.bind(op, 0, p.into())
}

fn lower_load<'ctx>(lw: &mut Lowerer<'ctx, '_>, op: OpId, part: Option<u64>) -> Result<()> {
    let (p, elem) = element_ptr(lw, op, 1, part)?;
    let unit = storage_type(lw.ir, lw.ll.cx, elem, lw.loc(op))?;
    let raw = lw.ll.b.build_load(unit, p, "").map_err(ice)?;
    let v = match lw.ir.types.kind(elem) {
        TypeKind::Int { width, .. } if storage_int_width(*width) != *width => {
            let t = crate::types::int_type(lw.ll.cx, *width);
            lw.ll
                .b
                .build_int_truncate(raw.into_int_value(), t, "")
                .map_err(ice)?
                .as_basic_value_enum()
        }
        _ => raw,
    };
    lw.bind(op, 0, v)
}

fn lower_store<'ctx>(lw: &mut Lowerer<'ctx, '_>, op: OpId, part: Option<u64>) -> Result<()> {
    let (p, elem) = element_ptr(lw, op, 2, part)?;
    let v = lw.val(op, 0)?;
    let v: BasicValueEnum = match lw.ir.types.kind(elem) {
        TypeKind::Int { width, sign } if storage_int_width(*width) != *width => {
            let t = crate::types::int_type(lw.ll.cx, storage_int_width(*width));
            let iv = lw.int(op, 0)?;
            if *sign == Signedness::Unsigned || *width == 1 {
                lw.ll.b.build_int_z_extend(iv, t, "").map_err(ice)?.into()
            } else {
                lw.ll.b.build_int_s_extend(iv, t, "").map_err(ice)?.into()
            }
        }
        _ => v,
    };
    lw.ll.b.build_store(p, v).map_err(ice)?;
    Ok(())
}

/// The type of a `mem.global`'s value and the bytes a buffer of it holds
/// (the C ABI's layout): what both backends put in the object.
pub fn global_bytes(ir: &strata_ir::Context, op: OpId) -> Result<(Type, Vec<u8>)> {
    let loc = ir.op(op).loc;
    let internal = |what: &str| Diagnostic::internal(loc, format!("'mem.global' op {what}"));
    let d = ir
        .dense_attr(op, "value")
        .ok_or_else(|| internal("has no 'value'"))?;
    let elem = ir.types.elem(d.ty);
    if !crate::types::has_storage(ir, elem) {
        return Err(Diagnostic::unsupported(
            loc,
            format!(
                "type {} is not supported by the LLVM lowering",
                strata_ir::text::printer::type_to_string(ir, elem)
            ),
        ));
    }
    let count = ir.types.num_elements(d.ty).max(0) as usize;
    let mut bytes = Vec::with_capacity(count * unit_bytes(ir, elem) as usize);
    for i in 0..count {
        if !d.splat && (i + 1) * dense::parts(ir, elem) > d.bits.len() {
            return Err(internal("has fewer values than elements"));
        }
        for bits in dense::element_bits(ir, d, i) {
            push_unit(ir, elem, bits, &mut bytes);
        }
    }
    Ok((d.ty, bytes))
}

/// Appends the in-memory bytes of one addressing unit holding `bits`.
fn push_unit(ir: &strata_ir::Context, elem: Type, bits: u64, out: &mut Vec<u8>) {
    let n = unit_bytes(ir, elem) as usize;
    let v = match ir.types.kind(elem) {
        TypeKind::Int { width, sign } if storage_int_width(*width) != *width => {
            if *sign == Signedness::Unsigned || *width == 1 {
                bits & ((1u64 << width) - 1)
            } else {
                dense::int_value(ir, bits, elem) as u64
            }
        }
        _ => bits,
    };
    out.extend_from_slice(&v.to_le_bytes()[..n]);
}
