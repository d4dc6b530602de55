//! Custom calls through the library's registry of host implementations.
//!
//! The conversion declares every custom-call target as a bodiless private
//! function carrying `custom_call = "target"` (see
//! `strata_abi::CUSTOM_CALL_ATTR`). Here each such declaration becomes one
//! entry of the library's registry, an internal global
//!
//! ```text
//! @P.custom_calls = internal global [N x { ptr name, ptr fn, ptr user }]
//! ```
//!
//! whose names are private constants; `P_register_custom_call(target, fn,
//! user)` fills an entry through the runtime, and a call site
//!
//! ```text
//! operands = alloca [n x ptr]; results = alloca [m x ptr]   ; entry block
//! store each buffer; memset each result to 0
//! status = strata_rt_custom_call(&@P.custom_calls[i], operands, results)
//! if status != 0: return status
//! ```
//!
//! No LLVM symbol is ever named after a target, so no model can bind a
//! call to a function of the process, of the runtime or of the library.

use inkwell::AddressSpace;
use inkwell::module::Linkage;
use inkwell::types::StructType;
use inkwell::values::{BasicMetadataValueEnum, BasicValueEnum, GlobalValue, PointerValue};
use strata_diag::Result;
use strata_ir::OpId;

use crate::ice;
use crate::state::{CustomCallEntry, Lowerer};
use crate::types::memref_bytes;

/// `{ ptr, ptr, ptr }`: `strata_abi::CustomCallTarget`.
fn entry_type<'ctx>(lw: &Lowerer<'ctx, '_>) -> StructType<'ctx> {
    let ptr = lw.ll.cx.ptr_type(AddressSpace::default());
    lw.ll
        .cx
        .struct_type(&[ptr.into(), ptr.into(), ptr.into()], false)
}

/// Records the declaration `op` (symbol `symbol`) of target `target`
/// as the registry's next entry.
pub(crate) fn declare_custom_call<'ctx>(
    lw: &mut Lowerer<'ctx, '_>,
    op: OpId,
    symbol: &str,
    target: &str,
) {
    let operands = lw
        .ir
        .int_attr(op, strata_abi::CUSTOM_CALL_OPERANDS_ATTR)
        .and_then(|n| usize::try_from(n).ok())
        .unwrap_or(0);
    let index = lw.custom_call_targets.len() as u32;
    lw.custom_call_targets.push(target.to_string());
    lw.custom_calls
        .insert(symbol.to_string(), CustomCallEntry { index, operands });
}

/// `P.custom_calls`, the registry (None when the model has no custom
/// calls); built once all declarations are known.
pub(crate) fn define_custom_call_table<'ctx>(lw: &mut Lowerer<'ctx, '_>) -> Result<()> {
    if lw.custom_call_targets.is_empty() {
        return Ok(());
    }
    let ptr = lw.ll.cx.ptr_type(AddressSpace::default());
    let entry_ty = entry_type(lw);
    let mut entries = Vec::new();
    for (i, target) in lw.custom_call_targets.iter().enumerate() {
        let text = lw.ll.cx.const_string(target.as_bytes(), true);
        let name = lw.ll.module.add_global(
            text.get_type(),
            None,
            &format!("{}.custom_call_name.{i}", lw.prefix),
        );
        name.set_initializer(&text);
        name.set_constant(true);
        name.set_linkage(Linkage::Private);
        entries.push(entry_ty.const_named_struct(&[
            name.as_pointer_value().into(),
            ptr.const_null().into(),
            ptr.const_null().into(),
        ]));
    }
    let table_ty = entry_ty.array_type(entries.len() as u32);
    let table = lw
        .ll
        .module
        .add_global(table_ty, None, &format!("{}.custom_calls", lw.prefix));
    table.set_initializer(&entry_ty.const_array(&entries));
    table.set_linkage(Linkage::Internal);
    lw.custom_call_table = Some(table);
    Ok(())
}

fn table<'ctx>(lw: &Lowerer<'ctx, '_>) -> Result<GlobalValue<'ctx>> {
    lw.custom_call_table
        .ok_or_else(|| ice("a custom call without the registry"))
}

/// `int32_t P_register_custom_call(const char *target, int32_t (*fn)(void
/// *user, const void *const *operands, void *const *results), void
/// *user)`: forwards to the runtime with this library's registry.
pub(crate) fn register_custom_call_fn<'ctx>(lw: &mut Lowerer<'ctx, '_>) -> Result<()> {
    let i32t = lw.ll.cx.i32_type();
    let ptr = lw.ll.cx.ptr_type(AddressSpace::default());
    let rt = lw.ll.runtime_fn(&strata_abi::runtime::REGISTER_CUSTOM_CALL);
    let f = lw.ll.module.add_function(
        &format!("{}_register_custom_call", lw.prefix),
        i32t.fn_type(&[ptr.into(), ptr.into(), ptr.into()], false),
        None,
    );
    let bb = lw.ll.cx.append_basic_block(f, "entry");
    lw.ll.b.position_at_end(bb);
    let (table, count) = match lw.custom_call_table {
        Some(t) => (t.as_pointer_value(), lw.custom_call_targets.len() as u64),
        None => (ptr.const_null(), 0),
    };
    let mut args: Vec<BasicMetadataValueEnum> = vec![table.into(), lw.ll.i64(count).into()];
    args.extend(f.get_params().into_iter().map(BasicMetadataValueEnum::from));
    let status = lw
        .ll
        .call(rt, &args)?
        .ok_or_else(|| ice("strata_rt_register_custom_call returns nothing"))?;
    lw.ll.b.build_return(Some(&status)).map_err(ice)?;
    Ok(())
}

/// A call of custom-call declaration `entry` with buffers `args`
/// (operands, then results).
pub(crate) fn lower_custom_call<'ctx>(
    lw: &mut Lowerer<'ctx, '_>,
    op: OpId,
    entry: CustomCallEntry,
    args: &[BasicValueEnum<'ctx>],
) -> Result<()> {
    if !lw.returns_status {
        return Err(lw.internal(op, "custom call outside a status-returning function"));
    }
    let (operands, results) = args.split_at(entry.operands.min(args.len()));
    let operand_array = pointer_array(lw, op, operands)?;
    let result_array = pointer_array(lw, op, results)?;
    // Zero the results: a host function that fails or writes nothing
    // must not hand back the stale contents of a reused buffer.
    for (i, r) in results.iter().enumerate() {
        let v = lw.operand(op, entry.operands + i)?;
        let bytes = memref_bytes(lw.ir, lw.ir.value_ty(v));
        lw.ll
            .b
            .build_memset(
                r.into_pointer_value(),
                1,
                lw.ll.cx.i8_type().const_zero(),
                lw.ll.i64(bytes),
            )
            .map_err(ice)?;
    }
    let table = table(lw)?;
    let table_ty = table.get_value_type().into_array_type();
    let zero = lw.ll.cx.i32_type().const_zero();
    let index = lw.ll.cx.i32_type().const_int(u64::from(entry.index), false);
    // SAFETY (of the GEP): index < the table's length by construction.
    let slot = unsafe {
        lw.ll
            .b
            .build_in_bounds_gep(table_ty, table.as_pointer_value(), &[zero, index], "")
            .map_err(ice)?
    };
    let rt = lw.ll.runtime_fn(&strata_abi::runtime::CUSTOM_CALL);
    let status = lw
        .ll
        .call(
            rt,
            &[slot.into(), operand_array.into(), result_array.into()],
        )?
        .ok_or_else(|| ice("strata_rt_custom_call returns nothing"))?
        .into_int_value();
    if let Some(&res) = lw.ir.op(op).results.first() {
        lw.values.insert(res, status.into());
    }
    lw.ll.return_status_if_failed(status)
}

/// `[n x ptr]` in the entry block's frame, holding `buffers`.
fn pointer_array<'ctx>(
    lw: &mut Lowerer<'ctx, '_>,
    op: OpId,
    buffers: &[BasicValueEnum<'ctx>],
) -> Result<PointerValue<'ctx>> {
    let ptr = lw.ll.cx.ptr_type(AddressSpace::default());
    let entry = lw
        .alloca_block
        .ok_or_else(|| lw.internal(op, "is outside a function"))?;
    let eb = lw.ll.builder_at_start(entry);
    let array_ty = ptr.array_type(buffers.len().max(1) as u32);
    let array = eb
        .build_alloca(array_ty, "custom_call_buffers")
        .map_err(ice)?;
    for (i, b) in buffers.iter().enumerate() {
        let index = lw.ll.cx.i32_type().const_int(i as u64, false);
        let zero = lw.ll.cx.i32_type().const_zero();
        // SAFETY (of the GEP): i < the array's length.
        let slot = unsafe {
            lw.ll
                .b
                .build_in_bounds_gep(array_ty, array, &[zero, index], "")
                .map_err(ice)?
        };
        lw.ll.b.build_store(slot, *b).map_err(ice)?;
    }
    Ok(array)
}
