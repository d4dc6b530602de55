//! XLA HLO text input, end to end: every `tests/hlo/NAME.hlo` (exported from
//! JAX, see `tests/hlo/README.md`) runs through `strata run` with the inputs
//! in `NAME.json`, and its printed results must match the numpy-computed
//! `outputs` there within the file's `tolerance` (exact when 0).
//!
//! The JSON files are written by `gen_hlo.py` in one fixed shape, so a small
//! scanner reads them: the quoted strings of `"inputs"` and the scalars of
//! `"outputs"`, flattened in order.

use std::path::{Path, PathBuf};
use std::process::Command;

const STRATA: &str = env!("CARGO_BIN_EXE_strata");

fn hlo_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/hlo")
}

/// The text of the JSON value after `"key":`, up to its matching bracket.
fn json_array<'a>(json: &'a str, key: &str) -> &'a str {
    let at = json
        .find(&format!("\"{key}\""))
        .unwrap_or_else(|| panic!("no {key}"));
    let start = at + json[at..].find('[').expect("an array");
    let mut depth = 0;
    for (i, c) in json[start..].char_indices() {
        match c {
            '[' => depth += 1,
            ']' => {
                depth -= 1;
                if depth == 0 {
                    return &json[start..=start + i];
                }
            }
            _ => {}
        }
    }
    panic!("unterminated {key}")
}

fn quoted_strings(text: &str) -> Vec<String> {
    text.split('"')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

/// The scalars of a nested literal (JSON or `dense<...>` text), in order:
/// numbers, nan/inf (quoted, bare or as hex bits), and true/false as 1/0.
fn scalars(text: &str) -> Vec<f64> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '+')))
        .filter(|t| !t.is_empty())
        .filter_map(|t| match t {
            "true" => Some(1.0),
            "false" => Some(0.0),
            "nan" | "-nan" => Some(f64::NAN),
            "inf" => Some(f64::INFINITY),
            "-inf" => Some(f64::NEG_INFINITY),
            // Non-finite floats print as their bits, as MLIR does.
            _ if t.starts_with("0x") => {
                let bits = u64::from_str_radix(&t[2..], 16).ok()?;
                match t.len() - 2 {
                    8 => Some(f64::from(f32::from_bits(bits as u32))),
                    16 => Some(f64::from_bits(bits)),
                    _ => None,
                }
            }
            _ => t.parse::<f64>().ok(),
        })
        .collect()
}

/// The scalars of `strata run`'s printed results (`dense<...> : type` per
/// line; the type's digits are not values).
fn printed_scalars(stdout: &str) -> Vec<f64> {
    stdout
        .lines()
        .filter_map(|l| {
            let body = l.trim().strip_prefix("dense<")?;
            let end = body.rfind("> :")?;
            Some(scalars(&body[..end]))
        })
        .flatten()
        .collect()
}

fn close(got: f64, want: f64, tolerance: f64) -> bool {
    if want.is_nan() {
        return got.is_nan();
    }
    if want.is_infinite() {
        return got == want;
    }
    // Exact results are compared at the float32 precision the expected
    // values were printed from (numpy's float64 repr of a float32).
    got == want || (got as f32) == (want as f32) || (got - want).abs() <= tolerance
}

fn check_case(hlo: &Path, backend: &str) -> Result<(), String> {
    let json = std::fs::read_to_string(hlo.with_extension("json")).map_err(|e| e.to_string())?;
    let tolerance = json
        .split("\"tolerance\":")
        .nth(1)
        .and_then(|t| scalars(t).first().copied())
        .ok_or("no tolerance")?;
    let mut cmd = Command::new(STRATA);
    cmd.args(["run", "--backend", backend]).arg(hlo);
    for input in quoted_strings(json_array(&json, "inputs")) {
        // `--input=` keeps a leading '-' from reading as an option.
        cmd.arg(format!("--input={input}"));
    }
    let out = cmd.output().map_err(|e| e.to_string())?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        return Err(format!(
            "strata run failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let got = printed_scalars(&stdout);
    let want = scalars(json_array(&json, "outputs"));
    if got.len() != want.len() {
        return Err(format!(
            "{} values printed, {} expected:\n{stdout}",
            got.len(),
            want.len()
        ));
    }
    for (i, (&g, &w)) in got.iter().zip(&want).enumerate() {
        if !close(g, w, tolerance) {
            return Err(format!(
                "value {i}: got {g}, expected {w} (tolerance {tolerance})"
            ));
        }
    }
    Ok(())
}

#[test]
fn jax_exported_hlo_runs_and_matches_numpy() {
    all_cases_match("native");
}

/// The same programs through the second backend (upstream MLIR's lowering).
#[test]
fn jax_exported_hlo_matches_numpy_on_the_mlir_backend() {
    all_cases_match("mlir");
}

fn all_cases_match(backend: &str) {
    let mut cases: Vec<PathBuf> = std::fs::read_dir(hlo_dir())
        .expect("tests/hlo")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "hlo"))
        .collect();
    cases.sort();
    assert!(
        cases.len() >= 30,
        "expected the generated cases, found {}",
        cases.len()
    );
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|c| {
            check_case(c, backend)
                .err()
                .map(|e| format!("{} ({backend}): {e}", c.display()))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
