//! `strata compile M -o M.dot`: the front-dialect module (after the front
//! passes, as the lowering sees it) as a Graphviz graph.
//!
//! One cluster per function; a node per top-level op (ops with regions, such
//! as a reduce's body or a while, are one node), the arguments and results
//! as ellipses; edges carry the value's type. Ops that the lowering fuses
//! into one loop nest (their results are recomputed in the consumer's loop
//! instead of being written to a buffer; see `plan::modes`) are outlined
//! together in a dashed "fused" box.

use std::collections::HashMap;
use std::fmt::Write as _;

use strata_conversion::xla_to_loop::plan::{self, Mode};
use strata_ir::text::printer::type_to_string;
use strata_ir::{Context, OpId, Value, ValueDef, builtin};

/// The graph of every function of `module`.
pub fn graph(ctx: &Context, module: OpId) -> String {
    let mut s = String::from(
        "digraph strata {\n  rankdir=TB;\n  node [shape=box, fontname=\"monospace\", fontsize=10];\n  edge [fontname=\"monospace\", fontsize=9];\n",
    );
    for (k, func) in builtin::defined_funcs(ctx, module).into_iter().enumerate() {
        function_graph(ctx, func, k, &mut s);
    }
    s.push_str("}\n");
    s
}

/// Text safe inside a double-quoted Graphviz string.
fn quoted(text: &str) -> String {
    text.replace('\\', "\\\\").replace('"', "\\\"")
}

/// `tensor<4x8xf32>` drawn as `4x8xf32`.
fn short_type(ctx: &Context, v: Value) -> String {
    let t = type_to_string(ctx, ctx.value_ty(v));
    t.strip_prefix("tensor<")
        .and_then(|r| r.strip_suffix('>'))
        .map(str::to_string)
        .unwrap_or(t)
}

/// Groups of ops fused into one loop nest: union of each op with the
/// consumers of its fused results.
fn fused_groups(ctx: &Context, body: &[OpId]) -> HashMap<OpId, usize> {
    let uses = plan::uses(ctx, body);
    let modes = plan::modes(ctx, body, &uses);
    let mut parent: HashMap<OpId, OpId> = body.iter().map(|&o| (o, o)).collect();
    fn root(parent: &mut HashMap<OpId, OpId>, mut o: OpId) -> OpId {
        while let Some(&p) = parent.get(&o) {
            if p == o {
                break;
            }
            o = p;
        }
        o
    }
    for &op in body {
        for &r in &ctx.op(op).results {
            if modes.get(&r) != Some(&Mode::Fused) {
                continue;
            }
            for &user in uses.get(&r).map(Vec::as_slice).unwrap_or(&[]) {
                let (a, b) = (root(&mut parent, op), root(&mut parent, user));
                if a != b {
                    parent.insert(a, b);
                }
            }
        }
    }
    let mut ids: HashMap<OpId, usize> = HashMap::new();
    let mut sizes: HashMap<OpId, usize> = HashMap::new();
    let roots: Vec<(OpId, OpId)> = body.iter().map(|&o| (o, root(&mut parent, o))).collect();
    for &(_, r) in &roots {
        *sizes.entry(r).or_default() += 1;
    }
    let mut next = 0;
    let mut group_of_root: HashMap<OpId, usize> = HashMap::new();
    for (o, r) in roots {
        if sizes[&r] > 1 {
            let g = *group_of_root.entry(r).or_insert_with(|| {
                next += 1;
                next - 1
            });
            ids.insert(o, g);
        }
    }
    ids
}

fn function_graph(ctx: &Context, func: OpId, k: usize, s: &mut String) {
    let Some(block) = ctx.entry_block(func, 0) else {
        return;
    };
    let name = builtin::func_name(ctx, func).unwrap_or("?");
    let body: Vec<OpId> = ctx.blocks[block].ops.clone();
    let groups = fused_groups(ctx, &body);
    let node = |o: OpId| format!("f{k}_op{}", o.index());
    let _ = writeln!(
        s,
        "  subgraph cluster_f{k} {{\n    label=\"@{}\";",
        quoted(name)
    );
    // Where each value comes from: an argument node or an op node.
    let mut source: HashMap<Value, String> = HashMap::new();
    for (i, &arg) in ctx.blocks[block].args.iter().enumerate() {
        let id = format!("f{k}_arg{i}");
        // The model's path for the argument (JAX's pytree path), if any.
        let path = crate::abi::dict_string(ctx, func, "arg_attrs", i, strata_ir::text::PATH_ATTR)
            .map(|p| format!("\\n{}", quoted(&strata_aot::comment_text(&p))))
            .unwrap_or_default();
        let _ = writeln!(
            s,
            "    {id} [shape=ellipse, label=\"%arg{i}{path}\\n{}\"];",
            quoted(&short_type(ctx, arg))
        );
        source.insert(arg, id);
    }
    let mut by_group: HashMap<usize, Vec<OpId>> = HashMap::new();
    for &op in &body {
        match groups.get(&op) {
            Some(&g) => by_group.entry(g).or_default().push(op),
            None => write_node(ctx, op, &node(op), s, "    "),
        }
    }
    let mut group_ids: Vec<usize> = by_group.keys().copied().collect();
    group_ids.sort_unstable();
    for g in group_ids {
        let _ = writeln!(
            s,
            "    subgraph cluster_f{k}_fused{g} {{\n      label=\"fused\"; style=dashed;"
        );
        for &op in &by_group[&g] {
            write_node(ctx, op, &node(op), s, "      ");
        }
        s.push_str("    }\n");
    }
    for &op in &body {
        for &r in &ctx.op(op).results {
            source.insert(r, node(op));
        }
    }
    for &op in &body {
        for &v in ctx.op(op).operands() {
            let from = source
                .get(&v)
                .cloned()
                .unwrap_or_else(|| outside(ctx, v, k));
            let _ = writeln!(
                s,
                "    {from} -> {} [label=\"{}\"];",
                node(op),
                quoted(&short_type(ctx, v))
            );
        }
    }
    s.push_str("  }\n");
}

/// A value defined outside the function's block (cannot happen in verified
/// IR, but drawn rather than dropped).
fn outside(ctx: &Context, v: Value, k: usize) -> String {
    match ctx.values[v].def {
        ValueDef::OpResult(op, _) => format!("f{k}_op{}", op.index()),
        ValueDef::BlockArg(..) => format!("f{k}_outside"),
    }
}

fn write_node(ctx: &Context, op: OpId, id: &str, s: &mut String, indent: &str) {
    let o = ctx.op(op);
    let label = if o.name == builtin::RETURN {
        // The model's paths for the results (`jax.result_info`), if any.
        let paths: Vec<String> = builtin::enclosing_func(ctx, op)
            .map(|f| {
                (0..o.operands().len())
                    .filter_map(|i| {
                        crate::abi::dict_string(ctx, f, "res_attrs", i, "jax.result_info")
                    })
                    .map(|p| quoted(&strata_aot::comment_text(&p)))
                    .collect()
            })
            .unwrap_or_default();
        std::iter::once("return".to_string())
            .chain(paths)
            .collect::<Vec<_>>()
            .join("\\n")
    } else {
        let types: Vec<String> = o.results.iter().map(|&r| short_type(ctx, r)).collect();
        let regions = if o.regions.is_empty() { "" } else { " {…}" };
        // Graphviz's line break, between the quoted parts.
        format!(
            "{}{regions}\\n{}",
            quoted(o.name),
            quoted(&types.join(", "))
        )
    };
    let shape = if o.name == builtin::RETURN {
        ", shape=ellipse"
    } else {
        ""
    };
    let _ = writeln!(s, "{indent}{id} [label=\"{label}\"{shape}];");
}
