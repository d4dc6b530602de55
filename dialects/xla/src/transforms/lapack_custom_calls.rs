//! `xla-lapack-custom-calls`: the LAPACK custom calls JAX emits on CPU,
//! rewritten into the `xla` ops that compute the same thing, so the `.so`
//! needs no LAPACK.
//!
//! - `lapack_{s,d,c,z}trsm_ffi(a, b)` with `mhlo.backend_config` = {side,
//!   uplo, trans_x, diag} (the LAPACK characters 'L'/'R', 'L'/'U',
//!   'N'/'T'/'C', 'N'/'U' as ui8) → `xla.triangular_solve`.
//!
//! - `lapack_{s,d,c,z}potrf_ffi(a)` → `xla.cholesky` {lower = uplo is 'L'}
//!   with its `info` result (the factor over the triangle uplo names, the
//!   rest of a kept).
//!
//! - `lapack_{s,d,c,z}getrf_ffi(a)` → `xla.lu` (lu, 1-based pivots, info): with
//!   trsm, what `jnp.linalg.solve` and `inv` call.
//!
//! - `lapack_{s,d,c,z}geqrf_ffi(a)` → `xla.householder_qr` (factored, tau),
//!   and `lapack_{s,d}orgqr_ffi` / `lapack_{c,z}ungqr_ffi(a, tau)` →
//!   `xla.householder_product` (q): `jnp.linalg.qr`.
//!
//! - `lapack_{s,d}syevd_ffi` / `lapack_{c,z}heevd_ffi(a)` with {mode = 'V'
//!   or 'N' (vectors or not), uplo = 'L' or 'U'} → `xla.eigh` {lower,
//!   compute_vectors} (vectors, values, info): `jnp.linalg.eigh`,
//!   `eigvalsh`.
//!
//! - `lapack_{s,d,c,z}gesdd_ffi(a)` with {mode = 'A' (full u and vᴴ), 'S'
//!   (reduced) or 'N' (values only)} → `xla.svd` {full_matrices,
//!   compute_uv} (s, u, vt, info). The call's first result, the clobbered
//!   copy of a that LAPACK leaves, becomes a itself. `jnp.linalg.svd`, and
//!   so `pinv`, `lstsq`, `matrix_rank`, `norm(ord=2)`.
//!
//! The operand and result layouts (column-major for LAPACK) describe how
//! XLA lays the values out in memory, not the values: every op here works
//! on the tensors' values, so they need no transpose. The matrices are the
//! last two dimensions; the others, `num_batch_dims` of them (in
//! `mhlo.frontend_attributes`), are the batch, which is checked. The target
//! name's type letter must match the operand's element type.
//!
//! - `lapack_{s,d,c,z}geev_ffi(a)` with {compute_left, compute_right = 'V'
//!   or 'N'} → `xla.eig` (values, left, right, info): `jnp.linalg.eig`,
//!   `eigvals`. The real routines return the eigenvalues as two real
//!   tensors (wr, wi), taken from `xla.eig`'s complex ones by `xla.real`
//!   and `xla.imag`; their eigenvectors are complex already (JAX's handler
//!   unpacks LAPACK's conjugate-pair columns).
//!
//! - `lapack_{s,d,c,z}gehrd_ffi(a)` with {low = 1, high = n} (the whole
//!   matrix) → `xla.hessenberg` (packed, tau): `jax.scipy.linalg.hessenberg`
//!   (which builds Q with orgqr). `lapack_{s,d}sytrd_ffi` /
//!   `lapack_{c,z}hetrd_ffi(a)` with uplo 'L' → `xla.tridiagonal` {lower}
//!   (packed, d, e, tau): `lax.linalg.tridiagonal`. Their `info` (0: only
//!   bad arguments make it non-zero) becomes a constant.
//!
//! - `lapack_{s,d,c,z}gtsv_ffi(dl, d, du, b)` → `xla.tridiagonal_solve`
//!   (dl, d, du, x, info): `lax.linalg.tridiagonal_solve`.
//!
//! Other LAPACK targets (gees, sytrd with uplo 'U', ...) are left alone and
//! reported as unsupported by the lowering.

use strata_diag::{Diagnostic, Result};
use strata_ir::{AttrKind, Context, OpId, TypeKind, Value};

use crate::names::{
    CHOLESKY, CUSTOM_CALL, EIG, EIGH, HESSENBERG, HOUSEHOLDER_PRODUCT, HOUSEHOLDER_QR, IMAG, LU,
    REAL, SVD, TRIANGULAR_SOLVE, TRIDIAGONAL, TRIDIAGONAL_SOLVE,
};
use crate::transforms::build::OpBuilder;

pub const FLAG: &str = "xla-lapack-custom-calls";

pub struct XlaLapackCustomCallsPass;

/// The LAPACK routines this pass rewrites.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Routine {
    Trsm,
    Potrf,
    Getrf,
    Geqrf,
    /// orgqr (real) / ungqr (complex).
    Orgqr,
    /// syevd (real) / heevd (complex).
    Syevd,
    Gesdd,
    Geev,
    Gehrd,
    /// sytrd (real) / hetrd (complex).
    Sytrd,
    Gtsv,
}

/// The routine and type letter of a target `lapack_<t><routine>_ffi`, if
/// this pass rewrites it.
fn routine(target: &str) -> Option<(Routine, u8)> {
    let name = target.strip_prefix("lapack_")?.strip_suffix("_ffi")?;
    let (&letter, routine) = name.as_bytes().split_first()?;
    let complex = matches!(letter, b'c' | b'z');
    if !matches!(letter, b's' | b'd' | b'c' | b'z') {
        return None;
    }
    let r = match (routine, complex) {
        (b"trsm", _) => Routine::Trsm,
        (b"potrf", _) => Routine::Potrf,
        (b"getrf", _) => Routine::Getrf,
        (b"geqrf", _) => Routine::Geqrf,
        (b"orgqr", false) | (b"ungqr", true) => Routine::Orgqr,
        (b"syevd", false) | (b"heevd", true) => Routine::Syevd,
        (b"gesdd", _) => Routine::Gesdd,
        (b"geev", _) => Routine::Geev,
        (b"gehrd", _) => Routine::Gehrd,
        (b"sytrd", false) | (b"hetrd", true) => Routine::Sytrd,
        (b"gtsv", _) => Routine::Gtsv,
        _ => return None,
    };
    Some((r, letter))
}

/// The JAX function that emits the LAPACK custom call `target`
/// (`lapack_sgees_ffi` → `jax.scipy.linalg.schur`), for messages about
/// targets the model calls: users know the function, not the routine.
pub fn jax_function(target: &str) -> Option<&'static str> {
    let name = target.strip_prefix("lapack_")?;
    let name = name.strip_suffix("_ffi").unwrap_or(name);
    let (_, routine) = name.split_at_checked(1)?;
    Some(match routine {
        "trsm" => "jax.scipy.linalg.solve_triangular",
        "potrf" => "jnp.linalg.cholesky",
        "getrf" => "jax.scipy.linalg.lu (and jnp.linalg.solve, inv, det)",
        "geqrf" | "orgqr" | "ungqr" => "jnp.linalg.qr",
        "syevd" | "heevd" => "jnp.linalg.eigh",
        "gesdd" | "gesvd" => "jnp.linalg.svd",
        "geev" => "jnp.linalg.eig",
        "gees" => "jax.scipy.linalg.schur",
        "gehrd" => "jax.scipy.linalg.hessenberg",
        "sytrd" | "hetrd" => "jax.lax.linalg.tridiagonal",
        "gtsv" => "jax.lax.linalg.tridiagonal_solve",
        _ => return None,
    })
}

impl strata_pass::Pass for XlaLapackCustomCallsPass {
    fn flag(&self) -> &'static str {
        FLAG
    }
    fn summary(&self) -> &'static str {
        "rewrite JAX's LAPACK custom calls (trsm, potrf, getrf, gtsv, geqrf, orgqr, gehrd, sytrd, syevd, gesdd, geev) into xla ops"
    }
    fn run(&self, ctx: &mut Context, module: OpId) -> Result<()> {
        let mut calls = Vec::new();
        ctx.walk_nested(module, &mut |op| {
            if ctx.op(op).name != CUSTOM_CALL {
                return;
            }
            if let Some(r) = ctx.str_attr(op, "call_target_name").and_then(routine) {
                calls.push((op, r));
            }
        });
        for (op, (routine, letter)) in calls {
            check_element_type(ctx, op, letter)?;
            // gtsv's matrices are its right-hand sides (operand 3).
            let matrices = if routine == Routine::Gtsv { 3 } else { 0 };
            check_batch_dims(ctx, op, matrices)?;
            match routine {
                Routine::Trsm => trsm(ctx, op)?,
                Routine::Potrf => potrf(ctx, op)?,
                Routine::Getrf => same_signature(ctx, op, LU, 1, 3, vec![])?,
                Routine::Geqrf => same_signature(ctx, op, HOUSEHOLDER_QR, 1, 2, vec![])?,
                Routine::Orgqr => same_signature(ctx, op, HOUSEHOLDER_PRODUCT, 2, 1, vec![])?,
                Routine::Syevd => syevd(ctx, op)?,
                Routine::Gesdd => gesdd(ctx, module, op)?,
                Routine::Geev => geev(ctx, op, matches!(letter, b'c' | b'z'))?,
                Routine::Gehrd => gehrd(ctx, op)?,
                Routine::Sytrd => sytrd(ctx, op)?,
                Routine::Gtsv => same_signature(ctx, op, TRIDIAGONAL_SOLVE, 4, 5, vec![])?,
            }
        }
        Ok(())
    }
}

/// The target's type letter (s, d, c, z) names operand 0's element type.
fn check_element_type(ctx: &Context, op: OpId, letter: u8) -> Result<()> {
    let Some(&a) = ctx.op(op).operands().first() else {
        return Err(ctx.error(op, "(LAPACK) expects at least one operand"));
    };
    let elem = ctx.types.elem(ctx.value_ty(a));
    let (part, complex) = match ctx.types.kind(elem) {
        TypeKind::Complex(p) => (*p, true),
        _ => (elem, false),
    };
    let width = match ctx.types.kind(part) {
        TypeKind::Float(_) => ctx.types.bit_width(part),
        _ => 0,
    };
    let expected = match letter {
        b's' => "f32",
        b'd' => "f64",
        b'c' => "complex<f32>",
        _ => "complex<f64>",
    };
    let matches = match letter {
        b's' | b'c' => width == 32,
        _ => width == 64,
    } && complex == matches!(letter, b'c' | b'z');
    if !matches {
        return Err(ctx.error(
            op,
            format!(
                "(LAPACK) expects {expected} elements for its '{}' type letter, found {}",
                letter as char,
                strata_ir::text::printer::type_to_string(ctx, elem)
            ),
        ));
    }
    Ok(())
}

/// `num_batch_dims` (a decimal string in `mhlo.frontend_attributes`, when
/// given) is the rank of the matrices' operand less its two matrix
/// dimensions.
fn check_batch_dims(ctx: &Context, op: OpId, operand: usize) -> Result<()> {
    let Some(attr) = ctx.attr_of(op, "mhlo.frontend_attributes") else {
        return Ok(());
    };
    let AttrKind::Dict(fields) = ctx.attr_kind(attr) else {
        return Ok(());
    };
    let Some((_, v)) = fields.iter().find(|(k, _)| k == "num_batch_dims") else {
        return Ok(());
    };
    let rank = ctx
        .op(op)
        .operands()
        .get(operand)
        .and_then(|&v| ctx.types.shape(ctx.value_ty(v)))
        .map_or(0, |s| s.len());
    let given = match ctx.attr_kind(*v) {
        AttrKind::String(s) => s.parse::<usize>().ok(),
        AttrKind::Int { value, .. } => usize::try_from(*value).ok(),
        _ => None,
    };
    match given {
        Some(b) if rank >= 2 && b == rank - 2 => Ok(()),
        _ => Err(ctx.error(
            op,
            format!(
                "(LAPACK) has num_batch_dims {} but its operand has rank {rank} (the batch is all but the last two dimensions)",
                strata_ir::text::printer::attr_to_string(ctx, *v)
            ),
        )),
    }
}

/// Replaces the call by `name` with the same operands, result types and
/// `attrs`, after checking the counts.
fn same_signature(
    ctx: &mut Context,
    op: OpId,
    name: &'static str,
    operands: usize,
    results: usize,
    attrs: Vec<(String, strata_ir::Attr)>,
) -> Result<()> {
    let o = ctx.op(op).clone();
    if o.operands().len() != operands || o.results.len() != results {
        return Err(ctx.error(
            op,
            format!(
                "(LAPACK, rewritten to '{name}') expects {operands} operand(s) and {results} result(s), found {} and {}",
                o.operands().len(),
                o.results.len()
            ),
        ));
    }
    let types: Vec<_> = o.results.iter().map(|&r| ctx.value_ty(r)).collect();
    let new = ctx.create_op(name, o.operands().to_vec(), &types, attrs, o.loc);
    verify_new(ctx, new)?;
    ctx.replace_op(op, new);
    Ok(())
}

/// Runs the verifier of an op the rewrite made, so that a call whose types
/// do not fit (its shapes are the user's) fails as the user's error, not as
/// invalid IR after the pass.
fn verify_new(ctx: &Context, op: OpId) -> Result<()> {
    strata_ir::verify::verify_definition(ctx, op)
}

/// The integer option `name` of the call's backend config.
fn int_option(ctx: &Context, op: OpId, name: &str) -> Option<i128> {
    let AttrKind::Dict(fields) = ctx.attr_kind(ctx.attr_of(op, "mhlo.backend_config")?) else {
        return None;
    };
    let (_, v) = fields.iter().find(|(k, _)| k == name)?;
    match ctx.attr_kind(*v) {
        AttrKind::Int { value, .. } => Some(*value),
        _ => None,
    }
}

/// The LAPACK character option `name` of the call's backend config.
fn option(ctx: &Context, op: OpId, name: &str) -> Option<u8> {
    int_option(ctx, op, name).and_then(|v| u8::try_from(v).ok())
}

fn trsm(ctx: &mut Context, op: OpId) -> Result<()> {
    let bad = |ctx: &Context, what: &str| {
        ctx.error(
            op,
            format!("has a malformed or missing '{what}' in mhlo.backend_config"),
        )
    };
    let side = option(ctx, op, "side").ok_or_else(|| bad(ctx, "side"))?;
    let uplo = option(ctx, op, "uplo").ok_or_else(|| bad(ctx, "uplo"))?;
    let trans = option(ctx, op, "trans_x").ok_or_else(|| bad(ctx, "trans_x"))?;
    let diag = option(ctx, op, "diag").ok_or_else(|| bad(ctx, "diag"))?;
    // Any other byte would silently pick one meaning (B20 in FUZZING.md).
    if !matches!(side, b'L' | b'R') {
        return Err(bad(ctx, "side"));
    }
    if !matches!(uplo, b'L' | b'U') {
        return Err(bad(ctx, "uplo"));
    }
    if !matches!(diag, b'U' | b'N') {
        return Err(bad(ctx, "diag"));
    }
    let transpose = match trans {
        b'N' => "NO_TRANSPOSE",
        b'T' => "TRANSPOSE",
        b'C' => "ADJOINT",
        _ => return Err(bad(ctx, "trans_x")),
    };
    let o = ctx.op(op).clone();
    if o.operands().len() != 2 || o.results.len() != 1 {
        return Err(ctx.error(op, "(trsm) expects operands (a, b) and one result"));
    }
    let flag = |ctx: &mut Context, v: bool| ctx.attr(AttrKind::Bool(v));
    let attrs = vec![
        ("left_side".to_string(), flag(ctx, side == b'L')),
        ("lower".to_string(), flag(ctx, uplo == b'L')),
        ("unit_diagonal".to_string(), flag(ctx, diag == b'U')),
        (
            "transpose_a".to_string(),
            ctx.attr(AttrKind::Enum {
                dialect: "stablehlo".into(),
                name: "transpose".into(),
                value: transpose.into(),
            }),
        ),
        // LAPACK's trsm substitutes row by row; XLA:CPU's own
        // `triangular_solve` inverts diagonal blocks, which rounds otherwise.
        ("lapack".to_string(), flag(ctx, true)),
    ];
    let ty = ctx.value_ty(o.results[0]);
    let solve = ctx.create_op(TRIANGULAR_SOLVE, o.operands().to_vec(), &[ty], attrs, o.loc);
    verify_new(ctx, solve)?;
    ctx.replace_op(op, solve);
    Ok(())
}

/// potrf → `xla.cholesky` {lower}: uplo 'L' factors a = L·Lᴴ over the
/// lower triangle, 'U' a = Uᴴ·U over the upper one; the other triangle
/// keeps a, as LAPACK leaves it.
fn potrf(ctx: &mut Context, op: OpId) -> Result<()> {
    let lower = match option(ctx, op, "uplo") {
        Some(b'L') => true,
        Some(b'U') => false,
        _ => return Err(bad_option(ctx, op, "uplo", "'L' or 'U'")),
    };
    let attrs = vec![flag(ctx, "lower", lower)];
    same_signature(ctx, op, CHOLESKY, 1, 2, attrs)
}

/// A boolean attribute for the new op.
fn flag(ctx: &mut Context, name: &str, v: bool) -> (String, strata_ir::Attr) {
    (name.to_string(), ctx.attr(AttrKind::Bool(v)))
}

/// The error for a backend-config option with an unexpected value.
fn bad_option(ctx: &Context, op: OpId, name: &str, expected: &str) -> Diagnostic {
    let found = match option(ctx, op, name) {
        Some(c) if c.is_ascii_graphic() => format!("'{}' ({c})", c as char),
        Some(c) => c.to_string(),
        None => "nothing".to_string(),
    };
    ctx.error(
        op,
        format!("(LAPACK) expects '{name}' in mhlo.backend_config to be {expected}, found {found}"),
    )
}

/// syevd / heevd → `xla.eigh`.
fn syevd(ctx: &mut Context, op: OpId) -> Result<()> {
    let vectors = match option(ctx, op, "mode") {
        Some(b'V') => true,
        Some(b'N') => false,
        _ => return Err(bad_option(ctx, op, "mode", "'V' or 'N'")),
    };
    let lower = match option(ctx, op, "uplo") {
        Some(b'L') => true,
        Some(b'U') => false,
        _ => return Err(bad_option(ctx, op, "uplo", "'L' or 'U'")),
    };
    let attrs = vec![
        flag(ctx, "lower", lower),
        flag(ctx, "compute_vectors", vectors),
    ];
    same_signature(ctx, op, EIGH, 1, 3, attrs)
}

/// gesdd → `xla.svd`; the call's first result (LAPACK's clobbered a) is
/// replaced by a itself.
fn gesdd(ctx: &mut Context, module: OpId, op: OpId) -> Result<()> {
    let (full, vectors) = match option(ctx, op, "mode") {
        Some(b'A') => (true, true),
        Some(b'S') => (false, true),
        Some(b'N') => (true, false),
        _ => return Err(bad_option(ctx, op, "mode", "'A', 'S' or 'N'")),
    };
    let o = ctx.op(op).clone();
    if o.operands().len() != 1 || o.results.len() != 5 {
        return Err(ctx.error(
            op,
            format!(
                "(LAPACK gesdd) expects 1 operand and 5 results (a, s, u, vt, info), found {} and {}",
                o.operands().len(),
                o.results.len()
            ),
        ));
    }
    let attrs = vec![
        flag(ctx, "full_matrices", full),
        flag(ctx, "compute_uv", vectors),
    ];
    let types: Vec<_> = o.results[1..].iter().map(|&r| ctx.value_ty(r)).collect();
    let svd = ctx.create_op(SVD, o.operands().to_vec(), &types, attrs, o.loc);
    verify_new(ctx, svd)?;
    let mut replacements: Vec<Value> = vec![o.operands()[0]];
    replacements.extend(ctx.op(svd).results.clone());
    replace_results(ctx, module, op, svd, &replacements);
    Ok(())
}

/// geev → `xla.eig`; for a real matrix, the eigenvalues' parts through
/// `xla.real` / `xla.imag`.
fn geev(ctx: &mut Context, op: OpId, complex: bool) -> Result<()> {
    let vectors = |ctx: &Context, name: &str| match option(ctx, op, name) {
        Some(b'V') => Ok(true),
        Some(b'N') => Ok(false),
        _ => Err(bad_option(ctx, op, name, "'V' or 'N'")),
    };
    let left = vectors(ctx, "compute_left")?;
    let right = vectors(ctx, "compute_right")?;
    let o = ctx.op(op).clone();
    let results = if complex { 4 } else { 5 };
    if o.operands().len() != 1 || o.results.len() != results {
        let names = if complex {
            "w, vl, vr, info"
        } else {
            "wr, wi, vl, vr, info"
        };
        return Err(ctx.error(
            op,
            format!(
                "(LAPACK geev) expects 1 operand and {results} results ({names}), found {} and {}",
                o.operands().len(),
                o.results.len()
            ),
        ));
    }
    let types: Vec<_> = o.results.iter().map(|&r| ctx.value_ty(r)).collect();
    let values_ty = if complex {
        types[0]
    } else {
        // wr's shape, complex of its element type.
        let shape = ctx.types.shape(types[0]).unwrap_or(&[]).to_vec();
        let part = ctx.types.elem(types[0]);
        let elem = ctx.types.ty(TypeKind::Complex(part));
        ctx.types.tensor_ty(&shape, elem)
    };
    let rest = &types[results - 3..];
    let attrs = vec![
        flag(ctx, "compute_left_eigenvectors", left),
        flag(ctx, "compute_right_eigenvectors", right),
    ];
    let eig_types = [values_ty, rest[0], rest[1], rest[2]];
    let eig = ctx.create_op(EIG, o.operands().to_vec(), &eig_types, attrs, o.loc);
    verify_new(ctx, eig)?;
    let mut b = OpBuilder::before_op(ctx, op)?;
    b.insert(eig);
    let r = b.ctx.op(eig).results.clone();
    let mut replacements = Vec::with_capacity(results);
    if complex {
        replacements.push(r[0]);
    } else {
        replacements.push(b.op(REAL, vec![r[0]], types[0], vec![]));
        replacements.push(b.op(IMAG, vec![r[0]], types[1], vec![]));
    }
    replacements.extend_from_slice(&r[1..]);
    b.replace(op, &replacements);
    Ok(())
}

/// Replaces `op` (whose last result is LAPACK's `info`) by `name` with
/// `attrs` and the other results' types, and info by zeros: these
/// routines fail only on bad arguments, which the verifier rules out.
fn with_zero_info(
    ctx: &mut Context,
    op: OpId,
    name: &'static str,
    results: usize,
    attrs: Vec<(String, strata_ir::Attr)>,
) -> Result<()> {
    let o = ctx.op(op).clone();
    if o.operands().len() != 1 || o.results.len() != results + 1 {
        return Err(ctx.error(
            op,
            format!(
                "(LAPACK, rewritten to '{name}') expects 1 operand and {} results, found {} and {}",
                results + 1,
                o.operands().len(),
                o.results.len()
            ),
        ));
    }
    let types: Vec<_> = o.results.iter().map(|&r| ctx.value_ty(r)).collect();
    let new = ctx.create_op(name, o.operands().to_vec(), &types[..results], attrs, o.loc);
    verify_new(ctx, new)?;
    let info_ty = types[results];
    let info_shape = ctx.types.shape(info_ty).unwrap_or(&[]).to_vec();
    let info_elem = ctx.types.elem(info_ty);
    let mut b = OpBuilder::before_op(ctx, op)?;
    b.insert(new);
    let mut replacements = b.ctx.op(new).results.clone();
    replacements.push(b.splat_bits(0, &info_shape, info_elem));
    b.replace(op, &replacements);
    Ok(())
}

/// gehrd of the whole matrix → `xla.hessenberg`.
fn gehrd(ctx: &mut Context, op: OpId) -> Result<()> {
    let n = ctx
        .op(op)
        .operands()
        .first()
        .and_then(|&a| ctx.types.shape(ctx.value_ty(a)))
        .and_then(|s| s.last().copied())
        .unwrap_or(0);
    let (low, high) = (int_option(ctx, op, "low"), int_option(ctx, op, "high"));
    if low != Some(1) || high != Some(n as i128) {
        return Err(Diagnostic::unsupported(
            ctx.op(op).loc,
            format!(
                "gehrd of rows and columns low..high other than 1..{n} (the whole matrix) is not supported"
            ),
        ));
    }
    with_zero_info(ctx, op, HESSENBERG, 2, vec![])
}

/// sytrd / hetrd with uplo 'L' → `xla.tridiagonal` {lower = true}.
fn sytrd(ctx: &mut Context, op: OpId) -> Result<()> {
    match option(ctx, op, "uplo") {
        Some(b'L') => {}
        Some(b'U') => {
            return Err(Diagnostic::unsupported(
                ctx.op(op).loc,
                "sytrd / hetrd of the upper triangle (uplo 'U') is not supported",
            ));
        }
        _ => return Err(bad_option(ctx, op, "uplo", "'L' or 'U'")),
    }
    let attrs = vec![flag(ctx, "lower", true)];
    with_zero_info(ctx, op, TRIDIAGONAL, 4, attrs)
}

/// Puts `new` right before `old`, sends the uses of `old`'s results to
/// `values` (pairwise) within `scope`, and detaches `old`.
fn replace_results(ctx: &mut Context, scope: OpId, old: OpId, new: OpId, values: &[Value]) {
    let Some(block) = ctx.op(old).parent else {
        return;
    };
    let pos = ctx.blocks[block]
        .ops
        .iter()
        .position(|&o| o == old)
        .unwrap_or(0);
    ctx.insert_op_at(block, pos, new);
    let pairs: Vec<_> = ctx
        .op(old)
        .results
        .clone()
        .into_iter()
        .zip(values.iter().copied())
        .collect();
    for (from, to) in pairs {
        ctx.replace_uses_in(scope, from, to);
    }
    ctx.detach_op(old);
}

#[cfg(test)]
mod tests {
    #[test]
    fn lapack_targets_name_their_jax_function() {
        assert_eq!(
            super::jax_function("lapack_sgees_ffi"),
            Some("jax.scipy.linalg.schur")
        );
        assert_eq!(
            super::jax_function("lapack_zheevd_ffi"),
            Some("jnp.linalg.eigh")
        );
        assert_eq!(super::jax_function("lapack_x"), None);
        assert_eq!(super::jax_function("my_target"), None);
    }
}
