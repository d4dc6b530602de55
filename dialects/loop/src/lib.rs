//! strata-dialect-loop
