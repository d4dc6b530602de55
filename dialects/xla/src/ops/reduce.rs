//! `xla.reduce` and its region terminator `xla.return`.

use strata_diag::Result;
use strata_ir::{Context, OpId, TypeKind};

use crate::util::*;

pub fn verify_reduce(ctx: &Context, op: OpId) -> Result<()> {
    let o = ctx.op(op);
    let n = o.operands.len();
    if n == 0 || n % 2 != 0 {
        return Err(ctx.error(op, "expects pairs of inputs and init values"));
    }
    let k = n / 2;
    if o.results.len() != k {
        return Err(ctx.error(op, format!("expects {k} results, found {}", o.results.len())));
    }
    let dims = i64s(ctx, op, "dimensions")?;
    let (shape, _) = operand_tensor(ctx, op, 0)?;
    for (i, &d) in dims.iter().enumerate() {
        if d < 0 || d as usize >= shape.len() || dims[..i].contains(&d) {
            return Err(ctx.error(op, format!("dimensions {} must be unique and in range for rank {}", list(&dims), shape.len())));
        }
    }
    let out: Vec<i64> = (0..shape.len()).filter(|&i| !dims.contains(&(i as i64))).map(|i| shape[i]).collect();
    let mut elems = Vec::new();
    for i in 0..k {
        let (s, e) = operand_tensor(ctx, op, i)?;
        if s != shape {
            return Err(ctx.error(op, format!("input #{i} must have the shape of input #0")));
        }
        let (is, ie) = operand_tensor(ctx, op, k + i)?;
        if !is.is_empty() || ie != e {
            return Err(ctx.error(op, format!("init value #{i} must be a 0-d tensor of {}", ty_str(ctx, e))));
        }
        expect_result_type(ctx, op, i, &out, e)?;
        elems.push(e);
    }
    let Some(body) = ctx.entry_block(op, 0) else {
        return Err(ctx.error(op, "requires a reducer region"));
    };
    let args: Vec<_> = ctx.blocks[body].args.iter().map(|&a| ctx.value_ty(a)).collect();
    let want: Vec<_> = elems.iter().chain(elems.iter()).copied().collect();
    let ok = args.len() == want.len()
        && args.iter().zip(&want).all(|(&a, &e)| matches!(ctx.kind(a), TypeKind::Tensor { shape, elem } if shape.is_empty() && *elem == e));
    if !ok {
        return Err(ctx.error(op, format!("reducer must take {} 0-d tensor arguments matching the inputs' element types", want.len())));
    }
    let Some(&last) = ctx.blocks[body].ops.last() else {
        return Err(ctx.error(op, "reducer region is empty"));
    };
    let returned: Vec<_> = ctx.op(last).operands.iter().map(|&v| ctx.value_ty(v)).collect();
    if returned.len() != k || returned.iter().zip(&args).any(|(r, a)| r != a) {
        return Err(ctx.error(op, format!("reducer must return {k} 0-d tensors of the inputs' element types")));
    }
    Ok(())
}
