//! One compiled library called from eight threads at once (loaded with
//! `libloading`, as a Rust host would): each thread passes its own inputs,
//! and its calls interleave with calls of the same library that fail at run
//! time (a `custom_call` to a function the process does not define). Every
//! thread must get its own right results, and `P_last_error()` must report
//! that thread's last call only: its own failure's message, or "" after a
//! success (each call clears it), whatever the other threads are doing.

use std::ffi::{CStr, c_char};
use std::path::Path;
use std::process::Command;
use std::sync::Barrier;

const STRATA: &str = env!("CARGO_BIN_EXE_strata");
const THREADS: usize = 8;
const ROUNDS: usize = 40;
/// Large enough that the library's thread pool takes part (small calls
/// never wake it), so pool workers and host threads interleave too.
const N: usize = 1 << 18;

/// `@main` computes x * y + x; `@fail_even` / `@fail_odd` call functions no
/// one defines, so they fail with a message naming the missing function.
const MODEL: &str = r#"
func.func @main(%x: tensor<262144xf32>, %y: tensor<262144xf32>) -> tensor<262144xf32> {
  %0 = stablehlo.multiply %x, %y : tensor<262144xf32>
  %1 = stablehlo.add %0, %x : tensor<262144xf32>
  return %1 : tensor<262144xf32>
}
func.func @fail_even(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.custom_call @user_missing_even(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @fail_odd(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.custom_call @user_missing_odd(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
"#;

type MainFn = unsafe extern "C" fn(*const f32, *const f32, *mut f32) -> i32;
type FailFn = unsafe extern "C" fn(*const f32, *mut f32) -> i32;
type ErrFn = unsafe extern "C" fn() -> *const c_char;

struct Library {
    main: MainFn,
    fail_even: FailFn,
    fail_odd: FailFn,
    last_error: ErrFn,
    _lib: libloading::Library,
}

fn load(so: &Path) -> Library {
    unsafe {
        let lib = libloading::Library::new(so).expect("the library loads");
        let main = *lib.get::<MainFn>(b"conc_main").unwrap();
        let fail_even = *lib.get::<FailFn>(b"conc_fail_even").unwrap();
        let fail_odd = *lib.get::<FailFn>(b"conc_fail_odd").unwrap();
        let last_error = *lib.get::<ErrFn>(b"conc_last_error").unwrap();
        Library {
            main,
            fail_even,
            fail_odd,
            last_error,
            _lib: lib,
        }
    }
}

fn compile(dir: &Path) -> std::path::PathBuf {
    let src = dir.join("conc.mlir");
    std::fs::write(&src, MODEL).unwrap();
    let so = dir.join("libconc.so");
    let out = Command::new(STRATA)
        .arg("compile")
        .arg(&src)
        .arg("-o")
        .arg(&so)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "compile failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    so
}

/// Small integers, so x * y + x is exact in f32 and the expected value
/// does not depend on rounding or on fused multiply-add.
fn inputs(thread: usize, round: usize) -> (Vec<f32>, Vec<f32>) {
    let x = (0..N)
        .map(|i| ((i * 7 + thread * 13 + round) % 97) as f32)
        .collect();
    let y = (0..N)
        .map(|i| ((i * 3 + thread * 5) % 31) as f32 - 15.0)
        .collect();
    (x, y)
}

fn last_error(lib: &Library) -> String {
    unsafe {
        CStr::from_ptr((lib.last_error)())
            .to_string_lossy()
            .into_owned()
    }
}

/// A failing call: non-zero status, and this thread's message names the
/// function this thread called, not the one another thread called.
fn check_failure(lib: &Library, thread: usize) -> Result<(), String> {
    let (fail, own, other) = if thread % 2 == 0 {
        (lib.fail_even, "user_missing_even", "user_missing_odd")
    } else {
        (lib.fail_odd, "user_missing_odd", "user_missing_even")
    };
    let x = [1.0f32; 4];
    let mut y = [0.0f32; 4];
    let status = unsafe { fail(x.as_ptr(), y.as_mut_ptr()) };
    let message = last_error(lib);
    if status == 0 {
        return Err("a call to a missing custom_call target succeeded".into());
    }
    if !message.contains(own) || message.contains(other) {
        return Err(format!("thread {thread} got the message {message:?}"));
    }
    Ok(())
}

fn check_success(lib: &Library, thread: usize, round: usize) -> Result<(), String> {
    let (x, y) = inputs(thread, round);
    let mut out = vec![f32::NAN; N];
    let status = unsafe { (lib.main)(x.as_ptr(), y.as_ptr(), out.as_mut_ptr()) };
    let message = last_error(lib);
    if status != 0 || !message.is_empty() {
        return Err(format!("main: status {status}, last error {message:?}"));
    }
    for i in 0..N {
        let want = x[i] * y[i] + x[i];
        if out[i] != want {
            return Err(format!(
                "round {round}, element {i}: got {}, want {want}",
                out[i]
            ));
        }
    }
    Ok(())
}

fn work(lib: &Library, thread: usize, start: &Barrier) -> Result<(), String> {
    start.wait();
    for round in 0..ROUNDS {
        if (round + thread) % 3 == 0 {
            check_failure(lib, thread)?;
        } else {
            check_success(lib, thread, round)?;
        }
    }
    Ok(())
}

#[test]
fn eight_threads_get_their_own_results_and_errors() {
    let tmp = tempfile::tempdir().unwrap();
    let lib = load(&compile(tmp.path()));
    let start = Barrier::new(THREADS);
    let (lib, start) = (&lib, &start);
    let results: Vec<Result<(), String>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..THREADS)
            .map(|t| s.spawn(move || work(lib, t, start)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("no panic in a caller thread"))
            .collect()
    });
    let failures: Vec<String> = results
        .into_iter()
        .enumerate()
        .filter_map(|(t, r)| r.err().map(|e| format!("thread {t}: {e}")))
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
