//! strata-dialect-xla
