//! Instructions with a computation applied to elements: `reduce`,
//! `reduce-window`, `select-and-scatter`, `scatter`, `gather` (no
//! computation, but scatter's twin), `sort`, `map`.

use strata_diag::{Diagnostic, Result};
use strata_ir::{Attr, AttrKind};

use super::attrs::window;
use super::import::{Importer, Inst, Val};
use super::lexer::whole;
use strata_dialect_xla::names::*;

/// Emits the op with `to_apply` (or another named computation) as its
/// region with block arguments.
pub fn with_region(
    imp: &mut Importer<'_>,
    inst: &Inst<'_, '_>,
    name: &'static str,
    attrs: Vec<(String, Attr)>,
    computations: &[&str],
) -> Result<Val> {
    let operands = inst.all_leaves()?;
    let mut regions = Vec::new();
    for attr in computations {
        let (comp, loc) = inst.attrs.computation(attr)?;
        regions.push(imp.computation(&comp, loc)?);
    }
    let op = imp.create(inst, name, operands, attrs);
    for comp in regions {
        imp.emit_region_with_args(op, comp)?;
    }
    imp.finish(inst, op)
}

/// `reduce(inputs..., inits...), dimensions={1}, to_apply=f`; several
/// inputs give a tuple of results.
pub fn reduce(imp: &mut Importer<'_>, inst: &Inst<'_, '_>) -> Result<Val> {
    let dims = inst.attrs.ints("dimensions")?;
    let attrs = vec![("dimensions".to_string(), imp.dense_i64s(dims))];
    with_region(imp, inst, REDUCE, attrs, &["to_apply"])
}

/// `reduce-window(inputs..., inits...), window={...}, to_apply=f`.
pub fn reduce_window(imp: &mut Importer<'_>, inst: &Inst<'_, '_>) -> Result<Val> {
    let w = whole(&mut inst.attrs.required("window")?, window)?;
    let attrs = vec![
        ("base_dilations".to_string(), imp.dense_i64s(w.lhs_dilate)),
        ("padding".to_string(), imp.padding_attr(&w.pad)),
        ("window_dilations".to_string(), imp.dense_i64s(w.rhs_dilate)),
        ("window_dimensions".to_string(), imp.dense_i64s(w.size)),
        ("window_strides".to_string(), imp.dense_i64s(w.stride)),
    ];
    with_region(imp, inst, REDUCE_WINDOW, attrs, &["to_apply"])
}

/// `select-and-scatter(operand, source, init), window={...}, select=s,
/// scatter=t`.
pub fn select_and_scatter(imp: &mut Importer<'_>, inst: &Inst<'_, '_>) -> Result<Val> {
    inst.expect_operands(3)?;
    let w = whole(&mut inst.attrs.required("window")?, window)?;
    let attrs = vec![
        ("padding".to_string(), imp.padding_attr(&w.pad)),
        ("window_dimensions".to_string(), imp.dense_i64s(w.size)),
        ("window_strides".to_string(), imp.dense_i64s(w.stride)),
    ];
    with_region(imp, inst, SELECT_AND_SCATTER, attrs, &["select", "scatter"])
}

/// A `#stablehlo.<name><field = [..], ...>` struct of dimension lists and
/// (for `index_vector_dim`) one integer; empty batching lists are left out
/// as StableHLO prints them.
fn dimension_numbers(
    imp: &mut Importer<'_>,
    name: &str,
    lists: Vec<(&str, Vec<i64>)>,
    index_vector_dim: i64,
) -> Attr {
    let mut fields = Vec::new();
    for (field, values) in lists {
        if values.is_empty() && field.contains("batching") {
            continue;
        }
        fields.push((field.to_string(), imp.i64_list(&values)));
    }
    fields.push((
        "index_vector_dim".to_string(),
        imp.i64_attr(index_vector_dim),
    ));
    imp.ctx.attr(AttrKind::Struct {
        name: name.to_string(),
        fields,
    })
}

/// `scatter(inputs..., indices, updates...), update_window_dims={..},
/// inserted_window_dims={..}, scatter_dims_to_operand_dims={..},
/// index_vector_dim=1, to_apply=f`.
pub fn scatter(imp: &mut Importer<'_>, inst: &Inst<'_, '_>) -> Result<Val> {
    let a = &inst.attrs;
    let lists = vec![
        ("update_window_dims", a.ints_or_empty("update_window_dims")?),
        (
            "inserted_window_dims",
            a.ints_or_empty("inserted_window_dims")?,
        ),
        (
            "input_batching_dims",
            a.ints_or_empty("input_batching_dims")?,
        ),
        (
            "scatter_indices_batching_dims",
            a.ints_or_empty("scatter_indices_batching_dims")?,
        ),
        (
            "scatter_dims_to_operand_dims",
            a.ints_or_empty("scatter_dims_to_operand_dims")?,
        ),
    ];
    let index_vector_dim = a.int("index_vector_dim")?;
    let numbers = dimension_numbers(imp, "stablehlo.scatter", lists, index_vector_dim);
    let attrs = vec![
        (
            "indices_are_sorted".to_string(),
            imp.bool_attr(a.flag_or("indices_are_sorted", false)?),
        ),
        ("scatter_dimension_numbers".to_string(), numbers),
        (
            "unique_indices".to_string(),
            imp.bool_attr(a.flag_or("unique_indices", false)?),
        ),
    ];
    with_region(imp, inst, SCATTER, attrs, &["to_apply"])
}

/// `gather(operand, indices), offset_dims={..}, collapsed_slice_dims={..},
/// start_index_map={..}, index_vector_dim=1, slice_sizes={..}`.
pub fn gather(imp: &mut Importer<'_>, inst: &Inst<'_, '_>) -> Result<Val> {
    inst.expect_operands(2)?;
    let a = &inst.attrs;
    let lists = vec![
        ("offset_dims", a.ints_or_empty("offset_dims")?),
        (
            "collapsed_slice_dims",
            a.ints_or_empty("collapsed_slice_dims")?,
        ),
        (
            "operand_batching_dims",
            a.ints_or_empty("operand_batching_dims")?,
        ),
        (
            "start_indices_batching_dims",
            a.ints_or_empty("start_indices_batching_dims")?,
        ),
        ("start_index_map", a.ints_or_empty("start_index_map")?),
    ];
    let index_vector_dim = a.int("index_vector_dim")?;
    let numbers = dimension_numbers(imp, "stablehlo.gather", lists, index_vector_dim);
    let sizes = a.ints("slice_sizes")?;
    let attrs = vec![
        ("dimension_numbers".to_string(), numbers),
        (
            "indices_are_sorted".to_string(),
            imp.bool_attr(a.flag_or("indices_are_sorted", false)?),
        ),
        ("slice_sizes".to_string(), imp.dense_i64s(sizes)),
    ];
    let operands = inst.all_leaves()?;
    imp.build(inst, GATHER, operands, attrs)
}

/// `sort(inputs...), dimensions={1}, is_stable=true, to_apply=less`.
pub fn sort(imp: &mut Importer<'_>, inst: &Inst<'_, '_>) -> Result<Val> {
    let dims = inst.attrs.ints("dimensions")?;
    let [d] = dims[..] else {
        return Err(Diagnostic::error(
            inst.instr.attr("dimensions").map_or(inst.loc(), |a| a.loc),
            format!("'sort' takes one dimension, found {}", dims.len()),
        ));
    };
    let attrs = vec![
        ("dimension".to_string(), imp.i64_attr(d)),
        (
            "is_stable".to_string(),
            imp.bool_attr(inst.attrs.flag_or("is_stable", false)?),
        ),
    ];
    with_region(imp, inst, SORT, attrs, &["to_apply"])
}

/// `map(inputs...), dimensions={0,1}, to_apply=f`.
pub fn map(imp: &mut Importer<'_>, inst: &Inst<'_, '_>) -> Result<Val> {
    let dims = inst.attrs.ints("dimensions")?;
    let attrs = vec![("dimensions".to_string(), imp.dense_i64s(dims))];
    with_region(imp, inst, MAP, attrs, &["to_apply"])
}
