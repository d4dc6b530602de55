//! Loop level → upstream MLIR text (`func`, `scf`, `memref`, `arith`,
//! `math`, and `llvm` for the few things upstream only says there).
//!
//! One file per op family: `arith.rs` (scalars), `mem.rs` (buffers),
//! `control.rs` (`loop.*`, `func.*`). This file holds the shared state,
//! the type mapping and the block walk that threads a failure status.
//!
//! Failures. A defined function that returns no value returns an `i32`
//! status, as the native backend's functions do: a runtime call that
//! fails, an allocation that fails or a callee that fails ends the
//! function with that status. Upstream structured control flow has no
//! early exit, so the walk nests what follows a fallible op in
//! `scf.if %ok -> i32`, and a loop whose body can fail becomes an
//! `scf.while` that carries the status and stops at the first failure.

mod arith;
mod control;
mod mem;

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;

use strata_diag::{Diagnostic, Location, Result};
use strata_ir::builtin::{self, FUNC};
use strata_ir::{Context, FloatKind, OpId, Signedness, Type, TypeKind, Value};

/// How the exported functions are named.
#[derive(Clone, Debug, Default)]
pub struct ExportOptions {
    /// `Some(P)`: a function `@f` with a body is exported as `@"P.f"`, the
    /// internal symbol the native backend's C wrappers call; `None` keeps
    /// the program's names (for `strata opt --export-upstream`).
    pub symbol_prefix: Option<String>,
}

/// The module as upstream MLIR text.
pub fn export_module(ir: &Context, module: OpId, opts: &ExportOptions) -> Result<String> {
    let mut x = Exporter::new(ir, opts);
    x.scan_module(module)?;
    let Some(body) = ir.entry_block(module, 0) else {
        return Ok("module {\n}\n".to_string());
    };
    let mut funcs = String::new();
    for &op in &ir.blocks[body].ops {
        match ir.op(op).name {
            FUNC if ir.entry_block(op, 0).is_some() => {
                // The native backend packs the parameters of such a
                // function (strata_codegen's params.rs): every parameter
                // passed on its own costs LLVM memory quadratic in their
                // number. This export passes them directly.
                let params = builtin::func_signature(ir, op).map_or(0, |(i, _)| i.len());
                if params > strata_codegen::MAX_DIRECT_PARAMS {
                    return Err(unsupported(
                        ir.op(op).loc,
                        format!(
                            "a function of {params} parameters (more than {})",
                            strata_codegen::MAX_DIRECT_PARAMS
                        ),
                    ));
                }
                funcs.push_str(&x.define_func(op)?)
            }
            FUNC => {}
            strata_dialect_mem::GLOBAL => mem::global(&mut x, op)?,
            name => {
                return Err(unsupported(
                    ir.op(op).loc,
                    format!("'{name}' op at module level"),
                ));
            }
        }
    }
    let mut text = String::from("module {\n");
    for line in x.module_lines.iter().chain(x.declarations.values()) {
        let _ = writeln!(text, "  {line}");
    }
    text.push_str(&funcs);
    text.push_str("}\n");
    Ok(text)
}

/// An op or type the upstream export does not cover.
pub(crate) fn unsupported(loc: Location, what: impl std::fmt::Display) -> Diagnostic {
    Diagnostic::unsupported(
        loc,
        format!("{what} is not supported by the upstream MLIR export (--backend mlir)"),
    )
}

/// A bodiless function of the module: a runtime entry point or a libm-like
/// external, called as its declaration says.
pub(crate) struct External {
    /// Its `i32` result is a status, 0 on success (a runtime function whose
    /// signature in `strata_abi::runtime` says so).
    pub(crate) returns_status: bool,
    /// Its declared signature.
    pub(crate) inputs: Vec<Type>,
    pub(crate) results: Vec<Type>,
}

pub(crate) struct Exporter<'a> {
    pub(crate) ir: &'a Context,
    opts: &'a ExportOptions,
    /// Module-level lines: globals, strings.
    module_lines: Vec<String>,
    /// `func.func private` declarations by symbol, emitted once each.
    declarations: std::collections::BTreeMap<String, String>,
    externals: HashMap<String, External>,
    /// Functions with a body that return a status.
    status_funcs: HashSet<String>,
    /// Declarations standing for custom-call targets (symbol -> target):
    /// registry entries of the native backend, not functions.
    custom_calls: HashMap<String, String>,
    names: HashMap<Value, String>,
    /// `mem.offset` results: usable only as pointer arguments of runtime
    /// calls (`llvm.ptr` SSA names).
    pub(crate) pointers: HashMap<Value, String>,
    next_name: usize,
    /// The function being written.
    pub(crate) out: String,
    indent: usize,
    /// Whether the function being written returns a status.
    pub(crate) returns_status: bool,
    /// Error messages as `memref.global` byte strings, by text.
    messages: HashMap<String, String>,
}

impl<'a> Exporter<'a> {
    fn new(ir: &'a Context, opts: &'a ExportOptions) -> Self {
        Exporter {
            ir,
            opts,
            module_lines: Vec::new(),
            declarations: Default::default(),
            externals: HashMap::new(),
            status_funcs: HashSet::new(),
            custom_calls: HashMap::new(),
            names: HashMap::new(),
            pointers: HashMap::new(),
            next_name: 0,
            out: String::new(),
            indent: 0,
            returns_status: false,
            messages: HashMap::new(),
        }
    }

    /// Learns every function's calling convention before any body is written.
    fn scan_module(&mut self, module: OpId) -> Result<()> {
        let ir = self.ir;
        let Some(body) = ir.entry_block(module, 0) else {
            return Ok(());
        };
        for &op in &ir.blocks[body].ops {
            if ir.op(op).name != FUNC {
                continue;
            }
            let name = builtin::func_name(ir, op)
                .ok_or_else(|| self.internal(op, "has no 'sym_name'"))?
                .to_string();
            let (inputs, results) = builtin::func_signature(ir, op)
                .ok_or_else(|| self.internal(op, "has no signature"))?;
            if ir.entry_block(op, 0).is_some() {
                if results.is_empty() {
                    self.status_funcs.insert(name);
                }
                continue;
            }
            if let Some(target) = ir.str_attr(op, strata_abi::CUSTOM_CALL_ATTR) {
                self.custom_calls.insert(name, target.to_string());
                continue;
            }
            let returns_status = strata_abi::runtime::returns_status(&name);
            self.externals.insert(
                name,
                External {
                    returns_status,
                    inputs,
                    results,
                },
            );
        }
        Ok(())
    }

    pub(crate) fn internal(&self, op: OpId, what: impl std::fmt::Display) -> Diagnostic {
        Diagnostic::internal(
            self.ir.op(op).loc,
            format!("'{}' op {what}", self.ir.op(op).name),
        )
    }

    pub(crate) fn loc(&self, op: OpId) -> Location {
        self.ir.op(op).loc
    }

    /// The symbol a function with a body is exported as.
    pub(crate) fn defined_symbol(&self, name: &str) -> String {
        match &self.opts.symbol_prefix {
            Some(p) => format!("@\"{p}.{name}\""),
            None => format!("@{name}"),
        }
    }

    /// The launch stub of an outlined function (unquoted symbol).
    pub(crate) fn launch_symbol(&self, callee: &str) -> String {
        let prefix = self.opts.symbol_prefix.as_deref().unwrap_or("strata");
        strata_codegen::launch_stub_name(prefix, callee)
    }

    /// Declares the quoted symbol `@"name"` once.
    pub(crate) fn declare_quoted(&mut self, name: &str, signature: String) {
        self.declarations
            .entry(name.to_string())
            .or_insert_with(|| format!("func.func private @\"{name}\"{signature}"));
    }

    pub(crate) fn is_status_func(&self, name: &str) -> bool {
        self.status_funcs.contains(name)
    }

    pub(crate) fn external_returns_status(&self, name: &str) -> Option<bool> {
        self.externals.get(name).map(|e| e.returns_status)
    }

    pub(crate) fn external(&self, name: &str) -> Option<&External> {
        self.externals.get(name)
    }

    /// Declares the runtime function `sig` once, from its signature in
    /// `strata_abi::runtime`; returns its function type as a call spells it.
    pub(crate) fn declare_runtime(&mut self, sig: &strata_abi::runtime::Signature) -> String {
        use strata_abi::runtime::{Param, Returns};
        let params: Vec<&str> = sig
            .params
            .iter()
            .map(|p| match p {
                Param::Ptr => "!llvm.ptr",
                Param::I32 => "i32",
                Param::I64 => "i64",
                Param::U8 => "i8",
                Param::F64 => "f64",
            })
            .collect();
        let result = match sig.returns {
            Returns::Nothing => None,
            Returns::Status | Returns::I32 | Returns::U32 => Some("i32"),
            Returns::I64 => Some("i64"),
            Returns::U8 => Some("i8"),
            Returns::F64 => Some("f64"),
            Returns::Ptr => Some("!llvm.ptr"),
        };
        let params = format!("({})", params.join(", "));
        match result {
            Some(r) => {
                self.declare(sig.name, format!("{params} -> {r}"));
                format!("{params} -> {r}")
            }
            None => {
                self.declare(sig.name, params.clone());
                format!("{params} -> ()")
            }
        }
    }

    /// Declares `@name` once with the given signature text.
    pub(crate) fn declare(&mut self, name: &str, signature: String) {
        self.declarations
            .entry(name.to_string())
            .or_insert_with(|| format!("func.func private @{name}{signature}"));
    }

    // ----- SSA names and text -----

    pub(crate) fn fresh(&mut self) -> String {
        self.next_name += 1;
        format!("%v{}", self.next_name)
    }

    /// Names `v` (a result or block argument) with a fresh SSA name.
    pub(crate) fn define(&mut self, v: Value) -> String {
        let n = self.fresh();
        self.names.insert(v, n.clone());
        n
    }

    pub(crate) fn name(&self, op: OpId, v: Value) -> Result<String> {
        self.names
            .get(&v)
            .cloned()
            .ok_or_else(|| self.internal(op, "uses a value the export has not defined"))
    }

    pub(crate) fn operand(&self, op: OpId, i: usize) -> Result<String> {
        let v = *self
            .ir
            .op(op)
            .operands()
            .get(i)
            .ok_or_else(|| self.internal(op, format!("has no operand #{i}")))?;
        self.name(op, v)
    }

    pub(crate) fn operand_ty(&self, op: OpId, i: usize) -> Result<Type> {
        self.ir
            .op(op)
            .operands()
            .get(i)
            .map(|&v| self.ir.value_ty(v))
            .ok_or_else(|| self.internal(op, format!("has no operand #{i}")))
    }

    pub(crate) fn result_ty(&self, op: OpId) -> Result<Type> {
        self.ir
            .op(op)
            .results
            .first()
            .map(|&v| self.ir.value_ty(v))
            .ok_or_else(|| self.internal(op, "has no result"))
    }

    /// Binds `op`'s only result to an SSA name and returns it.
    pub(crate) fn define_result(&mut self, op: OpId) -> Result<String> {
        let v = *self
            .ir
            .op(op)
            .results
            .first()
            .ok_or_else(|| self.internal(op, "has no result"))?;
        Ok(self.define(v))
    }

    /// Appends one line at the current nesting.
    pub(crate) fn line(&mut self, text: impl AsRef<str>) {
        for _ in 0..self.indent {
            self.out.push_str("  ");
        }
        self.out.push_str(text.as_ref());
        self.out.push('\n');
    }

    pub(crate) fn open(&mut self, text: impl AsRef<str>) {
        self.line(text);
        self.indent += 1;
    }

    pub(crate) fn close(&mut self, text: impl AsRef<str>) {
        self.indent = self.indent.saturating_sub(1);
        self.line(text);
    }

    /// A fresh constant.
    pub(crate) fn constant(&mut self, value: impl std::fmt::Display, ty: &str) -> String {
        let n = self.fresh();
        self.line(format!("{n} = arith.constant {value} : {ty}"));
        n
    }

    // ----- types -----

    /// The register type of a scalar, or the memref type of a buffer.
    pub(crate) fn ty(&self, t: Type, op: OpId) -> Result<String> {
        match self.ir.types.kind(t) {
            TypeKind::MemRef { shape, elem } => self.memref_ty(shape, *elem, op),
            _ => self.scalar_ty(t, op),
        }
    }

    pub(crate) fn scalar_ty(&self, t: Type, op: OpId) -> Result<String> {
        match self.ir.types.kind(t) {
            TypeKind::Int { width, .. } if (1..=128).contains(width) => Ok(format!("i{width}")),
            TypeKind::Index => Ok("index".into()),
            TypeKind::Float(k) => float_ty(*k)
                .map(str::to_string)
                .ok_or_else(|| self.unsupported_ty(t, op)),
            _ => Err(self.unsupported_ty(t, op)),
        }
    }

    /// `memref<AxBxT>` with `T` the element's storage type; complex
    /// elements add a trailing dimension of 2 (real, imaginary).
    pub(crate) fn memref_ty(&self, shape: &[i64], elem: Type, op: OpId) -> Result<String> {
        let mut dims: Vec<String> = storage_shape(shape).iter().map(i64::to_string).collect();
        if self.ir.types.is_complex(elem) {
            dims.push("2".into());
        }
        let unit = self.storage_ty(elem, op)?;
        dims.push(unit);
        Ok(format!("memref<{}>", dims.join("x")))
    }

    /// The type one addressing unit of a buffer of `elem` holds (see the
    /// native backend's `types::storage_type`: the same bytes).
    pub(crate) fn storage_ty(&self, elem: Type, op: OpId) -> Result<String> {
        match self.ir.types.kind(elem) {
            TypeKind::Int { width, .. } if (1..=64).contains(width) => {
                Ok(format!("i{}", 8 * strata_abi::scalar_storage_bytes(*width)))
            }
            TypeKind::Index => Ok("index".into()),
            TypeKind::Float(k) => float_ty(*k)
                .map(str::to_string)
                .ok_or_else(|| self.unsupported_ty(elem, op)),
            TypeKind::Complex(p) => self.storage_ty(*p, op),
            _ => Err(self.unsupported_ty(elem, op)),
        }
    }

    fn unsupported_ty(&self, t: Type, op: OpId) -> Diagnostic {
        unsupported(
            self.loc(op),
            format!(
                "type {}",
                strata_ir::text::printer::type_to_string(self.ir, t)
            ),
        )
    }

    /// An integer element whose register width differs from its memory
    /// slot: (register width, slot width, zero-extended?).
    pub(crate) fn widened_int(&self, elem: Type) -> Option<(u32, u32, bool)> {
        match self.ir.types.kind(elem) {
            TypeKind::Int { width, sign } => {
                let slot = 8 * strata_abi::scalar_storage_bytes(*width);
                (slot != *width).then_some((
                    *width,
                    slot,
                    *sign == Signedness::Unsigned || *width == 1,
                ))
            }
            _ => None,
        }
    }

    // ----- functions and blocks -----

    fn define_func(&mut self, op: OpId) -> Result<String> {
        let ir = self.ir;
        let name = builtin::func_name(ir, op)
            .ok_or_else(|| self.internal(op, "has no 'sym_name'"))?
            .to_string();
        let (inputs, results) =
            builtin::func_signature(ir, op).ok_or_else(|| self.internal(op, "has no signature"))?;
        let region = ir.op(op).regions[0];
        let [block] = ir.regions[region].blocks[..] else {
            return Err(unsupported(self.loc(op), "a function of several blocks"));
        };
        self.out.clear();
        self.indent = 2;
        self.returns_status = results.is_empty();
        let mut params = Vec::new();
        for (&arg, &t) in ir.blocks[block].args.iter().zip(&inputs) {
            let n = self.define(arg);
            params.push(format!("{n}: {}", self.ty(t, op)?));
        }
        let result = match results.as_slice() {
            [] => " -> i32".to_string(),
            [r] if !matches!(ir.types.kind(*r), TypeKind::MemRef { .. }) => {
                format!(" -> {}", self.scalar_ty(*r, op)?)
            }
            _ => {
                return Err(unsupported(
                    self.loc(op),
                    "a function returning buffers or several values",
                ));
            }
        };
        let visibility = if self.opts.symbol_prefix.is_some() || builtin::is_private(ir, op) {
            "private "
        } else {
            ""
        };
        mem::hoist_allocas(self, block)?;
        let ops = ir.blocks[block].ops.clone();
        let Some((&ret, body)) = ops.split_last() else {
            return Err(self.internal(op, "has an empty body"));
        };
        if ir.op(ret).name != builtin::RETURN {
            return Err(self.internal(op, "body does not end with 'func.return'"));
        }
        let status = self.block(body)?;
        control::func_return(self, ret, status)?;
        let mut text = format!(
            "  func.func {visibility}{}({}){result} {{\n",
            self.defined_symbol(&name),
            params.join(", ")
        );
        text.push_str(&std::mem::take(&mut self.out));
        text.push_str("  }\n");
        Ok(text)
    }

    /// Emits `ops` (a block without its terminator) and returns the SSA
    /// name of its `i32` status when one of them can fail.
    pub(crate) fn block(&mut self, ops: &[OpId]) -> Result<Option<String>> {
        Ok(self.block_out(ops, &[])?.0)
    }

    /// [`Self::block`], also returning the SSA names of the values `outs`
    /// (defined by `ops`) where the block ends: when the block is split
    /// after a fallible op, they leave the `scf.if` as its results (a
    /// placeholder zero on the failed side, never used).
    pub(crate) fn block_out(
        &mut self,
        ops: &[OpId],
        outs: &[Value],
    ) -> Result<(Option<String>, Vec<String>)> {
        for (k, &op) in ops.iter().enumerate() {
            let Some(status) = self.op(op)? else {
                continue;
            };
            let rest = &ops[k + 1..];
            if rest.is_empty() {
                let names = self.names_of(op, outs)?;
                return Ok((Some(status), names));
            }
            // The rest runs only if `op` succeeded.
            let types = outs
                .iter()
                .map(|&v| self.ty(self.ir.value_ty(v), op))
                .collect::<Result<Vec<_>>>()?;
            let all_types = std::iter::once("i32".to_string())
                .chain(types.iter().cloned())
                .collect::<Vec<_>>()
                .join(", ");
            let zero = self.constant(0, "i32");
            let ok = self.fresh();
            self.line(format!("{ok} = arith.cmpi eq, {status}, {zero} : i32"));
            let joined = self.fresh();
            let count = outs.len() + 1;
            self.open(format!(
                "{joined}:{count} = scf.if {ok} -> ({all_types}) {{"
            ));
            let (after, names) = self.block_out(rest, outs)?;
            let after = match after {
                Some(s) => s,
                None => self.constant(0, "i32"),
            };
            let yielded = std::iter::once(after).chain(names).collect::<Vec<_>>();
            self.line(format!("scf.yield {} : {all_types}", yielded.join(", ")));
            self.close("} else {");
            self.indent += 1;
            let mut yielded = vec![status];
            for t in &types {
                yielded.push(self.zero_of(t));
            }
            self.line(format!("scf.yield {} : {all_types}", yielded.join(", ")));
            self.close("}");
            let names = (1..count).map(|i| format!("{joined}#{i}")).collect();
            return Ok((Some(format!("{joined}#0")), names));
        }
        let names = match ops.last() {
            Some(&op) => self.names_of(op, outs)?,
            None => Vec::new(),
        };
        Ok((None, names))
    }

    fn names_of(&self, op: OpId, outs: &[Value]) -> Result<Vec<String>> {
        outs.iter().map(|&v| self.name(op, v)).collect()
    }

    /// A zero of a scalar type (the unused result of a failed branch).
    fn zero_of(&mut self, t: &str) -> String {
        match t {
            "i1" => {
                let n = self.fresh();
                self.line(format!("{n} = arith.constant false"));
                n
            }
            "f16" | "bf16" | "f32" | "f64" => self.constant("0.0", t),
            _ => self.constant(0, t),
        }
    }

    /// Emits one op; returns its status name if it can fail.
    fn op(&mut self, op: OpId) -> Result<Option<String>> {
        let name = self.ir.op(op).name;
        match name.split_once('.').map(|(d, _)| d) {
            Some("arith") => arith::arith(self, op).map(|()| None),
            Some("mem") => mem::mem(self, op),
            Some("loop") => control::loop_op(self, op),
            Some("func") => control::call(self, op),
            _ => Err(unsupported(self.loc(op), format!("'{name}' op"))),
        }
    }

    /// Whether any op nested in `ops` can fail (a region that cannot is
    /// exported as plain `scf.for` / `scf.if`).
    pub(crate) fn can_fail(&self, ops: &[OpId]) -> bool {
        ops.iter().any(|&op| {
            let o = self.ir.op(op);
            let fails_itself = match o.name {
                strata_dialect_mem::ALLOC | strata_dialect_mem::ARENA => true,
                builtin::CALL => self.callee(op).is_some_and(|c| {
                    self.is_status_func(&c) || self.external_returns_status(&c) == Some(true)
                }),
                strata_dialect_loop::DISPATCH | strata_dialect_loop::RUN_DEVICES => true,
                _ => false,
            };
            fails_itself
                || o.regions.iter().any(|&r| {
                    self.ir.regions[r]
                        .blocks
                        .iter()
                        .any(|&b| self.can_fail(&self.ir.blocks[b].ops))
                })
        }) && self.returns_status
    }

    pub(crate) fn callee(&self, op: OpId) -> Option<String> {
        match self.ir.attr_of(op, "callee").map(|a| self.ir.attr_kind(a)) {
            Some(strata_ir::AttrKind::SymbolRef(s)) => Some(s.clone()),
            _ => None,
        }
    }

    /// A byte-string global holding `text` and a NUL; returns its symbol.
    pub(crate) fn message(&mut self, text: &str) -> String {
        if let Some(s) = self.messages.get(text) {
            return s.clone();
        }
        let sym = format!("__strata_message_{}", self.messages.len());
        let mut bytes: Vec<String> = text.bytes().map(|b| b.to_string()).collect();
        bytes.push("0".into());
        self.module_lines.push(format!(
            "memref.global \"private\" constant @{sym} : memref<{}xi8> = dense<[{}]>",
            bytes.len(),
            bytes.join(", ")
        ));
        self.messages.insert(text.to_string(), sym.clone());
        sym
    }
}

/// The shape a buffer is declared with upstream: its own, except that an
/// empty buffer is `0x1x...` (same rank, no elements) — upstream's
/// bare-pointer calling convention rejects a zero after the first
/// dimension (`memref<2x0xf32>`), and no element of it is ever touched.
pub(crate) fn storage_shape(shape: &[i64]) -> Vec<i64> {
    if !shape.contains(&0) {
        return shape.to_vec();
    }
    let mut dims = vec![1; shape.len()];
    if let Some(first) = dims.first_mut() {
        *first = 0;
    }
    dims
}

/// Upstream's name of a float type the export keeps as a float; the
/// f8/f6/f4 formats live in an `i8` (their bits), as in the native backend.
fn float_ty(k: FloatKind) -> Option<&'static str> {
    match k {
        FloatKind::F16 => Some("f16"),
        FloatKind::BF16 => Some("bf16"),
        FloatKind::F32 => Some("f32"),
        FloatKind::F64 => Some("f64"),
        k if strata_ir::minifloat::format(k).is_some() => Some("i8"),
        _ => None,
    }
}
