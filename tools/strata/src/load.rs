//! Compiling modules into a temporary shared library and loading it.

use libloading::Library;
use strata_codegen::EmitKind;
use strata_ir::{Context, OpId};

pub struct Loaded {
    pub lib: Library,
}

/// Compiles `modules` (already lowered) with their prefixes into one shared
/// library and loads it. The library is linked in a scratch directory of
/// this user's private directory (`strata_aot::private_dir`) that is
/// deleted as soon as the library is loaded (the mapping outlives the
/// file), so a run that crashes or is killed while the code runs leaves
/// nothing behind; one killed while linking leaves a directory that the
/// next run removes.
pub fn build_and_load(
    ctx: &Context,
    modules: &[(OpId, String)],
    backend: crate::backend::Backend,
) -> Result<Loaded, String> {
    let host = strata_codegen::host_target().map_err(|d| ctx.sources.render(&d))?;
    let object =
        strata_codegen::compile_many(ctx, modules, 2, EmitKind::Object, &host, backend.bodies())
            .map_err(|d| ctx.sources.render(&d))?;
    let dir = strata_aot::private_dir::scratch_dir("jit")?;
    let path = dir.path().join("libstrata_jit.so");
    strata_aot::link_shared(&object, &path, strata_aot::Exports::LibraryAndRuntime)?;
    // SAFETY: the library was just built by us from verified IR; its
    // initialisers are the runtime's (none with side effects).
    let lib = unsafe { Library::new(&path) }
        .map_err(|e| format!("cannot load {}: {e}", path.display()))?;
    drop(dir);
    Ok(Loaded { lib })
}

/// This thread's last error in the loaded library `prefix` (its
/// `P_last_error()`), or "" when it has none.
pub fn last_error(lib: &Library, prefix: &str) -> String {
    type LastError = unsafe extern "C" fn() -> *const std::ffi::c_char;
    // SAFETY: every library defines P_last_error with this signature.
    let Ok(f) = (unsafe { lib.get::<LastError>(format!("{prefix}_last_error").as_bytes()) }) else {
        return String::new();
    };
    // SAFETY: a NUL-terminated string the library owns.
    let p = unsafe { f() };
    if p.is_null() {
        return String::new();
    }
    unsafe { std::ffi::CStr::from_ptr(p) }
        .to_string_lossy()
        .into_owned()
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
