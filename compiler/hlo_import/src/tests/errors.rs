//! Diagnostics with their `line:col`, and robustness against damaged input.

use super::{context, error_of};
use crate::import_module;

const ADD: &str =
    "add {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n  ROOT s = f32[] add(x, y)\n}\n";

/// One ENTRY computation around `body` (instructions, one per line).
fn entry(body: &str) -> String {
    format!("HloModule m\n\n{ADD}\nENTRY main {{\n{body}\n}}\n")
}

#[test]
fn errors_in_instructions_have_locations() {
    let cases: &[(&str, &str)] = &[
        (
            "  x = f32[4] parameter(0)\n  ROOT y = f32[4] frobnicate(x)",
            "11:19: unknown HLO opcode 'frobnicate'",
        ),
        (
            "  x = f32[4] parameter(0)\n  ROOT y = f32[4] stochastic-convert(x, x)",
            "11:19: HLO opcode 'stochastic-convert' is not supported",
        ),
        (
            "  x = f32[4] parameter(0)\n  ROOT y = f32[4] rng(x, x), distribution=rng_uniform",
            "11:8: 'xla.rng' op operand #0 must be a scalar of the result's element type",
        ),
        (
            "  x = f32[4] parameter(0)\n  ROOT y = f32[] reduce(x, x), dimensions={0}, to_apply=nowhere",
            "11:57: unknown computation 'nowhere'",
        ),
        (
            "  x = f32[4] parameter(0)\n  ROOT y = f32[4] broadcast(x)",
            "11:19: 'broadcast' requires the attribute 'dimensions'",
        ),
        (
            "  x = f32[99999999999999999999] parameter(0)\n  ROOT y = f32[4] negate(x)",
            "10:11: integer 99999999999999999999 does not fit in 64 bits",
        ),
        (
            "  ROOT r = f16[2] constant({1, 1e10})",
            "10:32: value 1e10 is out of range for f16",
        ),
        (
            "  ROOT r = c64[] constant((1, -1e39))",
            "10:31: value -1e39 is out of range for f32",
        ),
        (
            "  ROOT r = f8e4m3fn[] constant(500)",
            "10:32: value 500 is out of range for f8E4M3FN",
        ),
        (
            "  x = f32[2] parameter(0)\n  ROOT y = f32[2] all-reduce(x), replica_groups=[2,2]<=[5], to_apply=add",
            "11:56: reshape dimensions [5] must hold the 2x2 devices of the groups (at most 2^20)",
        ),
        (
            "  x = f32[2] parameter(0)\n  ROOT y = f32[2] all-reduce(x), replica_groups=[2,2]<=[2,2]T(0,0), to_apply=add",
            "11:61: transpose [0, 0] is not a permutation of the 2 reshape dimensions",
        ),
        (
            "  x = f32[2] parameter(0)\n  ROOT y = f32[2] all-reduce(x), replica_groups=[1,1099511627776]<=[1099511627776], to_apply=add",
            "11:68: reshape dimensions [1099511627776] must hold the 1x1099511627776 devices of the groups (at most 2^20)",
        ),
        (
            "  x = f32[2] parameter(0)\n  ROOT y = f32[2] all-reduce(x), replica_groups=[4]<=[4], to_apply=add",
            "11:49: iota replica groups need [groups,size], found 1 numbers",
        ),
        (
            "  x = f32[2,3]{5,0} parameter(0)\n  ROOT y = f32[2,3] negate(x)",
            "10:15: layout dimension 5 is out of range for rank 2",
        ),
        (
            "  x = f32[2,3]{1,1} parameter(0)\n  ROOT y = f32[2,3] negate(x)",
            "10:15: layout names dimension 1 twice",
        ),
        (
            "  x = f32[2,3] parameter(0)\n  ROOT y = f32[2,3]{0} negate(x)",
            "11:20: layout lists 1 dimensions, but the shape has rank 2",
        ),
        (
            "  ROOT c = s8[] constant(300)",
            "10:26: integer value 300 is out of range for type i8",
        ),
        (
            "  ROOT c = s32[] constant(123456789012345678901234567890123456789012)",
            "10:27: integer literal 123456789012345678901234567890123456789012 is too large",
        ),
        (
            "  ROOT c = f32[200] constant({...})",
            "10:30: the constant's values were left out of the HLO text ('{...}'); print it with large constants",
        ),
        (
            "  ROOT c = f32[2] constant({1, 2, 3})",
            "10:28: expected 2 elements in dimension 0, but found 3",
        ),
        // The declared shape is the result type: the verifier reports the
        // mismatch at the instruction.
        (
            "  x = f32[4] parameter(0)\n  ROOT y = f32[5] negate(x)",
            "11:8: 'xla.negate' op inferred type tensor<4xf32> does not match result type tensor<5xf32>",
        ),
        // Instructions that emit no op check their declared shape themselves.
        (
            "  x = f32[4] parameter(0)\n  ROOT y = f32[5] copy(x)",
            "11:8: 'copy' declares shape f32[5] but produces (tensor<4xf32>)",
        ),
        (
            "  x = f32[4] parameter(0)\n  ROOT t = (f32[4], s32[]) tuple(x, x)",
            "11:8: 'tuple' declares shape (f32[4], s32[]) but produces (tensor<4xf32>, tensor<4xf32>)",
        ),
        (
            "  x = f32[4] parameter(0)\n  ROOT y = f32[4] add(x, z)",
            "11:26: use of undefined value 'z'",
        ),
        (
            "  x = q32[4] parameter(0)\n  ROOT y = f32[4] negate(x)",
            "10:7: unknown element type 'q32'",
        ),
        (
            "  x = f32[<=4] parameter(0)\n  ROOT y = f32[4] negate(x)",
            "10:11: dynamic dimensions are not supported",
        ),
        (
            "  x = f32[4] parameter(0)\n  ROOT y = f32[4] reduce-window(x, x), window={size=2 sride=1}, to_apply=add",
            "11:55: unknown window field 'sride'",
        ),
        (
            "  x = f32[4] parameter(0)\n  t = (f32[4]) tuple(x)\n  ROOT y = f32[4] get-tuple-element(t), index=3",
            "12:41: index 3 is out of range for a tuple of 1 elements",
        ),
        (
            "  x = f32[4] parameter(0)\n  t = (f32[4]) tuple(x)\n  ROOT y = f32[4] get-tuple-element(t), index=0\n  z = f32[4] negate(t)",
            "13:21: operand 0 of 'negate' must be an array, found a tuple",
        ),
        (
            "  x = f32[4] parameter(0)\n  ROOT y = f32[4] negate(x), sharding={devices=[2]0,1}",
            "11:30: attribute 'sharding' of 'negate' is not supported",
        ),
        (
            "  x = f32[4] parameter(0)\n  ROOT y = f32[4] negate(x",
            "11:27: expected ',', found end of line",
        ),
        (
            "  x = f32[4] parameter(0)\n  b = f32[2,2]{0,1} bitcast(x)\n  ROOT y = f32[2,2] negate(b)",
            "11:21: 'bitcast' is only supported as a reshape: the same element type and the default layout on both sides",
        ),
        (
            "  x = f32[4] parameter(0)\n  ROOT y = pred[4] compare(x, x), direction=LESS",
            "11:45: unknown comparison direction 'LESS'",
        ),
    ];
    for (body, expected) in cases {
        assert_eq!(error_of(&entry(body)), *expected, "for:\n{body}");
    }
}

/// Ranks past `strata_ir::text::parser::MAX_RANK` are refused where the
/// shape is written; the largest one is accepted.
#[test]
fn shapes_past_the_largest_rank_are_errors() {
    let max = strata_ir::text::parser::MAX_RANK;
    let dims = |rank: usize| vec!["1"; rank].join(",");
    let body = |rank: usize| {
        format!(
            "  x = f32[{d}] parameter(0)\n  ROOT y = f32[{d}] negate(x)",
            d = dims(rank)
        )
    };
    assert_eq!(
        error_of(&entry(&body(max + 1))),
        format!(
            "10:7: shape has rank {}; the largest rank supported is {max}",
            max + 1
        )
    );
    let mut ctx = context();
    assert!(import_module(&mut ctx, "t.hlo", &entry(&body(max))).is_ok());
}

#[test]
fn errors_in_modules_have_locations() {
    let cases: &[(&str, &str)] = &[
        (
            "HloModule m\n\nadd {\n  ROOT c = f32[] constant(1)\n}\n",
            "1:11: module has no ENTRY computation",
        ),
        (
            "HloModule m\n\nENTRY a {\n  ROOT c = f32[] constant(1)\n}\n\nENTRY b {\n  ROOT c = f32[] constant(1)\n}\n",
            "7:7: module has more than one ENTRY computation",
        ),
        (
            "HloModule m, entry_computation_layout={(f32[2]{0}, f32[2]{0})->f32[2]{0}}\n\nENTRY a {\n  x = f32[2] parameter(0)\n  ROOT c = f32[2] negate(x)\n}\n",
            "1:64: entry_computation_layout lists 2 parameters, but the ENTRY computation has 1",
        ),
        (
            "HloModule m\n\nENTRY a {\n  x = f32[4] parameter(0)\n  z = f32[] constant(0)\n  ROOT r = f32[] reduce(x, z), dimensions={0}, to_apply=r\n}\nr {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT s = f32[] reduce(a, b), dimensions={}, to_apply=r\n}\n",
            "8:1: computation 'r' uses itself",
        ),
        (
            "HloModule m\n\nENTRY a {\n  x = f32[2] parameter(1)\n  ROOT y = f32[2] negate(x)\n}\n",
            "3:7: computation 'a' has no parameter 0",
        ),
        (
            "HloModule m\n\nENTRY a {\n  x = f32[2] parameter(0)\n",
            "3:7: computation 'a' is not closed with '}'",
        ),
        ("module @m {}", "1:1: expected 'HloModule', found 'module'"),
    ];
    for (text, expected) in cases {
        assert_eq!(error_of(text), *expected, "for:\n{text}");
    }
}

/// Truncated and corrupted HLO never panics the importer (or the verifier
/// after a successful import): every outcome is a module or a diagnostic.
#[test]
fn damaged_input_never_panics() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/hlo");
    let texts: Vec<String> = [
        "while_loop.hlo",
        "argsort.hlo",
        "conv2d.hlo",
        "constants.hlo",
    ]
    .iter()
    .map(|f| std::fs::read_to_string(dir.join(f)).expect("readable test input"))
    .collect();
    let replacements = [
        "",
        "{",
        "}",
        "(",
        ")",
        ",",
        "=",
        "-",
        "9999999999999999999999",
        "\"",
        "/*",
        "%",
        "x",
    ];
    for text in &texts {
        let cuts: Vec<usize> = (0..text.len())
            .step_by(5)
            .filter(|&i| text.is_char_boundary(i))
            .collect();
        for (n, &cut) in cuts.iter().enumerate() {
            let replacement = replacements[n % replacements.len()];
            let end = (cut + 1 + n % 3).min(text.len());
            let end = (end..=text.len())
                .find(|&e| text.is_char_boundary(e))
                .unwrap_or(text.len());
            for damaged in [
                text[..cut].to_string(),
                format!("{}{replacement}{}", &text[..cut], &text[end..]),
            ] {
                let mut ctx = context();
                if let Ok(module) = import_module(&mut ctx, "d.hlo", &damaged) {
                    let _ = strata_ir::verify::verify(&ctx, module);
                }
            }
        }
    }
}
