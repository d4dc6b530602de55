//! The LLVM side of the lowering: the module being built, its builder, and
//! the instruction helpers that need nothing of the IR (declarations and
//! calls, intrinsics, float conversions and bit tricks in `floats.rs`,
//! XLA's inline approximations in `approx.rs`). The per-dialect lowerings
//! (`Lowerer`) build on it.

mod approx;
mod floats;

use inkwell::basic_block::BasicBlock;
use inkwell::builder::Builder;
use inkwell::context::Context as LlContext;
use inkwell::intrinsics::Intrinsic;
use inkwell::module::{Linkage, Module};
use inkwell::types::{BasicTypeEnum, FunctionType};
use inkwell::values::{
    BasicMetadataValueEnum, BasicValueEnum, FunctionValue, IntValue, PointerValue,
};
use strata_diag::Result;

use crate::ice;

/// An LLVM module under construction and the builder that appends to it.
pub(crate) struct Llvm<'ctx> {
    pub cx: &'ctx LlContext,
    pub module: Module<'ctx>,
    pub b: Builder<'ctx>,
}

impl<'ctx> Llvm<'ctx> {
    /// A new builder placed before the first instruction of `block`: where
    /// stack slots go (in the entry block, so that a loop does not allocate
    /// them again).
    pub fn builder_at_start(&self, block: BasicBlock<'ctx>) -> Builder<'ctx> {
        let b = self.cx.create_builder();
        match block.get_first_instruction() {
            Some(first) => b.position_before(&first),
            None => b.position_at_end(block),
        }
        b
    }

    /// Makes the current function return 1 with `message` as the thread's
    /// last error when `ptr` is NULL; building goes on where it is not.
    /// `label` names the failing block.
    pub fn fail_if_null(&self, ptr: PointerValue<'ctx>, message: &str, label: &str) -> Result<()> {
        let null = self.b.build_is_null(ptr, "").map_err(ice)?;
        let f = self.current_fn()?;
        let fail = self.cx.append_basic_block(f, label);
        let ok = self.cx.append_basic_block(f, &format!("{label}_ok"));
        self.b
            .build_conditional_branch(null, fail, ok)
            .map_err(ice)?;
        self.b.position_at_end(fail);
        let text = self
            .b
            .build_global_string_ptr(message, &format!("{label}_message"))
            .map_err(ice)?;
        let set = self.runtime_fn(&strata_abi::runtime::SET_ERROR);
        self.call(set, &[text.as_pointer_value().into()])?;
        let one = self.cx.i32_type().const_int(1, false);
        self.b.build_return(Some(&one)).map_err(ice)?;
        self.b.position_at_end(ok);
        Ok(())
    }

    pub fn new(cx: &'ctx LlContext, name: &str) -> Self {
        Llvm {
            cx,
            module: cx.create_module(name),
            b: cx.create_builder(),
        }
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

    /// The function being lowered.
    pub fn current_fn(&self) -> Result<FunctionValue<'ctx>> {
        self.b
            .get_insert_block()
            .and_then(|b| b.get_parent())
            .ok_or_else(|| ice("builder is not inside a function"))
    }

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

    /// Calls the (possibly overloaded) LLVM intrinsic `name`.
    pub(crate) fn intrinsic(
        &self,
        name: &str,
        types: &[BasicTypeEnum<'ctx>],
        args: &[BasicMetadataValueEnum<'ctx>],
    ) -> Result<BasicValueEnum<'ctx>> {
        let f = Intrinsic::find(name)
            .and_then(|i| i.get_declaration(&self.module, types))
            .ok_or_else(|| ice(format!("no LLVM intrinsic {name} for these types")))?;
        self.call(f, args)?
            .ok_or_else(|| ice(format!("{name} returns nothing")))
    }
}

/// The `nounwind` function attribute (nothing Strata emits unwinds).
pub(crate) fn nounwind(cx: &LlContext) -> inkwell::attributes::Attribute {
    use inkwell::attributes::Attribute;
    cx.create_enum_attribute(Attribute::get_named_enum_kind_id("nounwind"), 0)
}
