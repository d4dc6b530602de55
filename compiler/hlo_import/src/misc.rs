//! `constant`, `dot`, `convolution`, `fft`, `rng-bit-generator`,
//! `cholesky`, `triangular-solve` and `custom-call`.

use strata_diag::{Diagnostic, Location, Result};
use strata_ir::dense::{self, Literal};
use strata_ir::{Attr, AttrKind, FloatKind, Signedness, TypeKind};

use super::attrs::{dim_labels, window};
use super::import::{Importer, Inst, Val};
use super::lexer::Cursor;
use super::lexer::whole;
use strata_dialect_xla::names::*;

/// Deepest literal nesting accepted (beyond any real tensor rank).
const MAX_LITERAL_DEPTH: usize = 64;

/// `constant(2)`, `constant({ {1, 2}, {3, 4} })`, `constant({(1, 2)})`,
/// `constant(true)`, `constant({nan, inf, -inf})`.
pub fn constant(imp: &mut Importer<'_>, inst: &Inst<'_, '_>) -> Result<Val> {
    let ty = inst.instr.shape.array_type(imp.ctx, "a constant")?;
    let Some(span) = inst.instr.payload else {
        return Err(inst.error("constant without a value"));
    };
    let mut c = imp.cursor.over(span);
    let loc = c.loc();
    let floats = match imp.ctx.types.kind(imp.ctx.types.elem(ty)) {
        TypeKind::Float(k) => Some(*k),
        TypeKind::Complex(part) => match imp.ctx.types.kind(*part) {
            TypeKind::Float(k) => Some(*k),
            _ => None,
        },
        _ => None,
    };
    let lit = whole(&mut c, |c| literal(c, floats, 0))?;
    let elements = dense::build(imp.ctx, ty, &lit).map_err(|m| Diagnostic::error(loc, m))?;
    let value = imp.ctx.attr(AttrKind::Dense(elements));
    imp.build(inst, CONSTANT, vec![], vec![("value".to_string(), value)])
}

/// A literal tree; with `floats`, every number is read as a float of that
/// kind (so that `-0` keeps its sign) and must be in its range.
fn literal(c: &mut Cursor<'_>, floats: Option<FloatKind>, depth: usize) -> Result<Literal> {
    if depth > MAX_LITERAL_DEPTH {
        return Err(c.error("literal nests too deeply"));
    }
    if c.starts_with("{...}") {
        return Err(Diagnostic::unsupported(
            c.loc(),
            "the constant's values were left out of the HLO text ('{...}'); print it with large constants",
        ));
    }
    if c.eat("{") {
        let mut items = Vec::new();
        if c.eat("}") {
            return Ok(Literal::List(items));
        }
        loop {
            items.push(literal(c, floats, depth + 1)?);
            if c.eat("}") {
                return Ok(Literal::List(items));
            }
            c.expect(",")?;
        }
    }
    if c.eat("(") {
        // A pair for a type that is not complex is rejected by
        // `dense::build`; f64 only reads it.
        let part = Some(floats.unwrap_or(FloatKind::F64));
        let re = scalar(c, part)?;
        c.expect(",")?;
        let im = scalar(c, part)?;
        c.expect(")")?;
        return Ok(Literal::Complex(Box::new(re), Box::new(im)));
    }
    scalar(c, floats)
}

/// One number: integer, float, `true`/`false`, `inf`, `-inf`, `nan`;
/// integers as floats with `float`.
fn scalar(c: &mut Cursor<'_>, float: Option<FloatKind>) -> Result<Literal> {
    let (word, loc) = c.number_word();
    let body = word.strip_prefix(['-', '+']).unwrap_or(&word);
    let negative = word.starts_with('-');
    let lit = match body {
        "" => return Err(c.expected("a number")),
        "true" if body.len() == word.len() => Literal::Bool(true),
        "false" if body.len() == word.len() => Literal::Bool(false),
        "inf" => Literal::Float(if negative {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        }),
        "nan" => Literal::Float(f64::NAN),
        _ if float.is_none() && body.bytes().all(|b| b.is_ascii_digit()) => {
            let v: i128 = word.parse().map_err(|_| {
                Diagnostic::error(loc, format!("integer literal {word} is too large"))
            })?;
            Literal::Int(v)
        }
        _ => {
            let v = word
                .parse::<f64>()
                .map_err(|_| Diagnostic::error(loc, format!("malformed number '{word}'")))?;
            if let Some(kind) = float {
                check_float_range(v, kind, &word, loc)?;
            }
            Literal::Float(v)
        }
    };
    Ok(lit)
}

/// A finite number that rounds to infinity (or, in a format without one, to
/// NaN) is out of range, as XLA's parser says; `inf` and `nan` are written
/// as such. Rounding within the range (`65505` to f16's 65504) is fine.
fn check_float_range(v: f64, kind: FloatKind, word: &str, loc: Location) -> Result<()> {
    let rounded = dense::bits_to_float(dense::float_to_bits(v, kind), kind);
    let written_as_number = word
        .trim_start_matches(['-', '+'])
        .starts_with(|ch: char| ch.is_ascii_digit() || ch == '.');
    if written_as_number && !rounded.is_finite() {
        return Err(Diagnostic::error(
            loc,
            format!("value {word} is out of range for {}", kind.name()),
        ));
    }
    Ok(())
}

/// `operand_precision={highest,default}` as `[#stablehlo<precision ...>]`
/// (DEFAULT for both operands when absent).
fn precision_config(imp: &mut Importer<'_>, inst: &Inst<'_, '_>) -> Result<Attr> {
    let mut words = Vec::new();
    if let Some(mut c) = inst.attrs.get("operand_precision") {
        words = whole(&mut c, |c| {
            c.expect("{")?;
            let mut out = Vec::new();
            while !c.eat("}") {
                out.push(c.name("a precision")?);
                if !c.eat(",") {
                    c.expect("}")?;
                    break;
                }
            }
            Ok(out)
        })?;
    }
    let mut items = Vec::new();
    for (word, loc) in &words {
        let value = match word.to_ascii_uppercase().as_str() {
            v @ ("DEFAULT" | "HIGH" | "HIGHEST") => v.to_string(),
            _ => {
                return Err(Diagnostic::error(
                    *loc,
                    format!("unknown precision '{word}'"),
                ));
            }
        };
        items.push(imp.enum_attr("precision", &value));
    }
    while items.len() < 2 {
        items.push(imp.enum_attr("precision", "DEFAULT"));
    }
    Ok(imp.ctx.attr(AttrKind::Array(items)))
}

/// `dot(a, b), lhs_batch_dims={0}, lhs_contracting_dims={2},
/// rhs_batch_dims={0}, rhs_contracting_dims={1}` is `xla.dot_general`.
pub fn dot(imp: &mut Importer<'_>, inst: &Inst<'_, '_>) -> Result<Val> {
    inst.expect_operands(2)?;
    let a = &inst.attrs;
    let fields = [
        (
            "lhs_batching_dimensions",
            a.ints_or_empty("lhs_batch_dims")?,
        ),
        (
            "rhs_batching_dimensions",
            a.ints_or_empty("rhs_batch_dims")?,
        ),
        (
            "lhs_contracting_dimensions",
            a.ints_or_empty("lhs_contracting_dims")?,
        ),
        (
            "rhs_contracting_dimensions",
            a.ints_or_empty("rhs_contracting_dims")?,
        ),
    ];
    let fields = fields
        .into_iter()
        .map(|(name, v)| (name.to_string(), imp.i64_list(&v)))
        .collect();
    let numbers = imp.ctx.attr(AttrKind::Struct {
        name: "stablehlo.dot".into(),
        fields,
    });
    let attrs = vec![
        ("precision_config".to_string(), precision_config(imp, inst)?),
        ("dot_dimension_numbers".to_string(), numbers),
    ];
    let operands = inst.all_leaves()?;
    imp.build(inst, DOT_GENERAL, operands, attrs)
}

/// `convolution(lhs, rhs), window={...}, dim_labels=b01f_01io->b01f,
/// feature_group_count=1, batch_group_count=1`.
pub fn convolution(imp: &mut Importer<'_>, inst: &Inst<'_, '_>) -> Result<Val> {
    inst.expect_operands(2)?;
    let labels = whole(&mut inst.attrs.required("dim_labels")?, dim_labels)?;
    let spatial = labels.input.spatial.len();
    let w = match inst.attrs.get("window") {
        Some(mut c) => whole(&mut c, window)?,
        None => super::attrs::Window {
            size: vec![1; spatial],
            stride: vec![1; spatial],
            pad: vec![(0, 0); spatial],
            lhs_dilate: vec![1; spatial],
            rhs_dilate: vec![1; spatial],
            reversal: vec![0; spatial],
        },
    };
    let (i, k, o) = (&labels.input, &labels.kernel, &labels.output);
    // In the order StableHLO prints `#stablehlo.conv<...>`.
    let fields = vec![
        ("input_batch_dimension", imp.i64_attr(i.first)),
        ("input_feature_dimension", imp.i64_attr(i.second)),
        ("input_spatial_dimensions", imp.i64_list(&i.spatial)),
        ("kernel_input_feature_dimension", imp.i64_attr(k.first)),
        ("kernel_output_feature_dimension", imp.i64_attr(k.second)),
        ("kernel_spatial_dimensions", imp.i64_list(&k.spatial)),
        ("output_batch_dimension", imp.i64_attr(o.first)),
        ("output_feature_dimension", imp.i64_attr(o.second)),
        ("output_spatial_dimensions", imp.i64_list(&o.spatial)),
    ];
    let fields = fields
        .into_iter()
        .map(|(name, a)| (name.to_string(), a))
        .collect();
    let numbers = imp.ctx.attr(AttrKind::Struct {
        name: "stablehlo.conv".into(),
        fields,
    });
    let feature_groups = group_count(inst, "feature_group_count")?;
    let batch_groups = group_count(inst, "batch_group_count")?;
    let attrs = vec![
        ("dimension_numbers".to_string(), numbers),
        ("window_strides".to_string(), imp.dense_i64s(w.stride)),
        ("padding".to_string(), imp.padding_attr(&w.pad)),
        ("lhs_dilation".to_string(), imp.dense_i64s(w.lhs_dilate)),
        ("rhs_dilation".to_string(), imp.dense_i64s(w.rhs_dilate)),
        ("window_reversal".to_string(), imp.dense_i64s(w.reversal)),
        ("batch_group_count".to_string(), imp.i64_attr(batch_groups)),
        (
            "feature_group_count".to_string(),
            imp.i64_attr(feature_groups),
        ),
        ("precision_config".to_string(), precision_config(imp, inst)?),
    ];
    let operands = inst.all_leaves()?;
    imp.build(inst, CONVOLUTION, operands, attrs)
}

fn group_count(inst: &Inst<'_, '_>, name: &str) -> Result<i64> {
    match inst.instr.attr(name) {
        Some(_) => inst.attrs.int(name),
        None => Ok(1),
    }
}

/// `fft(x), fft_type=RFFT, fft_length={8}`.
pub fn fft(imp: &mut Importer<'_>, inst: &Inst<'_, '_>) -> Result<Val> {
    inst.expect_operands(1)?;
    let Some((kind, loc)) = inst.attrs.word("fft_type")? else {
        return Err(Diagnostic::error(
            inst.instr.opcode_loc,
            "'fft' requires the attribute 'fft_type'",
        ));
    };
    let kind = strata_dialect_xla::attrs::FftType::parse(&kind)
        .ok_or_else(|| Diagnostic::error(loc, format!("unknown fft_type '{kind}'")))?;
    let lengths = inst.attrs.ints("fft_length")?;
    let attrs = vec![
        (
            "fft_type".to_string(),
            imp.enum_attr("fft_type", kind.name()),
        ),
        ("fft_length".to_string(), imp.dense_i64s(lengths)),
    ];
    imp.build(inst, FFT, vec![inst.leaf(0)?], attrs)
}

/// `rng-bit-generator(state), algorithm=rng_default` gives (state, bits).
pub fn rng_bit_generator(imp: &mut Importer<'_>, inst: &Inst<'_, '_>) -> Result<Val> {
    inst.expect_operands(1)?;
    let algorithm = match inst.attrs.word("algorithm")? {
        None => "DEFAULT",
        Some((w, loc)) => match w.as_str() {
            "rng_default" => "DEFAULT",
            "rng_three_fry" => "THREE_FRY",
            "rng_philox" => "PHILOX",
            _ => {
                return Err(Diagnostic::error(
                    loc,
                    format!("unknown rng algorithm '{w}'"),
                ));
            }
        },
    };
    let attrs = vec![("rng_algorithm".to_string(), imp.string_attr(algorithm))];
    imp.build(inst, RNG_BIT_GENERATOR, vec![inst.leaf(0)?], attrs)
}

/// `rng(a, b), distribution=rng_uniform` (or `rng_normal`): the shape
/// operand StableHLO's `rng` takes is the declared shape, as a constant.
pub fn rng(imp: &mut Importer<'_>, inst: &Inst<'_, '_>) -> Result<Val> {
    inst.expect_operands(2)?;
    let distribution = match inst.attrs.word("distribution")? {
        Some((w, _)) if w == "rng_uniform" => "UNIFORM",
        Some((w, _)) if w == "rng_normal" => "NORMAL",
        Some((w, loc)) => {
            return Err(Diagnostic::error(
                loc,
                format!("unknown rng distribution '{w}'"),
            ));
        }
        None => return Err(inst.error("rng without a distribution")),
    };
    let types = inst.instr.shape.leaf_types(imp.ctx);
    let dims = match types.first().and_then(|&t| imp.ctx.types.shape(t)) {
        Some(d) if types.len() == 1 => d.to_vec(),
        _ => return Err(inst.error("rng produces one array")),
    };
    let i64t = imp.ctx.types.int_ty(64);
    let shape_ty = imp.ctx.types.tensor_ty(&[dims.len() as i64], i64t);
    let value = imp.ctx.attr(AttrKind::Dense(strata_ir::DenseElements {
        ty: shape_ty,
        splat: false,
        bits: dims.iter().map(|&d| d as u64).collect(),
    }));
    let shape = imp.ctx.create_op(
        CONSTANT,
        vec![],
        &[shape_ty],
        vec![("value".to_string(), value)],
        inst.loc(),
    );
    imp.ctx.append_op(inst.block, shape);
    let shape = imp.ctx.op(shape).results[0];
    let attrs = vec![(
        "rng_distribution".to_string(),
        imp.enum_attr("rng_distribution", distribution),
    )];
    imp.build(inst, RNG, vec![inst.leaf(0)?, inst.leaf(1)?, shape], attrs)
}

/// `rng-get-and-update-state(), delta=N`: the process's generator state.
pub fn rng_get_and_update_state(imp: &mut Importer<'_>, inst: &Inst<'_, '_>) -> Result<Val> {
    inst.expect_operands(0)?;
    let delta = inst.attrs.int("delta")?;
    let attrs = vec![("delta".to_string(), imp.i64_attr(delta))];
    imp.build(inst, RNG_GET_AND_UPDATE_STATE, vec![], attrs)
}

/// `cholesky(a), lower=true`.
pub fn cholesky(imp: &mut Importer<'_>, inst: &Inst<'_, '_>) -> Result<Val> {
    inst.expect_operands(1)?;
    let lower = inst.attrs.flag_or("lower", false)?;
    let attrs = vec![("lower".to_string(), imp.bool_attr(lower))];
    imp.build(inst, CHOLESKY, vec![inst.leaf(0)?], attrs)
}

/// `batch-norm-inference(x, scale, offset, mean, variance)`,
/// `batch-norm-training(x, scale, offset)` (a tuple result) and
/// `batch-norm-grad(x, scale, mean, variance, grad_y)` (a tuple result),
/// with `epsilon=0.001, feature_index=3`.
pub fn batch_norm(imp: &mut Importer<'_>, inst: &Inst<'_, '_>, name: &'static str) -> Result<Val> {
    let count = if name == BATCH_NORM_TRAINING { 3 } else { 5 };
    inst.expect_operands(count)?;
    let feature_index = inst.attrs.int("feature_index")?;
    let (word, loc) = inst
        .attrs
        .word("epsilon")?
        .ok_or_else(|| inst.error("batch-norm needs an 'epsilon'"))?;
    let epsilon: f64 = word
        .parse()
        .map_err(|_| Diagnostic::error(loc, format!("epsilon '{word}' is not a number")))?;
    let attrs = vec![
        ("epsilon".to_string(), imp.f32_attr(epsilon)),
        ("feature_index".to_string(), imp.i64_attr(feature_index)),
    ];
    let operands = (0..count)
        .map(|i| inst.leaf(i))
        .collect::<Result<Vec<_>>>()?;
    imp.build(inst, name, operands, attrs)
}

/// `triangular-solve(a, b), left_side=true, lower=true,
/// unit_diagonal=false, transpose_a=NO_TRANSPOSE`.
pub fn triangular_solve(imp: &mut Importer<'_>, inst: &Inst<'_, '_>) -> Result<Val> {
    inst.expect_operands(2)?;
    let a = &inst.attrs;
    let transpose = match a.word("transpose_a")? {
        None => strata_dialect_xla::attrs::Transpose::NoTranspose,
        Some((w, loc)) => strata_dialect_xla::attrs::Transpose::parse(&w)
            .ok_or_else(|| Diagnostic::error(loc, format!("unknown transpose_a '{w}'")))?,
    };
    let attrs = vec![
        (
            "left_side".to_string(),
            imp.bool_attr(a.flag_or("left_side", false)?),
        ),
        (
            "lower".to_string(),
            imp.bool_attr(a.flag_or("lower", false)?),
        ),
        (
            "unit_diagonal".to_string(),
            imp.bool_attr(a.flag_or("unit_diagonal", false)?),
        ),
        (
            "transpose_a".to_string(),
            imp.enum_attr("transpose", transpose.name()),
        ),
    ];
    let operands = inst.all_leaves()?;
    imp.build(inst, TRIANGULAR_SOLVE, operands, attrs)
}

/// `topk(x), k=2, largest=true` gives (values, indices) along the last
/// dimension; `xla.top_k` takes the largest, so `largest=false` is not
/// supported.
pub fn top_k(imp: &mut Importer<'_>, inst: &Inst<'_, '_>) -> Result<Val> {
    inst.expect_operands(1)?;
    let k = inst.attrs.int("k")?;
    if !inst.attrs.flag_or("largest", true)? {
        let loc = inst.instr.attr("largest").map_or(inst.loc(), |a| a.loc);
        return Err(Diagnostic::unsupported(
            loc,
            "'topk' with largest=false is not supported",
        ));
    }
    let attrs = vec![("k".to_string(), imp.i64_attr(k))];
    imp.build(inst, TOP_K, vec![inst.leaf(0)?], attrs)
}

/// `custom-call(args...), custom_call_target="name", backend_config=...`
/// is `xla.custom_call` with `call_target_name`. A dictionary
/// `backend_config={k = 76 : ui8}` becomes `mhlo.backend_config` (the
/// typed-FFI attributes JAX's LAPACK calls carry), as in StableHLO.
pub fn custom_call(imp: &mut Importer<'_>, inst: &Inst<'_, '_>) -> Result<Val> {
    let mut target = inst.attrs.required("custom_call_target")?;
    let target = whole(&mut target, |c| c.string())?;
    let mut attrs = Vec::new();
    if let Some(mut c) = inst.attrs.get("backend_config") {
        if c.starts_with("\"") {
            let config = whole(&mut c, |c| c.string())?;
            attrs.push(("backend_config".to_string(), imp.string_attr(&config)));
        } else {
            let dict = whole(&mut c, |c| config_dict(imp, c))?;
            attrs.push(("backend_config".to_string(), imp.string_attr("")));
            attrs.push(("mhlo.backend_config".to_string(), dict));
        }
    }
    if inst.attrs.flag_or("custom_call_has_side_effect", false)? {
        attrs.push(("has_side_effect".to_string(), imp.bool_attr(true)));
    }
    attrs.push(("call_target_name".to_string(), imp.string_attr(&target)));
    let operands: Vec<_> = inst.operands.iter().flat_map(|v| v.leaves()).collect();
    imp.build(inst, CUSTOM_CALL, operands, attrs)
}

/// `{name = 76 : ui8, flag = true, s = "text"}`.
fn config_dict(imp: &mut Importer<'_>, c: &mut Cursor<'_>) -> Result<Attr> {
    c.expect("{")?;
    let mut fields = Vec::new();
    while !c.eat("}") {
        let (key, _) = c.name("a backend_config key")?;
        c.expect("=")?;
        let value = if c.starts_with("\"") {
            let s = c.string()?;
            imp.string_attr(&s)
        } else {
            match scalar(c, None)? {
                Literal::Bool(b) => imp.bool_attr(b),
                Literal::Int(v) => {
                    let ty = config_int_type(imp, c)?;
                    dense::check_int_range(imp.ctx, v, ty).map_err(|m| c.error(m))?;
                    imp.ctx.attr(AttrKind::Int { value: v, ty })
                }
                Literal::Float(v) => {
                    let f64t = imp.ctx.types.float_ty(strata_ir::FloatKind::F64);
                    imp.ctx.attr(AttrKind::float(v, f64t))
                }
                _ => return Err(c.error("unsupported backend_config value")),
            }
        };
        fields.push((key, value));
        if !c.eat(",") {
            c.expect("}")?;
            break;
        }
    }
    Ok(imp.ctx.attr(AttrKind::Dict(fields)))
}

/// The `: ui8` after an integer in a backend_config (i64 when absent).
fn config_int_type(imp: &mut Importer<'_>, c: &mut Cursor<'_>) -> Result<strata_ir::Type> {
    if !c.eat(":") {
        return Ok(imp.ctx.types.int_ty(64));
    }
    let (name, loc) = c.name("an integer type like ui8")?;
    let (sign, digits) = if let Some(d) = name.strip_prefix("ui") {
        (Signedness::Unsigned, d)
    } else if let Some(d) = name.strip_prefix("si") {
        (Signedness::Signed, d)
    } else if let Some(d) = name.strip_prefix('i') {
        (Signedness::Signless, d)
    } else {
        return Err(Diagnostic::error(
            loc,
            format!("expected an integer type, found '{name}'"),
        ));
    };
    let width = digits
        .parse::<u32>()
        .ok()
        .filter(|w| (1..=64).contains(w))
        .ok_or_else(|| {
            Diagnostic::error(loc, format!("expected an integer type, found '{name}'"))
        })?;
    Ok(imp.ctx.types.ty(TypeKind::Int { width, sign }))
}
