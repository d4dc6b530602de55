//! `loop-profile`: times each top-level op of every exported function, for
//! `strata compile --profile` and `strata bench --profile`.
//!
//! The last pass of the lowering, when asked for (it is not in the default
//! pipeline). Each op of an exported function's body that does work — a
//! loop nest, a parallel loop's dispatch, a `while` or `if`, a call (the
//! runtime's kernels: GEMM, convolution patches, FFT, ...), a copy, an
//! allocation — gets `%t = func.call @strata_rt_profile_now()` before it
//! and `func.call @strata_rt_profile_add(ID, %t)` after. Each such op is one
//! row of the profile, labelled by what it is and where its source op is
//! (`gemm_f32 at model.mlir:12:8`); the labels go, as a JSON array in
//! timed-op order, into the module's `strata.profile` attribute, which
//! codegen turns into `const char *P_profile(void)`.
//!
//! Ops inside loops are not timed one by one: a fused loop nest is one row,
//! and a clock read per iteration would cost more than the work it times.

use strata_abi::runtime::{PROFILE_ADD, PROFILE_NOW, Signature};
use strata_diag::Result;
use strata_dialect_mem as mem;
use strata_ir::builtin::{self, CALL, FUNC};
use strata_ir::{AttrKind, Context, OpId};

use crate::{DISPATCH, FOR, IF, RUN_DEVICES, WHILE};

pub const FLAG: &str = "loop-profile";

/// The module attribute holding the labels, a JSON array of strings.
pub const LABELS_ATTR: &str = "strata.profile";

pub struct LoopProfilePass;

impl strata_pass::Pass for LoopProfilePass {
    fn flag(&self) -> &'static str {
        FLAG
    }
    fn summary(&self) -> &'static str {
        "time each top-level op of the exported functions (for --profile)"
    }
    fn run(&self, ctx: &mut Context, module: OpId) -> Result<()> {
        let mut labels = Vec::new();
        for func in builtin::defined_funcs(ctx, module) {
            if !builtin::is_private(ctx, func) {
                time_function(ctx, func, &mut labels);
            }
        }
        declare(ctx, module, &PROFILE_NOW);
        declare(ctx, module, &PROFILE_ADD);
        let json = format!(
            "[{}]",
            labels
                .iter()
                .map(|l| json_string(l))
                .collect::<Vec<_>>()
                .join(", ")
        );
        let a = ctx.attr(AttrKind::String(json));
        ctx.set_attr(module, LABELS_ATTR, a);
        Ok(())
    }
}

/// Brackets each timed op of `func`'s body with the clock reads.
fn time_function(ctx: &mut Context, func: OpId, labels: &mut Vec<String>) {
    let Some(block) = ctx.entry_block(func, 0) else {
        return;
    };
    let ops = ctx.blocks[block].ops.clone();
    let mut timed = Vec::with_capacity(ops.len());
    let i64t = ctx.types.int_ty(64);
    for op in ops {
        let Some(what) = what_it_does(ctx, op) else {
            timed.push(op);
            continue;
        };
        let loc = ctx.op(op).loc;
        labels.push(if loc.is_known() {
            format!(
                "{what} at {}:{}:{}",
                ctx.sources.name(loc.file),
                loc.line,
                loc.col
            )
        } else {
            what
        });
        let id = ctx.attr(AttrKind::Int {
            value: labels.len() as i128 - 1,
            ty: i64t,
        });
        let now = call(ctx, PROFILE_NOW.name, vec![], &[i64t], loc);
        let start = ctx.op(now).results[0];
        let constant = ctx.create_op(
            strata_dialect_arith::CONSTANT,
            vec![],
            &[i64t],
            vec![("value".into(), id)],
            loc,
        );
        let id_value = ctx.op(constant).results[0];
        let add = call(ctx, PROFILE_ADD.name, vec![id_value, start], &[], loc);
        timed.extend([now, op, constant, add]);
    }
    for &op in &timed {
        ctx.op_mut(op).parent = Some(block);
    }
    ctx.blocks[block].ops = timed;
}

/// What a top-level op does, as its profile label says it; `None` for ops
/// that are not timed (constants, scalar arithmetic, views, stack slots,
/// the return).
fn what_it_does(ctx: &Context, op: OpId) -> Option<String> {
    let name = ctx.op(op).name;
    Some(match name {
        FOR => "loop nest".into(),
        DISPATCH => "parallel loop".into(),
        WHILE => "while loop".into(),
        IF => "conditional".into(),
        RUN_DEVICES => "devices".into(),
        mem::COPY => "copy".into(),
        mem::ALLOC => "alloc".into(),
        mem::DEALLOC => "free".into(),
        mem::ARENA => "arena".into(),
        CALL => {
            let callee = match ctx.attr_of(op, "callee").map(|a| ctx.attr_kind(a)) {
                Some(AttrKind::SymbolRef(s)) => s.clone(),
                _ => "?".into(),
            };
            callee
                .strip_prefix("strata_rt_")
                .map(str::to_string)
                .unwrap_or_else(|| format!("call @{callee}"))
        }
        _ => return None,
    })
}

fn call(
    ctx: &mut Context,
    callee: &str,
    args: Vec<strata_ir::Value>,
    results: &[strata_ir::Type],
    loc: strata_diag::Location,
) -> OpId {
    let callee = ctx.attr(AttrKind::SymbolRef(callee.into()));
    ctx.create_op(CALL, args, results, vec![("callee".into(), callee)], loc)
}

/// Declares runtime function `sig` (from its one description in
/// `strata_abi::runtime`) at the module's front, unless it is.
fn declare(ctx: &mut Context, module: OpId, sig: &Signature) {
    let Some(body) = ctx.entry_block(module, 0) else {
        return;
    };
    if builtin::lookup_func(ctx, module, sig.name).is_some() {
        return;
    }
    let fty = builtin::runtime_fn_type(ctx, sig);
    let attrs = builtin::private_func_attrs(ctx, sig.name, fty);
    let decl = ctx.create_op(FUNC, vec![], &[], attrs, strata_diag::Location::unknown());
    ctx.insert_op_at(body, 0, decl);
}

/// `s` as a JSON string literal.
fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
