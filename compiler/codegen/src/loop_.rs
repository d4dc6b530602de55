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

impl<'ctx> Lowerer<'ctx, '_> {
    pub(crate) fn lower_loop(&mut self, op: OpId) -> Result<()> {
        match self.ir.op(op).name {
            lp::FOR => self.lower_for(op),
            lp::IF => self.lower_if(op),
            lp::WHILE => self.lower_while(op),
            lp::DISPATCH => self.lower_dispatch(op),
            lp::RUN_DEVICES => self.lower_run_devices(op),
            // Terminators of loop bodies and arms: the parent adds the branch.
            lp::YIELD | lp::CONDITION => Ok(()),
            name => Err(Diagnostic::unsupported(
                self.loc(op),
                format!("'{name}' op cannot be lowered to LLVM IR"),
            )),
        }
    }

    fn lower_for(&mut self, op: OpId) -> Result<()> {
        let (lb, ub, step) = (self.int(op, 0)?, self.int(op, 1)?, self.int(op, 2)?);
        let body_block = self
            .ir
            .entry_block(op, 0)
            .ok_or_else(|| self.internal(op, "has no body"))?;
        let iv_arg = *self.ir.blocks[body_block]
            .args
            .first()
            .ok_or_else(|| self.internal(op, "has no induction variable"))?;
        let f = self.current_fn()?;
        let pre = self
            .b
            .get_insert_block()
            .ok_or_else(|| ice("builder has no block"))?;
        let header = self.cx.append_basic_block(f, "loop.header");
        let body = self.cx.append_basic_block(f, "loop.body");
        let exit = self.cx.append_basic_block(f, "loop.exit");
        self.b.build_unconditional_branch(header).map_err(ice)?;

        self.b.position_at_end(header);
        let iv = self.b.build_phi(self.cx.i64_type(), "iv").map_err(ice)?;
        iv.add_incoming(&[(&lb, pre)]);
        let ivv = iv.as_basic_value().into_int_value();
        let cond = self
            .b
            .build_int_compare(inkwell::IntPredicate::SLT, ivv, ub, "")
            .map_err(ice)?;
        self.b
            .build_conditional_branch(cond, body, exit)
            .map_err(ice)?;

        self.b.position_at_end(body);
        self.values.insert(iv_arg, ivv.into());
        self.lower_block(body_block)?;
        let latch = self
            .b
            .get_insert_block()
            .ok_or_else(|| ice("builder has no block"))?;
        let next = self
            .b
            .build_int_nsw_add(ivv, step, "iv.next")
            .map_err(ice)?;
        self.b.build_unconditional_branch(header).map_err(ice)?;
        iv.add_incoming(&[(&next, latch)]);

        self.b.position_at_end(exit);
        Ok(())
    }

    fn lower_if(&mut self, op: OpId) -> Result<()> {
        let cond = self.int(op, 0)?;
        let f = self.current_fn()?;
        let then_block = self
            .ir
            .entry_block(op, 0)
            .ok_or_else(|| self.internal(op, "has no then block"))?;
        let else_block = self.ir.entry_block(op, 1);
        let then_bb = self.cx.append_basic_block(f, "if.then");
        let else_bb = else_block.map(|_| self.cx.append_basic_block(f, "if.else"));
        let merge = self.cx.append_basic_block(f, "if.end");
        self.b
            .build_conditional_branch(cond, then_bb, else_bb.unwrap_or(merge))
            .map_err(ice)?;
        for (block, bb) in [(Some(then_block), Some(then_bb)), (else_block, else_bb)] {
            if let (Some(block), Some(bb)) = (block, bb) {
                self.b.position_at_end(bb);
                self.lower_block(block)?;
                self.b.build_unconditional_branch(merge).map_err(ice)?;
            }
        }
        self.b.position_at_end(merge);
        Ok(())
    }

    fn lower_while(&mut self, op: OpId) -> Result<()> {
        let cond_block = self
            .ir
            .entry_block(op, 0)
            .ok_or_else(|| self.internal(op, "has no cond block"))?;
        let body_block = self
            .ir
            .entry_block(op, 1)
            .ok_or_else(|| self.internal(op, "has no body block"))?;
        let term = *self.ir.blocks[cond_block]
            .ops
            .last()
            .ok_or_else(|| self.internal(op, "has an empty cond block"))?;
        let f = self.current_fn()?;
        let cond_bb = self.cx.append_basic_block(f, "while.cond");
        let body_bb = self.cx.append_basic_block(f, "while.body");
        let exit = self.cx.append_basic_block(f, "while.exit");
        self.b.build_unconditional_branch(cond_bb).map_err(ice)?;
        self.b.position_at_end(cond_bb);
        self.lower_block(cond_block)?;
        let c = self.int(term, 0)?;
        self.b
            .build_conditional_branch(c, body_bb, exit)
            .map_err(ice)?;
        self.b.position_at_end(body_bb);
        self.lower_block(body_block)?;
        self.b.build_unconditional_branch(cond_bb).map_err(ice)?;
        self.b.position_at_end(exit);
        Ok(())
    }

    fn lower_dispatch(&mut self, op: OpId) -> Result<()> {
        let cost = self
            .ir
            .int_attr(op, "cost")
            .and_then(|c| u64::try_from(c).ok())
            .ok_or_else(|| self.internal(op, "has no 'cost'"))?;
        let (task, frame) = self.task_and_frame(op, 3)?;
        let i64t = self.cx.i64_type();
        let args: Vec<BasicMetadataValueEnum> = vec![
            task.as_global_value().as_pointer_value().into(),
            frame.into(),
            self.int(op, 0)?.into(),
            self.int(op, 1)?.into(),
            self.int(op, 2)?.into(),
            i64t.const_int(cost, false).into(),
        ];
        self.call_runtime_status(op, &strata_abi::runtime::PARALLEL_FOR, &args)
    }

    /// For a module whose bodies another backend lowers (`glue_only`):
    /// `i32 P.launch.<callee>(operands...)` runs one `loop.dispatch` or
    /// `loop.run_devices` as the native lowering does (task, captured
    /// frame, the runtime's pool or device threads); the other backend's
    /// body calls it in the op's place. One per callee (the outlining pass
    /// makes one callee per op).
    pub(crate) fn define_launch_stub(&mut self, op: OpId) -> Result<()> {
        let callee = lp::dispatch_callee(self.ir, op)
            .ok_or_else(|| self.internal(op, "has no 'callee'"))?
            .to_string();
        let name = launch_stub_name(self.prefix, &callee);
        if self.module.get_function(&name).is_some() {
            return Ok(());
        }
        let operands = self.ir.op(op).operands.clone();
        let params = operands
            .iter()
            .map(|&v| {
                self.value_type(self.ir.value_ty(v), op)
                    .map(inkwell::types::BasicMetadataTypeEnum::from)
            })
            .collect::<Result<Vec<_>>>()?;
        let f = self.module.add_function(
            &name,
            self.cx.i32_type().fn_type(&params, false),
            Some(inkwell::module::Linkage::External),
        );
        let entry = self.cx.append_basic_block(f, "entry");
        let body = self.cx.append_basic_block(f, "body");
        for (i, &v) in operands.iter().enumerate() {
            let p = f
                .get_nth_param(i as u32)
                .ok_or_else(|| ice("launch stub parameter missing"))?;
            self.values.insert(v, p);
        }
        self.alloca_block = Some(entry);
        self.returns_status = true;
        self.b.position_at_end(body);
        match self.ir.op(op).name {
            lp::DISPATCH => self.lower_dispatch(op)?,
            lp::RUN_DEVICES => self.lower_run_devices(op)?,
            _ => return Err(self.internal(op, "has no launch stub")),
        }
        self.b
            .build_return(Some(&self.cx.i32_type().const_zero()))
            .map_err(ice)?;
        self.b.position_at_end(entry);
        self.b.build_unconditional_branch(body).map_err(ice)?;
        self.alloca_block = None;
        Ok(())
    }

    /// `loop.run_devices`: `strata_rt_run_devices(task, &captures, R, P)`.
    fn lower_run_devices(&mut self, op: OpId) -> Result<()> {
        let count = |name| {
            self.ir
                .int_attr(op, name)
                .and_then(|c| u64::try_from(c).ok())
                .ok_or_else(|| self.internal(op, format!("has no '{name}'")))
        };
        let (replicas, partitions) = (count("replicas")?, count("partitions")?);
        let (task, frame) = self.task_and_frame(op, 0)?;
        let i64t = self.cx.i64_type();
        let args: Vec<BasicMetadataValueEnum> = vec![
            task.as_global_value().as_pointer_value().into(),
            frame.into(),
            i64t.const_int(replicas, false).into(),
            i64t.const_int(partitions, false).into(),
        ];
        self.call_runtime_status(op, &strata_abi::runtime::RUN_DEVICES, &args)
    }

    /// Calls the runtime function `sig` (which returns a status), and
    /// returns a non-zero status from the function.
    fn call_runtime_status(
        &mut self,
        op: OpId,
        sig: &strata_abi::runtime::Signature,
        args: &[BasicMetadataValueEnum<'ctx>],
    ) -> Result<()> {
        let name = sig.name;
        let run = self.runtime_fn(sig);
        let status = self
            .call(run, args)?
            .ok_or_else(|| ice(format!("{name} returns nothing")))?
            .into_int_value();
        if !self.returns_status {
            return Err(self.internal(op, "is in a function that cannot return a status"));
        }
        self.return_status_if_failed(status)
    }

    /// The task running `op`'s callee and a stack struct holding the
    /// captures (operands from `first` on), stored at this point.
    fn task_and_frame(
        &mut self,
        op: OpId,
        first: usize,
    ) -> Result<(FunctionValue<'ctx>, inkwell::values::PointerValue<'ctx>)> {
        let callee = lp::dispatch_callee(self.ir, op)
            .ok_or_else(|| self.internal(op, "has no 'callee'"))?
            .to_string();
        let body = *self
            .funcs
            .get(&callee)
            .ok_or_else(|| self.internal(op, format!("runs unknown '@{callee}'")))?;
        let n = self.ir.op(op).operands.len();
        let captures = (first..n)
            .map(|i| self.val(op, i))
            .collect::<Result<Vec<_>>>()?;
        let types: Vec<BasicTypeEnum> = captures.iter().map(|v| v.get_type()).collect();
        let frame_ty = self.cx.struct_type(&types, false);
        let task = self.dispatch_task(&callee, body, frame_ty)?;

        // The captures, in a struct in the entry block's stack frame.
        let entry = self
            .alloca_block
            .ok_or_else(|| self.internal(op, "is outside a function"))?;
        let eb = self.cx.create_builder();
        match entry.get_first_instruction() {
            Some(first) => eb.position_before(&first),
            None => eb.position_at_end(entry),
        }
        let frame = eb.build_alloca(frame_ty, "captures").map_err(ice)?;
        for (i, v) in captures.iter().enumerate() {
            let slot = self
                .b
                .build_struct_gep(frame_ty, frame, i as u32, "")
                .map_err(ice)?;
            self.b.build_store(slot, *v).map_err(ice)?;
        }
        Ok((task, frame))
    }

    /// `i32 P.callee.task(ptr frame, i64 begin, i64 end)`, built once per callee.
    fn dispatch_task(
        &mut self,
        callee: &str,
        body: FunctionValue<'ctx>,
        frame_ty: StructType<'ctx>,
    ) -> Result<FunctionValue<'ctx>> {
        let name = format!("{}.{callee}.task", self.prefix);
        if let Some(f) = self.module.get_function(&name) {
            return Ok(f);
        }
        let (i32t, i64t) = (self.cx.i32_type(), self.cx.i64_type());
        let ptr = self.cx.ptr_type(AddressSpace::default());
        let fty = i32t.fn_type(&[ptr.into(), i64t.into(), i64t.into()], false);
        let f = self
            .module
            .add_function(&name, fty, Some(inkwell::module::Linkage::Internal));
        f.add_attribute(
            AttributeLoc::Function,
            self.cx
                .create_enum_attribute(Attribute::get_named_enum_kind_id("nounwind"), 0),
        );
        let resume = self.b.get_insert_block();
        let bb = self.cx.append_basic_block(f, "entry");
        self.b.position_at_end(bb);
        let param = |i: u32| {
            f.get_nth_param(i)
                .ok_or_else(|| ice("task parameter missing"))
        };
        let frame = param(0)?.into_pointer_value();
        let mut args: Vec<BasicMetadataValueEnum> = vec![param(1)?.into(), param(2)?.into()];
        for (i, ty) in frame_ty.get_field_types().into_iter().enumerate() {
            let slot = self
                .b
                .build_struct_gep(frame_ty, frame, i as u32, "")
                .map_err(ice)?;
            let v = self
                .b
                .build_load(ty.as_basic_type_enum(), slot, "")
                .map_err(ice)?;
            args.push(v.into());
        }
        let status = self
            .call_defined(body, &args)?
            .ok_or_else(|| ice("an outlined loop returns no status"))?;
        self.b.build_return(Some(&status)).map_err(ice)?;
        if let Some(bb) = resume {
            self.b.position_at_end(bb);
        }
        Ok(f)
    }
}

/// The symbol of the launch stub of the outlined function `callee` (see
/// `Lowerer::define_launch_stub`); another backend calls it.
pub fn launch_stub_name(prefix: &str, callee: &str) -> String {
    format!("{prefix}.launch.{callee}")
}
