//! strata-pass
