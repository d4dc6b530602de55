//! MLIR through `melior`: parse and verify the exported text, lower it with
//! upstream's conversion passes, translate it to LLVM IR.

use std::cell::RefCell;
use std::ffi::{CStr, c_char, c_void};
use std::rc::Rc;

use inkwell::context::Context as LlContext;
use inkwell::memory_buffer::MemoryBuffer;
use melior::dialect::DialectRegistry;
use melior::ir::Module;
use melior::ir::block::BlockLike;
use melior::ir::operation::OperationLike;
use melior::pass::PassManager;
use melior::utility::{
    parse_pass_pipeline, register_all_dialects, register_all_llvm_translations, register_all_passes,
};
use strata_diag::{Diagnostic, Location, Result};
use strata_ir::{Context, OpId};

use crate::export::{ExportOptions, export_module};

/// Upstream's passes from the exported dialects to the LLVM dialect: `scf`
/// to `cf`, math functions to LLVM intrinsics, then the
/// rest to libm (what the native backend calls too; `convert-math-to-libm`
/// rejects the ops it has no function for, so it comes second), buffers
/// with static shapes to bare pointers (`P.f(ptr, ...)`, the native ABI).
pub const PIPELINE: &str = "builtin.module(\
    convert-scf-to-cf,\
    convert-math-to-llvm{approximate-log1p=false},\
    convert-math-to-libm,\
    expand-strided-metadata,\
    finalize-memref-to-llvm,\
    convert-arith-to-llvm,\
    convert-index-to-llvm,\
    convert-cf-to-llvm,\
    convert-func-to-llvm{use-bare-ptr-memref-call-conv=true},\
    reconcile-unrealized-casts)";

/// An MLIR context with every upstream dialect and LLVM translation, and
/// the diagnostics it reports. Registering and loading every dialect takes
/// milliseconds, so each thread keeps one (see [`with_mlir`]).
struct Mlir {
    context: melior::Context,
    messages: Rc<RefCell<Vec<String>>>,
}

impl Mlir {
    fn new() -> Self {
        let registry = DialectRegistry::new();
        register_all_dialects(&registry);
        let context = melior::Context::new();
        context.append_dialect_registry(&registry);
        context.load_all_available_dialects();
        register_all_llvm_translations(&context);
        register_all_passes();
        let messages = Rc::new(RefCell::new(Vec::new()));
        let sink = messages.clone();
        context.attach_diagnostic_handler(move |d| {
            sink.borrow_mut().push(format!("{} {}", d.location(), d));
            true
        });
        Mlir { context, messages }
    }

    /// Forgets the diagnostics of an earlier use.
    fn clear(&self) {
        self.messages.borrow_mut().clear();
    }

    /// An internal error carrying MLIR's own diagnostics: the export wrote
    /// something upstream rejects, which is a bug of the export.
    fn failure(&self, loc: Location, what: &str) -> Diagnostic {
        let said = self.messages.borrow().join("\n  ");
        Diagnostic::internal(loc, format!("upstream MLIR {what}:\n  {said}"))
    }

    fn parse<'c>(&'c self, text: &str, loc: Location) -> Result<Module<'c>> {
        tracing::debug!(target: "strata_upstream", "exported module:\n{text}");
        let module = Module::parse(&self.context, text).ok_or_else(|| {
            let mut d = self.failure(loc, "cannot parse the exported module");
            d.message
                .push_str(&quote_lines(text, &self.messages.borrow()));
            d
        })?;
        if !module.as_operation().verify() {
            return Err(self.failure(loc, "rejects the exported module"));
        }
        Ok(module)
    }
}

/// The exported lines MLIR's messages point at (`loc("-":L:C)`), around
/// the column, so that a report of an export bug shows the culprit.
fn quote_lines(text: &str, messages: &[String]) -> String {
    let mut quoted = String::new();
    for m in messages {
        let Some(rest) = m.split("loc(\"-\":").nth(1) else {
            continue;
        };
        let mut nums = rest
            .split(|c: char| !c.is_ascii_digit())
            .filter(|s| !s.is_empty());
        let (Some(line), Some(col)) = (nums.next(), nums.next()) else {
            continue;
        };
        let (Ok(line), Ok(col)) = (line.parse::<usize>(), col.parse::<usize>()) else {
            continue;
        };
        if let Some(l) = text.lines().nth(line.saturating_sub(1)) {
            let start = l.floor_char_boundary(col.saturating_sub(120));
            let end = l.ceil_char_boundary((col + 80).min(l.len()));
            quoted.push_str(&format!(
                "\n  exported line {line}: ...{}...",
                &l[start..end]
            ));
        }
    }
    quoted
}

thread_local! {
    static MLIR: Mlir = Mlir::new();
}

/// Runs `f` with this thread's MLIR context, its diagnostics cleared.
fn with_mlir<R>(f: impl FnOnce(&Mlir) -> R) -> R {
    MLIR.with(|mlir| {
        mlir.clear();
        f(mlir)
    })
}

/// The module exported as upstream MLIR and checked by MLIR's verifier;
/// MLIR's own printing of it.
pub fn verified_upstream(ir: &Context, module: OpId) -> Result<String> {
    let text = export_module(ir, module, &ExportOptions::default())?;
    with_mlir(|mlir| {
        let parsed = mlir.parse(&text, ir.op(module).loc)?;
        Ok(format!("{}\n", parsed.as_operation()))
    })
}

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or("")
}

unsafe extern "C" {
    fn free(p: *mut c_void);
}

/// The bodies of `module`'s functions (as `P.f`, external linkage) and its
/// constants, lowered by upstream MLIR, as an LLVM module in `cx`.
pub fn lower_bodies<'c>(
    ir: &Context,
    cx: &'c LlContext,
    module: OpId,
    prefix: &str,
) -> Result<inkwell::module::Module<'c>> {
    let _span = tracing::info_span!("upstream-mlir").entered();
    let loc = ir.op(module).loc;
    let opts = ExportOptions {
        symbol_prefix: Some(prefix.to_string()),
    };
    let text = export_module(ir, module, &opts)?;
    let llvm_ir = with_mlir(|mlir| lower_to_llvm_ir(mlir, &text, loc))?;
    let buffer = MemoryBuffer::create_from_memory_range_copy(&llvm_ir, "upstream");
    cx.create_module_from_ir(buffer)
        .map_err(|e| Diagnostic::internal(loc, format!("upstream LLVM IR does not parse: {e}")))
}

/// The exported text parsed, verified, lowered by [`PIPELINE`] and
/// translated: LLVM IR text.
fn lower_to_llvm_ir(mlir: &Mlir, text: &str, loc: Location) -> Result<Vec<u8>> {
    let mut parsed = mlir.parse(text, loc)?;
    let pm = PassManager::new(&mlir.context);
    parse_pass_pipeline(pm.as_operation_pass_manager(), PIPELINE)
        .map_err(|e| Diagnostic::internal(loc, format!("upstream pass pipeline: {e}")))?;
    pm.run(&mut parsed)
        .map_err(|_| mlir.failure(loc, "cannot lower the exported module to LLVM"))?;
    // A partial conversion can leave an op it could not convert without
    // failing; translating it would crash inside MLIR.
    let mut next = parsed.body().first_operation();
    while let Some(op) = next {
        let name = op.name().as_string_ref().as_str().unwrap_or("").to_string();
        if !name.starts_with("llvm.") {
            return Err(Diagnostic::internal(
                loc,
                format!(
                    "upstream MLIR left '{name}' unconverted: {}",
                    first_line(&op.to_string())
                ),
            ));
        }
        next = op.next_in_block();
    }
    // SAFETY: the module is in the LLVM dialect (the pipeline succeeded);
    // the returned C string is malloc'ed by MLIR and freed here once copied.
    let llvm_ir = unsafe {
        let raw: *mut c_char =
            mlir_sys::mlirTranslateModuleToLLVMIRToString(parsed.as_operation().to_raw());
        if raw.is_null() {
            return Err(mlir.failure(loc, "cannot translate the module to LLVM IR"));
        }
        let text = CStr::from_ptr(raw).to_bytes().to_vec();
        free(raw.cast());
        text
    };
    Ok(llvm_ir)
}
