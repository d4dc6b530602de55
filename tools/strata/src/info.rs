//! `strata info MODEL|LIB`: the signature of a model (its C interface, as
//! `compile` would write it) or of a compiled library (`P_signature()`).

use std::path::Path;

use crate::input::{read_or_report, report};

pub fn run(input: &Path, name: Option<&str>, as_json: bool, dims: &[(String, i64)]) -> bool {
    let is_elf = std::fs::read(input)
        .map(|b| b.starts_with(b"\x7fELF"))
        .unwrap_or(false);
    let prefix = name
        .map(str::to_string)
        .unwrap_or_else(|| crate::compile::default_prefix(input));
    let json = if is_elf {
        library_signature(input, &prefix)
    } else {
        model_signature(input, &prefix, dims)
    };
    let Some(json) = json else {
        return false;
    };
    if as_json {
        outln!("{json}");
        return true;
    }
    match crate::signature::table(&json) {
        Ok(table) => {
            out!("{table}");
            true
        }
        Err(e) => {
            errln!("{}: error: {e}", input.display());
            false
        }
    }
}

/// `P_signature()` of a shared library.
fn library_signature(path: &Path, prefix: &str) -> Option<String> {
    // SAFETY: loading a library runs its initialisers; `strata info` is
    // pointed at a library the user means to run.
    // dlopen searches the library path for a bare name: load this file.
    let path = &std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let lib = match unsafe { libloading::Library::new(path) } {
        Ok(lib) => lib,
        Err(e) => {
            errln!("{}: error: cannot load the library: {e}", path.display());
            return None;
        }
    };
    let symbol = format!("{prefix}_signature");
    // SAFETY: a Strata library defines `const char *P_signature(void)`.
    let f = match unsafe {
        lib.get::<unsafe extern "C" fn() -> *const std::ffi::c_char>(symbol.as_bytes())
    } {
        Ok(f) => f,
        Err(_) => {
            errln!(
                "{}: error: no {symbol}() in the library (not a Strata library, or its prefix is not \
                 '{prefix}': say it with --name)",
                path.display()
            );
            return None;
        }
    };
    // SAFETY: a NUL-terminated string the library owns for its lifetime.
    let p = unsafe { f() };
    if p.is_null() {
        return Some("{\"functions\": []}".to_string());
    }
    Some(
        unsafe { std::ffi::CStr::from_ptr(p) }
            .to_string_lossy()
            .into_owned(),
    )
}

/// The signature `strata compile` would give the model's library.
fn model_signature(path: &Path, prefix: &str, dims: &[(String, i64)]) -> Option<String> {
    let source = read_or_report(path)?;
    let mut ctx = strata_pipeline::new_context();
    let name = path.display().to_string();
    let interface = model_interface(&mut ctx, &name, &source, dims, prefix);
    match interface {
        Ok(funcs) => Some(crate::signature::json(prefix, &funcs)),
        Err(diags) => {
            report(&ctx, &diags);
            None
        }
    }
}

/// The C functions `strata compile` would give the model's library.
fn model_interface(
    ctx: &mut strata_ir::Context,
    name: &str,
    source: &crate::input::Source,
    dims: &[(String, i64)],
    prefix: &str,
) -> Result<Vec<strata_aot::CFunction>, Vec<strata_diag::Diagnostic>> {
    let (module, plan) =
        crate::every_size::parse(ctx, name, &source.text, dims, &source.platforms)?;
    strata_pipeline::entry_points(ctx, module)?;
    let (mut funcs, _) = crate::abi::library_interface(ctx, module, prefix)?;
    if let Some(plan) = plan {
        crate::every_size::interface(&plan, prefix, &mut funcs)
            .map_err(|m| vec![crate::input::unknown_loc_error(m)])?;
    }
    Ok(funcs)
}
