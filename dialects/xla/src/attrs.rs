//! Typed enum attributes of `xla` ops, read from their textual spellings
//! (`#stablehlo<comparison_direction GT>` and plain strings alike), so that
//! verifiers and lowerings match on variants instead of strings.

use strata_ir::{Context, OpId};

macro_rules! spelled_enum {
    ($(#[$doc:meta])* $name:ident { $($variant:ident = $text:literal),* $(,)? }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum $name {
            $($variant),*
        }

        impl $name {
            pub const ALL: &[$name] = &[$($name::$variant),*];

            /// The variant spelled `text` (StableHLO's spelling).
            pub fn parse(text: &str) -> Option<$name> {
                match text {
                    $($text => Some($name::$variant),)*
                    _ => None,
                }
            }

            pub fn name(self) -> &'static str {
                match self {
                    $($name::$variant => $text),*
                }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.name())
            }
        }
    };
}

spelled_enum!(
    /// `comparison_direction` of `xla.compare`.
    ComparisonDirection { Eq = "EQ", Ne = "NE", Ge = "GE", Gt = "GT", Le = "LE", Lt = "LT" }
);

spelled_enum!(
    /// `compare_type` of `xla.compare`.
    CompareType {
        Signed = "SIGNED",
        Unsigned = "UNSIGNED",
        Float = "FLOAT",
        TotalOrder = "TOTALORDER",
        NoType = "NOTYPE",
    }
);

spelled_enum!(
    /// `fft_type` of `xla.fft`.
    FftType { Fft = "FFT", Ifft = "IFFT", Rfft = "RFFT", Irfft = "IRFFT" }
);

/// The op's `comparison_direction`, if present and known.
pub fn comparison_direction(ctx: &Context, op: OpId) -> Option<ComparisonDirection> {
    ComparisonDirection::parse(ctx.str_attr(op, "comparison_direction")?)
}

/// The op's `compare_type`, if present and known.
pub fn compare_type(ctx: &Context, op: OpId) -> Option<CompareType> {
    CompareType::parse(ctx.str_attr(op, "compare_type")?)
}

/// The op's `fft_type`, if present and known.
pub fn fft_type(ctx: &Context, op: OpId) -> Option<FftType> {
    FftType::parse(ctx.str_attr(op, "fft_type")?)
}

spelled_enum!(
    /// `transpose_a` of `xla.triangular_solve`.
    Transpose { NoTranspose = "NO_TRANSPOSE", Transpose = "TRANSPOSE", Adjoint = "ADJOINT" }
);

/// The op's `transpose_a`, if present and known.
pub fn transpose_a(ctx: &Context, op: OpId) -> Option<Transpose> {
    Transpose::parse(ctx.str_attr(op, "transpose_a")?)
}

/// A boolean attribute (`true`/`false`, or a unit attribute for true).
pub fn flag(ctx: &Context, op: OpId, name: &str) -> Option<bool> {
    match ctx.attr_kind(ctx.attr_of(op, name)?) {
        strata_ir::AttrKind::Bool(b) => Some(*b),
        strata_ir::AttrKind::Unit => Some(true),
        _ => None,
    }
}
