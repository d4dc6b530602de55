//! strata-dialect-loop: structured control flow at the loop level (see
//! `dialects/README.md`, section "loop").
//!
//! | op | operands → results | regions |
//! |---|---|---|
//! | `loop.for` | (index lb, index ub, index step) → () | one block with one `index` argument |
//! | `loop.if` | (i1) → () | then, else (else may have no blocks) |
//! | `loop.while` | () → () | cond (ends with `loop.condition`), body (ends with `loop.yield`) |
//! | `loop.condition` | (i1) → () | terminator of a while's cond region: continue while true |
//! | `loop.yield` | () → () | terminator |
//! | `loop.dispatch` | (index lb, index ub, index step, captures...) → () | none; `callee`, `cost` |
//! | `loop.run_devices` | (captures...) → () | none; `callee`, `replicas`, `partitions` |
//!
//! `loop.for` may carry `tile = array<i64: block, tile>`, asking
//! `loop-tile` to walk it and the loop in it in blocks of tiles.
//!
//! `loop.for` may carry the unit attribute `parallel`: its iterations touch
//! disjoint memory and may run in any order or at once. The
//! `loop-outline-parallel` pass moves such a loop into a private function
//! `callee(begin, end, captures...)` and leaves a `loop.dispatch` that runs
//! the callee over chunks of `lb..ub` on the runtime's thread pool; `cost`
//! is the estimated number of operations per iteration, which decides how
//! finely the range is split (or whether it is split at all).
//!
//! `loop.run_devices` runs `callee(device, device + 1, captures...)` once
//! for every device of a `replicas` x `partitions` run, each on its own
//! thread, where collectives meet (`interpreter.run_parallel`).

use strata_diag::Result;
use strata_ir::text::printer::type_to_string;
use strata_ir::{Context, OpDef, OpId, RegionId, Traits, TypeKind};

pub const FOR: &str = "loop.for";
pub const IF: &str = "loop.if";
pub const YIELD: &str = "loop.yield";
pub const WHILE: &str = "loop.while";
pub const CONDITION: &str = "loop.condition";
pub const DISPATCH: &str = "loop.dispatch";
pub const RUN_DEVICES: &str = "loop.run_devices";

pub mod transforms;

pub fn register(ctx: &mut Context) {
    let r = &mut ctx.registry;
    r.add(OpDef::new(FOR, Traits::NONE).verifier(verify_for));
    r.add(OpDef::new(IF, Traits::NONE).verifier(verify_if));
    r.add(OpDef::new(YIELD, Traits::TERMINATOR).verifier(verify_yield));
    r.add(OpDef::new(WHILE, Traits::NONE).verifier(verify_while));
    r.add(OpDef::new(CONDITION, Traits::TERMINATOR).verifier(verify_condition));
    r.add(OpDef::new(DISPATCH, Traits::NONE).verifier(verify_dispatch));
    r.add(OpDef::new(RUN_DEVICES, Traits::NONE).verifier(verify_run_devices));
}

/// The function a `loop.dispatch` runs.
pub fn dispatch_callee(ctx: &Context, op: OpId) -> Option<&str> {
    match ctx.attr_kind(ctx.attr_of(op, "callee")?) {
        strata_ir::AttrKind::SymbolRef(s) => Some(s),
        _ => None,
    }
}

/// Whether a `loop.for` carries the unit attribute `parallel`.
pub fn is_parallel(ctx: &Context, op: OpId) -> bool {
    ctx.attr_of(op, "parallel").is_some()
}

fn expect_no_results(ctx: &Context, op: OpId) -> Result<()> {
    let n = ctx.op(op).results.len();
    if n != 0 {
        return Err(ctx.error(op, format!("expects no results, found {n}")));
    }
    Ok(())
}

/// Checks that region `r` of `op` has at most `max_blocks` (and at least
/// `min_blocks`) blocks, each ending with `loop.yield`.
fn check_region(
    ctx: &Context,
    op: OpId,
    which: &str,
    r: RegionId,
    min_blocks: usize,
) -> Result<()> {
    let blocks = &ctx.regions[r].blocks;
    if blocks.len() < min_blocks || blocks.len() > 1 {
        let expected = if min_blocks == 0 {
            "at most one block"
        } else {
            "exactly one block"
        };
        return Err(ctx.error(
            op,
            format!(
                "expects {expected} in its {which} region, found {}",
                blocks.len()
            ),
        ));
    }
    for &b in blocks {
        let last = ctx.blocks[b].ops.last().map(|&o| ctx.op(o).name);
        if last != Some(YIELD) {
            return Err(ctx.error(
                op,
                format!("expects its {which} region to end with 'loop.yield'"),
            ));
        }
    }
    Ok(())
}

fn verify_for(ctx: &Context, op: OpId) -> Result<()> {
    let o = ctx.op(op);
    if o.operands().len() != 3 {
        return Err(ctx.error(
            op,
            format!(
                "expects 3 operands (lower bound, upper bound, step), found {}",
                o.operands().len()
            ),
        ));
    }
    for (i, &v) in o.operands().iter().enumerate() {
        let t = ctx.value_ty(v);
        if !matches!(ctx.types.kind(t), TypeKind::Index) {
            return Err(ctx.error(
                op,
                format!(
                    "expects operand #{i} to be index, found {}",
                    type_to_string(ctx, t)
                ),
            ));
        }
    }
    expect_no_results(ctx, op)?;
    if o.regions.len() != 1 {
        return Err(ctx.error(op, format!("expects one region, found {}", o.regions.len())));
    }
    check_region(ctx, op, "body", o.regions[0], 1)?;
    let b = ctx.regions[o.regions[0]].blocks[0];
    let args = &ctx.blocks[b].args;
    if args.len() != 1 || !matches!(ctx.types.kind(ctx.value_ty(args[0])), TypeKind::Index) {
        return Err(ctx.error(
            op,
            format!(
                "expects its body block to have one index argument, found {} arguments",
                args.len()
            ),
        ));
    }
    if ctx.attr_of(op, transforms::tile::TILE_ATTR).is_some()
        && transforms::tile::sizes(ctx, op).is_none()
    {
        return Err(ctx.error(
            op,
            "expects 'tile' to be array<i64: block, tile> with a positive tile dividing the block",
        ));
    }
    Ok(())
}

fn verify_dispatch(ctx: &Context, op: OpId) -> Result<()> {
    let o = ctx.op(op);
    if o.operands().len() < 3 {
        return Err(ctx.error(
            op,
            format!(
                "expects at least 3 operands (lower bound, upper bound, step), found {}",
                o.operands().len()
            ),
        ));
    }
    for (i, &v) in o.operands()[..3].iter().enumerate() {
        let t = ctx.value_ty(v);
        if !matches!(ctx.types.kind(t), TypeKind::Index) {
            return Err(ctx.error(
                op,
                format!(
                    "expects operand #{i} to be index, found {}",
                    type_to_string(ctx, t)
                ),
            ));
        }
    }
    expect_no_results(ctx, op)?;
    if !o.regions.is_empty() {
        return Err(ctx.error(op, "expects no regions"));
    }
    if dispatch_callee(ctx, op).is_none() {
        return Err(ctx.error(op, "expects a symbol attribute 'callee'"));
    }
    if !ctx
        .int_attr(op, "cost")
        .is_some_and(|c| (1..=i64::MAX as i128).contains(&c))
    {
        return Err(ctx.error(op, "expects a positive integer attribute 'cost'"));
    }
    Ok(())
}

fn verify_run_devices(ctx: &Context, op: OpId) -> Result<()> {
    expect_no_results(ctx, op)?;
    if !ctx.op(op).regions.is_empty() {
        return Err(ctx.error(op, "expects no regions"));
    }
    if dispatch_callee(ctx, op).is_none() {
        return Err(ctx.error(op, "expects a symbol attribute 'callee'"));
    }
    for name in ["replicas", "partitions"] {
        if !ctx
            .int_attr(op, name)
            .is_some_and(|c| (1..=4096).contains(&c))
        {
            return Err(ctx.error(
                op,
                format!("expects an integer attribute '{name}' in [1, 4096]"),
            ));
        }
    }
    Ok(())
}

fn verify_if(ctx: &Context, op: OpId) -> Result<()> {
    let o = ctx.op(op);
    if o.operands().len() != 1 {
        return Err(ctx.error(
            op,
            format!(
                "expects 1 operand (the condition), found {}",
                o.operands().len()
            ),
        ));
    }
    let t = ctx.value_ty(o.operands()[0]);
    if !matches!(ctx.types.kind(t), TypeKind::Int { width: 1, .. }) {
        return Err(ctx.error(
            op,
            format!(
                "expects operand #0 to be i1, found {}",
                type_to_string(ctx, t)
            ),
        ));
    }
    expect_no_results(ctx, op)?;
    if o.regions.len() != 2 {
        return Err(ctx.error(
            op,
            format!(
                "expects two regions (then, else), found {}",
                o.regions.len()
            ),
        ));
    }
    check_region(ctx, op, "then", o.regions[0], 1)?;
    check_region(ctx, op, "else", o.regions[1], 0)?;
    for (which, &r) in ["then", "else"].iter().zip(&o.regions) {
        if ctx.regions[r]
            .blocks
            .iter()
            .any(|&b| !ctx.blocks[b].args.is_empty())
        {
            return Err(ctx.error(
                op,
                format!("expects its {which} block to have no arguments"),
            ));
        }
    }
    Ok(())
}

/// `loop.while`: a cond region computing `loop.condition %c`, then a body
/// region, repeated while `%c` holds. State lives in buffers.
fn verify_while(ctx: &Context, op: OpId) -> Result<()> {
    let o = ctx.op(op);
    if !o.operands().is_empty() {
        return Err(ctx.error(
            op,
            format!("expects no operands, found {}", o.operands().len()),
        ));
    }
    expect_no_results(ctx, op)?;
    if o.regions.len() != 2 {
        return Err(ctx.error(
            op,
            format!(
                "expects two regions (cond, body), found {}",
                o.regions.len()
            ),
        ));
    }
    let cond = &ctx.regions[o.regions[0]].blocks;
    let ends_with_condition = cond.len() == 1
        && ctx.blocks[cond[0]]
            .ops
            .last()
            .is_some_and(|&l| ctx.op(l).name == CONDITION);
    if !ends_with_condition {
        return Err(ctx.error(
            op,
            "expects its cond region to be one block ending with 'loop.condition'",
        ));
    }
    check_region(ctx, op, "body", o.regions[1], 1)
}

fn verify_condition(ctx: &Context, op: OpId) -> Result<()> {
    let o = ctx.op(op);
    let ok = o.operands().len() == 1
        && matches!(
            ctx.types.kind(ctx.value_ty(o.operands()[0])),
            TypeKind::Int { width: 1, .. }
        );
    if !ok || !o.results.is_empty() {
        return Err(ctx.error(op, "expects one i1 operand and no results"));
    }
    let parent = o
        .parent
        .and_then(|b| ctx.block_parent_op(b))
        .map(|p| ctx.op(p).name);
    if parent.is_some_and(|p| p != WHILE) {
        return Err(ctx.error(op, "expects parent op 'loop.while'"));
    }
    Ok(())
}

fn verify_yield(ctx: &Context, op: OpId) -> Result<()> {
    let o = ctx.op(op);
    if !o.operands().is_empty() || !o.results.is_empty() {
        return Err(ctx.error(op, "expects no operands and no results"));
    }
    let parent = o
        .parent
        .and_then(|b| ctx.block_parent_op(b))
        .map(|p| ctx.op(p).name);
    match parent {
        None | Some(FOR) | Some(IF) | Some(WHILE) => Ok(()),
        Some(p) => Err(ctx.error(
            op,
            format!("expects parent op 'loop.for', 'loop.if' or 'loop.while', found '{p}'"),
        )),
    }
}

#[cfg(test)]
mod tests {
    use strata_ir::text::parser::parse_module;
    use strata_ir::{Context, verify::verify};

    fn check(text: &str) -> String {
        let mut ctx = Context::new();
        strata_ir::builtin::register(&mut ctx);
        crate::register(&mut ctx);
        let m = match parse_module(&mut ctx, "t.mlir", text) {
            Ok(m) => m,
            Err(d) => return ctx.sources.render(&d),
        };
        match verify(&ctx, m) {
            Ok(()) => String::new(),
            Err(errs) => errs.iter().map(|d| ctx.sources.render(d)).collect(),
        }
    }

    #[test]
    fn accepts_for_and_if() {
        let text = r#"func.func @f(%lb: index, %c: i1) {
  "loop.for"(%lb, %lb, %lb) ({
  ^bb0(%i: index):
    "loop.if"(%c) ({
      "loop.yield"() : () -> ()
    }, {
    }) : (i1) -> ()
    "loop.yield"() : () -> ()
  }) {parallel} : (index, index, index) -> ()
  func.return
}
"#;
        assert_eq!(check(text), "");
    }

    #[test]
    fn rejects_bad_for() {
        let text = r#"func.func @f(%lb: index, %x: i32) {
  "loop.for"(%lb, %x, %lb) ({
  ^bb0(%i: index):
    "loop.yield"() : () -> ()
  }) : (index, i32, index) -> ()
  "loop.for"(%lb, %lb, %lb) ({
  ^bb0(%i: index, %j: index):
    "loop.yield"() : () -> ()
  }) : (index, index, index) -> ()
  func.return
}
"#;
        let got = check(text);
        assert!(
            got.contains(
                "t.mlir:2:3: error: 'loop.for' op expects operand #1 to be index, found i32"
            ),
            "{got}"
        );
        assert!(
            got.contains(
                "t.mlir:6:3: error: 'loop.for' op expects its body block to have one index argument, found 2 arguments"
            ),
            "{got}"
        );
    }

    #[test]
    fn rejects_bad_if_and_yield() {
        let text = r#"func.func @f(%x: i32) {
  "loop.if"(%x) ({
    "loop.yield"() : () -> ()
  }, {
  }) : (i32) -> ()
  "loop.yield"() : () -> ()
}
"#;
        let got = check(text);
        assert!(
            got.contains("t.mlir:2:3: error: 'loop.if' op expects operand #0 to be i1, found i32"),
            "{got}"
        );
        assert!(
            got.contains(
                "t.mlir:6:3: error: 'loop.yield' op expects parent op 'loop.for', 'loop.if' or 'loop.while', found 'func.func'"
            ),
            "{got}"
        );
    }
}
