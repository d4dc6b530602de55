//! The lowering state shared by the per-dialect files: the LLVM module and
//! builder, the map from IR values to LLVM values, and small helpers.

use std::collections::HashMap;

use inkwell::basic_block::BasicBlock;
use inkwell::builder::Builder;
use inkwell::context::Context as LlContext;
use inkwell::module::{Linkage, Module};
use inkwell::types::{BasicTypeEnum, FunctionType};
use inkwell::values::{
    BasicMetadataValueEnum, BasicValueEnum, FloatValue, FunctionValue, IntValue, PointerValue,
};
use strata_diag::{Diagnostic, Location, Result};
use strata_ir::{Context, OpId, Type, Value};

use crate::ice;

pub(crate) struct Lowerer<'ctx, 'a> {
    pub ir: &'a Context,
    pub cx: &'ctx LlContext,
    pub module: Module<'ctx>,
    pub b: Builder<'ctx>,
    pub prefix: &'a str,
    /// LLVM value of every IR value lowered so far.
    pub values: HashMap<Value, BasicValueEnum<'ctx>>,
    /// LLVM function of every `func.func` of the module, by symbol name.
    pub funcs: HashMap<String, FunctionValue<'ctx>>,
    /// The defined functions that take their parameters packed (see
    /// `params.rs`).
    pub packed: crate::params::Packed<'ctx>,
    /// The parameters of the packed function being lowered: its pack, the
    /// pack's type and the parameter's slot.
    pub packed_args: HashMap<Value, (PointerValue<'ctx>, inkwell::types::StructType<'ctx>, u32)>,
    /// Address of every `mem.global`, by symbol name.
    pub globals: HashMap<String, PointerValue<'ctx>>,
    /// The entry block of the function being lowered, which holds its allocas.
    pub alloca_block: Option<BasicBlock<'ctx>>,
    /// Defined functions without results return an `i32` status (0 = ok)
    /// so that runtime errors (a failed allocation) unwind to the exported
    /// wrapper. True while lowering such a function.
    pub returns_status: bool,
    /// The function being lowered calls so many defined functions that
    /// the calls stay calls (see `params::MAX_INLINED_CALLS`).
    pub keep_calls: bool,
    /// Registry entry of every custom-call declaration, by symbol.
    pub custom_calls: HashMap<String, crate::custom_call::Entry>,
    /// The registry's targets, in entry order.
    pub custom_call_targets: Vec<String>,
    /// `P.custom_calls`, once built (see `custom_call.rs`).
    pub custom_call_table: Option<inkwell::values::GlobalValue<'ctx>>,
    /// The target's required CPU features as a C string, and the flag the
    /// exported wrappers set once the check has passed (see `func.rs`).
    /// The required-features string and the once-passed flag, and the
    /// CPU every target has (the check itself runs on it).
    pub cpu_check: Option<(PointerValue<'ctx>, PointerValue<'ctx>, &'static str)>,
}

impl<'ctx, 'a> Lowerer<'ctx, 'a> {
    pub fn new(ir: &'a Context, cx: &'ctx LlContext, prefix: &'a str) -> Self {
        Lowerer {
            ir,
            cx,
            module: cx.create_module(prefix),
            b: cx.create_builder(),
            prefix,
            values: HashMap::new(),
            funcs: HashMap::new(),
            packed: HashMap::new(),
            packed_args: HashMap::new(),
            globals: HashMap::new(),
            cpu_check: None,
            custom_calls: HashMap::new(),
            custom_call_targets: Vec::new(),
            custom_call_table: None,
            alloca_block: None,
            returns_status: false,
            keep_calls: false,
        }
    }

    pub fn loc(&self, op: OpId) -> Location {
        self.ir.op(op).loc
    }

    /// A violated contract (the verifier should have caught it).
    pub fn internal(&self, op: OpId, msg: impl Into<String>) -> Diagnostic {
        Diagnostic::internal(
            self.loc(op),
            format!("'{}' op {}", self.ir.op(op).name, msg.into()),
        )
    }

    pub fn operand(&self, op: OpId, i: usize) -> Result<Value> {
        self.ir
            .op(op)
            .operands
            .get(i)
            .copied()
            .ok_or_else(|| self.internal(op, format!("has no operand #{i}")))
    }

    pub fn operand_ty(&self, op: OpId, i: usize) -> Result<Type> {
        Ok(self.ir.value_ty(self.operand(op, i)?))
    }

    pub fn result_ty(&self, op: OpId) -> Result<Type> {
        let r = self
            .ir
            .op(op)
            .results
            .first()
            .copied()
            .ok_or_else(|| self.internal(op, "has no result"))?;
        Ok(self.ir.value_ty(r))
    }

    /// LLVM value of operand `i`.
    pub fn val(&self, op: OpId, i: usize) -> Result<BasicValueEnum<'ctx>> {
        let v = self.operand(op, i)?;
        if let Some(&x) = self.values.get(&v) {
            return Ok(x);
        }
        self.packed_arg(v)
            .unwrap_or_else(|| Err(self.internal(op, format!("operand #{i} has not been lowered"))))
    }

    pub fn int(&self, op: OpId, i: usize) -> Result<IntValue<'ctx>> {
        match self.val(op, i)? {
            BasicValueEnum::IntValue(v) => Ok(v),
            _ => Err(self.internal(op, format!("expects operand #{i} to be an integer"))),
        }
    }

    pub fn float(&self, op: OpId, i: usize) -> Result<FloatValue<'ctx>> {
        match self.val(op, i)? {
            BasicValueEnum::FloatValue(v) => Ok(v),
            _ => Err(self.internal(op, format!("expects operand #{i} to be a float"))),
        }
    }

    pub fn ptr(&self, op: OpId, i: usize) -> Result<PointerValue<'ctx>> {
        match self.val(op, i)? {
            BasicValueEnum::PointerValue(v) => Ok(v),
            _ => Err(self.internal(op, format!("expects operand #{i} to be a memref"))),
        }
    }

    /// Binds result `i` of `op` to `v`.
    pub fn bind(&mut self, op: OpId, i: usize, v: BasicValueEnum<'ctx>) -> Result<()> {
        let r = self
            .ir
            .op(op)
            .results
            .get(i)
            .copied()
            .ok_or_else(|| self.internal(op, format!("has no result #{i}")))?;
        self.values.insert(r, v);
        Ok(())
    }

    pub fn value_type(&self, t: Type, op: OpId) -> Result<BasicTypeEnum<'ctx>> {
        crate::types::value_type(self.ir, self.cx, t, self.loc(op))
    }

    /// The function being lowered.
    pub fn current_fn(&self) -> Result<FunctionValue<'ctx>> {
        self.b
            .get_insert_block()
            .and_then(|b| b.get_parent())
            .ok_or_else(|| ice("builder is not inside a function"))
    }

    /// An external function named `name`, declared on first use.
    pub fn external(&self, name: &str, ty: FunctionType<'ctx>) -> FunctionValue<'ctx> {
        self.module
            .get_function(name)
            .unwrap_or_else(|| self.module.add_function(name, ty, Some(Linkage::External)))
    }

    /// The runtime function `sig`, declared from its signature in
    /// `strata_abi::runtime` (the one description of it).
    pub fn runtime_fn(&self, sig: &strata_abi::runtime::Signature) -> FunctionValue<'ctx> {
        use inkwell::types::BasicMetadataTypeEnum;
        use strata_abi::runtime::{Param, Returns};
        let ptr = self.cx.ptr_type(inkwell::AddressSpace::default());
        let params: Vec<BasicMetadataTypeEnum> = sig
            .params
            .iter()
            .map(|p| match p {
                Param::Ptr => ptr.into(),
                Param::I32 => self.cx.i32_type().into(),
                Param::I64 => self.cx.i64_type().into(),
                Param::U8 => self.cx.i8_type().into(),
                Param::F64 => self.cx.f64_type().into(),
            })
            .collect();
        let ty = match sig.returns {
            Returns::Nothing => self.cx.void_type().fn_type(&params, false),
            Returns::Status | Returns::I32 | Returns::U32 => {
                self.cx.i32_type().fn_type(&params, false)
            }
            Returns::I64 => self.cx.i64_type().fn_type(&params, false),
            Returns::U8 => self.cx.i8_type().fn_type(&params, false),
            Returns::F64 => self.cx.f64_type().fn_type(&params, false),
            Returns::Ptr => ptr.fn_type(&params, false),
        };
        self.external(sig.name, ty)
    }

    /// Calls `f` and returns its result (if it has one).
    pub fn call(
        &self,
        f: FunctionValue<'ctx>,
        args: &[BasicMetadataValueEnum<'ctx>],
    ) -> Result<Option<BasicValueEnum<'ctx>>> {
        let site = self.b.build_call(f, args, "").map_err(ice)?;
        Ok(site.try_as_basic_value().basic())
    }

    pub fn i64(&self, v: u64) -> IntValue<'ctx> {
        self.cx.i64_type().const_int(v, false)
    }

    /// Lowers every op of `block` in order.
    pub fn lower_block(&mut self, block: strata_ir::BlockId) -> Result<()> {
        let ops = self.ir.blocks[block].ops.clone();
        for op in ops {
            self.lower_op(op)?;
        }
        Ok(())
    }

    fn lower_op(&mut self, op: OpId) -> Result<()> {
        let name = self.ir.op(op).name;
        match name.split_once('.').map(|p| p.0) {
            Some("mem") => self.lower_mem(op),
            Some("loop") => self.lower_loop(op),
            Some("arith") => self.lower_arith(op),
            Some("func") => self.lower_func_op(op),
            _ => Err(Diagnostic::unsupported(
                self.loc(op),
                format!("'{name}' op cannot be lowered to LLVM IR"),
            )),
        }
    }
}

impl<'ctx> Lowerer<'ctx, '_> {
    /// Returns `status` from the current function when it is not zero (a
    /// callee failed; only in status-returning functions); continues in a
    /// new block.
    pub fn return_status_if_failed(
        &mut self,
        status: inkwell::values::IntValue<'ctx>,
    ) -> strata_diag::Result<()> {
        let zero = status.get_type().const_zero();
        let failed = self
            .b
            .build_int_compare(inkwell::IntPredicate::NE, status, zero, "")
            .map_err(crate::ice)?;
        let f = self.current_fn()?;
        let fail = self.cx.append_basic_block(f, "fail");
        let ok = self.cx.append_basic_block(f, "ok");
        self.b
            .build_conditional_branch(failed, fail, ok)
            .map_err(crate::ice)?;
        self.b.position_at_end(fail);
        self.b.build_return(Some(&status)).map_err(crate::ice)?;
        self.b.position_at_end(ok);
        Ok(())
    }
}
