//! The library's signature as JSON (`P_signature()`, `strata info`): what a
//! generic host needs to build a safe call without the header.
//!
//! ```json
//! {"library": "model", "functions": [{"name": "main", "symbol": "model_main",
//!   "packed": "model_main_packed", "arguments": [{"name": "x", "path": "x",
//!   "position": "arg0", "element_type": "f32", "c_type": "float",
//!   "shape": [4, 8]}], "results": [...], "donated": [[0, 0]]}]}
//! ```

use serde_json::{Value, json};
use strata_aot::{CFunction, CParam};

/// The JSON signature of the library with symbol prefix `prefix`.
pub fn json(prefix: &str, funcs: &[CFunction]) -> String {
    let functions: Vec<Value> = funcs.iter().map(|f| function(prefix, f)).collect();
    json!({"library": prefix, "functions": functions}).to_string()
}

fn function(prefix: &str, f: &CFunction) -> Value {
    let name = f
        .c_name
        .strip_prefix(prefix)
        .and_then(|n| n.strip_prefix('_'))
        .unwrap_or(&f.c_name);
    let var = f.batch.as_ref().map(|b| b.var.as_str());
    let params = |outputs: bool| -> Vec<Value> {
        f.params
            .iter()
            .filter(|p| p.is_output == outputs)
            .map(|p| param(p, var))
            .collect()
    };
    let dimension_variables: Vec<Value> = f
        .batch
        .iter()
        .map(|b| json!({"name": b.var, "min": b.min, "compiled_sizes": b.sizes}))
        .collect();
    json!({
        "name": name,
        "symbol": f.c_name,
        "packed": format!("{}_packed", f.c_name),
        "dimension_variables": dimension_variables,
        "arguments": params(false),
        "results": params(true),
        "donated": f.aliases.iter().map(|&(a, r)| json!([a, r])).collect::<Vec<_>>(),
        "dropped_arguments": f.dropped,
    })
}

/// A buffer; a dimension of size the variable `var` shows as its name.
fn param(p: &CParam, var: Option<&str>) -> Value {
    let shape: Vec<Value> = p
        .shape
        .iter()
        .map(|&d| match var {
            Some(v) if d < 0 => json!(strata_aot::batch_formula(d, v)),
            _ => json!(d),
        })
        .collect();
    json!({
        "name": p.name,
        "path": p.path,
        "position": p.position,
        "element_type": p.elem_doc,
        "c_type": p.c_type,
        "shape": shape,
    })
}

/// The signature as a table, one block per function:
///
/// ```text
/// @main (model_main, 6 buffers)
///   in   params_attn_wk   f32[4,8]   params['attn']['wk']
///   out  result_out       f32[3,2]   result['out']
/// ```
pub fn table(json: &str) -> Result<String, String> {
    let v: Value =
        serde_json::from_str(json).map_err(|e| format!("the signature is not valid JSON: {e}"))?;
    let mut out = String::new();
    let functions = v["functions"].as_array().cloned().unwrap_or_default();
    for f in functions {
        let (args, results) = (
            f["arguments"].as_array().cloned().unwrap_or_default(),
            f["results"].as_array().cloned().unwrap_or_default(),
        );
        out.push_str(&format!(
            "@{} ({}, {} buffers)\n",
            f["name"].as_str().unwrap_or("?"),
            f["symbol"].as_str().unwrap_or("?"),
            args.len() + results.len()
        ));
        let rows: Vec<[String; 4]> = args
            .iter()
            .map(|p| ("in", p))
            .chain(results.iter().map(|p| ("out", p)))
            .map(|(dir, p)| {
                let dims: Vec<String> = p["shape"]
                    .as_array()
                    .map(|s| {
                        s.iter()
                            .map(|d| d.as_str().map_or_else(|| d.to_string(), str::to_string))
                            .collect()
                    })
                    .unwrap_or_default();
                [
                    dir.to_string(),
                    p["name"].as_str().unwrap_or("?").to_string(),
                    format!(
                        "{}[{}]",
                        p["element_type"].as_str().unwrap_or("?"),
                        dims.join(",")
                    ),
                    p["path"].as_str().unwrap_or("").to_string(),
                ]
            })
            .collect();
        let width = |i: usize| rows.iter().map(|r| r[i].len()).max().unwrap_or(0);
        let (w1, w2) = (width(1), width(2));
        for [dir, name, ty, path] in rows {
            out.push_str(format!("  {dir:<4} {name:<w1$}  {ty:<w2$}  {path}").trim_end());
            out.push('\n');
        }
        for d in f["dimension_variables"].as_array().into_iter().flatten() {
            out.push_str(&format!(
                "  dimension {} >= {} (compiled for {})\n",
                d["name"].as_str().unwrap_or("?"),
                d["min"],
                d["compiled_sizes"]
                    .as_array()
                    .map(|s| s
                        .iter()
                        .map(|v| v.to_string())
                        .collect::<Vec<_>>()
                        .join(", "))
                    .unwrap_or_default()
            ));
        }
        if let Some(pairs) = f["donated"].as_array().filter(|d| !d.is_empty()) {
            let shown: Vec<String> = pairs
                .iter()
                .map(|p| format!("arg{} -> res{}", p[0], p[1]))
                .collect();
            out.push_str(&format!("  donated: {}\n", shown.join(", ")));
        }
    }
    Ok(out)
}
