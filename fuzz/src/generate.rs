//! A generator of small, well-typed StableHLO functions for the `lower` and
//! `codegen` targets. libFuzzer's bytes drive the choices (through
//! `arbitrary::Unstructured`), so mutating the bytes mutates the program.
//!
//! Values are function arguments or op results; an operand of a type no
//! value has yet becomes a new argument (the signature is printed last).
//! Shapes stay tiny (rank <= 4, dims <= 5) but include 0 and 1 dimensions.
//! Ops: element-wise (per element type), compare + select, convert,
//! broadcast_in_dim, reshape, transpose, slice, concatenate, reduce,
//! dot_general, reverse, pad, iota, dynamic_slice, dynamic_update_slice, sort;
//! optimization_barrier and counted while loops (`control`).

mod control;

use arbitrary::{Arbitrary, Result, Unstructured};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Elem {
    I1,
    I8,
    I16,
    I32,
    I64,
    Ui8,
    Ui32,
    F16,
    Bf16,
    F32,
    F64,
    C64,
}

use Elem::*;

const ELEMS: [Elem; 12] = [I1, I8, I16, I32, I64, Ui8, Ui32, F16, Bf16, F32, F64, C64];

impl Elem {
    fn mlir(self) -> &'static str {
        match self {
            I1 => "i1",
            I8 => "i8",
            I16 => "i16",
            I32 => "i32",
            I64 => "i64",
            Ui8 => "ui8",
            Ui32 => "ui32",
            F16 => "f16",
            Bf16 => "bf16",
            F32 => "f32",
            F64 => "f64",
            C64 => "complex<f32>",
        }
    }
    fn is_int(self) -> bool {
        matches!(self, I8 | I16 | I32 | I64 | Ui8 | Ui32)
    }
    fn is_unsigned(self) -> bool {
        matches!(self, Ui8 | Ui32)
    }
    fn is_float(self) -> bool {
        matches!(self, F16 | Bf16 | F32 | F64)
    }
    /// A splat literal of this type (for `dense<...>`).
    fn literal(self, u: &mut Unstructured) -> Result<String> {
        let small = u.int_in_range(-3i8..=7)?;
        Ok(match self {
            I1 => if small % 2 == 0 { "true" } else { "false" }.to_string(),
            _ if self.is_unsigned() => small.unsigned_abs().to_string(),
            _ if self.is_int() => small.to_string(),
            C64 => format!("({small}.5, -1.0)"),
            _ => format!("{small}.25"),
        })
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ty {
    pub shape: Vec<i64>,
    pub elem: Elem,
}

impl Ty {
    fn mlir(&self) -> String {
        let mut s = String::from("tensor<");
        for d in &self.shape {
            s += &format!("{d}x");
        }
        s + self.elem.mlir() + ">"
    }
    fn with_elem(&self, elem: Elem) -> Ty {
        Ty {
            shape: self.shape.clone(),
            elem,
        }
    }
    fn count(&self) -> i64 {
        self.shape.iter().product()
    }
}

/// A generated function, as StableHLO text.
#[derive(Debug)]
pub struct Program {
    pub text: String,
}

impl<'a> Arbitrary<'a> for Program {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Program> {
        let mut g = Gen::default();
        let ops = u.int_in_range(1..=12)?;
        for _ in 0..ops {
            if u.is_empty() {
                break;
            }
            g.op(u)?;
        }
        Ok(Program { text: g.finish(u)? })
    }
}

#[derive(Default)]
struct Gen {
    args: Vec<Ty>,
    /// (SSA name, type) of every value defined so far.
    values: Vec<(String, Ty)>,
    body: Vec<String>,
}

fn dim(u: &mut Unstructured) -> Result<i64> {
    // 0 and 1 are the edge cases; weight them like the others.
    u.int_in_range(0..=5)
}

fn shape(u: &mut Unstructured) -> Result<Vec<i64>> {
    let rank = u.int_in_range(0..=4)?;
    (0..rank).map(|_| dim(u)).collect()
}

fn list(xs: &[i64]) -> String {
    xs.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

impl Gen {
    fn new_arg(&mut self, ty: Ty) -> String {
        let name = format!("%arg{}", self.args.len());
        self.args.push(ty.clone());
        self.values.push((name.clone(), ty));
        name
    }

    /// An existing value of type `ty`, else a constant or a new argument.
    fn value_of(&mut self, u: &mut Unstructured, ty: &Ty) -> Result<String> {
        let same: Vec<String> = self
            .values
            .iter()
            .filter(|(_, t)| t == ty)
            .map(|(n, _)| n.clone())
            .collect();
        if !same.is_empty() && u.ratio(3, 4)? {
            return Ok(u.choose(&same)?.clone());
        }
        if u.ratio(1, 3)? {
            let lit = ty.elem.literal(u)?;
            return Ok(self.emit(
                format!("stablehlo.constant dense<{lit}> : {}", ty.mlir()),
                ty.clone(),
            ));
        }
        Ok(self.new_arg(ty.clone()))
    }

    /// Any existing value, or a new argument of a random type.
    fn any_value(&mut self, u: &mut Unstructured) -> Result<(String, Ty)> {
        if !self.values.is_empty() && u.ratio(4, 5)? {
            return Ok(u.choose(&self.values)?.clone());
        }
        let ty = Ty {
            shape: shape(u)?,
            elem: *u.choose(&ELEMS)?,
        };
        Ok((self.new_arg(ty.clone()), ty))
    }

    fn emit(&mut self, rhs: String, ty: Ty) -> String {
        let name = format!("%{}", self.body.len());
        self.body.push(format!("    {name} = {rhs}"));
        self.values.push((name.clone(), ty));
        name
    }

    fn op(&mut self, u: &mut Unstructured) -> Result<()> {
        let (x, ty) = self.any_value(u)?;
        match u.int_in_range(0..=19)? {
            0 => self.unary(u, &x, &ty),
            1 | 2 => self.binary(u, &x, &ty),
            3 => self.compare_select(u, &x, &ty),
            4 => self.convert(u, &x, &ty),
            5 => self.broadcast(u, &x, &ty),
            6 => self.reshape(u, &x, &ty),
            7 => self.transpose(u, &x, &ty),
            8 => self.slice(u, &x, &ty),
            9 => self.concatenate(u, &x, &ty),
            10 => self.reduce(u, &x, &ty),
            11 => self.dot(u, &x, &ty),
            12 => self.reverse(u, &x, &ty),
            13 => self.pad(u, &x, &ty),
            14 => self.dynamic_slice(u, &x, &ty),
            15 => self.dynamic_update_slice(u, &x, &ty),
            16 => self.sort(u, &x, &ty),
            17 => self.barrier(u, &x, &ty),
            18 => self.while_loop(u, &x, &ty),
            _ => self.iota(u),
        }
    }

    fn unary(&mut self, u: &mut Unstructured, x: &str, ty: &Ty) -> Result<()> {
        let e = ty.elem;
        let ops: &[&str] = if e.is_float() {
            &[
                "abs",
                "negate",
                "exponential",
                "log",
                "sqrt",
                "tanh",
                "floor",
                "ceil",
                "sign",
                "round_nearest_even",
                "cosine",
                "logistic",
                "is_finite",
            ]
        } else if e == C64 {
            &["negate", "exponential", "sqrt", "abs"]
        } else if e == I1 {
            &["not"]
        } else if e.is_unsigned() {
            &["not", "popcnt", "count_leading_zeros", "negate"]
        } else {
            &[
                "abs",
                "negate",
                "sign",
                "not",
                "popcnt",
                "count_leading_zeros",
            ]
        };
        let op = *u.choose(ops)?;
        let result = match op {
            "abs" if e == C64 => ty.with_elem(F32),
            "is_finite" => ty.with_elem(I1),
            _ => ty.clone(),
        };
        let rhs = format!("stablehlo.{op} {x} : ({}) -> {}", ty.mlir(), result.mlir());
        self.emit(rhs, result);
        Ok(())
    }

    fn binary(&mut self, u: &mut Unstructured, x: &str, ty: &Ty) -> Result<()> {
        let e = ty.elem;
        let ops: &[&str] = if e.is_float() {
            &[
                "add",
                "subtract",
                "multiply",
                "divide",
                "remainder",
                "maximum",
                "minimum",
                "power",
                "atan2",
            ]
        } else if e == C64 {
            &["add", "subtract", "multiply", "divide"]
        } else if e == I1 {
            &["and", "or", "xor", "add", "maximum"]
        } else {
            &[
                "add",
                "subtract",
                "multiply",
                "divide",
                "remainder",
                "maximum",
                "minimum",
                "and",
                "or",
                "xor",
                "shift_left",
                "shift_right_arithmetic",
                "shift_right_logical",
                "power",
            ]
        };
        let op = *u.choose(ops)?;
        let y = self.value_of(u, ty)?;
        let t = ty.mlir();
        self.emit(format!("stablehlo.{op} {x}, {y} : {t}"), ty.clone());
        Ok(())
    }

    fn compare_select(&mut self, u: &mut Unstructured, x: &str, ty: &Ty) -> Result<()> {
        let y = self.value_of(u, ty)?;
        let dir = *u.choose(&["EQ", "NE", "LT", "LE", "GT", "GE"])?;
        let kind = match ty.elem {
            _ if ty.elem.is_float() => "FLOAT",
            C64 => return Ok(()), // complex compares EQ/NE only; skip for simplicity
            I1 => "UNSIGNED",
            e if e.is_unsigned() => "UNSIGNED",
            _ => "SIGNED",
        };
        let pred_ty = ty.with_elem(I1);
        let t = ty.mlir();
        let p = self.emit(
            format!(
                "stablehlo.compare {dir}, {x}, {y}, {kind} : ({t}, {t}) -> {}",
                pred_ty.mlir()
            ),
            pred_ty.clone(),
        );
        let z = self.value_of(u, ty)?;
        let rhs = format!("stablehlo.select {p}, {y}, {z} : {}, {t}", pred_ty.mlir());
        self.emit(rhs, ty.clone());
        Ok(())
    }

    fn convert(&mut self, u: &mut Unstructured, x: &str, ty: &Ty) -> Result<()> {
        let to = ty.with_elem(*u.choose(&ELEMS)?);
        if ty.elem == C64 && to.elem != C64 {
            return Ok(()); // complex -> real is `real`, not `convert`
        }
        let rhs = format!("stablehlo.convert {x} : ({}) -> {}", ty.mlir(), to.mlir());
        self.emit(rhs, to);
        Ok(())
    }

    fn broadcast(&mut self, u: &mut Unstructured, x: &str, ty: &Ty) -> Result<()> {
        let extra = u.int_in_range(0..=(4 - ty.shape.len().min(4)))?;
        let rank = ty.shape.len() + extra;
        // The operand's dimensions go to increasing result positions.
        let mut positions: Vec<usize> = (0..rank).collect();
        while positions.len() > ty.shape.len() {
            let i = u.choose_index(positions.len())?;
            positions.remove(i);
        }
        let mut result = Vec::with_capacity(rank);
        for r in 0..rank {
            result.push(match positions.iter().position(|&p| p == r) {
                Some(i) if ty.shape[i] != 1 => ty.shape[i],
                _ => dim(u)?,
            });
        }
        let out = Ty {
            shape: result,
            elem: ty.elem,
        };
        let dims = list(&positions.iter().map(|&p| p as i64).collect::<Vec<_>>());
        let rhs = format!(
            "stablehlo.broadcast_in_dim {x}, dims = [{dims}] : ({}) -> {}",
            ty.mlir(),
            out.mlir()
        );
        self.emit(rhs, out);
        Ok(())
    }

    fn reshape(&mut self, u: &mut Unstructured, x: &str, ty: &Ty) -> Result<()> {
        let shape = factor(u, ty.count())?;
        let out = Ty {
            shape,
            elem: ty.elem,
        };
        self.emit(
            format!("stablehlo.reshape {x} : ({}) -> {}", ty.mlir(), out.mlir()),
            out,
        );
        Ok(())
    }

    fn transpose(&mut self, u: &mut Unstructured, x: &str, ty: &Ty) -> Result<()> {
        let mut perm: Vec<usize> = (0..ty.shape.len()).collect();
        for i in (1..perm.len()).rev() {
            let j = u.int_in_range(0..=i)?;
            perm.swap(i, j);
        }
        let out = Ty {
            shape: perm.iter().map(|&p| ty.shape[p]).collect(),
            elem: ty.elem,
        };
        let dims = list(&perm.iter().map(|&p| p as i64).collect::<Vec<_>>());
        let rhs = format!(
            "stablehlo.transpose {x}, dims = [{dims}] : ({}) -> {}",
            ty.mlir(),
            out.mlir()
        );
        self.emit(rhs, out);
        Ok(())
    }

    fn slice(&mut self, u: &mut Unstructured, x: &str, ty: &Ty) -> Result<()> {
        let mut ranges = Vec::new();
        let mut shape = Vec::new();
        for &d in &ty.shape {
            let start = u.int_in_range(0..=d)?;
            let limit = u.int_in_range(start..=d)?;
            let stride = u.int_in_range(1..=3)?;
            ranges.push(format!("{start}:{limit}:{stride}"));
            shape.push((limit - start + stride - 1) / stride);
        }
        let out = Ty {
            shape,
            elem: ty.elem,
        };
        let rhs = format!(
            "stablehlo.slice {x} [{}] : ({}) -> {}",
            ranges.join(", "),
            ty.mlir(),
            out.mlir()
        );
        self.emit(rhs, out);
        Ok(())
    }

    fn concatenate(&mut self, u: &mut Unstructured, x: &str, ty: &Ty) -> Result<()> {
        if ty.shape.is_empty() {
            return Ok(());
        }
        let d = u.choose_index(ty.shape.len())?;
        let mut other = ty.clone();
        other.shape[d] = dim(u)?;
        let y = self.value_of(u, &other)?;
        let mut out = ty.clone();
        out.shape[d] += other.shape[d];
        let rhs = format!(
            "stablehlo.concatenate {x}, {y}, dim = {d} : ({}, {}) -> {}",
            ty.mlir(),
            other.mlir(),
            out.mlir()
        );
        self.emit(rhs, out);
        Ok(())
    }

    fn reduce(&mut self, u: &mut Unstructured, x: &str, ty: &Ty) -> Result<()> {
        let e = ty.elem;
        let ops: &[&str] = match e {
            I1 => &["and", "or", "add"],
            C64 => &["add", "multiply"],
            _ => &["add", "multiply", "maximum", "minimum"],
        };
        let op = *u.choose(ops)?;
        let mut dims = Vec::new();
        let mut shape = Vec::new();
        for (i, &d) in ty.shape.iter().enumerate() {
            if u.arbitrary()? {
                dims.push(i as i64);
            } else {
                shape.push(d);
            }
        }
        let scalar = Ty {
            shape: vec![],
            elem: e,
        };
        let init = self.value_of(u, &scalar)?;
        let out = Ty { shape, elem: e };
        let rhs = format!(
            "stablehlo.reduce({x} init: {init}) applies stablehlo.{op} across dimensions = [{}] : ({}, {}) -> {}",
            list(&dims),
            ty.mlir(),
            scalar.mlir(),
            out.mlir()
        );
        self.emit(rhs, out);
        Ok(())
    }

    /// dot_general with optional batch dimensions (leading on both sides)
    /// and one contracting dimension: lhs [b.., m.., k], rhs [b.., k, n..].
    fn dot(&mut self, u: &mut Unstructured, x: &str, ty: &Ty) -> Result<()> {
        if ty.shape.is_empty() || ty.elem == I1 {
            return Ok(());
        }
        let rank = ty.shape.len();
        let batch = u.int_in_range(0..=rank - 1)?;
        let k = rank - 1;
        let mut rhs_shape: Vec<i64> = ty.shape[..batch].to_vec();
        rhs_shape.push(ty.shape[k]);
        let free = u.int_in_range(0..=1)?;
        for _ in 0..free {
            rhs_shape.push(dim(u)?);
        }
        let rhs_ty = Ty {
            shape: rhs_shape.clone(),
            elem: ty.elem,
        };
        let y = self.value_of(u, &rhs_ty)?;
        let mut out: Vec<i64> = ty.shape[..batch].to_vec();
        out.extend_from_slice(&ty.shape[batch..k]);
        out.extend_from_slice(&rhs_shape[batch + 1..]);
        let out = Ty {
            shape: out,
            elem: ty.elem,
        };
        let batching = (0..batch as i64).collect::<Vec<_>>();
        let batch_attr = if batch > 0 {
            format!(
                "batching_dims = [{}] x [{}], ",
                list(&batching),
                list(&batching)
            )
        } else {
            String::new()
        };
        let rhs = format!(
            "stablehlo.dot_general {x}, {y}, {batch_attr}contracting_dims = [{k}] x [{batch}] : ({}, {}) -> {}",
            ty.mlir(),
            rhs_ty.mlir(),
            out.mlir()
        );
        self.emit(rhs, out);
        Ok(())
    }

    fn reverse(&mut self, u: &mut Unstructured, x: &str, ty: &Ty) -> Result<()> {
        let mut dims = Vec::new();
        for i in 0..ty.shape.len() {
            if u.arbitrary()? {
                dims.push(i as i64);
            }
        }
        let rhs = format!(
            "stablehlo.reverse {x}, dims = [{}] : {}",
            list(&dims),
            ty.mlir()
        );
        self.emit(rhs, ty.clone());
        Ok(())
    }

    fn pad(&mut self, u: &mut Unstructured, x: &str, ty: &Ty) -> Result<()> {
        let (mut lo, mut hi, mut interior, mut shape) = (vec![], vec![], vec![], vec![]);
        for &d in &ty.shape {
            let (l, h, i) = (
                u.int_in_range(-2..=2)?,
                u.int_in_range(-2..=2)?,
                u.int_in_range(0..=2)?,
            );
            let size = l + h + d + (d - 1).max(0) * i;
            if size < 0 {
                return Ok(());
            }
            lo.push(l);
            hi.push(h);
            interior.push(i);
            shape.push(size);
        }
        let scalar = Ty {
            shape: vec![],
            elem: ty.elem,
        };
        let v = self.value_of(u, &scalar)?;
        let out = Ty {
            shape,
            elem: ty.elem,
        };
        let rhs = format!(
            "stablehlo.pad {x}, {v}, low = [{}], high = [{}], interior = [{}] : ({}, {}) -> {}",
            list(&lo),
            list(&hi),
            list(&interior),
            ty.mlir(),
            scalar.mlir(),
            out.mlir()
        );
        self.emit(rhs, out);
        Ok(())
    }

    /// One start index per dimension: i32 or i64 scalars, constants (any
    /// value: the op clamps them) or arguments.
    fn start_indices(&mut self, u: &mut Unstructured, rank: usize) -> Result<(Vec<String>, Ty)> {
        let ity = Ty {
            shape: vec![],
            elem: *u.choose(&[I32, I64])?,
        };
        let mut starts = Vec::with_capacity(rank);
        for _ in 0..rank {
            starts.push(self.value_of(u, &ity)?);
        }
        Ok((starts, ity))
    }

    fn dynamic_slice(&mut self, u: &mut Unstructured, x: &str, ty: &Ty) -> Result<()> {
        let sizes: Vec<i64> = ty
            .shape
            .iter()
            .map(|&d| u.int_in_range(0..=d))
            .collect::<Result<_>>()?;
        let (starts, ity) = self.start_indices(u, ty.shape.len())?;
        let out = Ty {
            shape: sizes.clone(),
            elem: ty.elem,
        };
        let index_types = vec![ity.mlir(); starts.len()];
        let mut operands = vec![x.to_string()];
        operands.extend(starts);
        let mut types = vec![ty.mlir()];
        types.extend(index_types);
        let rhs = format!(
            "stablehlo.dynamic_slice {}, sizes = [{}] : ({}) -> {}",
            operands.join(", "),
            list(&sizes),
            types.join(", "),
            out.mlir()
        );
        self.emit(rhs, out);
        Ok(())
    }

    fn dynamic_update_slice(&mut self, u: &mut Unstructured, x: &str, ty: &Ty) -> Result<()> {
        let sizes: Vec<i64> = ty
            .shape
            .iter()
            .map(|&d| u.int_in_range(0..=d))
            .collect::<Result<_>>()?;
        let update = Ty {
            shape: sizes,
            elem: ty.elem,
        };
        let upd = self.value_of(u, &update)?;
        let (starts, ity) = self.start_indices(u, ty.shape.len())?;
        let mut operands = vec![x.to_string(), upd];
        operands.extend(starts.iter().cloned());
        let mut types = vec![ty.mlir(), update.mlir()];
        types.extend(vec![ity.mlir(); starts.len()]);
        let rhs = format!(
            "stablehlo.dynamic_update_slice {} : ({}) -> {}",
            operands.join(", "),
            types.join(", "),
            ty.mlir()
        );
        self.emit(rhs, ty.clone());
        Ok(())
    }

    /// Sort along one dimension with a compare comparator (TOTALORDER on
    /// floats now and then, so NaN keys meet both comparisons).
    fn sort(&mut self, u: &mut Unstructured, x: &str, ty: &Ty) -> Result<()> {
        if ty.shape.is_empty() || ty.elem == C64 {
            return Ok(());
        }
        let d = u.choose_index(ty.shape.len())?;
        let kind = match ty.elem {
            e if e.is_float() && u.arbitrary()? => "TOTALORDER",
            e if e.is_float() => "FLOAT",
            e if e.is_unsigned() || e == I1 => "UNSIGNED",
            _ => "SIGNED",
        };
        let dir = *u.choose(&["LT", "GT"])?;
        let n = self.body.len();
        let scalar = Ty {
            shape: vec![],
            elem: ty.elem,
        }
        .mlir();
        let t = ty.mlir();
        let rhs = format!(
            "\"stablehlo.sort\"({x}) <{{dimension = {d} : i64, is_stable = true}}> ({{\n\
             ^bb0(%sa{n}: {scalar}, %sb{n}: {scalar}):\n\
             %sc{n} = stablehlo.compare {dir}, %sa{n}, %sb{n}, {kind} : ({scalar}, {scalar}) -> tensor<i1>\n\
             stablehlo.return %sc{n} : tensor<i1>\n\
             }}) : ({t}) -> {t}"
        );
        self.emit(rhs, ty.clone());
        Ok(())
    }

    fn iota(&mut self, u: &mut Unstructured) -> Result<()> {
        let mut shape = shape(u)?;
        if shape.is_empty() {
            shape.push(dim(u)?);
        }
        let elem = *u.choose(&[I32, I64, Ui8, F32, F64, Bf16])?;
        let d = u.choose_index(shape.len())?;
        let out = Ty { shape, elem };
        self.emit(format!("stablehlo.iota dim = {d} : {}", out.mlir()), out);
        Ok(())
    }

    /// The function text: the signature (arguments collected on the way)
    /// and one to three results.
    fn finish(mut self, u: &mut Unstructured) -> Result<String> {
        if self.values.is_empty() {
            let ty = Ty {
                shape: vec![2],
                elem: F32,
            };
            self.new_arg(ty);
        }
        let n = u.int_in_range(1..=3)?;
        let mut results = vec![self.values.last().cloned().expect("a value")];
        for _ in 1..n {
            results.push(u.choose(&self.values)?.clone());
        }
        let args: Vec<String> = self
            .args
            .iter()
            .enumerate()
            .map(|(i, t)| format!("%arg{i}: {}", t.mlir()))
            .collect();
        let names: Vec<&str> = results.iter().map(|(n, _)| n.as_str()).collect();
        let types: Vec<String> = results.iter().map(|(_, t)| t.mlir()).collect();
        let mut text = format!(
            "func.func @main({}) -> ({}) {{\n",
            args.join(", "),
            types.join(", ")
        );
        for line in &self.body {
            text += line;
            text += "\n";
        }
        text += &format!(
            "    return {} : {}\n}}\n",
            names.join(", "),
            types.join(", ")
        );
        Ok(text)
    }
}

/// A random shape with `count` elements (any shape with a 0 when count is 0).
fn factor(u: &mut Unstructured, count: i64) -> Result<Vec<i64>> {
    if count == 0 {
        let mut s = shape(u)?;
        if !s.contains(&0) {
            s.push(0);
        }
        return Ok(s);
    }
    let mut rest = count;
    let mut s = Vec::new();
    while rest > 1 && s.len() < 3 {
        let divisors: Vec<i64> = (1..=rest).filter(|d| rest % d == 0).collect();
        let d = *u.choose(&divisors)?;
        s.push(d);
        rest /= d;
    }
    if rest > 1 || u.ratio(1, 4)? {
        s.push(rest);
    }
    Ok(s)
}
