//! Decodes every artifact in `tests/vhlo/` (made by `tests/vhlo/generate.py`
//! with jax 0.10.2 / StableHLO 1.17.0) and checks the text against what JAX
//! printed for the same module.
//!
//! StableHLO versions covered, per model: 0.9.0 (the minimum; MLIR bytecode
//! version 0, attributes in each op's dictionary), 0.14.0 (bytecode 4),
//! 1.5.0 (a mid version; bytecode 6 with native properties), 1.17.0 (the
//! current one of jaxlib 0.10.2), and 1.15.0 inside each `.jaxexp` (what
//! `jax.export` embeds by default).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use strata_vhlo_import::{
    jax_export_to_text, looks_like_jax_export, looks_like_mlir_bytecode, portable_artifact_to_text,
    portable_artifact_version,
};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/vhlo")
}

fn read(name: &str) -> Vec<u8> {
    std::fs::read(dir().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn files(ext: &str) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir())
        .expect("tests/vhlo exists")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(ext))
        .collect();
    v.sort();
    v
}

/// Multiset of generic op names (`"stablehlo.add"(`), with the pretty
/// `module` / `func.func` this crate prints counted under their generic names.
fn op_names(text: &str) -> BTreeMap<String, usize> {
    let mut m = BTreeMap::new();
    for line in text.lines() {
        let l = line.trim_start();
        let l = match l.find(" = \"") {
            Some(i) if l.starts_with('%') => &l[i + 3..],
            _ => l,
        };
        let name = if let Some(rest) = l.strip_prefix('"') {
            rest.split('"').next().map(str::to_string)
        } else if l.starts_with("func.func ") {
            Some("func.func".to_string())
        } else if l.starts_with("module ") {
            Some("builtin.module".to_string())
        } else {
            None
        };
        if let Some(n) = name {
            *m.entry(n).or_insert(0) += 1;
        }
    }
    m
}

fn model_of(file: &str) -> &str {
    file.split('.').next().unwrap_or(file)
}

fn check_same_ops(file: &str, text: &str) {
    let reference = String::from_utf8(read(&format!("{}.generic.mlir", model_of(file))))
        .expect("utf-8 reference");
    assert_eq!(
        op_names(text),
        op_names(&reference),
        "{file}: op names differ"
    );
}

#[test]
fn every_portable_artifact_decodes_to_the_same_ops() {
    let all = files(".vhlo");
    assert!(
        all.len() >= 60,
        "expected the generated artifacts, found {}",
        all.len()
    );
    for f in &all {
        let bytes = read(f);
        assert!(looks_like_mlir_bytecode(&bytes), "{f}");
        assert!(!looks_like_jax_export(&bytes), "{f}");
        let text = portable_artifact_to_text(&bytes).unwrap_or_else(|e| panic!("{f}: {e}"));
        check_same_ops(f, &text);
        let v = portable_artifact_version(&bytes).expect("producer version");
        let want = f
            .split('.')
            .nth(1)
            .unwrap_or("")
            .trim_start_matches('v')
            .replace('_', ".");
        assert_eq!(v, want, "{f}");
    }
}

#[test]
fn every_jax_export_decodes() {
    let all = files(".jaxexp");
    assert_eq!(all.len(), 15);
    for f in &all {
        let bytes = read(f);
        assert!(looks_like_jax_export(&bytes), "{f}");
        assert!(!looks_like_mlir_bytecode(&bytes), "{f}");
        let exp = jax_export_to_text(&bytes).unwrap_or_else(|e| panic!("{f}: {e}"));
        check_same_ops(f, &exp.module_text);
        assert_eq!(exp.in_names.len(), exp.in_shapes.len(), "{f}");
        assert_eq!(exp.out_names.len(), exp.out_shapes.len(), "{f}");
        assert_eq!(exp.nr_devices, 1, "{f}");
        assert!(exp.calling_convention_version >= 9, "{f}");
        assert!(!exp.function_name.is_empty(), "{f}");
        assert!(exp.stablehlo_version.is_some(), "{f}");
    }
}

fn text_of(file: &str) -> String {
    portable_artifact_to_text(&read(file)).unwrap_or_else(|e| panic!("{file}: {e}"))
}

#[test]
fn mlp_keeps_names_locations_and_module_attributes() {
    for v in ["0_9_0", "0_14_0", "1_5_0", "1_17_0"] {
        let t = text_of(&format!("mlp.v{v}.vhlo"));
        assert!(t.starts_with("module @jit_f attributes {"), "{v}: {t}");
        for want in [
            "mhlo.num_partitions = 1 : i32",
            "mhlo.num_replicas = 1 : i32",
            "jax.uses_shape_polymorphism = false",
            "func.func public @main(",
            "-> (tensor<2x3xf32> {jax.result_info = \"result\"})",
            "%0: tensor<8xf32> loc(\"params['b1']\")",
            "\"stablehlo.dot_general\"",
            "dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>",
            "broadcast_dimensions = array<i64: 0, 1>",
            "dimensions = array<i64: 1>",
            "\"func.return\"",
            "\"stablehlo.return\"",
            "generate.py\":",
            "loc(callsite(#loc",
        ] {
            assert!(t.contains(want), "mlp {v}: missing {want:?}\n{t}");
        }
    }
}

#[test]
fn jax_export_metadata() {
    let e = jax_export_to_text(&read("transformer.jaxexp")).expect("decodes");
    assert_eq!(e.platforms, ["cpu"]);
    assert_eq!(
        e.in_names.first().map(String::as_str),
        Some("args[0]['ln1_b']")
    );
    assert_eq!(e.in_names.last().map(String::as_str), Some("args[2]"));
    assert_eq!(
        e.in_shapes.last().map(|s| s.to_string()).as_deref(),
        Some("bool[1,4,4]")
    );
    assert_eq!(e.out_names, ["result"]);
    assert_eq!(e.out_shapes[0].to_string(), "float32[2,4,8]");

    let e = jax_export_to_text(&read("shape_poly.jaxexp")).expect("decodes");
    assert_eq!(e.in_shapes[0].dims, ["b", "4"]);
    assert_eq!(e.out_names, ["result[0]", "result[1]", "result[2]"]);
    assert_eq!(e.out_shapes[2].to_string(), "float32[4*b]");
    assert!(e.module_text.contains("tensor<?x4xf32>"));
    assert!(e.module_text.contains("jax.uses_shape_polymorphism = true"));

    let e = jax_export_to_text(&read("multi_platform.jaxexp")).expect("decodes");
    assert_eq!(e.platforms, ["cpu", "cuda"]);
    assert!(e.module_text.contains("\"stablehlo.case\""));
    assert!(
        e.module_text
            .contains("jax.global_constant = \"_platform_index\"")
    );
}

#[test]
fn op_specific_attributes() {
    let cases: &[(&str, &[&str])] = &[
        (
            "convnet",
            &[
                "dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>",
                "\"stablehlo.reduce_window\"",
                "window_dimensions = array<i64: 1, 2, 2, 1>",
                "feature_group_count = 1 : i64",
            ],
        ),
        (
            "batched_dot",
            &[
                "lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]",
                "precision_config = [#stablehlo<precision HIGHEST>, #stablehlo<precision HIGHEST>]",
            ],
        ),
        (
            "scatter_gather",
            &[
                "#stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>",
                "slice_sizes = array<i64: 1, 2>",
                "#stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>",
            ],
        ),
        (
            "sort",
            &[
                "\"stablehlo.sort\"",
                "is_stable = true",
                "#stablehlo<comparison_direction LT>",
            ],
        ),
        (
            "complex",
            &[
                "complex<f32>",
                "#stablehlo<fft_type FFT>",
                "fft_length = array<i64: 8>",
            ],
        ),
        ("low_precision", &["bf16", "f16"]),
        (
            "int_types",
            &[
                "tensor<4xui32>",
                "tensor<4xi1>",
                "tensor<4xui8>",
                "tensor<4xi16>",
                "#stablehlo<comparison_type UNSIGNED>",
            ],
        ),
        ("while_loop", &["\"stablehlo.while\""]),
        ("cond", &["\"stablehlo.case\""]),
        ("reduce_window", &["padding = dense<\"0x"]),
        ("transformer", &["tensor<1x4x4xi1>", "\"stablehlo.rsqrt\""]),
    ];
    for (model, wants) in cases {
        for v in ["0_9_0", "0_14_0", "1_5_0", "1_17_0"] {
            let t = text_of(&format!("{model}.v{v}.vhlo"));
            for want in *wants {
                assert!(t.contains(want), "{model} {v}: missing {want:?}\n{t}");
            }
        }
    }
}
