//! Where a shape-polymorphic function's dimension variables are found:
//! which argument dimension holds each, as a multiple of it plus a
//! constant (JAX's `symbolic_shape("2*b, 8")` gives a dimension `2*b`).

use strata_ir::{AttrKind, Context, OpId, Value, builtin};

use crate::names::*;

/// A dimension of an argument whose size is `scale * var + offset`, so a
/// caller finds `var`'s value there (`strata run` from the shapes of its
/// `.npy` inputs, the refinement the other way round).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Binding {
    pub var: String,
    pub arg: usize,
    pub dim: usize,
    /// At least 1.
    pub scale: i64,
    pub offset: i64,
}

impl Binding {
    fn plain(var: String, arg: usize, dim: usize) -> Binding {
        Binding {
            var,
            arg,
            dim,
            scale: 1,
            offset: 0,
        }
    }

    /// The dimension's size when the variable is `value` (None when it
    /// overflows).
    pub fn size(&self, value: i64) -> Option<i64> {
        self.scale.checked_mul(value)?.checked_add(self.offset)
    }

    /// The variable's value when the dimension is `size` (None when no
    /// value gives that size).
    pub fn value(&self, size: i64) -> Option<i64> {
        let rest = size.checked_sub(self.offset)?;
        (rest % self.scale == 0).then_some(rest / self.scale)
    }

    /// The dimension as a formula of the variable: `b`, `2*b`, `b + 1`.
    pub fn formula(&self) -> String {
        let term = match self.scale {
            1 => self.var.clone(),
            k => format!("{k}*{}", self.var),
        };
        match self.offset {
            0 => term,
            c if c < 0 => format!("{term} - {}", c.unsigned_abs()),
            c => format!("{term} + {c}"),
        }
    }
}

/// The dimension variables of `f`, each with the argument dimension it is
/// found in. A JAX export names them: each variable `f` passes to a
/// callee's `jax.global_constant` parameter, computed from one argument's
/// `get_dimension_size` (possibly as `(size - c) / k`, which JAX asserts
/// exact). A function with `?` dimensions and no names gets one variable
/// per `?` dimension of each tensor argument, [`unnamed_variable`] naming
/// it.
pub fn bindings(ctx: &Context, f: OpId) -> Vec<Binding> {
    let named = named_bindings(ctx, f);
    if !named.is_empty() {
        return named;
    }
    let Some((inputs, _)) = builtin::func_signature(ctx, f) else {
        return named;
    };
    let mut unnamed = Vec::new();
    for (arg, &t) in inputs.iter().enumerate() {
        if !ctx.types.is_tensor(t) {
            continue;
        }
        for (dim, &size) in ctx.types.shape(t).unwrap_or(&[]).iter().enumerate() {
            if size < 0 {
                unnamed.push(Binding::plain(unnamed_variable(arg, dim), arg, dim));
            }
        }
    }
    unnamed
}

/// The variable of dimension `dim` of argument `arg` in a function whose
/// `?` dimensions have no names: `arg0_dim0` (a C identifier: it names the
/// `int64_t` parameter of the library's function).
pub fn unnamed_variable(arg: usize, dim: usize) -> String {
    format!("arg{arg}_dim{dim}")
}

/// Whether `module`'s dimension variables are named by the program (a JAX
/// export) rather than by [`unnamed_variable`]'s rule.
pub fn names_its_variables(ctx: &Context, module: OpId) -> bool {
    builtin::defined_funcs(ctx, module)
        .into_iter()
        .any(|f| !builtin::is_private(ctx, f) && !named_bindings(ctx, f).is_empty())
}

/// The variables a JAX export names (see [`bindings`]): those passed to the
/// wrapped function, and the dimensions of other arguments that a shape
/// assertion requires equal to a formula of one (JAX passes a variable
/// once, read from its first argument, and asserts `args[1].shape[0] ==
/// 2*b` for the rest).
fn named_bindings(ctx: &Context, f: OpId) -> Vec<Binding> {
    let mut found = passed_bindings(ctx, f);
    let Some(entry) = ctx.entry_block(f, 0) else {
        return found;
    };
    let args = &ctx.blocks[entry].args;
    for &op in &ctx.blocks[entry].ops {
        if ctx.op(op).name != COMPARE || ctx.str_attr(op, "comparison_direction") != Some("EQ") {
            continue;
        }
        let [x, y] = ctx.op(op).operands() else {
            continue;
        };
        let (Some(x), Some(y)) = (read(ctx, *x, args), read(ctx, *y, args)) else {
            continue;
        };
        for (plain, formula) in [(&x, &y), (&y, &x)] {
            let known = |r: &Read| found.iter().any(|b| (b.arg, b.dim) == (r.arg, r.dim));
            if !plain.is_plain() || known(plain) {
                continue;
            }
            let Some(of) = found
                .iter()
                .find(|b| (b.arg, b.dim) == (formula.arg, formula.dim))
            else {
                continue;
            };
            if let Some(b) = formula.through(of, plain.arg, plain.dim) {
                found.push(b);
            }
        }
    }
    found
}

/// The variables passed to the wrapped function's `jax.global_constant`
/// parameters, each with the argument dimension it is computed from.
fn passed_bindings(ctx: &Context, f: OpId) -> Vec<Binding> {
    let Some(entry) = ctx.entry_block(f, 0) else {
        return vec![];
    };
    let args = &ctx.blocks[entry].args;
    let mut found = Vec::new();
    for &op in &ctx.blocks[entry].ops {
        if ctx.op(op).name != builtin::CALL {
            continue;
        }
        let Some(callee) = callee(ctx, op) else {
            continue;
        };
        for (i, &operand) in ctx.op(op).operands().iter().enumerate() {
            let Some(name) = global_constant(ctx, callee, i) else {
                continue;
            };
            if let Some(b) = read(ctx, operand, args).and_then(|r| r.solved_for(name)) {
                found.push(b);
            }
        }
    }
    found
}

/// The function `call` calls: a `func.call`'s callee, a composite's
/// decomposition.
pub(super) fn callee(ctx: &Context, call: OpId) -> Option<OpId> {
    let key = if ctx.op(call).name == COMPOSITE {
        "decomposition"
    } else {
        "callee"
    };
    let AttrKind::SymbolRef(name) = ctx.attr_kind(ctx.attr_of(call, key)?) else {
        return None;
    };
    let module = builtin::enclosing_module(ctx, call)?;
    builtin::lookup_func(ctx, module, name)
}

/// The `jax.global_constant` name of parameter `i` of `f` (dimension
/// variables only: not the platform index).
pub(super) fn global_constant(ctx: &Context, f: OpId, i: usize) -> Option<String> {
    let a = builtin::signature_attr(ctx, f, "arg_attrs", i, "jax.global_constant")?;
    match ctx.attr_kind(a) {
        AttrKind::String(s) if !s.is_empty() && s != "_platform_index" => Some(s.clone()),
        _ => None,
    }
}

/// A value computed from one argument dimension's size `d` as
/// `(scale * d + offset) / divisor`, the division exact (JAX asserts it).
#[derive(Clone, Copy, Debug)]
struct Read {
    arg: usize,
    dim: usize,
    scale: i64,
    offset: i64,
    divisor: i64,
}

/// The most ops followed back from a value to the dimension it reads.
const MAX_READ_DEPTH: usize = 16;

/// How `v` is computed from one of `args`' dimension sizes, when it is:
/// `get_dimension_size` then converts and scalar reshapes, additions,
/// subtractions and multiplications by constants, and JAX's `divmod`
/// (its quotient) by a constant. What the program really computes is
/// checked when it is refined (`Refiner::call`): a function named
/// `divmod` that divides otherwise is an error there, not a wrong size.
fn read(ctx: &Context, mut v: Value, args: &[Value]) -> Option<Read> {
    let mut ops: Vec<(i64, i64, i64)> = Vec::new(); // (times, plus, divide) applied outward
    for _ in 0..MAX_READ_DEPTH {
        let def = ctx.defining_op(v)?;
        let o = ctx.op(def);
        let constant = |i: usize| constant_scalar(ctx, *o.operands().get(i)?);
        match o.name {
            CONVERT | RESHAPE => v = *o.operands().first()?,
            GET_DIMENSION_SIZE => {
                let (of, dim) = dimension_size_read(ctx, v)?;
                let arg = args.iter().position(|&a| a == of)?;
                let mut r = Read {
                    arg,
                    dim,
                    scale: 1,
                    offset: 0,
                    divisor: 1,
                };
                for &(times, plus, divide) in ops.iter().rev() {
                    r = r.then(times, plus, divide)?;
                }
                return Some(r);
            }
            ADD | SUBTRACT | MULTIPLY => {
                let (c, other) = match (constant(0), constant(1)) {
                    (None, Some(c)) => (c, 0),
                    (Some(c), None) if o.name != SUBTRACT => (c, 1),
                    _ => return None,
                };
                ops.push(match o.name {
                    ADD => (1, c, 1),
                    SUBTRACT => (1, c.checked_neg()?, 1),
                    _ => (c, 0, 1),
                });
                v = o.operands()[other];
            }
            builtin::CALL if is_divmod_quotient(ctx, def, v) => {
                let k = constant(1).filter(|&k| k > 0)?;
                ops.push((1, 0, k));
                v = o.operands()[0];
            }
            _ => return None,
        }
    }
    None
}

impl Read {
    fn is_plain(&self) -> bool {
        (self.scale, self.offset, self.divisor) == (1, 0, 1)
    }

    /// `(times * self + plus) / divide`.
    fn then(self, times: i64, plus: i64, divide: i64) -> Option<Read> {
        let scale = self.scale.checked_mul(times)?;
        let offset = self
            .offset
            .checked_mul(times)?
            .checked_add(plus.checked_mul(self.divisor)?)?;
        Some(Read {
            scale,
            offset,
            divisor: self.divisor.checked_mul(divide)?,
            ..self
        })
    }

    /// The binding of `var = self`: `d = (divisor * var - offset) / scale`,
    /// an integer formula only when `scale` is 1 (JAX's readings).
    fn solved_for(self, var: String) -> Option<Binding> {
        (self.scale == 1).then_some(Binding {
            var,
            arg: self.arg,
            dim: self.dim,
            scale: self.divisor,
            offset: self.offset.checked_neg()?,
        })
    }

    /// The binding of dimension `(arg, dim)` required equal to `self`,
    /// whose dimension is bound by `of`: `self = (scale * (s*var + o) +
    /// offset) / divisor`, when that is a whole formula with a positive
    /// multiple.
    fn through(self, of: &Binding, arg: usize, dim: usize) -> Option<Binding> {
        let scale = self.scale.checked_mul(of.scale)?;
        let offset = self
            .scale
            .checked_mul(of.offset)?
            .checked_add(self.offset)?;
        let whole = scale % self.divisor == 0 && offset % self.divisor == 0;
        (whole && scale > 0).then(|| Binding {
            var: of.var.clone(),
            arg,
            dim,
            scale: scale / self.divisor,
            offset: offset / self.divisor,
        })
    }
}

/// Whether `v` is the first result of a call of JAX's `divmod`.
fn is_divmod_quotient(ctx: &Context, call: OpId, v: Value) -> bool {
    let o = ctx.op(call);
    o.results.first() == Some(&v)
        && o.operands().len() == 2
        && callee(ctx, call)
            .and_then(|g| builtin::func_name(ctx, g))
            .is_some_and(|n| n == "divmod")
}

/// The value of a scalar integer constant.
fn constant_scalar(ctx: &Context, v: Value) -> Option<i64> {
    let def = ctx.defining_op(v)?;
    if ctx.op(def).name != CONSTANT {
        return None;
    }
    let d = ctx.dense_attr(def, "value")?;
    let elem = ctx.types.elem(d.ty);
    if !ctx.types.is_int(elem) || !(d.splat || d.bits.len() == 1) {
        return None;
    }
    let bits = strata_ir::dense::element_bits(ctx, d, 0).first().copied()?;
    i64::try_from(strata_ir::dense::int_value(ctx, bits, elem)).ok()
}

/// `(operand, dimension)` when `v` is `get_dimension_size` of `operand`
/// (through converts and reshapes of a scalar): a dimension's size.
pub fn dimension_size_read(ctx: &Context, mut v: Value) -> Option<(Value, usize)> {
    for _ in 0..8 {
        let def = ctx.defining_op(v)?;
        match ctx.op(def).name {
            CONVERT | RESHAPE => v = *ctx.op(def).operands().first()?,
            GET_DIMENSION_SIZE => {
                let of = *ctx.op(def).operands().first()?;
                return Some((of, crate::ops::misc::size_dimension(ctx, def)?));
            }
            _ => return None,
        }
    }
    None
}
