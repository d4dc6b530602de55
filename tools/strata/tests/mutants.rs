//! A seeded batch of the attribute-mutation probe
//! (`fuzz/scripts/mutate-programs.py`): real programs (the conformance suite
//! when present, `tests/e2e-check`, `tests/hlo`) with numbers, enumerated
//! attributes or element types changed, each through `strata check` or
//! `strata compile`. Every mutant must compile and run, or fail with a located
//! error: no panic, signal, internal compiler error or hang. The probe found
//! B25-B27 (tests/invalid/FUZZING.md); longer runs: the script's `--count`.

use std::path::Path;
use std::process::Command;

const STRATA: &str = env!("CARGO_BIN_EXE_strata");

#[test]
fn mutated_programs_compile_or_fail_with_located_errors() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    // Kept after a failure: the mutants found and the driver's stderr.
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("mutants");
    let _ = std::fs::remove_dir_all(&out);
    let run = Command::new("python3")
        .arg(root.join("fuzz/scripts/mutate-programs.py"))
        .args(["--count", "150", "--seed", "1", "--retype", "0.4"])
        .args(["--strata", STRATA])
        .arg("--out")
        .arg(&out)
        .output()
        .expect("run python3 fuzz/scripts/mutate-programs.py");
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "mutants that crashed, hung or failed without a location (in {}):\n{stdout}\n{}",
        out.display(),
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(stdout.contains("150 mutants"), "{stdout}");
}
