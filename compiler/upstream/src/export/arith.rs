//! `arith` ops → upstream `arith` and `math`, with the native backend's
//! semantics: f16/bf16 math is computed in f32 and rounded back, float →
//! int conversions saturate (`llvm.intr.fpto*i.sat`), int → f16/bf16 goes
//! through f64 (one rounding), f64 → bf16 rounds to odd in f32 first, and
//! the f8/f6/f4 formats convert through the runtime's codec. bf16 ↔ f32
//! conversions are integer ops, as in the native backend: LLVM would call
//! a libgcc helper for them, and upstream's `arith-expand` (which could
//! expand them) also rewrites `maximumf`/`minimumf` in a way that loses
//! the order of signed zeros.

use strata_dialect_arith as a;
use strata_ir::{AttrKind, FloatKind, OpId, TypeKind, dense};

use super::{Exporter, unsupported};
use strata_diag::Result;

/// Upstream op of each float binary op.
fn float_binary(name: &str) -> Option<&'static str> {
    Some(match name {
        a::ADDF => "arith.addf",
        a::SUBF => "arith.subf",
        a::MULF => "arith.mulf",
        a::DIVF => "arith.divf",
        a::REMF => "arith.remf",
        a::POWF => "math.powf",
        a::ATAN2 => "math.atan2",
        a::MAXIMUMF => "arith.maximumf",
        a::MINIMUMF => "arith.minimumf",
        a::COPYSIGN => "math.copysign",
        _ => return None,
    })
}

/// Upstream op of each float unary op.
fn float_unary(name: &str) -> Option<&'static str> {
    Some(match name {
        a::NEGF => "arith.negf",
        a::ABSF => "math.absf",
        a::SQRT => "math.sqrt",
        a::RSQRT => "math.rsqrt",
        a::EXP => "math.exp",
        a::LOG => "math.log",
        a::LOG1P => "math.log1p",
        a::SIN => "math.sin",
        a::COS => "math.cos",
        a::TAN => "math.tan",
        a::TANH => "math.tanh",
        a::FLOOR => "math.floor",
        a::CEIL => "math.ceil",
        a::ROUND => "math.round",
        a::ROUNDEVEN => "math.roundeven",
        a::CBRT => "math.cbrt",
        a::ERF => "math.erf",
        a::ERFC => "math.erfc",
        a::ASIN => "math.asin",
        a::ACOS => "math.acos",
        a::ATAN => "math.atan",
        a::SINH => "math.sinh",
        a::COSH => "math.cosh",
        a::ASINH => "math.asinh",
        a::ACOSH => "math.acosh",
        a::ATANH => "math.atanh",
        _ => return None,
    })
}

/// Upstream op of each integer binary op (same names, signless types).
fn int_binary(name: &str) -> Option<&'static str> {
    a::INT_BINARY.iter().find(|&&n| n == name).copied()
}

impl Exporter<'_> {
    pub(crate) fn arith(&mut self, op: OpId) -> Result<()> {
        let name = self.ir.op(op).name;
        if let Some(up) = int_binary(name) {
            return self.same_type_op(op, up, 2);
        }
        if let Some(up) = float_binary(name) {
            return self.float_op(op, up, 2);
        }
        if name == a::EXPM1 {
            // `convert-math-to-llvm` computes exp(x) - 1, which cancels
            // near 0: libm's expm1, as the native backend calls.
            return self.libm_unary(op, "expm1");
        }
        if let Some(up) = float_unary(name) {
            return match name {
                // Exact on any format: no promotion.
                a::NEGF | a::ABSF => self.same_type_op(op, up, 1),
                _ => self.float_op(op, up, 1),
            };
        }
        match name {
            a::CTLZ => self.same_type_op(op, "math.ctlz", 1),
            a::POPCOUNT => self.same_type_op(op, "math.ctpop", 1),
            a::CMPI => self.compare(op, "arith.cmpi", false),
            a::CMPF => self.compare(op, "arith.cmpf", true),
            a::SELECT => {
                let (c, x, y) = (
                    self.operand(op, 0)?,
                    self.operand(op, 1)?,
                    self.operand(op, 2)?,
                );
                let t = self.ty(self.result_ty(op)?, op)?;
                let r = self.define_result(op)?;
                self.line(format!("{r} = arith.select {c}, {x}, {y} : {t}"));
                Ok(())
            }
            a::CONSTANT => self.arith_constant(op),
            _ => self.cast(op, name),
        }
    }

    /// A libm function of one float (`expm1f` for f32, `expm1` for f64;
    /// f16/bf16 through f32).
    fn libm_unary(&mut self, op: OpId, base: &str) -> Result<()> {
        let (x, wide) = self.promoted(op, 0)?;
        let f = if wide == "f32" {
            format!("{base}f")
        } else {
            base.to_string()
        };
        self.declare(&f, format!("({wide}) -> {wide}"));
        let t = self.ty(self.result_ty(op)?, op)?;
        let w = self.fresh();
        self.line(format!("{w} = func.call @{f}({x}) : ({wide}) -> {wide}"));
        let r = self.convert_float(w, wide, &t)?;
        let v = *self
            .ir
            .op(op)
            .results
            .first()
            .ok_or_else(|| self.internal(op, "has no result"))?;
        self.names_alias(v, r);
        Ok(())
    }

    /// `r = up x (, y)` with operands and result of one type.
    fn same_type_op(&mut self, op: OpId, up: &str, arity: usize) -> Result<()> {
        let args = (0..arity)
            .map(|i| self.operand(op, i))
            .collect::<Result<Vec<_>>>()?;
        let t = self.ty(self.result_ty(op)?, op)?;
        let r = self.define_result(op)?;
        self.line(format!("{r} = {up} {} : {t}", args.join(", ")));
        Ok(())
    }

    /// Whether values of type text `t` are computed in f32.
    fn is_promoted(t: &str) -> bool {
        t == "f16" || t == "bf16"
    }

    /// Operand `i` as an f32 if it is f16/bf16, else as it is.
    fn promoted(&mut self, op: OpId, i: usize) -> Result<(String, String)> {
        let x = self.operand(op, i)?;
        let t = self.ty(self.operand_ty(op, i)?, op)?;
        if Self::is_promoted(&t) {
            let w = self.fresh();
            self.line(format!("{w} = arith.extf {x} : {t} to f32"));
            Ok((w, "f32".into()))
        } else {
            Ok((x, t))
        }
    }

    /// A float op computed in f32 for f16/bf16 and rounded back.
    fn float_op(&mut self, op: OpId, up: &str, arity: usize) -> Result<()> {
        let mut args = Vec::new();
        let mut wide = String::new();
        for i in 0..arity {
            let (x, t) = self.promoted(op, i)?;
            args.push(x);
            wide = t;
        }
        let t = self.ty(self.result_ty(op)?, op)?;
        let r = self.define_result(op)?;
        if wide == t {
            self.line(format!("{r} = {up} {} : {t}", args.join(", ")));
        } else {
            let w = self.fresh();
            self.line(format!("{w} = {up} {} : {wide}", args.join(", ")));
            self.line(format!("{r} = arith.truncf {w} : {wide} to {t}"));
        }
        Ok(())
    }

    fn compare(&mut self, op: OpId, up: &str, float: bool) -> Result<()> {
        let p = a::predicate(self.ir, op)
            .ok_or_else(|| self.internal(op, "has no predicate"))?
            .to_string();
        let ((x, t), (y, _)) = if float {
            (self.promoted(op, 0)?, self.promoted(op, 1)?)
        } else {
            let t = self.ty(self.operand_ty(op, 0)?, op)?;
            ((self.operand(op, 0)?, t.clone()), (self.operand(op, 1)?, t))
        };
        let r = self.define_result(op)?;
        self.line(format!("{r} = {up} {p}, {x}, {y} : {t}"));
        Ok(())
    }

    fn arith_constant(&mut self, op: OpId) -> Result<()> {
        let ty = self.result_ty(op)?;
        let attr = self
            .ir
            .attr_of(op, "value")
            .ok_or_else(|| self.internal(op, "has no 'value'"))?;
        let t = self.ty(ty, op)?;
        let width = self.ir.bit_width(ty);
        let value = match (self.ir.attr_kind(attr), self.ir.kind(ty)) {
            (AttrKind::Bool(v), _) => return self.bool_constant(op, *v),
            (AttrKind::Int { value, .. }, TypeKind::Int { .. } | TypeKind::Index) => {
                if width == 1 {
                    return self.bool_constant(op, value & 1 == 1);
                }
                signed_in_width(*value, width).to_string()
            }
            (AttrKind::Int { value, .. }, TypeKind::Float(k)) => float_literal(*value as f64, *k),
            (AttrKind::Float { bits, .. }, TypeKind::Float(k)) => {
                float_literal(f64::from_bits(*bits), *k)
            }
            _ => return Err(self.internal(op, "has a value that does not match its type")),
        };
        let r = self.define_result(op)?;
        self.line(format!("{r} = arith.constant {value} : {t}"));
        Ok(())
    }

    /// `arith.constant true` (an `i1` literal carries no type).
    fn bool_constant(&mut self, op: OpId, v: bool) -> Result<()> {
        let r = self.define_result(op)?;
        self.line(format!("{r} = arith.constant {v}"));
        Ok(())
    }

    fn cast(&mut self, op: OpId, name: &str) -> Result<()> {
        let from_ty = self.operand_ty(op, 0)?;
        let to_ty = self.result_ty(op)?;
        let (from, to) = (self.ty(from_ty, op)?, self.ty(to_ty, op)?);
        let small = |t| match self.ir.kind(t) {
            TypeKind::Float(k) => strata_ir::minifloat::format(*k).map(|f| f.code()),
            _ => None,
        };
        if matches!(name, a::EXTF | a::TRUNCF)
            && let Some(code) = small(from_ty).or(small(to_ty))
        {
            return self.minifloat_cast(op, name, code, &to);
        }
        let x = self.operand(op, 0)?;
        let r = match name {
            a::EXTSI | a::EXTUI | a::TRUNCI | a::INDEX_CAST => {
                let up = name;
                let r = self.define_result(op)?;
                self.line(format!("{r} = {up} {x} : {from} to {to}"));
                return Ok(());
            }
            a::BITCAST if from == to => {
                // f8 ↔ its bits: both are the same i8 here.
                let v = *self
                    .ir
                    .op(op)
                    .results
                    .first()
                    .ok_or_else(|| self.internal(op, "has no result"))?;
                self.names_alias(v, x);
                return Ok(());
            }
            a::BITCAST => {
                let r = self.define_result(op)?;
                self.line(format!("{r} = arith.bitcast {x} : {from} to {to}"));
                return Ok(());
            }
            a::SITOFP | a::UITOFP => {
                let up = if name == a::SITOFP {
                    "arith.sitofp"
                } else {
                    "arith.uitofp"
                };
                let via = if Self::is_promoted(&to) { "f64" } else { &to };
                let w = self.fresh();
                self.line(format!("{w} = {up} {x} : {from} to {via}"));
                self.convert_float(w, via.to_string(), &to)?
            }
            a::FPTOSI | a::FPTOUI => {
                let (x, from) = self.promoted(op, 0)?;
                // LLVM's saturating conversions (NaN → 0): what XLA does,
                // and no poison for out-of-range values.
                let intr = if name == a::FPTOSI {
                    "llvm.fptosi.sat"
                } else {
                    "llvm.fptoui.sat"
                };
                let w = self.fresh();
                self.line(format!(
                    "{w} = llvm.call_intrinsic \"{intr}.{to}.{from}\"({x}) : ({from}) -> {to}"
                ));
                w
            }
            a::EXTF | a::TRUNCF => self.convert_float(x, from, &to)?,
            _ => return Err(unsupported(self.loc(op), format!("'{name}' op"))),
        };
        let v = *self
            .ir
            .op(op)
            .results
            .first()
            .ok_or_else(|| self.internal(op, "has no result"))?;
        self.names_alias(v, r);
        Ok(())
    }

    fn names_alias(&mut self, v: strata_ir::Value, name: String) {
        self.names.insert(v, name);
    }

    /// Converts between f16, bf16, f32 and f64, rounding to nearest even
    /// once (f16 ↔ bf16 through f32, which holds both exactly).
    fn convert_float(&mut self, x: String, from: String, to: &str) -> Result<String> {
        if from == to {
            return Ok(x);
        }
        if from == "f64" && to == "bf16" {
            let odd = self.f64_to_f32_odd(&x);
            return self.convert_float(odd, "f32".into(), to);
        }
        if Self::is_promoted(&from) && Self::is_promoted(to) {
            let w = self.convert_float(x, from, "f32")?;
            return self.convert_float(w, "f32".into(), to);
        }
        if from == "bf16" {
            let wide = self.bf16_to_f32(&x);
            return self.convert_float(wide, "f32".into(), to);
        }
        if to == "bf16" {
            let narrow = self.convert_float(x, from, "f32")?;
            return Ok(self.f32_to_bf16(&narrow));
        }
        let widening = float_width(&from) < float_width(to);
        let up = if widening {
            "arith.extf"
        } else {
            "arith.truncf"
        };
        let r = self.fresh();
        self.line(format!("{r} = {up} {x} : {from} to {to}"));
        Ok(r)
    }

    /// bf16 → f32: the bits, shifted into the high half.
    fn bf16_to_f32(&mut self, x: &str) -> String {
        let bits = self.fresh();
        self.line(format!("{bits} = arith.bitcast {x} : bf16 to i16"));
        let wide = self.fresh();
        self.line(format!("{wide} = arith.extui {bits} : i16 to i32"));
        let sixteen = self.constant(16, "i32");
        let shifted = self.fresh();
        self.line(format!("{shifted} = arith.shli {wide}, {sixteen} : i32"));
        let r = self.fresh();
        self.line(format!("{r} = arith.bitcast {shifted} : i32 to f32"));
        r
    }

    /// f32 → bf16, rounding to nearest even; NaN stays a (quiet) NaN.
    fn f32_to_bf16(&mut self, x: &str) -> String {
        let bits = self.fresh();
        self.line(format!("{bits} = arith.bitcast {x} : f32 to i32"));
        let sixteen = self.constant(16, "i32");
        let high = self.fresh();
        self.line(format!("{high} = arith.shrui {bits}, {sixteen} : i32"));
        let one = self.constant(1, "i32");
        let lsb = self.fresh();
        self.line(format!("{lsb} = arith.andi {high}, {one} : i32"));
        let half = self.constant(0x7fff, "i32");
        let bias = self.fresh();
        self.line(format!("{bias} = arith.addi {lsb}, {half} : i32"));
        let sum = self.fresh();
        self.line(format!("{sum} = arith.addi {bits}, {bias} : i32"));
        let rounded = self.fresh();
        self.line(format!("{rounded} = arith.shrui {sum}, {sixteen} : i32"));
        let quiet_bit = self.constant(0x40, "i32");
        let quiet = self.fresh();
        self.line(format!("{quiet} = arith.ori {high}, {quiet_bit} : i32"));
        let nan = self.fresh();
        self.line(format!("{nan} = arith.cmpf uno, {x}, {x} : f32"));
        let chosen = self.fresh();
        self.line(format!(
            "{chosen} = arith.select {nan}, {quiet}, {rounded} : i32"
        ));
        let narrow = self.fresh();
        self.line(format!("{narrow} = arith.trunci {chosen} : i32 to i16"));
        let r = self.fresh();
        self.line(format!("{r} = arith.bitcast {narrow} : i16 to bf16"));
        r
    }

    /// f64 → f32 rounding to odd (truncate, then set the last bit if
    /// inexact), so that the following f32 → bf16 rounding is the only one.
    fn f64_to_f32_odd(&mut self, x: &str) -> String {
        let r = self.fresh();
        self.line(format!("{r} = arith.truncf {x} : f64 to f32"));
        let back = self.fresh();
        self.line(format!("{back} = arith.extf {r} : f32 to f64"));
        let inexact = self.fresh();
        self.line(format!("{inexact} = arith.cmpf one, {back}, {x} : f64"));
        let (ab, ax) = (self.fresh(), self.fresh());
        self.line(format!("{ab} = math.absf {back} : f64"));
        self.line(format!("{ax} = math.absf {x} : f64"));
        let over = self.fresh();
        self.line(format!("{over} = arith.cmpf ogt, {ab}, {ax} : f64"));
        let bits = self.fresh();
        self.line(format!("{bits} = arith.bitcast {r} : f32 to i32"));
        let one = self.constant(1, "i32");
        let down = self.fresh();
        self.line(format!("{down} = arith.subi {bits}, {one} : i32"));
        let toward_zero = self.fresh();
        self.line(format!(
            "{toward_zero} = arith.select {over}, {down}, {bits} : i32"
        ));
        let odd = self.fresh();
        self.line(format!("{odd} = arith.ori {toward_zero}, {one} : i32"));
        let chosen = self.fresh();
        self.line(format!(
            "{chosen} = arith.select {inexact}, {odd}, {bits} : i32"
        ));
        let f = self.fresh();
        self.line(format!("{f} = arith.bitcast {chosen} : i32 to f32"));
        f
    }

    /// `extf` from a small float decodes its bits with the runtime (to f64,
    /// then to the target); `truncf` to one encodes from f64.
    fn minifloat_cast(&mut self, op: OpId, name: &str, code: i32, to: &str) -> Result<()> {
        let (decode, encode) = (
            strata_abi::runtime::MINIFLOAT_DECODE,
            strata_abi::runtime::MINIFLOAT_ENCODE,
        );
        let (decode_ty, encode_ty) = (self.declare_runtime(&decode), self.declare_runtime(&encode));
        let (decode, encode) = (decode.name, encode.name);
        let fmt = self.constant(code, "i32");
        let x = self.operand(op, 0)?;
        let from = self.ty(self.operand_ty(op, 0)?, op)?;
        let r = if name == a::EXTF {
            let d = self.fresh();
            self.line(format!(
                "{d} = func.call @{decode}({fmt}, {x}) : {decode_ty}"
            ));
            if to == "i8" {
                let e = self.fresh();
                self.line(format!(
                    "{e} = func.call @{encode}({fmt}, {d}) : {encode_ty}"
                ));
                e
            } else {
                self.convert_float(d, "f64".into(), to)?
            }
        } else {
            let wide = self.convert_float(x, from, "f64")?;
            let e = self.fresh();
            self.line(format!(
                "{e} = func.call @{encode}({fmt}, {wide}) : {encode_ty}"
            ));
            e
        };
        let v = *self
            .ir
            .op(op)
            .results
            .first()
            .ok_or_else(|| self.internal(op, "has no result"))?;
        self.names_alias(v, r);
        Ok(())
    }
}

fn float_width(t: &str) -> u32 {
    match t {
        "f16" | "bf16" => 16,
        "f32" => 32,
        _ => 64,
    }
}

/// `value` as a signed integer of `width` bits (MLIR's literal range).
fn signed_in_width(value: i128, width: u32) -> i128 {
    if width >= 128 {
        return value;
    }
    let shift = 128 - width;
    (value << shift) >> shift
}

/// A float constant as its exact bits (`0x...`), so that NaN payloads,
/// infinities and every rounding survive; a small float as its `i8` bits.
fn float_literal(v: f64, k: FloatKind) -> String {
    let bits = dense::float_to_bits(v, k);
    match k {
        FloatKind::F16 | FloatKind::BF16 => format!("0x{bits:04X}"),
        FloatKind::F32 => format!("0x{bits:08X}"),
        FloatKind::F64 => format!("0x{bits:016X}"),
        _ => (bits as u8 as i8).to_string(),
    }
}
