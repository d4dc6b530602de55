//! Exported functions that hand work to the thread pool more than once run
//! their whole body on the pool: `P_f` stores its parameters in a struct and
//! calls `strata_rt_call_on_pool(P.f.on_pool, &params, scratch_bytes)`, and
//! `P.f.on_pool` takes them back out and runs `P.f` between an arena mark
//! and reset, as `P_f` otherwise does itself. Each parallel loop or kernel
//! of the body then forks from a pool thread instead of being handed from
//! the caller to the pool and back.
//!
//! The choice is made here, from the loop-level IR: a function whose call
//! reaches at most one parallel region gains nothing from the extra hand-off
//! (and a tiny function would pay it on every call).

use std::collections::HashMap;

use inkwell::AddressSpace;
use inkwell::attributes::AttributeLoc;
use inkwell::module::Linkage;
use inkwell::types::BasicTypeEnum;
use inkwell::values::{BasicMetadataValueEnum, BasicValueEnum, FunctionValue};
use strata_diag::Result;
use strata_dialect_loop as lp;
use strata_ir::builtin::{self, CALL};
use strata_ir::{AttrKind, Context, OpId};

use crate::ice;
use crate::state::Lowerer;

/// Parallel regions a call of function `op` reaches, counted up to `enough`:
/// each `loop.dispatch` (the compiler outlines only loops worth splitting),
/// each matrix product large enough for the runtime to split, those of the
/// functions it calls, and twice anything inside a serial loop (it repeats).
/// A function that starts device threads (`loop.run_devices`) counts none:
/// its body must not hold a pool thread while the devices' own parallel
/// work waits for the pool (two such calls at once would hold both threads
/// of a 2-thread pool).
pub(crate) fn parallel_regions(ir: &Context, op: OpId, enough: usize) -> usize {
    let mut memo = HashMap::new();
    let reach = reach_of(ir, op, enough, &mut memo);
    if reach.starts_devices {
        0
    } else {
        reach.regions
    }
}

#[derive(Clone, Copy, Default)]
struct Reach {
    regions: usize,
    starts_devices: bool,
}

fn reach_of(ir: &Context, func: OpId, enough: usize, memo: &mut HashMap<OpId, Reach>) -> Reach {
    if let Some(&r) = memo.get(&func) {
        return r;
    }
    // A call-graph cycle is refused by the verifier; this guards the walk.
    memo.insert(func, Reach::default());
    let module = ir.op(func).parent.and_then(|b| ir.block_parent_op(b));
    let mut reach = Reach::default();
    ir.walk_nested(func, &mut |o| {
        let here = match ir.op(o).name {
            lp::DISPATCH => 1,
            lp::RUN_DEVICES => {
                reach.starts_devices = true;
                0
            }
            CALL => match callee(ir, o) {
                Some(name) if name.starts_with("strata_rt_gemm_") => {
                    usize::from(gemm_is_split(ir, o))
                }
                Some(name) => {
                    let inner = module
                        .and_then(|m| builtin::lookup_func(ir, m, name))
                        .filter(|&f| ir.entry_block(f, 0).is_some())
                        .map(|f| reach_of(ir, f, enough, memo))
                        .unwrap_or_default();
                    reach.starts_devices |= inner.starts_devices;
                    inner.regions
                }
                None => 0,
            },
            _ => 0,
        };
        if here > 0 && reach.regions < enough {
            let repeats = if inside_serial_loop(ir, o, func) {
                2
            } else {
                1
            };
            reach.regions = reach.regions.saturating_add(here.saturating_mul(repeats));
        }
    });
    memo.insert(func, reach);
    reach
}

fn callee(ir: &Context, op: OpId) -> Option<&str> {
    match ir.attr_kind(ir.attr_of(op, "callee")?) {
        AttrKind::SymbolRef(s) => Some(s),
        _ => None,
    }
}

/// Whether a `strata_rt_gemm_*(desc, a, b, c)` call is large enough for the
/// runtime to split: m·n·k over the batches is at least the square root of
/// the product of the three operands' element counts (exact for one
/// product, larger for batched ones).
fn gemm_is_split(ir: &Context, call: OpId) -> bool {
    let elements = |i: usize| -> f64 {
        ir.op(call)
            .operands()
            .get(i)
            .and_then(|&v| ir.types.shape(ir.value_ty(v)))
            .map_or(0.0, |s| s.iter().map(|&d| d.max(0) as f64).product())
    };
    (elements(1) * elements(2) * elements(3)).sqrt() >= strata_abi::GEMM_PARALLEL_MIN_FLOPS as f64
}

/// Whether `op` sits in a `loop.while` or a serial `loop.for` of `func`.
fn inside_serial_loop(ir: &Context, op: OpId, func: OpId) -> bool {
    let mut at = ir.op(op).parent.and_then(|b| ir.block_parent_op(b));
    while let Some(p) = at {
        if p == func {
            return false;
        }
        let name = ir.op(p).name;
        if name == lp::WHILE || (name == lp::FOR && !lp::is_parallel(ir, p)) {
            return true;
        }
        at = ir.op(p).parent.and_then(|b| ir.block_parent_op(b));
    }
    false
}

/// In the exported wrapper being built: stores `args` (`inner`'s
/// parameters) in a struct and runs `inner` through
/// `strata_rt_call_on_pool`, on the caller's `scratch` if given;
/// returns the status.
pub(crate) fn call_inner_on_pool<'ctx>(
    lw: &mut Lowerer<'ctx, '_>,
    name: &str,
    inner: FunctionValue<'ctx>,
    args: &[BasicMetadataValueEnum<'ctx>],
    arena_bytes: u64,
    scratch: Option<BasicMetadataValueEnum<'ctx>>,
) -> Result<BasicValueEnum<'ctx>> {
    let values: Vec<BasicValueEnum<'ctx>> = args
        .iter()
        .map(|&a| {
            BasicValueEnum::try_from(a).map_err(|_| ice("a parameter is not a first-class value"))
        })
        .collect::<Result<_>>()?;
    let fields: Vec<BasicTypeEnum<'ctx>> = values.iter().map(|v| v.get_type()).collect();
    let ty = lw.ll.cx.struct_type(&fields, false);
    let body = pool_body(lw, name, inner, ty)?;
    let params = lw.ll.b.build_alloca(ty, "params").map_err(ice)?;
    for (i, &v) in values.iter().enumerate() {
        let slot = lw
            .ll
            .b
            .build_struct_gep(ty, params, i as u32, "")
            .map_err(ice)?;
        lw.ll.b.build_store(slot, v).map_err(ice)?;
    }
    let ptr = lw.ll.cx.ptr_type(AddressSpace::default());
    let run = lw.ll.runtime_fn(&strata_abi::runtime::CALL_ON_POOL);
    let body_ptr = body.as_global_value().as_pointer_value();
    let bytes = lw.ll.i64(arena_bytes);
    let scratch = scratch.unwrap_or_else(|| ptr.const_null().into());
    lw.ll
        .call(
            run,
            &[body_ptr.into(), params.into(), bytes.into(), scratch],
        )?
        .ok_or_else(|| ice("strata_rt_call_on_pool returns nothing"))
}

/// `int32_t P.f.on_pool(void *params)`: `P.f` on the parameters stored
/// in `params` (struct `ty`), between an arena mark and reset.
fn pool_body<'ctx>(
    lw: &mut Lowerer<'ctx, '_>,
    name: &str,
    inner: FunctionValue<'ctx>,
    ty: inkwell::types::StructType<'ctx>,
) -> Result<FunctionValue<'ctx>> {
    let symbol = format!("{}.{name}.on_pool", lw.prefix);
    // `P_f` and `P_f_with_scratch` share it.
    if let Some(f) = lw.ll.module.get_function(&symbol) {
        return Ok(f);
    }
    let i32t = lw.ll.cx.i32_type();
    let ptr = lw.ll.cx.ptr_type(AddressSpace::default());
    let resume = lw
        .ll
        .b
        .get_insert_block()
        .ok_or_else(|| ice("builder outside a block"))?;
    let f = lw.ll.module.add_function(
        &symbol,
        i32t.fn_type(&[ptr.into()], false),
        // Internal, not private: a local symbol that profiles name.
        Some(Linkage::Internal),
    );
    f.add_attribute(AttributeLoc::Function, crate::llvm::nounwind(lw.ll.cx));
    lw.ll
        .b
        .position_at_end(lw.ll.cx.append_basic_block(f, "entry"));
    let params = f
        .get_nth_param(0)
        .ok_or_else(|| ice("pool body without its parameter"))?
        .into_pointer_value();
    let mut args: Vec<BasicMetadataValueEnum<'ctx>> = Vec::new();
    for (i, field) in ty.get_field_types().into_iter().enumerate() {
        let slot = lw
            .ll
            .b
            .build_struct_gep(ty, params, i as u32, "")
            .map_err(ice)?;
        args.push(lw.ll.b.build_load(field, slot, "").map_err(ice)?.into());
    }
    let status = lw.call_between_arena_marks(inner, &args)?;
    lw.ll.b.build_return(Some(&status)).map_err(ice)?;
    lw.ll.b.position_at_end(resume);
    Ok(f)
}
