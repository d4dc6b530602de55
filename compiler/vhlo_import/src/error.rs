//! The one error type of this crate: a byte offset into the input and a message.

use std::fmt;

/// A malformed or unsupported input, located by the byte offset (from the
/// start of the buffer given to the public entry point) where reading failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadError {
    pub offset: usize,
    pub message: String,
}

impl ReadError {
    pub fn new(offset: usize, message: impl Into<String>) -> Self {
        ReadError {
            offset,
            message: message.into(),
        }
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "byte {}: {}", self.offset, self.message)
    }
}

impl std::error::Error for ReadError {}

pub type Result<T> = std::result::Result<T, ReadError>;

/// Shorthand for an `Err` at `offset`.
pub fn err<T>(offset: usize, message: impl Into<String>) -> Result<T> {
    Err(ReadError::new(offset, message))
}
