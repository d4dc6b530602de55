//! Pretty forms of the random-number, top_k, cholesky, FFT, scan,
//! dynamic_iota and reduce_precision ops.

use strata_diag::Result;
use strata_ir::AttrKind;
use strata_ir::{OpParser, OpState};

use super::{enum_attr, i64_attr, parse_keyword_i64, parse_named_dims, parse_signature};

/// `rng_bit_generator %state, algorithm = THREE_FRY : (S) -> (S, T)`.
pub fn parse_rng_bit_generator(p: &mut dyn OpParser, st: &mut OpState) -> Result<()> {
    st.operands.push(p.parse_operand()?);
    if p.consume_punct(",") {
        p.expect_keyword("algorithm")?;
        p.expect_punct("=")?;
        let alg = p.parse_ident()?;
        let a = p.ctx().attr(AttrKind::String(alg));
        st.add_attr("rng_algorithm", a);
    }
    p.parse_optional_attr_dict(st)?;
    parse_signature(p, st)
}

/// `rng %a, %b, %shape, distribution = UNIFORM : (A, B, S) -> T`.
pub fn parse_rng(p: &mut dyn OpParser, st: &mut OpState) -> Result<()> {
    st.operands.push(p.parse_operand()?);
    p.expect_punct(",")?;
    st.operands.push(p.parse_operand()?);
    p.expect_punct(",")?;
    st.operands.push(p.parse_operand()?);
    if p.consume_punct(",") {
        p.expect_keyword("distribution")?;
        p.expect_punct("=")?;
        let value = p.parse_ident()?;
        let a = p.ctx().attr(AttrKind::Enum {
            dialect: "stablehlo".into(),
            name: "rng_distribution".into(),
            value,
        });
        st.add_attr("rng_distribution", a);
    }
    p.parse_optional_attr_dict(st)?;
    parse_signature(p, st)
}

/// `dynamic_iota %shape, dim = 0 : (tensor<2xi64>) -> tensor<3x4xi64>`.
pub fn parse_dynamic_iota(p: &mut dyn OpParser, st: &mut OpState) -> Result<()> {
    st.operands.push(p.parse_operand()?);
    if p.consume_punct(",") {
        parse_keyword_i64(p, st, "dim", "iota_dimension")?;
    }
    p.parse_optional_attr_dict(st)?;
    parse_signature(p, st)
}

/// `reduce_precision %x, format = e5m10 : tensor<...>`.
pub fn parse_reduce_precision(p: &mut dyn OpParser, st: &mut OpState) -> Result<()> {
    st.operands.push(p.parse_operand()?);
    if p.consume_punct(",") {
        p.expect_keyword("format")?;
        p.expect_punct("=")?;
        let loc = p.loc();
        let format = p.parse_ident()?;
        let parsed = format
            .strip_prefix('e')
            .and_then(|r| r.split_once('m'))
            .and_then(|(e, m)| Some((e.parse::<i64>().ok()?, m.parse::<i64>().ok()?)));
        let Some((e, m)) = parsed else {
            return Err(strata_diag::Diagnostic::error(
                loc,
                format!("expected a format like e5m10, found '{format}'"),
            ));
        };
        let i32t = p.ctx().types.int_ty(32);
        let ea = p.ctx().attr(AttrKind::Int {
            value: e as i128,
            ty: i32t,
        });
        let ma = p.ctx().attr(AttrKind::Int {
            value: m as i128,
            ty: i32t,
        });
        st.add_attr("exponent_bits", ea);
        st.add_attr("mantissa_bits", ma);
    }
    p.parse_optional_attr_dict(st)?;
    parse_signature(p, st)
}

/// `chlo.top_k(%x, k = 3) : tensor<AxNxT> -> (tensor<AxKxT>, tensor<AxKxi32>)`.
pub fn parse_top_k(p: &mut dyn OpParser, st: &mut OpState) -> Result<()> {
    p.expect_punct("(")?;
    st.operands.push(p.parse_operand()?);
    p.expect_punct(",")?;
    p.expect_keyword("k")?;
    p.expect_punct("=")?;
    let k = p.parse_i64()?;
    let i64t = p.ctx().types.int_ty(64);
    let a = p.ctx().attr(AttrKind::Int {
        value: k as i128,
        ty: i64t,
    });
    st.add_attr("k", a);
    p.expect_punct(")")?;
    p.parse_optional_attr_dict(st)?;
    p.expect_punct(":")?;
    let loc = p.loc();
    let t = p.parse_type()?;
    p.check_operand_types(&st.operands, &[t], loc)?;
    p.expect_punct("->")?;
    st.result_types = p.parse_result_types()?;
    Ok(())
}

/// `stablehlo.cholesky %a[, lower = true|false] [attrs] : type`; without
/// `lower` the op keeps StableHLO's default (false, the upper factor).
pub fn parse_cholesky(p: &mut dyn OpParser, st: &mut OpState) -> Result<()> {
    st.operands.push(p.parse_operand()?);
    if p.consume_punct(",") {
        p.expect_keyword("lower")?;
        p.expect_punct("=")?;
        let loc = p.loc();
        let lower = p.parse_attr()?;
        if !matches!(p.ctx().attr_kind(lower), AttrKind::Bool(_)) {
            return Err(strata_diag::Diagnostic::error(
                loc,
                "expected 'true' or 'false' for 'lower'",
            ));
        }
        st.add_attr("lower", lower);
    }
    p.parse_optional_attr_dict(st)?;
    parse_signature(p, st)
}

pub fn parse_fft(p: &mut dyn OpParser, st: &mut OpState) -> Result<()> {
    st.operands.push(p.parse_operand()?);
    p.expect_punct(",")?;
    p.expect_keyword("type")?;
    p.expect_punct("=")?;
    let t = p.parse_ident()?;
    let a = enum_attr(p, "fft_type", t);
    st.add_attr("fft_type", a);
    p.expect_punct(",")?;
    parse_named_dims(p, st, "length", "fft_length")?;
    p.parse_optional_attr_dict(st)?;
    parse_signature(p, st)
}

/// `chlo.scan(%in, ...) inits(%init, ...) dimension=D [attributes {...}]
/// {region} : (types) -> (types)`; the inputs are counted in `num_inputs`.
pub fn parse_scan(p: &mut dyn OpParser, st: &mut OpState) -> Result<()> {
    p.expect_punct("(")?;
    let inputs = p.parse_operands()?;
    p.expect_punct(")")?;
    p.expect_keyword("inits")?;
    p.expect_punct("(")?;
    let inits = p.parse_operands()?;
    p.expect_punct(")")?;
    parse_keyword_i64(p, st, "dimension", "dimension")?;
    let n = i64_attr(p, inputs.len() as i64);
    st.add_attr("num_inputs", n);
    st.operands = inputs;
    st.operands.extend(inits);
    if p.consume_keyword("attributes") {
        p.parse_attr_dict(&mut st.attrs)?;
    }
    st.regions.push(p.parse_region(&[], false)?);
    parse_signature(p, st)
}
