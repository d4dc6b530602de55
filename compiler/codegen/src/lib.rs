//! strata-codegen
