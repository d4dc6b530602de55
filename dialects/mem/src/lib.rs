//! strata-dialect-mem
