//! Compiling modules into a temporary shared library and loading it.

use libloading::Library;
use strata_codegen::EmitKind;
use strata_ir::{Context, OpId};

pub struct Loaded {
    pub lib: Library,
    _dir: tempfile::TempDir,
}

/// Compiles `modules` (already lowered) with their prefixes into one shared
/// library and loads it.
pub fn build_and_load(
    ctx: &Context,
    modules: &[(OpId, String)],
    backend: crate::backend::Backend,
) -> Result<Loaded, String> {
    let host = strata_codegen::host_target().map_err(|d| ctx.sources.render(&d))?;
    let object =
        strata_codegen::compile_many(ctx, modules, 2, EmitKind::Object, &host, backend.bodies())
            .map_err(|d| ctx.sources.render(&d))?;
    let dir =
        tempfile::tempdir().map_err(|e| format!("cannot create a temporary directory: {e}"))?;
    let path = dir.path().join("libstrata_jit.so");
    strata_aot::link_shared(&object, &path, strata_aot::Exports::LibraryAndRuntime)?;
    // SAFETY: the library was just built by us from verified IR; its
    // initialisers are the runtime's (none with side effects).
    let lib = unsafe { Library::new(&path) }
        .map_err(|e| format!("cannot load {}: {e}", path.display()))?;
    Ok(Loaded { lib, _dir: dir })
}

/// Calls `int32_t f(void *...)` with the given buffer pointers.
pub fn call(lib: &Library, symbol: &str, args: &mut [*mut u8]) -> Result<i32, String> {
    type P = *mut u8;
    macro_rules! call_n {
        ($($i:literal),*) => {{
            // SAFETY: the symbol is an exported wrapper generated with exactly
            // this many pointer parameters (checked by the caller).
            let f = unsafe { lib.get::<unsafe extern "C" fn($(call_n!(@ty $i)),*) -> i32>(symbol.as_bytes()) }
                .map_err(|e| format!("missing symbol {symbol}: {e}"))?;
            Ok(unsafe { f($(args[$i]),*) })
        }};
        (@ty $i:literal) => { P };
    }
    match args.len() {
        0 => call_n!(),
        1 => call_n!(0),
        2 => call_n!(0, 1),
        3 => call_n!(0, 1, 2),
        4 => call_n!(0, 1, 2, 3),
        5 => call_n!(0, 1, 2, 3, 4),
        6 => call_n!(0, 1, 2, 3, 4, 5),
        7 => call_n!(0, 1, 2, 3, 4, 5, 6),
        8 => call_n!(0, 1, 2, 3, 4, 5, 6, 7),
        9 => call_n!(0, 1, 2, 3, 4, 5, 6, 7, 8),
        10 => call_n!(0, 1, 2, 3, 4, 5, 6, 7, 8, 9),
        11 => call_n!(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10),
        12 => call_n!(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11),
        n => Err(format!(
            "`strata run` supports at most 12 buffers per call, this function has {n}"
        )),
    }
}
