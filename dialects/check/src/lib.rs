//! strata-dialect-check
