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
    host: Option<&HostCalls>,
) -> Result<Loaded, String> {
    let target = strata_codegen::host_target().map_err(|d| ctx.sources.render(&d))?;
    let object =
        strata_codegen::compile_many(ctx, modules, 2, EmitKind::Object, &target, backend.bodies())
            .map_err(|d| ctx.sources.render(&d))?;
    let dir = strata_aot::private_dir::scratch_dir("jit")?;
    let path = dir.path().join("libstrata_jit.so");
    strata_aot::link_shared(&object, &path, strata_aot::Exports::LibraryAndRuntime)?;
    // SAFETY: the library was just built by us from verified IR; its
    // initialisers are the runtime's (none with side effects).
    let lib = unsafe { Library::new(&path) }
        .map_err(|e| format!("cannot load {}: {e}", path.display()))?;
    drop(dir);
    if let Some(host) = host {
        for (module, prefix) in modules {
            host.register(ctx, *module, &lib, prefix)?;
        }
    }
    Ok(Loaded { lib })
}

/// Implementations of custom-call targets from the user's own shared
/// library (`--custom-calls LIB`): for each target `t` the model names, a
/// function `int32_t t(void *user, const void *const *operands, void *const
/// *results)` that LIB itself defines is registered (with a NULL `user`).
/// Only LIB's own definitions count: a name that resolves into one of its
/// dependencies (libc's `system`, say) is ignored, so the model still
/// cannot pick a process function by name.
pub struct HostCalls {
    lib: Library,
    path: std::path::PathBuf,
}

impl HostCalls {
    pub fn open(path: &std::path::Path) -> Result<HostCalls, String> {
        let path = std::fs::canonicalize(path)
            .map_err(|e| format!("--custom-calls {}: {e}", path.display()))?;
        // SAFETY: the user asked for this library to be loaded; its
        // initialisers run as in any program that links it.
        let lib = unsafe { Library::new(&path) }
            .map_err(|e| format!("--custom-calls {}: {e}", path.display()))?;
        Ok(HostCalls { lib, path })
    }

    /// LIB's own definition of `target`, if it has one.
    fn lookup(&self, target: &str) -> Option<strata_abi::CustomCallFn> {
        // SAFETY: the symbol is only called with the registry's signature,
        // which the user's library promises for the targets it defines.
        let symbol = unsafe { self.lib.get::<strata_abi::CustomCallFn>(target.as_bytes()) }.ok()?;
        let f = *symbol;
        let mut info: libc::Dl_info = unsafe { std::mem::zeroed() };
        // SAFETY: dladdr only reads the address.
        if unsafe { libc::dladdr(f as *const std::ffi::c_void, &mut info) } == 0
            || info.dli_fname.is_null()
        {
            return None;
        }
        // SAFETY: dladdr returns a NUL-terminated path.
        let owner = unsafe { std::ffi::CStr::from_ptr(info.dli_fname) };
        let owner = std::fs::canonicalize(
            <std::ffi::OsStr as std::os::unix::ffi::OsStrExt>::from_bytes(owner.to_bytes()),
        )
        .ok()?;
        (owner == self.path).then_some(f)
    }

    /// Registers LIB's implementations of `module`'s targets in the loaded
    /// library `lib` (symbol prefix `prefix`).
    fn register(
        &self,
        ctx: &Context,
        module: OpId,
        lib: &Library,
        prefix: &str,
    ) -> Result<(), String> {
        type Register = unsafe extern "C" fn(
            *const std::ffi::c_char,
            Option<strata_abi::CustomCallFn>,
            *mut std::ffi::c_void,
        ) -> i32;
        // SAFETY: every library defines P_register_custom_call so.
        let register =
            unsafe { lib.get::<Register>(format!("{prefix}_register_custom_call").as_bytes()) }
                .map_err(|e| format!("{prefix}_register_custom_call: {e}"))?;
        for target in custom_call_targets(ctx, module) {
            let Some(f) = self.lookup(&target) else {
                continue;
            };
            let Ok(name) = std::ffi::CString::new(target) else {
                continue;
            };
            // SAFETY: a NUL-terminated target of this library and a function
            // of the registry's signature.
            unsafe { register(name.as_ptr(), Some(f), std::ptr::null_mut()) };
        }
        Ok(())
    }
}

/// The custom-call targets of a lowered module.
fn custom_call_targets(ctx: &Context, module: OpId) -> Vec<String> {
    let Some(body) = ctx.entry_block(module, 0) else {
        return vec![];
    };
    ctx.blocks[body]
        .ops
        .iter()
        .filter_map(|&op| ctx.str_attr(op, strata_abi::CUSTOM_CALL_ATTR))
        .map(str::to_string)
        .collect()
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

/// Calls the function whose wrapper is `symbol` with the given buffer
/// pointers (arguments then results), through its `symbol_packed` entry:
/// any number of buffers.
pub fn call(lib: &Library, symbol: &str, args: &mut [*mut u8]) -> Result<i32, String> {
    let packed = format!("{symbol}_packed");
    // SAFETY: every exported function has a `_packed` twin of this type,
    // reading exactly as many pointers as the function has buffers, which
    // the caller passes (checked against the signature).
    let f = unsafe { lib.get::<unsafe extern "C" fn(*const *mut u8) -> i32>(packed.as_bytes()) }
        .map_err(|e| format!("missing symbol {packed}: {e}"))?;
    Ok(unsafe { f(args.as_ptr()) })
}
