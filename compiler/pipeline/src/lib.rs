//! strata-pipeline
