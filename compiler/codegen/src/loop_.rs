//! `loop` ops: counted loops and conditionals as basic blocks.
//!
//! `loop.for %lb, %ub, %step`:
//! ```text
//!   pre:    br header
//!   header: %iv = phi [%lb, pre], [%next, latch]
//!           br (icmp slt %iv, %ub), body, exit
//!   body:   ...                       ; may end in another block (latch)
//!   latch:  %next = add nsw %iv, %step ; br header
//!   exit:
//! ```
//! `loop.if %c`: `br %c, then, else|merge`; each arm branches to `merge`.
//! `loop.while`: `br cond; cond: ... br %c, body, exit; body: ... br cond`.
//! `loop.dispatch`: the captures stored in a stack struct, then
//! `strata_rt_parallel_for(P.callee.task, &struct, lb, ub, step, cost)`; the
//! task `i32 P.callee.task(ptr, i64 begin, i64 end)` loads the captures and
//! calls `P.callee(begin, end, captures...)`. A non-zero status returns
//! from the function, as a failed call does.

use inkwell::AddressSpace;
use inkwell::attributes::{Attribute, AttributeLoc};
use inkwell::types::{BasicType, BasicTypeEnum, StructType};
use inkwell::values::{BasicMetadataValueEnum, FunctionValue};
use strata_diag::{Diagnostic, Result};
use strata_dialect_loop as lp;
use strata_ir::OpId;

use crate::ice;
use crate::state::Lowerer;

pub(crate) fn lower_loop<'ctx>(lw: &mut Lowerer<'ctx, '_>, op: OpId) -> Result<()> {
    match lw.ir.op(op).name {
        lp::FOR => lower_for(lw, op),
        lp::IF => lower_if(lw, op),
        lp::WHILE => lower_while(lw, op),
        lp::DISPATCH => lower_dispatch(lw, op),
        lp::RUN_DEVICES => lower_run_devices(lw, op),
        // Terminators of loop bodies and arms: the parent adds the branch.
        lp::YIELD | lp::CONDITION => Ok(()),
        name => Err(Diagnostic::unsupported(
            lw.loc(op),
            format!("'{name}' op cannot be lowered to LLVM IR"),
        )),
    }
}

fn lower_for<'ctx>(lw: &mut Lowerer<'ctx, '_>, op: OpId) -> Result<()> {
    let (lb, ub, step) = (lw.int(op, 0)?, lw.int(op, 1)?, lw.int(op, 2)?);
    let body_block = lw
        .ir
        .entry_block(op, 0)
        .ok_or_else(|| lw.internal(op, "has no body"))?;
    let iv_arg = *lw.ir.blocks[body_block]
        .args
        .first()
        .ok_or_else(|| lw.internal(op, "has no induction variable"))?;
    let f = lw.ll.current_fn()?;
    let pre = lw
        .ll
        .b
        .get_insert_block()
        .ok_or_else(|| ice("builder has no block"))?;
    let header = lw.ll.cx.append_basic_block(f, "loop.header");
    let body = lw.ll.cx.append_basic_block(f, "loop.body");
    let exit = lw.ll.cx.append_basic_block(f, "loop.exit");
    lw.ll.b.build_unconditional_branch(header).map_err(ice)?;

    lw.ll.b.position_at_end(header);
    let iv = lw.ll.b.build_phi(lw.ll.cx.i64_type(), "iv").map_err(ice)?;
    iv.add_incoming(&[(&lb, pre)]);
    let ivv = iv.as_basic_value().into_int_value();
    let cond = lw
        .ll
        .b
        .build_int_compare(inkwell::IntPredicate::SLT, ivv, ub, "")
        .map_err(ice)?;
    lw.ll
        .b
        .build_conditional_branch(cond, body, exit)
        .map_err(ice)?;

    lw.ll.b.position_at_end(body);
    lw.values.insert(iv_arg, ivv.into());
    lw.lower_block(body_block)?;
    let latch = lw
        .ll
        .b
        .get_insert_block()
        .ok_or_else(|| ice("builder has no block"))?;
    let next = lw
        .ll
        .b
        .build_int_nsw_add(ivv, step, "iv.next")
        .map_err(ice)?;
    lw.ll.b.build_unconditional_branch(header).map_err(ice)?;
    iv.add_incoming(&[(&next, latch)]);

    lw.ll.b.position_at_end(exit);
    Ok(())
}

fn lower_if<'ctx>(lw: &mut Lowerer<'ctx, '_>, op: OpId) -> Result<()> {
    let cond = lw.int(op, 0)?;
    let f = lw.ll.current_fn()?;
    let then_block = lw
        .ir
        .entry_block(op, 0)
        .ok_or_else(|| lw.internal(op, "has no then block"))?;
    let else_block = lw.ir.entry_block(op, 1);
    let then_bb = lw.ll.cx.append_basic_block(f, "if.then");
    let else_bb = else_block.map(|_| lw.ll.cx.append_basic_block(f, "if.else"));
    let merge = lw.ll.cx.append_basic_block(f, "if.end");
    lw.ll
        .b
        .build_conditional_branch(cond, then_bb, else_bb.unwrap_or(merge))
        .map_err(ice)?;
    for (block, bb) in [(Some(then_block), Some(then_bb)), (else_block, else_bb)] {
        if let (Some(block), Some(bb)) = (block, bb) {
            lw.ll.b.position_at_end(bb);
            lw.lower_block(block)?;
            lw.ll.b.build_unconditional_branch(merge).map_err(ice)?;
        }
    }
    lw.ll.b.position_at_end(merge);
    Ok(())
}

fn lower_while<'ctx>(lw: &mut Lowerer<'ctx, '_>, op: OpId) -> Result<()> {
    let cond_block = lw
        .ir
        .entry_block(op, 0)
        .ok_or_else(|| lw.internal(op, "has no cond block"))?;
    let body_block = lw
        .ir
        .entry_block(op, 1)
        .ok_or_else(|| lw.internal(op, "has no body block"))?;
    let term = *lw.ir.blocks[cond_block]
        .ops
        .last()
        .ok_or_else(|| lw.internal(op, "has an empty cond block"))?;
    let f = lw.ll.current_fn()?;
    let cond_bb = lw.ll.cx.append_basic_block(f, "while.cond");
    let body_bb = lw.ll.cx.append_basic_block(f, "while.body");
    let exit = lw.ll.cx.append_basic_block(f, "while.exit");
    lw.ll.b.build_unconditional_branch(cond_bb).map_err(ice)?;
    lw.ll.b.position_at_end(cond_bb);
    lw.lower_block(cond_block)?;
    let c = lw.int(term, 0)?;
    lw.ll
        .b
        .build_conditional_branch(c, body_bb, exit)
        .map_err(ice)?;
    lw.ll.b.position_at_end(body_bb);
    lw.lower_block(body_block)?;
    lw.ll.b.build_unconditional_branch(cond_bb).map_err(ice)?;
    lw.ll.b.position_at_end(exit);
    Ok(())
}

fn lower_dispatch<'ctx>(lw: &mut Lowerer<'ctx, '_>, op: OpId) -> Result<()> {
    let cost = lw
        .ir
        .int_attr(op, "cost")
        .and_then(|c| u64::try_from(c).ok())
        .ok_or_else(|| lw.internal(op, "has no 'cost'"))?;
    let (task, frame) = task_and_frame(lw, op, 3)?;
    let i64t = lw.ll.cx.i64_type();
    let args: Vec<BasicMetadataValueEnum> = vec![
        task.as_global_value().as_pointer_value().into(),
        frame.into(),
        lw.int(op, 0)?.into(),
        lw.int(op, 1)?.into(),
        lw.int(op, 2)?.into(),
        i64t.const_int(cost, false).into(),
    ];
    call_runtime_status(lw, op, &strata_abi::runtime::PARALLEL_FOR, &args)
}

/// For a module whose bodies another backend lowers (`glue_only`):
/// `i32 P.launch.<callee>(operands...)` runs one `loop.dispatch` or
/// `loop.run_devices` as the native lowering does (task, captured
/// frame, the runtime's pool or device threads); the other backend's
/// body calls it in the op's place. One per callee (the outlining pass
/// makes one callee per op).
pub(crate) fn define_launch_stub<'ctx>(lw: &mut Lowerer<'ctx, '_>, op: OpId) -> Result<()> {
    let callee = lp::dispatch_callee(lw.ir, op)
        .ok_or_else(|| lw.internal(op, "has no 'callee'"))?
        .to_string();
    let name = launch_stub_name(lw.prefix, &callee);
    if lw.ll.module.get_function(&name).is_some() {
        return Ok(());
    }
    let operands = lw.ir.op(op).operands().to_vec();
    let params = operands
        .iter()
        .map(|&v| {
            lw.value_type(lw.ir.value_ty(v), op)
                .map(inkwell::types::BasicMetadataTypeEnum::from)
        })
        .collect::<Result<Vec<_>>>()?;
    let f = lw.ll.module.add_function(
        &name,
        lw.ll.cx.i32_type().fn_type(&params, false),
        Some(inkwell::module::Linkage::External),
    );
    let entry = lw.ll.cx.append_basic_block(f, "entry");
    let body = lw.ll.cx.append_basic_block(f, "body");
    for (i, &v) in operands.iter().enumerate() {
        let p = f
            .get_nth_param(i as u32)
            .ok_or_else(|| ice("launch stub parameter missing"))?;
        lw.values.insert(v, p);
    }
    lw.alloca_block = Some(entry);
    lw.returns_status = true;
    lw.ll.b.position_at_end(body);
    match lw.ir.op(op).name {
        lp::DISPATCH => lower_dispatch(lw, op)?,
        lp::RUN_DEVICES => lower_run_devices(lw, op)?,
        _ => return Err(lw.internal(op, "has no launch stub")),
    }
    lw.ll
        .b
        .build_return(Some(&lw.ll.cx.i32_type().const_zero()))
        .map_err(ice)?;
    lw.ll.b.position_at_end(entry);
    lw.ll.b.build_unconditional_branch(body).map_err(ice)?;
    lw.alloca_block = None;
    Ok(())
}

/// `loop.run_devices`: `strata_rt_run_devices(task, &captures, R, P)`.
fn lower_run_devices<'ctx>(lw: &mut Lowerer<'ctx, '_>, op: OpId) -> Result<()> {
    let count = |name| {
        lw.ir
            .int_attr(op, name)
            .and_then(|c| u64::try_from(c).ok())
            .ok_or_else(|| lw.internal(op, format!("has no '{name}'")))
    };
    let (replicas, partitions) = (count("replicas")?, count("partitions")?);
    let (task, frame) = task_and_frame(lw, op, 0)?;
    let i64t = lw.ll.cx.i64_type();
    let args: Vec<BasicMetadataValueEnum> = vec![
        task.as_global_value().as_pointer_value().into(),
        frame.into(),
        i64t.const_int(replicas, false).into(),
        i64t.const_int(partitions, false).into(),
    ];
    call_runtime_status(lw, op, &strata_abi::runtime::RUN_DEVICES, &args)
}

/// Calls the runtime function `sig` (which returns a status), and
/// returns a non-zero status from the function.
fn call_runtime_status<'ctx>(
    lw: &mut Lowerer<'ctx, '_>,
    op: OpId,
    sig: &strata_abi::runtime::Signature,
    args: &[BasicMetadataValueEnum<'ctx>],
) -> Result<()> {
    let name = sig.name;
    let run = lw.ll.runtime_fn(sig);
    let status = lw
        .ll
        .call(run, args)?
        .ok_or_else(|| ice(format!("{name} returns nothing")))?
        .into_int_value();
    if !lw.returns_status {
        return Err(lw.internal(op, "is in a function that cannot return a status"));
    }
    lw.ll.return_status_if_failed(status)
}

/// The task running `op`'s callee and a stack struct holding the
/// captures (operands from `first` on), stored at this point.
fn task_and_frame<'ctx>(
    lw: &mut Lowerer<'ctx, '_>,
    op: OpId,
    first: usize,
) -> Result<(FunctionValue<'ctx>, inkwell::values::PointerValue<'ctx>)> {
    let callee = lp::dispatch_callee(lw.ir, op)
        .ok_or_else(|| lw.internal(op, "has no 'callee'"))?
        .to_string();
    let body = *lw
        .funcs
        .get(&callee)
        .ok_or_else(|| lw.internal(op, format!("runs unknown '@{callee}'")))?;
    let n = lw.ir.op(op).operands().len();
    let captures = (first..n)
        .map(|i| lw.val(op, i))
        .collect::<Result<Vec<_>>>()?;
    let types: Vec<BasicTypeEnum> = captures.iter().map(|v| v.get_type()).collect();
    let frame_ty = lw.ll.cx.struct_type(&types, false);
    let task = dispatch_task(lw, &callee, body, frame_ty)?;

    // The captures, in a struct in the entry block's stack frame.
    let entry = lw
        .alloca_block
        .ok_or_else(|| lw.internal(op, "is outside a function"))?;
    let eb = lw.ll.builder_at_start(entry);
    let frame = eb.build_alloca(frame_ty, "captures").map_err(ice)?;
    for (i, v) in captures.iter().enumerate() {
        let slot = lw
            .ll
            .b
            .build_struct_gep(frame_ty, frame, i as u32, "")
            .map_err(ice)?;
        lw.ll.b.build_store(slot, *v).map_err(ice)?;
    }
    Ok((task, frame))
}

/// `i32 P.callee.task(ptr frame, i64 begin, i64 end)`, built once per callee.
fn dispatch_task<'ctx>(
    lw: &mut Lowerer<'ctx, '_>,
    callee: &str,
    body: FunctionValue<'ctx>,
    frame_ty: StructType<'ctx>,
) -> Result<FunctionValue<'ctx>> {
    let name = format!("{}.{callee}.task", lw.prefix);
    if let Some(f) = lw.ll.module.get_function(&name) {
        return Ok(f);
    }
    let (i32t, i64t) = (lw.ll.cx.i32_type(), lw.ll.cx.i64_type());
    let ptr = lw.ll.cx.ptr_type(AddressSpace::default());
    let fty = i32t.fn_type(&[ptr.into(), i64t.into(), i64t.into()], false);
    let f = lw
        .ll
        .module
        .add_function(&name, fty, Some(inkwell::module::Linkage::Internal));
    f.add_attribute(
        AttributeLoc::Function,
        lw.ll
            .cx
            .create_enum_attribute(Attribute::get_named_enum_kind_id("nounwind"), 0),
    );
    let resume = lw.ll.b.get_insert_block();
    let bb = lw.ll.cx.append_basic_block(f, "entry");
    lw.ll.b.position_at_end(bb);
    let param = |i: u32| {
        f.get_nth_param(i)
            .ok_or_else(|| ice("task parameter missing"))
    };
    let frame = param(0)?.into_pointer_value();
    let mut args: Vec<BasicMetadataValueEnum> = vec![param(1)?.into(), param(2)?.into()];
    for (i, ty) in frame_ty.get_field_types().into_iter().enumerate() {
        let slot = lw
            .ll
            .b
            .build_struct_gep(frame_ty, frame, i as u32, "")
            .map_err(ice)?;
        let v = lw
            .ll
            .b
            .build_load(ty.as_basic_type_enum(), slot, "")
            .map_err(ice)?;
        args.push(v.into());
    }
    let status = lw
        .call_defined(body, &args)?
        .ok_or_else(|| ice("an outlined loop returns no status"))?;
    lw.ll.b.build_return(Some(&status)).map_err(ice)?;
    if let Some(bb) = resume {
        lw.ll.b.position_at_end(bb);
    }
    Ok(f)
}

/// The symbol of the launch stub of the outlined function `callee` (see
/// `Lowerer::define_launch_stub`); another backend calls it.
pub fn launch_stub_name(prefix: &str, callee: &str) -> String {
    format!("{prefix}.launch.{callee}")
}
