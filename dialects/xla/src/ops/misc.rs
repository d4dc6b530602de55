//! `xla.constant`, `xla.optimization_barrier`.

use strata_diag::Result;
use strata_ir::{AttrKind, Context, OpId, TypeKind};

use crate::parse;
use crate::util::*;
use names::*;
use strata_ir::{OpDef, Registry, Traits};

/// The op names of this family (`names.rs` gathers every family's).
pub mod names {
    pub const RNG_BIT_GENERATOR: &str = "xla.rng_bit_generator";
    /// `rng(a, b, shape)`: uniform in [a, b) or normal (mean a, deviation b)
    /// numbers; `xla-expand-rng` writes it with the process's Philox state.
    pub const RNG: &str = "xla.rng";
    /// XLA's `rng-get-and-update-state`: the process's generator state
    /// (`tensor<2xui64>`: key, counter), advanced by `delta` blocks.
    pub const RNG_GET_AND_UPDATE_STATE: &str = "xla.rng_get_and_update_state";
    pub const CONSTANT: &str = "xla.constant";
    pub const OPTIMIZATION_BARRIER: &str = "xla.optimization_barrier";
    pub const CUSTOM_CALL: &str = "xla.custom_call";
    pub const SORT: &str = "xla.sort";
    /// CHLO's top_k: the k largest elements of each row (last dimension), in
    /// descending total order, and their indices.
    pub const TOP_K: &str = "xla.top_k";
    pub const FFT: &str = "xla.fft";
    pub const MAP: &str = "xla.map";
    pub const GET_DIMENSION_SIZE: &str = "xla.get_dimension_size";
    pub const COMPOSITE: &str = "xla.composite";
    pub const TUPLE: &str = "xla.tuple";
    pub const GET_TUPLE_ELEMENT: &str = "xla.get_tuple_element";
}

pub fn verify_constant(ctx: &Context, op: OpId) -> Result<()> {
    let d = ctx
        .dense_attr(op, "value")
        .ok_or_else(|| ctx.error(op, "requires a dense elements attribute 'value'"))?;
    let result = ctx.value_ty(ctx.op(op).results[0]);
    if d.ty != result {
        return Err(ctx.error(
            op,
            format!(
                "value of type {} does not match result type {}",
                ty_str(ctx, d.ty),
                ty_str(ctx, result)
            ),
        ));
    }
    Ok(())
}

pub fn verify_optimization_barrier(ctx: &Context, op: OpId) -> Result<()> {
    let o = ctx.op(op);
    let ins: Vec<_> = o.operands().iter().map(|&v| ctx.value_ty(v)).collect();
    let outs: Vec<_> = o.results.iter().map(|&v| ctx.value_ty(v)).collect();
    if ins != outs {
        return Err(ctx.error(op, "results must have the operands' types"));
    }
    Ok(())
}

/// `xla.map`: the region applied element-wise to operands of one shape.
pub fn verify_map(ctx: &Context, op: OpId) -> Result<()> {
    let o = ctx.op(op);
    if o.operands().is_empty() || o.results.len() != 1 {
        return Err(ctx.error(op, "expects at least one operand and one result"));
    }
    let (shape, _) = operand_tensor(ctx, op, 0)?;
    for i in 0..o.operands().len() {
        if operand_tensor(ctx, op, i)?.0 != shape {
            return Err(ctx.error(op, "operands must all have the same shape"));
        }
    }
    let dims = i64s(ctx, op, "dimensions")?;
    if dims != (0..shape.len() as i64).collect::<Vec<_>>() {
        return Err(ctx.error(
            op,
            format!("dimensions {} must be [0, ..., rank - 1]", list(&dims)),
        ));
    }
    let body = ctx
        .entry_block(op, 0)
        .ok_or_else(|| ctx.error(op, "requires a computation region"))?;
    if ctx.blocks[body].args.len() != o.operands().len() {
        return Err(ctx.error(op, "computation must take one argument per operand"));
    }
    // Argument i is an element of operand i: a 0-d tensor of its type.
    for (i, &arg) in ctx.blocks[body].args.iter().enumerate() {
        let (_, elem) = operand_tensor(ctx, op, i)?;
        if !matches!(ctx.types.kind(ctx.value_ty(arg)), TypeKind::Tensor { shape, elem: e } if shape.is_empty() && *e == elem)
        {
            return Err(ctx.error(
                op,
                format!(
                    "computation argument {i} must be a 0-d tensor of operand {i}'s element type"
                ),
            ));
        }
    }
    let ret = ctx.blocks[body]
        .ops
        .last()
        .map(|&t| ctx.op(t).operands().to_vec())
        .unwrap_or_default();
    let (rs, re) = result_tensor(ctx, op, 0)?;
    let ok = ret.len() == 1
        && matches!(ctx.types.kind(ctx.value_ty(ret[0])), TypeKind::Tensor { shape, elem } if shape.is_empty() && *elem == re);
    if !ok || rs != shape {
        return Err(ctx.error(
            op,
            "computation must return one 0-d tensor of the result's element type",
        ));
    }
    Ok(())
}

pub fn verify_get_dimension_size(ctx: &Context, op: OpId) -> Result<()> {
    let (shape, _) = operand_tensor(ctx, op, 0)?;
    let d = ctx
        .int_attr(op, "dimension")
        .ok_or_else(|| ctx.error(op, "requires attribute 'dimension'"))?;
    if d < 0 || d as usize >= shape.len() {
        return Err(ctx.error(
            op,
            format!("dimension {d} is out of range for rank {}", shape.len()),
        ));
    }
    let (rs, re) = result_tensor(ctx, op, 0)?;
    if !rs.is_empty() || !is_i32(ctx, re) {
        return Err(ctx.error(op, "result must be a tensor<i32>"));
    }
    Ok(())
}

/// `xla.composite`: runs its `decomposition` function.
pub fn verify_composite(ctx: &Context, op: OpId) -> Result<()> {
    // The lowering calls the decomposition, so it must exist and fit, as the
    // callee of a call (an unchecked one made invalid IR, FUZZING.md B21).
    match ctx.attr_of(op, "decomposition").map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::SymbolRef(callee)) => strata_ir::builtin::verify_callee(ctx, op, callee),
        _ => Err(ctx.error(op, "requires a 'decomposition' symbol reference")),
    }
}

pub fn verify_tuple(ctx: &Context, op: OpId) -> Result<()> {
    let o = ctx.op(op);
    let elems: Vec<_> = o.operands().iter().map(|&v| ctx.value_ty(v)).collect();
    let ok = o.results.len() == 1
        && matches!(ctx.types.kind(ctx.value_ty(o.results[0])), TypeKind::Tuple(t) if *t == elems);
    if !ok {
        return Err(ctx.error(op, "result must be the tuple of the operand types"));
    }
    Ok(())
}

pub fn verify_get_tuple_element(ctx: &Context, op: OpId) -> Result<()> {
    let TypeKind::Tuple(elems) = ctx
        .types
        .kind(ctx.value_ty(ctx.op(op).operands()[0]))
        .clone()
    else {
        return Err(ctx.error(op, "operand must be a tuple"));
    };
    let i = ctx
        .int_attr(op, "index")
        .ok_or_else(|| ctx.error(op, "requires attribute 'index'"))?;
    if i < 0
        || i as usize >= elems.len()
        || elems[i as usize] != ctx.value_ty(ctx.op(op).results[0])
    {
        return Err(ctx.error(
            op,
            format!("index {i} does not select an element of the result's type"),
        ));
    }
    Ok(())
}

/// `xla.sort`: operands of one shape sorted together along `dimension` by
/// a comparator taking (lhs, rhs) pairs of 0-d tensors per operand.
pub fn verify_sort(ctx: &Context, op: OpId) -> Result<()> {
    let o = ctx.op(op);
    let n = o.operands().len();
    if n == 0 || o.results.len() != n {
        return Err(ctx.error(op, "expects one result per operand"));
    }
    let (shape, _) = operand_tensor(ctx, op, 0)?;
    for i in 0..n {
        let (s, e) = operand_tensor(ctx, op, i)?;
        if s != shape {
            return Err(ctx.error(op, "operands must all have the same shape"));
        }
        expect_result_type(ctx, op, i, &s, e)?;
    }
    let d = ctx.int_attr(op, "dimension").unwrap_or(-1);
    let rank = shape.len() as i128;
    if !(-rank..rank).contains(&d) {
        return Err(ctx.error(op, format!("dimension {d} is out of range for rank {rank}")));
    }
    let body = ctx
        .entry_block(op, 0)
        .ok_or_else(|| ctx.error(op, "requires a comparator region"))?;
    if ctx.blocks[body].args.len() != 2 * n {
        return Err(ctx.error(op, format!("comparator must take {} arguments", 2 * n)));
    }
    // Arguments 2i and 2i+1 are elements of operand i: 0-d tensors of its
    // element type (the comparator is emitted on those scalars).
    for (j, &arg) in ctx.blocks[body].args.iter().enumerate() {
        let (_, elem) = operand_tensor(ctx, op, j / 2)?;
        let ok = matches!(ctx.types.kind(ctx.value_ty(arg)), TypeKind::Tensor { shape, elem: e } if shape.is_empty() && *e == elem);
        if !ok {
            return Err(ctx.error(
                op,
                format!(
                    "comparator argument {j} must be a 0-d tensor of operand {}'s element type",
                    j / 2
                ),
            ));
        }
    }
    let ret = ctx.blocks[body]
        .ops
        .last()
        .map(|&t| ctx.op(t).operands().to_vec())
        .unwrap_or_default();
    let ok = ret.len() == 1
        && matches!(ctx.types.kind(ctx.value_ty(ret[0])), TypeKind::Tensor { shape, elem } if shape.is_empty() && ctx.types.is_bool(*elem));
    if !ok {
        return Err(ctx.error(op, "comparator must return one tensor<i1>"));
    }
    Ok(())
}

/// `xla.fft` of type FFT / IFFT / RFFT / IRFFT over the trailing
/// `fft_length` dimensions.
pub fn verify_fft(ctx: &Context, op: OpId) -> Result<()> {
    let (shape, elem) = operand_tensor(ctx, op, 0)?;
    let (rshape, relem) = result_tensor(ctx, op, 0)?;
    let spelled = ctx.str_attr(op, "fft_type").unwrap_or("");
    let kind = crate::attrs::FftType::parse(spelled).ok_or_else(|| {
        ctx.error(
            op,
            format!("unknown fft_type '{spelled}' (expected FFT, IFFT, RFFT or IRFFT)"),
        )
    })?;
    let lengths = i64s(ctx, op, "fft_length")?;
    let n = lengths.len();
    if n == 0 || n > 3 || n > shape.len() || lengths.iter().any(|&l| l < 0) {
        return Err(ctx.error(
            op,
            format!(
                "fft_length {} must have 1 to 3 entries, at most the rank",
                list(&lengths)
            ),
        ));
    }
    let part = |t| match ctx.types.kind(t) {
        TypeKind::Complex(p) => Some(*p),
        _ => None,
    };
    let lead = shape.len() - n;
    let half = || {
        let mut v = lengths.clone();
        v[n - 1] = lengths[n - 1] / 2 + 1;
        v
    };
    use crate::attrs::FftType;
    let (want_in, want_out): (Vec<i64>, Vec<i64>) = match kind {
        FftType::Fft | FftType::Ifft => (lengths.clone(), lengths.clone()),
        FftType::Rfft => (lengths.clone(), half()),
        FftType::Irfft => (half(), lengths.clone()),
    };
    let types_ok = match kind {
        FftType::Fft | FftType::Ifft => part(elem).is_some() && relem == elem,
        FftType::Rfft => ctx.types.is_float(elem) && part(relem) == Some(elem),
        FftType::Irfft => part(elem).is_some_and(|p| p == relem),
    };
    let float_ok = [elem, relem].iter().all(|&t| {
        let p = part(t).unwrap_or(t);
        matches!(
            ctx.types.kind(p),
            TypeKind::Float(strata_ir::FloatKind::F32 | strata_ir::FloatKind::F64)
        )
    });
    if !types_ok || !float_ok {
        return Err(ctx.error(
            op,
            format!(
                "{kind} on {} -> {} has the wrong element types",
                ty_str(ctx, elem),
                ty_str(ctx, relem)
            ),
        ));
    }
    if shape[lead..] != want_in[..]
        || rshape.len() != shape.len()
        || rshape[..lead] != shape[..lead]
        || rshape[lead..] != want_out[..]
    {
        return Err(ctx.error(
            op,
            format!(
                "shapes {} -> {} do not fit {kind} with fft_length {}",
                list(&shape),
                list(&rshape),
                list(&lengths)
            ),
        ));
    }
    Ok(())
}

/// `top_k`: results of the operand's shape with the last dimension k, the
/// values of its element type and the indices `i32`; 0 <= k <= that dimension.
pub fn verify_top_k(ctx: &Context, op: OpId) -> Result<()> {
    let (shape, elem) = operand_tensor(ctx, op, 0)?;
    let Some(&n) = shape.last() else {
        return Err(ctx.error(op, "expects an operand of rank 1 or more"));
    };
    let k = ctx
        .int_attr(op, "k")
        .ok_or_else(|| ctx.error(op, "requires an integer attribute 'k'"))?;
    if k < 0 || k > n as i128 {
        return Err(ctx.error(
            op,
            format!("k = {k} must be in [0, {n}] (the last dimension)"),
        ));
    }
    let mut want = shape.clone();
    if let Some(last) = want.last_mut() {
        *last = k as i64;
    }
    let (vshape, velem) = result_tensor(ctx, op, 0)?;
    let (ishape, ielem) = result_tensor(ctx, op, 1)?;
    let i32_indices = matches!(ctx.types.kind(ielem), TypeKind::Int { width: 32, sign } if *sign != strata_ir::Signedness::Unsigned);
    if vshape != want || velem != elem || ishape != want || !i32_indices {
        return Err(ctx.error(
            op,
            format!("results must be the top {k} values (element type {}) and their i32 indices along the last dimension", ty_str(ctx, elem)),
        ));
    }
    if is_complex(ctx, elem) {
        return Err(ctx.error(op, "has no order on complex elements"));
    }
    Ok(())
}

/// `rng_bit_generator(state) -> (new_state, bits)`: `rng_algorithm` one of
/// DEFAULT, THREE_FRY, PHILOX; the new state of the state's type (ui64,
/// 2 words for THREE_FRY, 2 or 3 for PHILOX and DEFAULT, which XLA:CPU
/// runs as Philox); integer or float bits of a static shape.
pub fn verify_rng_bit_generator(ctx: &Context, op: OpId) -> Result<()> {
    let alg = ctx.str_attr(op, "rng_algorithm").unwrap_or("");
    if !matches!(alg, "DEFAULT" | "THREE_FRY" | "PHILOX") {
        return Err(ctx.error(
            op,
            format!("rng_algorithm must be DEFAULT, THREE_FRY or PHILOX, found '{alg}'"),
        ));
    }
    let (s, se) = operand_tensor(ctx, op, 0)?;
    let (ns, nse) = result_tensor(ctx, op, 0)?;
    let (_, be) = result_tensor(ctx, op, 1)?;
    let u64_state = matches!(ctx.types.kind(se), TypeKind::Int { width: 64, .. });
    if s.len() != 1 || !u64_state || (&s, se) != (&ns, nse) {
        return Err(ctx.error(
            op,
            "the state must be a 1-d 64-bit integer tensor, and the new state of its type",
        ));
    }
    let words = s[0];
    if alg == "THREE_FRY" && words != 2 {
        return Err(ctx.error(op, "THREE_FRY's state has 2 words"));
    }
    if alg != "THREE_FRY" && !(2..=3).contains(&words) {
        return Err(ctx.error(
            op,
            format!("{alg}'s state has 2 or 3 words (Philox), found {words}"),
        ));
    }
    if !(is_int(ctx, be) || is_float(ctx, be)) {
        return Err(ctx.error(
            op,
            format!(
                "output elements must be integers or floats, found {}",
                ty_str(ctx, be)
            ),
        ));
    }
    Ok(())
}

/// The `rng_distribution` of an `rng` op: `UNIFORM` or `NORMAL`.
pub fn rng_distribution(ctx: &Context, op: OpId) -> Option<&str> {
    match ctx
        .attr_of(op, "rng_distribution")
        .map(|a| ctx.attr_kind(a))
    {
        Some(AttrKind::Enum { value, .. }) | Some(AttrKind::String(value)) => Some(value),
        _ => None,
    }
}

/// `rng(a, b, shape)`: `a` and `b` scalars of the result's element type
/// (an integer or a float; only floats for NORMAL), `shape` a 1-d integer
/// tensor matching the result's static shape when it is a constant.
pub fn verify_rng(ctx: &Context, op: OpId) -> Result<()> {
    let dist = rng_distribution(ctx, op).unwrap_or("");
    if !matches!(dist, "UNIFORM" | "NORMAL") {
        return Err(ctx.error(
            op,
            format!("rng_distribution must be UNIFORM or NORMAL, found '{dist}'"),
        ));
    }
    let (_, elem) = result_tensor(ctx, op, 0)?;
    let bool_elem = matches!(ctx.types.kind(elem), TypeKind::Int { width: 1, .. });
    let int_ok = is_int(ctx, elem) && !bool_elem && dist == "UNIFORM";
    if !(is_float(ctx, elem) || int_ok) {
        return Err(ctx.error(
            op,
            format!(
                "a {dist} rng produces {}, not {}",
                if dist == "NORMAL" {
                    "floats"
                } else {
                    "integers or floats"
                },
                strata_ir::text::printer::type_to_string(ctx, elem)
            ),
        ));
    }
    for i in 0..2 {
        let (s, e) = operand_tensor(ctx, op, i)?;
        if !s.is_empty() || e != elem {
            return Err(ctx.error(
                op,
                format!("operand #{i} must be a scalar of the result's element type"),
            ));
        }
    }
    let (shape_shape, shape_elem) = operand_tensor(ctx, op, 2)?;
    if shape_shape.len() != 1 || !is_int(ctx, shape_elem) {
        return Err(ctx.error(op, "the shape operand must be a 1-d integer tensor"));
    }
    Ok(())
}

/// `rng_get_and_update_state() {delta}`: a `tensor<2xui64>`, delta >= 0.
pub fn verify_rng_get_and_update_state(ctx: &Context, op: OpId) -> Result<()> {
    let (s, e) = result_tensor(ctx, op, 0)?;
    if s != [2] || !matches!(ctx.types.kind(e), TypeKind::Int { width: 64, .. }) {
        return Err(ctx.error(op, "the state is a tensor<2xui64>"));
    }
    match ctx.int_attr(op, "delta") {
        Some(d) if (0..=i64::MAX as i128).contains(&d) => Ok(()),
        _ => Err(ctx.error(op, "'delta' must be a non-negative 64-bit integer")),
    }
}

// Typed accessors of verified ops (the lowerings read attributes through
// these).

/// `xla.sort`: the dimension sorted along (a negative attribute counts
/// from the end, -1 when absent).
pub fn sort_dimension(ctx: &Context, op: OpId) -> Option<usize> {
    let rank = ctx
        .types
        .shape(ctx.value_ty(*ctx.op(op).operands().first()?))?
        .len() as i128;
    let d = ctx.int_attr(op, "dimension").unwrap_or(-1);
    usize::try_from(if d < 0 { d + rank } else { d }).ok()
}

/// `xla.fft`: the lengths of the transformed (innermost) dimensions.
pub fn fft_lengths(ctx: &Context, op: OpId) -> Option<Vec<i64>> {
    ctx.i64_array(op, "fft_length")
}

/// `xla.top_k`: how many of the largest values it keeps.
pub fn top_k_count(ctx: &Context, op: OpId) -> Option<i64> {
    i64::try_from(ctx.int_attr(op, "k")?).ok()
}

/// `xla.get_dimension_size`: the dimension whose size it reads.
pub fn size_dimension(ctx: &Context, op: OpId) -> Option<usize> {
    index_attr(ctx, op, "dimension")
}

/// `xla.get_tuple_element`: which element.
pub fn tuple_index(ctx: &Context, op: OpId) -> Option<usize> {
    index_attr(ctx, op, "index")
}

/// `xla.custom_call`: the target it calls.
pub fn call_target(ctx: &Context, op: OpId) -> Option<&str> {
    ctx.str_attr(op, "call_target_name")
}

/// `xla.rng_bit_generator`: the algorithm's name (`THREE_FRY`, `PHILOX`,
/// `DEFAULT`).
pub fn rng_algorithm(ctx: &Context, op: OpId) -> Option<&str> {
    ctx.str_attr(op, "rng_algorithm")
}

/// `xla.rng_get_and_update_state`: how far the state advances.
pub fn state_delta(ctx: &Context, op: OpId) -> Option<i64> {
    i64::try_from(ctx.int_attr(op, "delta")?).ok()
}

/// Registers this family's ops: name, traits, counts, verifier, pretty syntax.
pub(crate) fn register(r: &mut Registry) {
    let pure = Traits::PURE;
    r.add(
        OpDef::new(CONSTANT, pure)
            .counts(0, 1)
            .verifier(verify_constant)
            .parser(parse::parse_constant),
    );
    r.add(
        OpDef::new(FFT, pure)
            .counts(1, 1)
            .verifier(verify_fft)
            .parser(parse::parse_fft),
    );
    r.add(OpDef::new(SORT, pure).verifier(verify_sort));
    r.add(
        OpDef::new(TOP_K, pure)
            .counts(1, 2)
            .verifier(verify_top_k)
            .parser(parse::parse_top_k),
    );
    r.add(OpDef::new(MAP, pure).verifier(verify_map));
    r.add(
        OpDef::new(GET_DIMENSION_SIZE, pure)
            .counts(1, 1)
            .verifier(verify_get_dimension_size)
            .parser(parse::parse_get_dimension_size),
    );
    r.add(
        OpDef::new(COMPOSITE, Traits::NONE)
            .verifier(verify_composite)
            .parser(parse::parse_composite),
    );
    r.add(
        OpDef::new(TUPLE, pure)
            .verifier(verify_tuple)
            .parser(parse::parse_tuple),
    );
    r.add(
        OpDef::new(GET_TUPLE_ELEMENT, pure)
            .counts(1, 1)
            .verifier(verify_get_tuple_element)
            .parser(parse::parse_get_tuple_element),
    );
    r.add(
        OpDef::new(OPTIMIZATION_BARRIER, Traits::NONE)
            .verifier(verify_optimization_barrier)
            .parser(parse::parse_optimization_barrier),
    );
    r.add(
        OpDef::new(RNG_BIT_GENERATOR, pure)
            .counts(1, 2)
            .verifier(verify_rng_bit_generator)
            .parser(parse::parse_rng_bit_generator),
    );
    // Not pure: every call draws new numbers.
    r.add(
        OpDef::new(RNG, Traits::NONE)
            .counts(3, 1)
            .verifier(verify_rng)
            .parser(parse::parse_rng),
    );
    r.add(
        OpDef::new(RNG_GET_AND_UPDATE_STATE, Traits::NONE)
            .counts(0, 1)
            .verifier(verify_rng_get_and_update_state),
    );
    r.add(OpDef::new(CUSTOM_CALL, Traits::NONE).parser(parse::parse_custom_call));
}
