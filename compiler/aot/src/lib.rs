//! strata-aot
