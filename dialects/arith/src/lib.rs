//! strata-dialect-arith: scalar arithmetic in loop bodies (see
//! `dialects/README.md`, section "arith"). Semantics are LLVM's; signedness
//! is in the op name (`divsi` / `divui`), not in the operand types.

mod cast;
mod compute;

use strata_ir::{Context, OpDef, Traits};

// ---- constants and selection ----
pub const CONSTANT: &str = "arith.constant";
pub const SELECT: &str = "arith.select";
pub const CMPI: &str = "arith.cmpi";
pub const CMPF: &str = "arith.cmpf";

// ---- integer binary ----
pub const ADDI: &str = "arith.addi";
pub const SUBI: &str = "arith.subi";
pub const MULI: &str = "arith.muli";
pub const DIVSI: &str = "arith.divsi";
pub const DIVUI: &str = "arith.divui";
pub const REMSI: &str = "arith.remsi";
pub const REMUI: &str = "arith.remui";
pub const ANDI: &str = "arith.andi";
pub const ORI: &str = "arith.ori";
pub const XORI: &str = "arith.xori";
pub const SHLI: &str = "arith.shli";
pub const SHRSI: &str = "arith.shrsi";
pub const SHRUI: &str = "arith.shrui";
pub const MAXSI: &str = "arith.maxsi";
pub const MINSI: &str = "arith.minsi";
pub const MAXUI: &str = "arith.maxui";
pub const MINUI: &str = "arith.minui";

// ---- float binary ----
pub const ADDF: &str = "arith.addf";
pub const SUBF: &str = "arith.subf";
pub const MULF: &str = "arith.mulf";
pub const DIVF: &str = "arith.divf";
pub const REMF: &str = "arith.remf";
pub const POWF: &str = "arith.powf";
pub const ATAN2: &str = "arith.atan2";
pub const MAXIMUMF: &str = "arith.maximumf";
pub const MINIMUMF: &str = "arith.minimumf";
pub const COPYSIGN: &str = "arith.copysign";

// ---- float unary ----
pub const NEGF: &str = "arith.negf";
pub const ABSF: &str = "arith.absf";
pub const SQRT: &str = "arith.sqrt";
pub const RSQRT: &str = "arith.rsqrt";
pub const EXP: &str = "arith.exp";
pub const EXPM1: &str = "arith.expm1";
pub const LOG: &str = "arith.log";
pub const LOG1P: &str = "arith.log1p";
pub const SIN: &str = "arith.sin";
pub const COS: &str = "arith.cos";
pub const TAN: &str = "arith.tan";
pub const TANH: &str = "arith.tanh";
pub const FLOOR: &str = "arith.floor";
pub const CEIL: &str = "arith.ceil";
pub const ROUND: &str = "arith.round";
pub const ROUNDEVEN: &str = "arith.roundeven";
pub const CBRT: &str = "arith.cbrt";
pub const ERF: &str = "arith.erf";
pub const ERFC: &str = "arith.erfc";
pub const ASIN: &str = "arith.asin";
pub const ACOS: &str = "arith.acos";
pub const ATAN: &str = "arith.atan";
pub const SINH: &str = "arith.sinh";
pub const COSH: &str = "arith.cosh";
pub const ASINH: &str = "arith.asinh";
pub const ACOSH: &str = "arith.acosh";
pub const ATANH: &str = "arith.atanh";

// ---- integer unary ----
pub const CTLZ: &str = "arith.ctlz";
pub const POPCOUNT: &str = "arith.popcount";

// ---- casts ----
pub const EXTSI: &str = "arith.extsi";
pub const EXTUI: &str = "arith.extui";
pub const TRUNCI: &str = "arith.trunci";
pub const SITOFP: &str = "arith.sitofp";
pub const UITOFP: &str = "arith.uitofp";
pub const FPTOSI: &str = "arith.fptosi";
pub const FPTOUI: &str = "arith.fptoui";
pub const EXTF: &str = "arith.extf";
pub const TRUNCF: &str = "arith.truncf";
pub const BITCAST: &str = "arith.bitcast";
pub const INDEX_CAST: &str = "arith.index_cast";

pub const INT_BINARY: [&str; 17] = [
    ADDI, SUBI, MULI, DIVSI, DIVUI, REMSI, REMUI, ANDI, ORI, XORI, SHLI, SHRSI, SHRUI, MAXSI,
    MINSI, MAXUI, MINUI,
];
pub const FLOAT_BINARY: [&str; 10] = [
    ADDF, SUBF, MULF, DIVF, REMF, POWF, ATAN2, MAXIMUMF, MINIMUMF, COPYSIGN,
];
pub const FLOAT_UNARY: [&str; 27] = [
    NEGF, ABSF, SQRT, RSQRT, EXP, EXPM1, LOG, LOG1P, SIN, COS, TAN, TANH, FLOOR, CEIL, ROUND,
    ROUNDEVEN, CBRT, ERF, ERFC, ASIN, ACOS, ATAN, SINH, COSH, ASINH, ACOSH, ATANH,
];
pub const INT_UNARY: [&str; 2] = [CTLZ, POPCOUNT];

/// Predicates of `arith.cmpi`.
pub const CMPI_PREDICATES: [&str; 10] = [
    "eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge",
];
/// Predicates of `arith.cmpf`.
pub const CMPF_PREDICATES: [&str; 14] = [
    "oeq", "one", "olt", "ole", "ogt", "oge", "ueq", "une", "ult", "ule", "ugt", "uge", "ord",
    "uno",
];

pub fn register(ctx: &mut Context) {
    let r = &mut ctx.registry;
    for name in INT_BINARY {
        r.add(OpDef::new(name, Traits::PURE).verifier(compute::verify_int_binary));
    }
    for name in FLOAT_BINARY {
        r.add(OpDef::new(name, Traits::PURE).verifier(compute::verify_float_binary));
    }
    for name in FLOAT_UNARY {
        r.add(OpDef::new(name, Traits::PURE).verifier(compute::verify_float_unary));
    }
    for name in INT_UNARY {
        r.add(OpDef::new(name, Traits::PURE).verifier(compute::verify_int_unary));
    }
    r.add(OpDef::new(CONSTANT, Traits::PURE).verifier(compute::verify_constant));
    r.add(OpDef::new(SELECT, Traits::PURE).verifier(compute::verify_select));
    r.add(OpDef::new(CMPI, Traits::PURE).verifier(compute::verify_cmpi));
    r.add(OpDef::new(CMPF, Traits::PURE).verifier(compute::verify_cmpf));
    for name in [EXTSI, EXTUI, TRUNCI] {
        r.add(OpDef::new(name, Traits::PURE).verifier(cast::verify_int_resize));
    }
    for name in [SITOFP, UITOFP] {
        r.add(OpDef::new(name, Traits::PURE).verifier(cast::verify_int_to_float));
    }
    for name in [FPTOSI, FPTOUI] {
        r.add(OpDef::new(name, Traits::PURE).verifier(cast::verify_float_to_int));
    }
    for name in [EXTF, TRUNCF] {
        r.add(OpDef::new(name, Traits::PURE).verifier(cast::verify_float_resize));
    }
    r.add(OpDef::new(BITCAST, Traits::PURE).verifier(cast::verify_bitcast));
    r.add(OpDef::new(INDEX_CAST, Traits::PURE).verifier(cast::verify_index_cast));
}

/// The `predicate` of a compare op.
pub fn predicate(ctx: &Context, op: strata_ir::OpId) -> Option<&str> {
    ctx.str_attr(op, "predicate")
}

pub mod transforms;

#[cfg(test)]
mod tests;
