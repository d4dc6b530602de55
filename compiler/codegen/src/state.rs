//! The lowering state shared by the per-dialect files: the LLVM module and
//! builder (`llvm.rs`), the map from IR values to LLVM values, and the
//! operand accessors.

use std::collections::HashMap;

use inkwell::basic_block::BasicBlock;
use inkwell::context::Context as LlContext;
use inkwell::types::BasicTypeEnum;
use inkwell::values::{BasicValueEnum, FloatValue, FunctionValue, IntValue, PointerValue};
use strata_diag::{Diagnostic, Location, Result};
use strata_ir::{Context, OpId, Type, Value};

use crate::llvm::Llvm;

/// The functions that take their parameters packed (see `params.rs`),
/// with the struct type of the pack.
pub(crate) type Packed<'ctx> = HashMap<FunctionValue<'ctx>, inkwell::types::StructType<'ctx>>;

/// A custom-call target's place in the library's registry (see
/// `custom_call.rs`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct CustomCallEntry {
    /// Index in `P.custom_calls`.
    pub index: u32,
    /// How many of the call's buffers are operands (the rest are results).
    pub operands: usize,
}

/// How the ops of one dialect lower to LLVM IR: the patterns of one file
/// (`mem.rs`, `loop_.rs`, ...), registered by the module lowering
/// (`func.rs`), so that this shared state depends on none of them.
pub(crate) type DialectLowering = for<'c, 'x> fn(&mut Lowerer<'c, 'x>, OpId) -> Result<()>;

pub(crate) struct Lowerer<'ctx, 'a> {
    pub ir: &'a Context,
    /// The LLVM module being built and its builder.
    pub ll: Llvm<'ctx>,
    pub prefix: &'a str,
    /// The lowering of each dialect's ops, by dialect name.
    dialects: &'static [(&'static str, DialectLowering)],
    /// LLVM value of every IR value lowered so far.
    pub values: HashMap<Value, BasicValueEnum<'ctx>>,
    /// LLVM function of every `func.func` of the module, by symbol name.
    pub funcs: HashMap<String, FunctionValue<'ctx>>,
    /// The defined functions that take their parameters packed (see
    /// `params.rs`).
    pub packed: Packed<'ctx>,
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
    pub custom_calls: HashMap<String, CustomCallEntry>,
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
    pub fn new(
        ir: &'a Context,
        cx: &'ctx LlContext,
        prefix: &'a str,
        dialects: &'static [(&'static str, DialectLowering)],
    ) -> Self {
        Lowerer {
            ir,
            ll: Llvm::new(cx, prefix),
            prefix,
            dialects,
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
            .operands()
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
        crate::types::value_type(self.ir, self.ll.cx, t, self.loc(op))
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
        let dialect = name.split_once('.').map(|p| p.0);
        let Some(&(_, lower)) = self.dialects.iter().find(|(d, _)| Some(*d) == dialect) else {
            return Err(Diagnostic::unsupported(
                self.loc(op),
                format!("'{name}' op cannot be lowered to LLVM IR"),
            ));
        };
        lower(self, op)
    }
}
