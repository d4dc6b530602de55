//! strata-conversion
