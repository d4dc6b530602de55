//! Object, archive and shared-library output.

use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::toolchain::Toolchain;

use crate::RUNTIME_EXPORTS;

/// Environment variable naming the runtime static library explicitly.
pub const RUNTIME_LIB_ENV: &str = "STRATA_RUNTIME_LIB";

/// The runtime static library: the file `STRATA_RUNTIME_LIB` names, if set;
/// else the archive embedded in the compiler (`strata-runtime-archive`),
/// written once per content into this user's private directory (see
/// [`crate::private_dir`]) and reused. A driver installed with `cargo
/// install` or copied anywhere needs nothing beside it, and no other user
/// can plant or swap the copy that gets linked.
pub fn find_runtime() -> Result<PathBuf, String> {
    find_runtime_for(&Toolchain::host())
}

/// [`find_runtime`] for `toolchain`'s target (`STRATA_RUNTIME_LIB` is the
/// host's only).
pub fn find_runtime_for(toolchain: &Toolchain) -> Result<PathBuf, String> {
    if toolchain.is_cross() {
        return extract_embedded(&crate::private_dir::private_dir()?, toolchain.runtime());
    }
    if let Some(p) = std::env::var_os(RUNTIME_LIB_ENV).filter(|p| !p.is_empty()) {
        let p = PathBuf::from(p);
        return if p.is_file() {
            Ok(p)
        } else {
            Err(format!(
                "runtime library {} (from {RUNTIME_LIB_ENV}) does not exist",
                p.display()
            ))
        };
    }
    extract_embedded(&crate::private_dir::private_dir()?, toolchain.runtime())
}

/// `dir/runtime-<hash>.a`, written (atomically) unless a complete copy is
/// already there. `dir` must be private (only this user can write it), so a
/// complete copy is one this user's Strata wrote: its name carries the
/// content's hash, and an interrupted write never leaves it in place.
fn extract_embedded(dir: &Path, (archive, hash): (&[u8], &str)) -> Result<PathBuf, String> {
    let path = dir.join(format!("runtime-{hash}.a"));
    if crate::private_dir::is_own_file(&path)
        && fs::metadata(&path).is_ok_and(|m| m.len() == archive.len() as u64)
    {
        return Ok(path);
    }
    let cannot =
        |e: std::io::Error| format!("cannot write the runtime library to {}: {e}", dir.display());
    let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(cannot)?;
    std::io::Write::write_all(&mut tmp, archive).map_err(cannot)?;
    tmp.persist(&path).map_err(|e| cannot(e.error))?;
    Ok(path)
}

/// Writes the object file as is.
pub fn write_object(object: &[u8], out: &Path) -> Result<(), String> {
    fs::write(out, object).map_err(|e| format!("cannot write {}: {e}", out.display()))
}

/// Runs `cmd`, turning a spawn failure or a non-zero exit into an error that shows the command
/// and its output.
fn run(mut cmd: Command, what: &str) -> Result<Vec<u8>, String> {
    let shown = format!("{cmd:?}");
    let out = cmd
        .output()
        .map_err(|e| format!("{what}: cannot run {shown}: {e}"))?;
    if !out.status.success() {
        let mut msg = format!("{what}: {shown} failed ({})", out.status);
        for stream in [&out.stderr, &out.stdout] {
            let text = String::from_utf8_lossy(stream);
            if !text.trim().is_empty() {
                msg.push('\n');
                msg.push_str(text.trim_end());
            }
        }
        return Err(msg);
    }
    Ok(out.stdout)
}

fn check_out_dir(out: &Path) -> Result<(), String> {
    match out.parent() {
        Some(p) if !p.as_os_str().is_empty() && !p.is_dir() => Err(format!(
            "cannot write {}: directory {} does not exist",
            out.display(),
            p.display()
        )),
        _ => Ok(()),
    }
}

/// Absolute form of `p` (relative paths are resolved against the current directory) so that
/// commands run in a temporary directory still find it.
fn absolute(p: &Path) -> Result<PathBuf, String> {
    std::path::absolute(p).map_err(|e| format!("cannot resolve {}: {e}", p.display()))
}

/// The global symbols the object defines (these are the library's public functions).
fn defined_globals(object: &Path, toolchain: &Toolchain) -> Result<Vec<String>, String> {
    let mut nm = toolchain.tool("nm");
    nm.args(["-g", "--defined-only", "--format=posix"])
        .arg(object);
    let stdout = run(nm, "listing the object's symbols")?;
    Ok(String::from_utf8_lossy(&stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect())
}

/// Which symbols a shared library exports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exports {
    /// Only the object's own global symbols (`P_*`): every artifact a user
    /// gets, so two Strata libraries in one process never bind to each
    /// other's runtime.
    Library,
    /// The object's symbols and the runtime's C API ([`crate::RUNTIME_EXPORTS`]),
    /// which the driver reads back with `dlsym` (`strata check`, `strata run`).
    LibraryAndRuntime,
}

/// Links `object` with the runtime into a shared library at `out`.
///
/// The library stands alone: the runtime is linked statically (`ldd` shows only libc, libm,
/// libgcc_s and the dynamic loader), undefined references are link errors (`-z defs`), and
/// references inside the library bind to its own definitions (`-Bsymbolic`), so several Strata
/// libraries can be loaded into one process. `exports` says which symbols stay visible; the
/// Rust standard library inside the runtime is always hidden. Unused sections are dropped and
/// debug information is stripped.
pub fn link_shared(object: &[u8], out: &Path, exports: Exports) -> Result<(), String> {
    link_shared_for(object, out, exports, &Toolchain::host())
}

/// [`link_shared`] with `toolchain`'s linker and runtime (a cross target's).
pub fn link_shared_for(
    object: &[u8],
    out: &Path,
    exports: Exports,
    toolchain: &Toolchain,
) -> Result<(), String> {
    check_out_dir(out)?;
    let out = absolute(out)?;
    let runtime = find_runtime_for(toolchain)?;
    let tmp =
        tempfile::tempdir().map_err(|e| format!("cannot create a temporary directory: {e}"))?;
    let obj = tmp.path().join("strata_module.o");
    fs::write(&obj, object).map_err(|e| format!("cannot write {}: {e}", obj.display()))?;

    let runtime_api: &[&str] = match exports {
        Exports::Library => &[],
        Exports::LibraryAndRuntime => RUNTIME_EXPORTS,
    };
    let mut script = String::from("{\n  global:\n");
    for s in defined_globals(&obj, toolchain)? {
        // Quoted names match literally (no glob).
        script.push_str(&format!("    \"{s}\";\n"));
    }
    for s in runtime_api {
        script.push_str(&format!("    {s};\n"));
    }
    script.push_str("  local: *;\n};\n");
    let map = tmp.path().join("exports.map");
    fs::write(&map, script).map_err(|e| format!("cannot write {}: {e}", map.display()))?;

    let mut cc = toolchain.cc();
    cc.arg("-shared")
        .arg("-o")
        .arg(&out)
        .arg(&obj)
        .arg(&runtime);
    let mut vs = OsString::from("-Wl,--version-script=");
    vs.push(&map);
    cc.arg(vs);
    for s in runtime_api {
        cc.arg(format!("-Wl,-u,{s}"));
    }
    // The file's own name as its SONAME: a program linked against it (by
    // CMake, with a path) records that name and finds the library through
    // its run path, not by the path it was linked with.
    if let Some(file) = out.file_name() {
        cc.args(["-Xlinker", "-soname", "-Xlinker"]).arg(file);
    }
    cc.args([
        "-Wl,--gc-sections",
        "-Wl,-Bsymbolic",
        "-Wl,-z,defs",
        "-Wl,-S",
    ]);
    cc.args(["-lm", "-lpthread", "-ldl"]);
    run(cc, &format!("linking {}", out.display())).map(|_| ())
}

/// Writes a static archive at `out` whose one member is a relocatable object: the module
/// linked (`ld -r`) with the runtime members it needs, then every symbol but the module's own
/// globals (`P_*`) made local; sections they do not reach are dropped. A C or Rust program links it with `-lm -lpthread -ldl` (and
/// `-lgcc_s`, which C and Rust drivers add by themselves); the Rust standard library inside the
/// runtime cannot clash with the program's own (`rust_eh_personality`, allocator symbols).
/// Debug information is stripped.
pub fn archive(object: &[u8], out: &Path) -> Result<(), String> {
    archive_for(object, out, &Toolchain::host())
}

/// [`archive`] with `toolchain`'s tools and runtime (a cross target's).
pub fn archive_for(object: &[u8], out: &Path, toolchain: &Toolchain) -> Result<(), String> {
    check_out_dir(out)?;
    let out = absolute(out)?;
    let runtime = find_runtime_for(toolchain)?;
    let tmp =
        tempfile::tempdir().map_err(|e| format!("cannot create a temporary directory: {e}"))?;
    let obj = tmp.path().join("strata_module.o");
    fs::write(&obj, object).map_err(|e| format!("cannot write {}: {e}", obj.display()))?;
    let keep = tmp.path().join("keep.txt");
    let globals = defined_globals(&obj, toolchain)?;
    let mut names = globals.join("\n");
    names.push('\n');
    fs::write(&keep, names).map_err(|e| format!("cannot write {}: {e}", keep.display()))?;

    let combined = tmp.path().join("strata_library.o");
    let mut ld = toolchain.cc();
    // Only what the module's globals reach is kept (the runtime's
    // functions are in sections of their own): an MLP's archive is 2.4 MB
    // instead of 20.
    ld.args(["-r", "-nostdlib"]);
    if toolchain.gc_relocatable() {
        ld.arg("-Wl,--gc-sections");
        for g in &globals {
            ld.arg(format!("-Wl,-u,{g}"));
        }
    }
    ld.arg("-o").arg(&combined).arg(&obj).arg(&runtime);
    run(ld, &format!("linking {}", out.display()))?;
    let mut objcopy = toolchain.tool("objcopy");
    let mut keep_arg = OsString::from("--keep-global-symbols=");
    keep_arg.push(&keep);
    // `.llvmbc`/`.llvmcmd` hold the bitcode rustc embeds in the runtime's objects; binutils'
    // LLVM plugin (LLVMgold-14 on Debian 12) aborts on LLVM 22's bitcode when `ar` indexes the
    // merged object, and nothing needs it.
    // The runtime's `DW.ref.rust_eh_personality` is a COMDAT group that a Rust program defines
    // too: the linker would keep the program's copy and discard ours while our unwind tables
    // still point into it. Renaming the symbol renames the group, so both copies stay.
    objcopy
        .args([
            "--strip-debug",
            "--remove-section=.llvmbc",
            "--remove-section=.llvmcmd",
        ])
        .arg("--redefine-sym=DW.ref.rust_eh_personality=strata_rt.DW.ref.rust_eh_personality")
        .arg(keep_arg)
        .arg(&combined);
    run(objcopy, &format!("writing {}", out.display()))?;

    let lib = tmp.path().join("out.a");
    let mut ar = toolchain.tool("ar");
    ar.arg("rcs").arg(&lib).arg(&combined);
    run(ar, &format!("writing {}", out.display()))?;
    fs::copy(&lib, &out).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::{CStr, c_char};

    /// A stand-in for generated code: two public functions, an internal helper, and calls into
    /// the runtime, compiled from C with the system compiler.
    const MODULE_C: &str = r#"
#include <stdint.h>
extern int32_t strata_rt_check(int32_t, int32_t, const void *, const void *, int64_t, double,
                               int64_t, int64_t, int64_t);
extern const char *strata_rt_last_error(void);
extern void strata_rt_set_error(const char *);
__attribute__((visibility("hidden"))) float helper(float x) { return 2.0f * x; }
int32_t tm_main(const float *arg0, float *res0) {
  for (int i = 0; i < 4; i++) res0[i] = helper(arg0[i]);
  if (arg0[0] < 0) { strata_rt_set_error("negative input"); return 1; }
  return 0;
}
const char *tm_last_error(void) { return strata_rt_last_error(); }
int32_t tm_selfcheck(void) {
  float a[2] = {1.0f, 2.0f}, e[2] = {1.0f, 3.0f};
  return strata_rt_check(0, 11, a, e, 2, 0.0, 0, 0, 7);
}
"#;

    fn compile_module(dir: &Path) -> Vec<u8> {
        let src = dir.join("module.c");
        let obj = dir.join("module.o");
        fs::write(&src, MODULE_C).unwrap();
        let st = Command::new("cc")
            .args(["-c", "-fPIC", "-O2", "-o"])
            .arg(&obj)
            .arg(&src)
            .status()
            .unwrap();
        assert!(st.success());
        fs::read(&obj).unwrap()
    }

    fn dynamic_symbols(lib: &Path) -> Vec<String> {
        let out = Command::new("nm")
            .args(["-D", "--defined-only", "--format=posix"])
            .arg(lib)
            .output()
            .unwrap();
        assert!(out.status.success());
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter_map(|l| l.split_whitespace().next())
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn runtime_is_found_and_defines_the_exports() {
        let rt = find_runtime().expect("runtime");
        let out = Command::new("nm")
            .args(["-g", "--defined-only", "--format=posix"])
            .arg(&rt)
            .output()
            .unwrap();
        let syms = String::from_utf8_lossy(&out.stdout);
        for s in RUNTIME_EXPORTS {
            assert!(
                syms.lines().any(|l| l.starts_with(&format!("{s} T"))),
                "{s} missing in {}",
                rt.display()
            );
        }
    }

    #[test]
    fn embedded_runtime_is_extracted_once() {
        let tmp = tempfile::tempdir().unwrap();
        let first = extract_embedded(tmp.path(), Toolchain::host().runtime()).unwrap();
        assert_eq!(fs::read(&first).unwrap(), strata_runtime_archive::ARCHIVE);
        assert!(first.ends_with(format!("runtime-{}.a", strata_runtime_archive::HASH)));
        let modified = fs::metadata(&first).unwrap().modified().unwrap();
        let again = extract_embedded(tmp.path(), Toolchain::host().runtime()).unwrap();
        assert_eq!(again, first);
        assert_eq!(fs::metadata(&again).unwrap().modified().unwrap(), modified);
        // A truncated copy (an interrupted writer) is replaced.
        fs::write(&first, b"!<arch>\n").unwrap();
        extract_embedded(tmp.path(), Toolchain::host().runtime()).unwrap();
        assert_eq!(fs::read(&first).unwrap(), strata_runtime_archive::ARCHIVE);
    }

    #[test]
    fn shared_library_stands_alone_and_exports_the_api() {
        let tmp = tempfile::tempdir().unwrap();
        let object = compile_module(tmp.path());
        let so = tmp.path().join("libtm.so");
        link_shared(&object, &so, Exports::LibraryAndRuntime).unwrap();

        let mut syms = dynamic_symbols(&so);
        syms.sort();
        let mut want: Vec<String> = ["tm_main", "tm_last_error", "tm_selfcheck"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        want.extend(RUNTIME_EXPORTS.iter().map(|s| s.to_string()));
        want.sort();
        assert_eq!(
            syms, want,
            "exactly the module's functions and the runtime API are exported"
        );

        // Only system libraries are needed.
        let out = Command::new("readelf").arg("-d").arg(&so).output().unwrap();
        let dynamic = String::from_utf8_lossy(&out.stdout);
        for line in dynamic.lines().filter(|l| l.contains("(NEEDED)")) {
            let lib = line.split('[').nth(1).unwrap().trim_end_matches(']');
            assert!(
                [
                    "libc.so",
                    "libm.so",
                    "libgcc_s.so",
                    "ld-linux",
                    "libpthread.so",
                    "libdl.so"
                ]
                .iter()
                .any(|p| lib.starts_with(p)),
                "unexpected dependency {lib}"
            );
        }

        // Load it and use the functions and the runtime API.
        unsafe {
            let lib = libloading::Library::new(&so).unwrap();
            let main: libloading::Symbol<unsafe extern "C" fn(*const f32, *mut f32) -> i32> =
                lib.get(b"tm_main").unwrap();
            let last_error: libloading::Symbol<unsafe extern "C" fn() -> *const c_char> =
                lib.get(b"tm_last_error").unwrap();
            let selfcheck: libloading::Symbol<unsafe extern "C" fn() -> i32> =
                lib.get(b"tm_selfcheck").unwrap();
            let count: libloading::Symbol<unsafe extern "C" fn() -> i64> =
                lib.get(b"strata_rt_check_failure_count").unwrap();
            let id: libloading::Symbol<unsafe extern "C" fn(i64) -> i64> =
                lib.get(b"strata_rt_check_failure_id").unwrap();
            let msg: libloading::Symbol<unsafe extern "C" fn(i64) -> *const c_char> =
                lib.get(b"strata_rt_check_failure_message").unwrap();
            let reset: libloading::Symbol<unsafe extern "C" fn()> =
                lib.get(b"strata_rt_check_reset").unwrap();
            let rt_last: libloading::Symbol<unsafe extern "C" fn() -> *const c_char> =
                lib.get(b"strata_rt_last_error").unwrap();

            let x = [1.0f32, 2.0, 3.0, 4.0];
            let mut y = [0.0f32; 4];
            assert_eq!(main(x.as_ptr(), y.as_mut_ptr()), 0);
            assert_eq!(y, [2.0, 4.0, 6.0, 8.0]);
            assert_eq!(CStr::from_ptr(last_error()).to_str().unwrap(), "");
            let x = [-1.0f32, 2.0, 3.0, 4.0];
            assert_eq!(main(x.as_ptr(), y.as_mut_ptr()), 1);
            assert_eq!(
                CStr::from_ptr(last_error()).to_str().unwrap(),
                "negative input"
            );
            assert_eq!(
                CStr::from_ptr(rt_last()).to_str().unwrap(),
                "negative input"
            );

            reset();
            assert_eq!(selfcheck(), 1);
            assert_eq!(count(), 1);
            assert_eq!(id(0), 7);
            assert_eq!(
                CStr::from_ptr(msg(0)).to_str().unwrap(),
                "element 1: expected 3, got 2"
            );
            reset();
            assert_eq!(count(), 0);
        }
    }

    #[test]
    fn user_library_exports_only_its_own_symbols() {
        let tmp = tempfile::tempdir().unwrap();
        let object = compile_module(tmp.path());
        let so = tmp.path().join("libtm.so");
        link_shared(&object, &so, Exports::Library).unwrap();
        let mut syms = dynamic_symbols(&so);
        syms.sort();
        assert_eq!(syms, ["tm_last_error", "tm_main", "tm_selfcheck"]);
    }

    #[test]
    fn two_libraries_keep_separate_runtime_state() {
        let tmp = tempfile::tempdir().unwrap();
        let object = compile_module(tmp.path());
        let (a, b) = (tmp.path().join("liba.so"), tmp.path().join("libb.so"));
        link_shared(&object, &a, Exports::LibraryAndRuntime).unwrap();
        link_shared(&object, &b, Exports::LibraryAndRuntime).unwrap();
        unsafe {
            let la = libloading::Library::new(&a).unwrap();
            let lb = libloading::Library::new(&b).unwrap();
            let check_a: libloading::Symbol<unsafe extern "C" fn() -> i32> =
                la.get(b"tm_selfcheck").unwrap();
            let count_a: libloading::Symbol<unsafe extern "C" fn() -> i64> =
                la.get(b"strata_rt_check_failure_count").unwrap();
            let count_b: libloading::Symbol<unsafe extern "C" fn() -> i64> =
                lb.get(b"strata_rt_check_failure_count").unwrap();
            let before_b = count_b();
            assert_eq!(check_a(), 1);
            assert!(count_a() >= 1);
            assert_eq!(count_b(), before_b);
        }
    }

    #[test]
    fn shared_library_link_errors_are_reported() {
        let tmp = tempfile::tempdir().unwrap();
        // Undefined reference: `-z defs` turns it into a link error.
        let src = tmp.path().join("bad.c");
        fs::write(
            &src,
            "extern int nowhere(void); int bad_main(void) { return nowhere(); }\n",
        )
        .unwrap();
        let obj = tmp.path().join("bad.o");
        assert!(
            Command::new("cc")
                .args(["-c", "-fPIC", "-o"])
                .arg(&obj)
                .arg(&src)
                .status()
                .unwrap()
                .success()
        );
        let err = link_shared(
            &fs::read(&obj).unwrap(),
            &tmp.path().join("libbad.so"),
            Exports::LibraryAndRuntime,
        )
        .unwrap_err();
        assert!(err.contains("nowhere"), "{err}");
        // Not an object at all.
        let err = link_shared(
            b"not an object",
            &tmp.path().join("libjunk.so"),
            Exports::LibraryAndRuntime,
        )
        .unwrap_err();
        assert!(!err.is_empty());
        // Missing output directory.
        let err = link_shared(
            b"",
            &tmp.path().join("no/such/dir/lib.so"),
            Exports::LibraryAndRuntime,
        )
        .unwrap_err();
        assert!(err.contains("does not exist"), "{err}");
    }

    #[test]
    fn archive_links_into_a_c_program() {
        let tmp = tempfile::tempdir().unwrap();
        let object = compile_module(tmp.path());
        let lib = tmp.path().join("libtm.a");
        archive(&object, &lib).unwrap();
        let main_c = tmp.path().join("main.c");
        fs::write(
            &main_c,
            r#"#include <stdint.h>
#include <stdio.h>
#include <string.h>
int32_t tm_main(const float *, float *);
const char *tm_last_error(void);
int main(void) {
  float x[4] = {1, 2, 3, 4}, y[4];
  if (tm_main(x, y) != 0) return 1;
  printf("%g %g %g %g\n", y[0], y[1], y[2], y[3]);
  x[0] = -1;
  if (tm_main(x, y) != 1 || strcmp(tm_last_error(), "negative input") != 0) return 2;
  return 0;
}
"#,
        )
        .unwrap();
        let exe = tmp.path().join("main");
        let st = Command::new("cc")
            .arg("-o")
            .arg(&exe)
            .arg(&main_c)
            .arg(format!("-L{}", tmp.path().display()))
            .args(["-ltm", "-lm", "-lpthread", "-ldl"])
            .status()
            .unwrap();
        assert!(st.success());
        let out = Command::new(&exe).output().unwrap();
        assert!(out.status.success(), "{out:?}");
        assert_eq!(String::from_utf8_lossy(&out.stdout), "2 4 6 8\n");
    }

    /// LLVM lowers half/bfloat truncations to libcalls (`__truncsfbf2`, `__truncsfhf2`, ...)
    /// on CPUs without native support; the linked library must resolve them (the bf16 ones come
    /// from the runtime, Debian 12's libgcc lacks them) with the right calling convention.
    #[test]
    fn llvm_float_libcalls_resolve() {
        let llc = Path::new("/usr/lib/llvm-22/bin/llc");
        if !llc.exists() {
            eprintln!("skipped: {} not found", llc.display());
            return;
        }
        let tmp = tempfile::tempdir().unwrap();
        let ll = tmp.path().join("m.ll");
        fs::write(
            &ll,
            r#"
define i16 @to_bf16(float %x) {
  %b = fptrunc float %x to bfloat
  %i = bitcast bfloat %b to i16
  ret i16 %i
}
define i16 @d_to_bf16(double %x) {
  %b = fptrunc double %x to bfloat
  %i = bitcast bfloat %b to i16
  ret i16 %i
}
define i16 @to_f16(float %x) {
  %b = fptrunc float %x to half
  %i = bitcast half %b to i16
  ret i16 %i
}
define i16 @d_to_f16(double %x) {
  %b = fptrunc double %x to half
  %i = bitcast half %b to i16
  ret i16 %i
}
define float @from_f16(i16 %x) {
  %b = bitcast i16 %x to half
  %f = fpext half %b to float
  ret float %f
}
"#,
        )
        .unwrap();
        let obj = tmp.path().join("m.o");
        // Generic x86-64 / AArch64: no native bf16 conversions, so libcalls are emitted.
        let st = Command::new(llc)
            .args(["-O2", "-filetype=obj", "-relocation-model=pic", "-o"])
            .arg(&obj)
            .arg(&ll)
            .status()
            .unwrap();
        assert!(st.success());
        let so = tmp.path().join("libcalls.so");
        link_shared(&fs::read(&obj).unwrap(), &so, Exports::LibraryAndRuntime).unwrap();
        unsafe {
            let lib = libloading::Library::new(&so).unwrap();
            let to_bf16: libloading::Symbol<unsafe extern "C" fn(f32) -> u16> =
                lib.get(b"to_bf16").unwrap();
            let d_to_bf16: libloading::Symbol<unsafe extern "C" fn(f64) -> u16> =
                lib.get(b"d_to_bf16").unwrap();
            let to_f16: libloading::Symbol<unsafe extern "C" fn(f32) -> u16> =
                lib.get(b"to_f16").unwrap();
            let d_to_f16: libloading::Symbol<unsafe extern "C" fn(f64) -> u16> =
                lib.get(b"d_to_f16").unwrap();
            let from_f16: libloading::Symbol<unsafe extern "C" fn(u16) -> f32> =
                lib.get(b"from_f16").unwrap();
            assert_eq!(to_bf16(1.0), 0x3f80);
            assert_eq!(to_bf16(-3.140625), 0xc049);
            assert_eq!(to_bf16(f32::from_bits(0x3f81_8000)), 0x3f82);
            assert_eq!(d_to_bf16(1.0 + 2f64.powi(-8) + 2f64.powi(-30)), 0x3f81);
            assert_eq!(to_f16(1.0), 0x3c00);
            assert_eq!(to_f16(-2.5), 0xc100);
            assert_eq!(d_to_f16(65504.0), 0x7bff);
            assert_eq!(from_f16(0x3555), 0.333_251_95);
        }
    }

    #[test]
    fn object_is_written_verbatim() {
        let tmp = tempfile::tempdir().unwrap();
        let p = tmp.path().join("x.o");
        write_object(b"\x7fELF...", &p).unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"\x7fELF...");
        assert!(write_object(b"", &tmp.path().join("no/x.o")).is_err());
    }
}
