//! `strata run`: compile, call one function on literal inputs, print results.

use std::path::Path;

use strata_ir::{AttrKind, Context, DenseElements, Type, TypeKind, builtin};

use crate::abi::{elem_bytes, from_bytes, to_bytes};
use crate::input::{parse_specialize_and_verify, read_or_report, report, unknown_loc_error};
use crate::load;

/// Where `strata run` puts the results.
#[derive(Clone, Copy)]
pub struct Outputs<'a> {
    /// `--output-dir`: each result as DIR/res<i>.npy.
    pub dir: Option<&'a Path>,
    /// `--quiet`: the results are not printed.
    pub quiet: bool,
}

pub fn run(
    input: &Path,
    function: &str,
    literals: &[String],
    outputs: Outputs<'_>,
    backend: crate::backend::Backend,
    host: Option<&load::HostCalls>,
) -> bool {
    let output_dir = outputs.dir;
    let Some(text) = read_or_report(input).map(|source| source.text) else {
        return false;
    };
    let mut ctx = strata_pipeline::new_context();
    match run_in(
        &mut ctx,
        &input.display().to_string(),
        &text,
        function,
        literals,
        output_dir,
        backend,
        host,
    ) {
        Ok(lines) => {
            for l in lines.into_iter().filter(|_| !outputs.quiet) {
                outln!("{l}");
            }
            true
        }
        Err(diags) => {
            report(&ctx, &diags);
            false
        }
    }
}

fn run_in(
    ctx: &mut Context,
    name: &str,
    text: &str,
    function: &str,
    literals: &[String],
    output_dir: Option<&Path>,
    backend: crate::backend::Backend,
    host: Option<&load::HostCalls>,
) -> Result<Vec<String>, Vec<strata_diag::Diagnostic>> {
    let err = |m: String| vec![unknown_loc_error(m)];
    let dims = dimensions_from_inputs(name, text, function, literals).map_err(err)?;
    let module = parse_specialize_and_verify(ctx, name, text, &dims)?;
    let f = builtin::lookup_func(ctx, module, function)
        .ok_or_else(|| err(format!("no function @{function} in {name}")))?;
    let (inputs, results) =
        builtin::func_signature(ctx, f).ok_or_else(|| err("function without signature".into()))?;
    if literals.len() != inputs.len() {
        return Err(err(format!(
            "@{function} takes {} arguments, {} --input given",
            inputs.len(),
            literals.len()
        )));
    }
    let mut budget = Budget::of_this_machine();
    let mut buffers: Vec<Vec<u8>> = Vec::new();
    for (i, (lit, &t)) in literals.iter().zip(&inputs).enumerate() {
        let bytes =
            (ctx.types.num_elements(t) as u128) * elem_bytes(ctx, ctx.types.elem(t)) as u128;
        budget.take(bytes).map_err(|why| {
            vec![strata_diag::Diagnostic::error(
                ctx.op(f).loc,
                format!(
                    "argument {i} of @{function} ({}) cannot be held: {why}",
                    strata_ir::text::printer::type_to_string(ctx, t)
                ),
            )]
        })?;
        if let Some(file) = lit.strip_prefix('@') {
            let data = crate::npy::read(ctx, Path::new(file), t)
                .map_err(|m| err(format!("argument {i} of @{function}: {m}")))?;
            buffers.push(data);
            continue;
        }
        if (lit.ends_with(".npy") || lit.ends_with(".bin")) && Path::new(lit).is_file() {
            return Err(err(format!(
                "argument {i} of @{function}: '{lit}' is a file; write --input @{lit} to read it"
            )));
        }
        let text = format!(
            "dense<{lit}> : {}",
            strata_ir::text::printer::type_to_string(ctx, t)
        );
        let a = strata_ir::text::parser::parse_attribute(ctx, &format!("<input {i}>"), &text)
            .map_err(|d| vec![d])?;
        let AttrKind::Dense(d) = ctx.attr_kind(a).clone() else {
            return Err(err(format!("input {i} is not a tensor literal")));
        };
        buffers.push(to_bytes(ctx, &d));
    }
    for (i, &t) in results.iter().enumerate() {
        let bytes =
            (ctx.types.num_elements(t) as u128) * elem_bytes(ctx, ctx.types.elem(t)) as u128;
        let buffer = budget.zeroed(bytes).map_err(|why| {
            vec![strata_diag::Diagnostic::error(
                ctx.op(f).loc,
                format!(
                    "result {i} of @{function} ({}) cannot be held: {why}",
                    strata_ir::text::printer::type_to_string(ctx, t)
                ),
            )]
        })?;
        buffers.push(buffer);
    }
    strata_pipeline::lower(ctx, module)?;
    let loaded =
        load::build_and_load(ctx, &[(module, "strata_run".into())], backend, host).map_err(err)?;
    let mut ptrs: Vec<*mut u8> = buffers.iter_mut().map(|b| b.as_mut_ptr()).collect();
    let status =
        load::call(&loaded.lib, &format!("strata_run_{function}"), &mut ptrs).map_err(err)?;
    if status != 0 {
        let message = load::last_error(&loaded.lib, "strata_run");
        return Err(vec![strata_diag::Diagnostic::error(
            ctx.op(f).loc,
            format!("@{function} failed at run time (status {status}): {message}"),
        )]);
    }
    if let Some(dir) = output_dir {
        std::fs::create_dir_all(dir)
            .map_err(|e| err(format!("cannot create {}: {e}", dir.display())))?;
        for (i, &t) in results.iter().enumerate() {
            let path = dir.join(format!("res{i}.npy"));
            crate::npy::write(ctx, &path, t, &buffers[inputs.len() + i]).map_err(err)?;
        }
    }
    let mut lines = Vec::new();
    for (i, &t) in results.iter().enumerate() {
        let d = from_bytes(ctx, t, &buffers[inputs.len() + i]);
        let line = match narrow_float(ctx, ctx.types.elem(t)) {
            Some(k) => narrow_float_literal(ctx, &d, k),
            None => {
                let a = ctx.attr(AttrKind::Dense(d));
                strata_ir::text::printer::attr_to_string(ctx, a)
            }
        };
        lines.push(line);
    }
    Ok(lines)
}

/// The memory `strata run` may give argument and result buffers: what the
/// machine has. A buffer larger than that is a located error before anything runs,
/// rather than an abort or the out-of-memory killer.
struct Budget {
    left: u128,
}

impl Budget {
    fn of_this_machine() -> Budget {
        // SAFETY: sysconf has no preconditions.
        let (pages, size) = unsafe {
            (
                libc::sysconf(libc::_SC_PHYS_PAGES),
                libc::sysconf(libc::_SC_PAGESIZE),
            )
        };
        let left = if pages > 0 && size > 0 {
            pages as u128 * size as u128
        } else {
            u128::from(u64::MAX)
        };
        Budget { left }
    }

    /// Takes `bytes` from the budget.
    fn take(&mut self, bytes: u128) -> Result<(), String> {
        if bytes > self.left {
            return Err(format!(
                "it needs {bytes} bytes and this machine has {} bytes of memory left for buffers",
                self.left
            ));
        }
        self.left -= bytes;
        Ok(())
    }

    /// A zeroed buffer of `bytes`, taken from the budget.
    fn zeroed(&mut self, bytes: u128) -> Result<Vec<u8>, String> {
        self.take(bytes)?;
        let n =
            usize::try_from(bytes).map_err(|_| format!("{bytes} bytes do not fit in memory"))?;
        let mut v = Vec::new();
        v.try_reserve_exact(n)
            .map_err(|e| format!("cannot allocate {bytes} bytes: {e}"))?;
        v.resize(n, 0);
        Ok(v)
    }
}

/// f16, bf16 and the f8/f6/f4 formats, which the IR printer writes as bit
/// patterns (exact round trips); results are shown as numbers instead.
fn narrow_float(ctx: &Context, elem: Type) -> Option<strata_ir::FloatKind> {
    match ctx.types.kind(elem) {
        TypeKind::Float(k) if k.width() < 32 => Some(*k),
        _ => None,
    }
}

/// `dense<[...]> : type` with each narrow float as the shortest decimal of
/// its (exact) f32 value.
fn narrow_float_literal(ctx: &Context, d: &DenseElements, k: strata_ir::FloatKind) -> String {
    let shape = ctx.types.shape(d.ty).unwrap_or(&[]).to_vec();
    let values: Vec<String> = (0..ctx.types.num_elements(d.ty) as usize)
        .map(|i| {
            let bits = strata_ir::dense::element_bits(ctx, d, i)[0];
            let v = strata_ir::dense::bits_to_float(bits, k) as f32;
            if v.is_nan() {
                "nan".to_string()
            } else if v.is_infinite() {
                if v > 0.0 { "inf" } else { "-inf" }.to_string()
            } else {
                format!("{v:?}")
            }
        })
        .collect();
    fn nest(values: &[String], shape: &[i64]) -> String {
        match shape.split_first() {
            None => values.first().cloned().unwrap_or_default(),
            Some((&n, rest)) => {
                let step = values.len() / (n.max(1) as usize);
                let parts: Vec<String> = (0..n as usize)
                    .map(|i| nest(&values[i * step..(i + 1) * step], rest))
                    .collect();
                format!("[{}]", parts.join(", "))
            }
        }
    }
    format!(
        "dense<{}> : {}",
        nest(&values, &shape),
        strata_ir::text::printer::type_to_string(ctx, d.ty)
    )
}

/// The dimension variables of a shape-polymorphic `function`, valued from
/// the shapes of the `.npy` inputs it reads them from (none for a module
/// with static shapes).
pub(crate) fn dimensions_from_inputs(
    name: &str,
    text: &str,
    function: &str,
    literals: &[String],
) -> Result<Vec<(String, i64)>, String> {
    use strata_dialect_xla::transforms::refine_shapes as refine;
    let mut ctx = strata_pipeline::new_context();
    let parsed = if strata_hlo_import::looks_like_hlo(text) {
        return Ok(vec![]);
    } else {
        strata_ir::text::parser::parse_module(&mut ctx, name, text)
    };
    let Ok(module) = parsed else {
        return Ok(vec![]); // the real parse reports it
    };
    if !refine::is_shape_polymorphic(&ctx, module) {
        return Ok(vec![]);
    }
    let Some(f) = builtin::lookup_func(&ctx, module, function) else {
        return Ok(vec![]);
    };
    let mut dims: Vec<(String, i64)> = Vec::new();
    for binding in refine::bindings(&ctx, f) {
        let (var, arg, dim) = (binding.var.clone(), binding.arg, binding.dim);
        let file = literals
            .get(arg)
            .and_then(|l| l.strip_prefix('@'))
            .filter(|p| p.ends_with(".npy"))
            .ok_or_else(|| {
                format!(
                    "dimension variable {var} is found in dimension {dim} of argument {arg} ({}): \
                     give that argument as a .npy file (--input @x.npy)",
                    binding.formula()
                )
            })?;
        let shape = crate::npy::shape_of(Path::new(file))?;
        let size = *shape.get(dim).ok_or_else(|| {
            format!(
                "{file}: has {} dimensions; argument {arg} needs more",
                shape.len()
            )
        })?;
        let value = binding.value(size).ok_or_else(|| {
            format!(
                "{file}: dimension {dim} is {size}, which is {} for no whole {var}",
                binding.formula()
            )
        })?;
        match dims.iter().find(|(v, _)| *v == var) {
            Some((_, known)) if *known != value => {
                return Err(format!(
                    "dimension variable {var} is {known} by one input and {value} by {file}"
                ));
            }
            Some(_) => {}
            None => dims.push((var, value)),
        }
    }
    Ok(dims)
}
