//! VHLO inherent attributes to StableHLO's, op by op, the way StableHLO's
//! VHLO-to-StableHLO legalization does: defaults dropped, dimension
//! attributes gathered into `#stablehlo.dot<...>`-style structs, integer
//! tensors that became `array<i64: ...>`, channel ids into channel handles,
//! and strings that name functions into symbol references. Attributes an
//! older op version lacks are simply absent, which StableHLO reads as the
//! default the upgrade would have filled in.

use std::fmt::Write as _;

use super::model::*;
use crate::error::{Result, err};
use crate::print::text::{Text, int_list, symbol};

/// Printed `name = value` pairs, in the order they were produced.
pub type Named = Vec<(String, String)>;

/// Converts the inherent attributes of VHLO op `base` (its name without
/// the `vhlo.` prefix and `_vN` suffix).
pub fn convert(text: &Text<'_, '_, '_>, base: &str, attrs: &[(&str, AttrId)]) -> Result<Named> {
    let mut c = Conv {
        text,
        base,
        attrs: attrs.to_vec(),
        out: Vec::new(),
    };
    c.remove_defaults();
    c.implode()?;
    let rest = std::mem::take(&mut c.attrs);
    for (name, id) in rest {
        c.one(name, id)?;
    }
    Ok(c.out)
}

struct Conv<'c, 't, 'f, 'a> {
    text: &'c Text<'t, 'f, 'a>,
    base: &'c str,
    attrs: Vec<(&'c str, AttrId)>,
    out: Named,
}

const DENSE_I64: &[(&str, &[&str])] = &[
    ("fft", &["fft_length"]),
    ("broadcast", &["broadcast_sizes"]),
    ("dynamic_slice", &["slice_sizes"]),
    ("reverse", &["dimensions"]),
    ("transpose", &["permutation"]),
    (
        "pad",
        &["edge_padding_low", "edge_padding_high", "interior_padding"],
    ),
    ("slice", &["start_indices", "limit_indices", "strides"]),
    ("broadcast_in_dim", &["broadcast_dimensions"]),
    (
        "dynamic_broadcast_in_dim",
        &[
            "broadcast_dimensions",
            "known_expanding_dimensions",
            "known_nonexpanding_dimensions",
        ],
    ),
    (
        "select_and_scatter",
        &["window_dimensions", "window_strides"],
    ),
    (
        "reduce_window",
        &[
            "window_dimensions",
            "window_strides",
            "base_dilations",
            "window_dilations",
        ],
    ),
    ("map", &["dimensions"]),
    ("reduce", &["dimensions"]),
    ("gather", &["slice_sizes"]),
    (
        "convolution",
        &["lhs_dilation", "rhs_dilation", "window_strides"],
    ),
    (
        "dynamic_conv",
        &["lhs_dilation", "rhs_dilation", "window_strides"],
    ),
];

const CHANNEL_OPS: &[&str] = &[
    "all_gather",
    "all_reduce",
    "all_to_all",
    "collective_permute",
    "reduce_scatter",
    "collective_broadcast",
    "collective_reduce",
];

const RESULT_ACCURACY_OPS: &[&str] = &[
    "cbrt",
    "cosine",
    "exponential",
    "exponential_minus_one",
    "log",
    "log_plus_one",
    "logistic",
    "rsqrt",
    "sine",
    "sqrt",
    "tan",
    "tanh",
];

impl<'c> Conv<'c, '_, '_, '_> {
    fn attr(&self, id: AttrId) -> &Attr {
        self.text.t.attr(id)
    }

    fn get(&self, name: &str) -> Option<AttrId> {
        self.attrs.iter().find(|(n, _)| *n == name).map(|(_, a)| *a)
    }

    fn take(&mut self, name: &str) -> Option<AttrId> {
        let i = self.attrs.iter().position(|(n, _)| *n == name)?;
        Some(self.attrs.remove(i).1)
    }

    fn drop_if(&mut self, name: &str, pred: impl Fn(&Self, AttrId) -> bool) {
        if self.get(name).is_some_and(|a| pred(self, a)) {
            self.take(name);
        }
    }

    fn is_bool(&self, a: AttrId, v: bool) -> bool {
        matches!(self.attr(a), Attr::Bool(b) if *b == v)
    }
    fn is_int(&self, a: AttrId, v: i128) -> bool {
        matches!(self.attr(a), Attr::Int { value, .. } if *value == v)
    }
    fn is_empty_array(&self, a: AttrId) -> bool {
        matches!(self.attr(a), Attr::Array(v) if v.is_empty())
    }
    fn is_empty_str_or_dict(&self, a: AttrId) -> bool {
        match self.attr(a) {
            Attr::Str(s) => s.is_empty(),
            Attr::Dict(d) => d.is_empty(),
            _ => false,
        }
    }
    fn is_empty_tensor(&self, a: AttrId) -> bool {
        matches!(self.attr(a), Attr::Tensor { data, .. } if data.is_empty())
    }
    fn is_enum(&self, a: AttrId, kind: EnumKind, v: u64) -> bool {
        matches!(self.attr(a), Attr::Enum(k, x) if *k == kind && *x == v)
    }
    /// An array whose every element is the enum value `v`.
    fn is_enum_array(&self, a: AttrId, kind: EnumKind, v: u64) -> bool {
        match self.attr(a) {
            Attr::Array(items) => items.iter().all(|i| self.is_enum(*i, kind, v)),
            _ => false,
        }
    }
    /// A tensor all of whose elements are `v` (integers; booleans as 0/1).
    fn is_splat(&self, a: AttrId, v: i64) -> bool {
        match self.text.tensor_ints(a) {
            Ok(xs) => !xs.is_empty() && xs.iter().all(|x| *x == v),
            Err(_) => false,
        }
    }

    fn remove_defaults(&mut self) {
        let b = self.base;
        if b == "func" {
            self.drop_if("sym_visibility", |c, a| c.is_empty_str_or_dict(a));
            self.drop_if("arg_attrs", |c, a| c.is_empty_array(a));
            self.drop_if("res_attrs", |c, a| c.is_empty_array(a));
        }
        if CHANNEL_OPS.contains(&b) {
            self.drop_if("channel_id", |c, a| c.is_int(a, 0));
            self.drop_if("use_global_device_ids", |c, a| c.is_bool(a, false));
            self.drop_if("has_dynamic_root", |c, a| c.is_bool(a, false));
        }
        match b {
            "cholesky" => self.drop_if("lower", |c, a| c.is_bool(a, false)),
            "compare" => self.drop_if("compare_type", |c, a| {
                c.is_enum(a, EnumKind::ComparisonType, 0)
            }),
            "composite" => {
                self.drop_if("version", |c, a| c.is_int(a, 0));
                self.drop_if("composite_attributes", |c, a| c.is_empty_str_or_dict(a));
            }
            "convolution" | "dynamic_conv" => {
                self.drop_if("window_strides", |c, a| c.is_splat(a, 1));
                self.drop_if("padding", |c, a| c.is_splat(a, 0));
                self.drop_if("lhs_dilation", |c, a| c.is_splat(a, 1));
                self.drop_if("rhs_dilation", |c, a| c.is_splat(a, 1));
                self.drop_if("window_reversal", |c, a| c.is_splat(a, 0));
                self.drop_if("precision_config", |c, a| {
                    c.is_enum_array(a, EnumKind::Precision, 0)
                });
            }
            "custom_call" => {
                self.drop_if("has_side_effect", |c, a| c.is_bool(a, false));
                self.drop_if("backend_config", |c, a| c.is_empty_str_or_dict(a));
                self.drop_if("api_version", |c, a| {
                    c.is_enum(a, EnumKind::CustomCallApiVersion, 1)
                });
                self.drop_if("called_computations", |c, a| c.is_empty_array(a));
                let layouts_empty = ["operand_layouts", "result_layouts"]
                    .iter()
                    .all(|n| self.get(n).is_none_or(|a| self.is_empty_array(a)));
                if layouts_empty {
                    self.take("operand_layouts");
                    self.take("result_layouts");
                }
                self.drop_if("output_operand_aliases", |c, a| c.is_empty_array(a));
                self.drop_if("result_tilings", |c, a| c.is_empty_array(a));
            }
            "dot_general" | "dot" => self.drop_if("precision_config", |c, a| {
                c.is_enum_array(a, EnumKind::Precision, 0)
            }),
            "dynamic_broadcast_in_dim" => {
                self.drop_if("known_expanding_dimensions", |c, a| c.is_empty_tensor(a));
                self.drop_if("known_nonexpanding_dimensions", |c, a| c.is_empty_tensor(a));
            }
            "gather" | "dynamic_gather" => {
                self.drop_if("indices_are_sorted", |c, a| c.is_bool(a, false))
            }
            "infeed" => {
                self.drop_if("infeed_config", |c, a| c.is_empty_str_or_dict(a));
                self.drop_if("layout", |c, a| c.is_empty_array(a));
            }
            "outfeed" => self.drop_if("outfeed_config", |c, a| c.is_empty_str_or_dict(a)),
            "recv" | "send" => {
                self.drop_if("is_host_transfer", |c, a| c.is_bool(a, false));
                self.drop_if("source_target_pairs", |c, a| c.is_empty_tensor(a));
            }
            "reduce_window" => {
                self.drop_if("window_strides", |c, a| c.is_splat(a, 1));
                self.drop_if("base_dilations", |c, a| c.is_splat(a, 1));
                self.drop_if("window_dilations", |c, a| c.is_splat(a, 1));
                self.drop_if("padding", |c, a| c.is_splat(a, 0));
            }
            "scatter" => {
                self.drop_if("indices_are_sorted", |c, a| c.is_bool(a, false));
                self.drop_if("unique_indices", |c, a| c.is_bool(a, false));
            }
            "select_and_scatter" => {
                self.drop_if("window_strides", |c, a| c.is_splat(a, 1));
                self.drop_if("padding", |c, a| c.is_splat(a, 0));
            }
            "sort" => {
                self.drop_if("dimension", |c, a| c.is_int(a, -1));
                self.drop_if("is_stable", |c, a| c.is_bool(a, false));
            }
            _ => {}
        }
        if RESULT_ACCURACY_OPS.contains(&b) {
            self.drop_if("result_accuracy", |c, a| {
                matches!(c.attr(a), Attr::ResultAccuracy { atol: 0, rtol: 0, ulps: 0, mode }
                    if c.is_enum(*mode, EnumKind::ResultAccuracyMode, 0))
            });
        }
    }

    fn ints(&mut self, name: &str) -> Result<Vec<i64>> {
        match self.take(name) {
            Some(a) => self.text.tensor_ints(a),
            None => Ok(Vec::new()),
        }
    }

    fn int(&mut self, name: &str) -> Result<i64> {
        match self.take(name).map(|a| self.attr(a).clone()) {
            Some(Attr::Int { value, .. }) => {
                i64::try_from(value).or_else(|_| err(0, format!("'{name}' is out of range")))
            }
            _ => err(0, format!("vhlo.{} needs an integer '{name}'", self.base)),
        }
    }

    /// Gathers the per-field dimension attributes into StableHLO's structs.
    fn implode(&mut self) -> Result<()> {
        match self.base {
            "convolution" | "dynamic_conv" => self.conv_dims(),
            "dot_general" => {
                let mut s = String::from("#stablehlo.dot<");
                let mut first = true;
                for f in [
                    "lhs_batching_dimensions",
                    "rhs_batching_dimensions",
                    "lhs_contracting_dimensions",
                    "rhs_contracting_dimensions",
                ] {
                    let v = self.ints(f)?;
                    field_list(&mut s, &mut first, f, &v);
                }
                s.push('>');
                self.out.push(("dot_dimension_numbers".into(), s));
                self.dot_algorithm()
            }
            "gather" | "dynamic_gather" => {
                let mut s = String::from("#stablehlo.gather<");
                let mut first = true;
                for f in [
                    "offset_dims",
                    "collapsed_slice_dims",
                    "operand_batching_dims",
                    "start_indices_batching_dims",
                    "start_index_map",
                ] {
                    let v = self.ints(f)?;
                    field_list(&mut s, &mut first, f, &v);
                }
                let ivd = self.int("index_vector_dim")?;
                let _ = write!(
                    s,
                    "{}index_vector_dim = {ivd}>",
                    if first { "" } else { ", " }
                );
                self.out.push(("dimension_numbers".into(), s));
                Ok(())
            }
            "scatter" => {
                let mut s = String::from("#stablehlo.scatter<");
                let mut first = true;
                for f in [
                    "update_window_dims",
                    "inserted_window_dims",
                    "input_batching_dims",
                    "scatter_indices_batching_dims",
                    "scatter_dims_to_operand_dims",
                ] {
                    let v = self.ints(f)?;
                    field_list(&mut s, &mut first, f, &v);
                }
                let ivd = self.int("index_vector_dim")?;
                let _ = write!(
                    s,
                    "{}index_vector_dim = {ivd}>",
                    if first { "" } else { ", " }
                );
                self.out.push(("scatter_dimension_numbers".into(), s));
                Ok(())
            }
            "send" | "recv" => {
                let id = self.int("channel_id")?;
                let ty = self.int("channel_type")?;
                let s = format!("#stablehlo.channel_handle<handle = {id}, type = {ty}>");
                self.out.push(("channel_handle".into(), s));
                Ok(())
            }
            _ => Ok(()),
        }
    }

    fn conv_dims(&mut self) -> Result<()> {
        let ib = self.int("input_batch_dimension")?;
        let i_f = self.int("input_feature_dimension")?;
        let is = self.ints("input_spatial_dimensions")?;
        let ki = self.int("kernel_input_feature_dimension")?;
        let ko = self.int("kernel_output_feature_dimension")?;
        let ks = self.ints("kernel_spatial_dimensions")?;
        let ob = self.int("output_batch_dimension")?;
        let of = self.int("output_feature_dimension")?;
        let os = self.ints("output_spatial_dimensions")?;
        let mut s = String::from("#stablehlo.conv<");
        conv_layout(&mut s, ('b', ib), ('f', i_f), &is)?;
        s.push('x');
        conv_layout(&mut s, ('i', ki), ('o', ko), &ks)?;
        s.push_str("->");
        conv_layout(&mut s, ('b', ob), ('f', of), &os)?;
        s.push('>');
        self.out.push(("dimension_numbers".into(), s));
        // dynamic_conv_v1's padding attribute became an operand in v2; only
        // the default (all zero, dropped above) can be read.
        if self.base == "dynamic_conv" && self.get("padding").is_some() {
            return err(
                0,
                "vhlo.dynamic_conv_v1 with non-zero padding is not supported",
            );
        }
        Ok(())
    }

    fn dot_algorithm(&mut self) -> Result<()> {
        const FIELDS: [&str; 7] = [
            "lhs_precision_type",
            "rhs_precision_type",
            "accumulation_type",
            "lhs_component_count",
            "rhs_component_count",
            "num_primitive_operations",
            "allow_imprecise_accumulation",
        ];
        let vals: Vec<Option<AttrId>> = FIELDS.iter().map(|f| self.take(f)).collect();
        let is_none = |a: &Option<AttrId>| match a {
            None => true,
            Some(a) => matches!(self.attr(*a), Attr::Type(t)
                if matches!(self.text.t.ty(*t), Type::Scalar(Scalar::None))),
        };
        if vals.iter().all(is_none) {
            return Ok(());
        }
        let mut s = String::from("#stablehlo.dot_algorithm<");
        for (i, (f, v)) in FIELDS.iter().zip(&vals).enumerate() {
            let Some(v) = v else {
                return err(0, format!("dot_general algorithm lacks '{f}'"));
            };
            if i > 0 {
                s.push_str(", ");
            }
            let _ = write!(s, "{f} = ");
            match self.attr(*v) {
                Attr::Int { value, .. } => {
                    let _ = write!(s, "{value}");
                }
                _ => self.text.attr(&mut s, *v)?,
            }
        }
        s.push('>');
        self.out.push(("algorithm".into(), s));
        Ok(())
    }

    /// One remaining attribute: special spellings first, else generic.
    fn one(&mut self, name: &'c str, id: AttrId) -> Result<()> {
        let b = self.base;
        let mut v = String::new();
        let mut key = name.to_string();
        let dense = DENSE_I64
            .iter()
            .any(|(op, names)| *op == b && names.contains(&name));
        if dense {
            let xs = self.text.tensor_ints(id)?;
            v.push_str("array<i64");
            array_items(&mut v, xs.iter().map(|x| x.to_string()));
        } else if name == "window_reversal" && matches!(b, "convolution" | "dynamic_conv") {
            let xs = self.text.tensor_ints(id)?;
            v.push_str("array<i1");
            array_items(&mut v, xs.iter().map(|x| (*x != 0).to_string()));
        } else if CHANNEL_OPS.contains(&b) && name == "channel_id" {
            key = "channel_handle".into();
            let Attr::Int { value, .. } = self.attr(id) else {
                return err(0, "channel_id is not an integer");
            };
            let _ = write!(v, "#stablehlo.channel_handle<handle = {value}, type = 0>");
        } else if matches!(name, "use_global_device_ids" | "has_dynamic_root")
            && CHANNEL_OPS.contains(&b)
        {
            if !self.is_bool(id, true) {
                return Ok(());
            }
            v.push_str("unit");
        } else if (b == "custom_call" && name == "called_computations")
            || (b == "composite" && name == "decomposition")
            || (b == "call" && name == "callee")
        {
            self.symbols(&mut v, id)?;
        } else {
            self.text.attr(&mut v, id)?;
        }
        self.out.push((key, v));
        Ok(())
    }

    /// A string (or array of strings) naming functions, as symbol refs.
    fn symbols(&self, v: &mut String, id: AttrId) -> Result<()> {
        match self.attr(id) {
            Attr::Str(s) => symbol(v, s),
            Attr::Array(items) => {
                v.push('[');
                for (i, a) in items.iter().enumerate() {
                    if i > 0 {
                        v.push_str(", ");
                    }
                    let Attr::Str(s) = self.attr(*a) else {
                        return err(0, "expected a function name");
                    };
                    symbol(v, s);
                }
                v.push(']');
            }
            _ => return err(0, "expected a function name"),
        }
        Ok(())
    }
}

fn array_items(v: &mut String, items: impl Iterator<Item = String>) {
    for (i, x) in items.enumerate() {
        v.push_str(if i == 0 { ": " } else { ", " });
        v.push_str(&x);
    }
    v.push('>');
}

/// `name = [..]` inside a struct attribute; empty lists are left out.
fn field_list(s: &mut String, first: &mut bool, name: &str, v: &[i64]) {
    if v.is_empty() {
        return;
    }
    if !*first {
        s.push_str(", ");
    }
    *first = false;
    let _ = write!(s, "{name} = ");
    int_list(s, v);
}

/// One side of `#stablehlo.conv<[b, 0, 1, f]x...>`: each position names
/// the dimension stored there.
fn conv_layout(s: &mut String, a: (char, i64), b: (char, i64), spatial: &[i64]) -> Result<()> {
    let n = spatial.len() + 2;
    let mut slots: Vec<Option<String>> = vec![None; n];
    let mut put = |pos: i64, label: String| -> Result<()> {
        match usize::try_from(pos).ok().and_then(|p| slots.get_mut(p)) {
            Some(slot @ None) => {
                *slot = Some(label);
                Ok(())
            }
            _ => err(0, "invalid convolution dimension numbers"),
        }
    };
    put(a.1, a.0.to_string())?;
    put(b.1, b.0.to_string())?;
    for (i, p) in spatial.iter().enumerate() {
        put(*p, i.to_string())?;
    }
    s.push('[');
    for (i, slot) in slots.iter().enumerate() {
        if i > 0 {
            s.push_str(", ");
        }
        s.push_str(slot.as_deref().unwrap_or("?"));
    }
    s.push(']');
    Ok(())
}
