//! The module's call graph must be acyclic.
//!
//! A function that reaches itself through calls would compile to a library
//! that recurses until it overflows its caller's stack (a model file is
//! untrusted input), and `strata check` would loop forever in it. XLA's
//! computations cannot recurse either: HLO's `to_apply`, `calls`,
//! `condition`, `body` and `branch_computations` form a DAG.
//!
//! An edge F -> G is any symbol reference to function G from an op inside
//! function F: `func.call`'s `callee`, `xla.composite`'s `decomposition`,
//! `run_parallel`'s `programs`, a custom call's `called_computations`, and
//! whatever later op refers to functions the same way. The search is
//! iterative (no recursion of its own, so a chain of 100,000 calls is
//! fine) and linear in the number of ops and edges.

use std::collections::HashMap;

use strata_diag::Diagnostic;

use crate::attrs::{Attr, AttrKind};
use crate::builtin::{FUNC, func_name};
use crate::context::{Context, OpId};

/// Visit state of a function in the depth-first search.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mark {
    New,
    /// On the current path.
    Open,
    Done,
}

/// Err with a located diagnostic when the functions of `module` (a module
/// op) call each other in a cycle; the error sits on the call that closes
/// the cycle and lists the cycle.
pub fn check_acyclic(ctx: &Context, module: OpId) -> Result<(), Diagnostic> {
    let Some(body) = ctx.entry_block(module, 0) else {
        return Ok(());
    };
    let funcs: Vec<OpId> = ctx.blocks[body]
        .ops
        .iter()
        .copied()
        .filter(|&o| ctx.op(o).name == FUNC)
        .collect();
    let index: HashMap<&str, usize> = funcs
        .iter()
        .enumerate()
        .filter_map(|(i, &f)| Some((func_name(ctx, f)?, i)))
        .collect();
    // Edges of each function: (callee, the op that refers to it).
    let edges: Vec<Vec<(usize, OpId)>> = funcs
        .iter()
        .map(|&f| {
            let mut out = Vec::new();
            ctx.walk_nested(f, &mut |op| {
                for &(_, a) in &ctx.op(op).attrs {
                    for_each_symbol(ctx, a, &mut |name| {
                        if let Some(&g) = index.get(name) {
                            out.push((g, op));
                        }
                    });
                }
            });
            out
        })
        .collect();

    let mut mark = vec![Mark::New; funcs.len()];
    for root in 0..funcs.len() {
        if mark[root] != Mark::New {
            continue;
        }
        // (function, next edge to follow) on the current path.
        let mut path: Vec<(usize, usize)> = vec![(root, 0)];
        mark[root] = Mark::Open;
        while let Some(top) = path.last_mut() {
            let f = top.0;
            let Some(&(g, at)) = edges[f].get(top.1) else {
                mark[f] = Mark::Done;
                path.pop();
                continue;
            };
            top.1 += 1;
            match mark[g] {
                Mark::Done => {}
                Mark::New => {
                    mark[g] = Mark::Open;
                    path.push((g, 0));
                }
                Mark::Open => {
                    let start = path.iter().position(|&(p, _)| p == g).unwrap_or(0);
                    let name = |i: usize| format!("@{}", func_name(ctx, funcs[i]).unwrap_or("?"));
                    let mut cycle: Vec<String> =
                        path[start..].iter().map(|&(p, _)| name(p)).collect();
                    cycle.push(name(g));
                    return Err(ctx.error(
                        at,
                        format!(
                            "functions call each other in a cycle ({}); recursion is not supported",
                            cycle.join(" -> ")
                        ),
                    ));
                }
            }
        }
    }
    Ok(())
}

/// Calls `f` with every symbol name `a` holds (itself, or nested in arrays
/// and dictionaries).
pub fn for_each_symbol<'c>(ctx: &'c Context, a: Attr, f: &mut dyn FnMut(&'c str)) {
    let mut stack = vec![a];
    while let Some(a) = stack.pop() {
        match ctx.attr_kind(a) {
            AttrKind::SymbolRef(s) => f(s),
            AttrKind::Array(items) => stack.extend(items.iter().copied()),
            AttrKind::Dict(fields) => stack.extend(fields.iter().map(|&(_, v)| v)),
            AttrKind::Struct { fields, .. } => stack.extend(fields.iter().map(|&(_, v)| v)),
            _ => {}
        }
    }
}
