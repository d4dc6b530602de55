//! The op registry: every op name the context accepts, with its traits, its
//! verifier and an optional pretty-syntax parser. Dialects fill it from their
//! `register(ctx)`; the pipeline lists every `register` call explicitly.

use std::collections::HashMap;

use strata_diag::Result;

use crate::context::{Context, OpId};
use crate::text::parser::{OpState, Parser};

/// Verifies one op beyond the structural checks.
pub type VerifyFn = fn(&Context, OpId) -> Result<()>;
/// Parses the custom (pretty) form of an op after its name.
pub type ParseFn = fn(&mut Parser<'_>, &mut OpState) -> Result<()>;
/// Parses the body of `#dialect.name<...>` (after `<`, up to and including
/// `>`) for attributes with a syntax of their own.
pub type AttrParseFn = fn(&mut Parser<'_>) -> Result<crate::Attr>;
/// Adjusts an op parsed under an alternative spelling (defaults that the
/// spelling implies), in either syntax.
pub type FixupFn = fn(&mut Context, &mut OpState);

#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Traits(pub u32);

impl Traits {
    pub const NONE: Traits = Traits(0);
    /// Ends a block.
    pub const TERMINATOR: Traits = Traits(1);
    /// Regions may not use values defined outside the op.
    pub const ISOLATED: Traits = Traits(2);
    /// No side effects: dead results mean a dead op.
    pub const PURE: Traits = Traits(4);
    /// Defines a symbol (`sym_name`) in the enclosing table.
    pub const SYMBOL: Traits = Traits(8);

    pub const fn with(self, other: Traits) -> Traits {
        Traits(self.0 | other.0)
    }
    pub fn has(self, other: Traits) -> bool {
        self.0 & other.0 == other.0
    }
}

#[derive(Clone)]
pub struct OpDef {
    pub name: &'static str,
    pub traits: Traits,
    /// (operands, results) the op always has, checked by the IR verifier
    /// before the op's own verifier runs (which may then index them).
    pub counts: Option<(usize, usize)>,
    pub verify: Option<VerifyFn>,
    pub parse: Option<ParseFn>,
}

impl OpDef {
    pub fn new(name: &'static str, traits: Traits) -> OpDef {
        OpDef {
            name,
            traits,
            counts: None,
            verify: None,
            parse: None,
        }
    }
    /// The op has exactly `operands` operands and `results` results.
    pub fn counts(mut self, operands: usize, results: usize) -> OpDef {
        self.counts = Some((operands, results));
        self
    }
    pub fn verifier(mut self, f: VerifyFn) -> OpDef {
        self.verify = Some(f);
        self
    }
    pub fn parser(mut self, f: ParseFn) -> OpDef {
        self.parse = Some(f);
        self
    }
}

#[derive(Default)]
pub struct Registry {
    ops: HashMap<&'static str, OpDef>,
    /// Alternative spellings (`stablehlo.add` → `xla.add`).
    aliases: HashMap<String, &'static str>,
    fixups: HashMap<String, FixupFn>,
    attr_parsers: HashMap<String, AttrParseFn>,
}

impl Registry {
    pub fn add(&mut self, def: OpDef) {
        self.ops.insert(def.name, def);
    }
    pub fn alias(&mut self, spelling: impl Into<String>, canonical: &'static str) {
        self.aliases.insert(spelling.into(), canonical);
    }
    pub fn alias_with_fixup(&mut self, spelling: &str, canonical: &'static str, fixup: FixupFn) {
        self.aliases.insert(spelling.to_string(), canonical);
        self.fixups.insert(spelling.to_string(), fixup);
    }
    pub fn add_attr_parser(&mut self, name: &str, f: AttrParseFn) {
        self.attr_parsers.insert(name.to_string(), f);
    }
    pub fn attr_parser(&self, name: &str) -> Option<AttrParseFn> {
        self.attr_parsers.get(name).copied()
    }
    pub fn fixup(&self, spelling: &str) -> Option<FixupFn> {
        self.fixups.get(spelling).copied()
    }
    pub fn get(&self, name: &str) -> Option<&OpDef> {
        self.ops.get(name)
    }
    /// Canonical registered name for a spelling, following aliases.
    pub fn resolve(&self, spelling: &str) -> Option<&OpDef> {
        if let Some(d) = self.ops.get(spelling) {
            return Some(d);
        }
        self.aliases.get(spelling).and_then(|c| self.ops.get(c))
    }
    pub fn traits(&self, name: &str) -> Traits {
        self.ops.get(name).map(|d| d.traits).unwrap_or_default()
    }
}
