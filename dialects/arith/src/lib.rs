//! strata-dialect-arith
