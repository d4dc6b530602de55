//! Regions and blocks: `{ ^bb0(%a: T): ... }`, block labels, successors and
//! the scopes of the values and blocks they define.

use std::collections::HashMap;

use strata_diag::{Diagnostic, Location, Result};

use super::Parser;
use crate::context::{BlockId, RegionId};
use crate::text::lexer::Tok;
use crate::types::Type;

impl Parser<'_> {
    pub(super) fn parse_successor(&mut self) -> Result<BlockId> {
        let loc = self.loc();
        let Tok::Caret(name) = self.peek().clone() else {
            return Err(super::expected(self, "block label"));
        };
        self.advance();
        self.block_by_name(&name, loc)
    }

    pub(super) fn block_by_name(&mut self, name: &str, loc: Location) -> Result<BlockId> {
        let scope = self
            .block_scopes
            .last_mut()
            .ok_or_else(|| Diagnostic::error(loc, "block reference outside a region"))?;
        if let Some(b) = scope.get(name) {
            return Ok(*b);
        }
        let b = self.ctx.blocks.alloc(crate::context::Block::default());
        scope.insert(name.to_string(), b);
        Ok(b)
    }

    // ---- regions ----

    /// Parses `{ ... }`. `entry_args` are pre-declared arguments of the entry
    /// block (pretty forms like `reducer(%a: t, %b: t) {...}` and function
    /// signatures). `isolated` hides outer values.
    pub fn parse_region(
        &mut self,
        entry_args: &[(String, Type, Location)],
        isolated: bool,
    ) -> Result<RegionId> {
        super::nested(self, |p| p.parse_region_nested(entry_args, isolated))
    }

    pub(super) fn parse_region_nested(
        &mut self,
        entry_args: &[(String, Type, Location)],
        isolated: bool,
    ) -> Result<RegionId> {
        self.expect_punct("{")?;
        let region = self.ctx.regions.alloc(crate::context::Region::default());
        if isolated {
            self.scopes.push(None);
        }
        self.scopes.push(Some(HashMap::new()));
        self.block_scopes.push(HashMap::new());
        let result = self.parse_region_body(region, entry_args);
        self.block_scopes.pop();
        self.scopes.pop();
        if isolated {
            self.scopes.pop();
        }
        result?;
        Ok(region)
    }

    pub(super) fn parse_region_body(
        &mut self,
        region: RegionId,
        entry_args: &[(String, Type, Location)],
    ) -> Result<()> {
        let starts_with_label = matches!(self.peek(), Tok::Caret(_));
        if !starts_with_label && (self.is_punct("}") && entry_args.is_empty()) {
            self.advance();
            return Ok(());
        }
        let mut current = None;
        if !starts_with_label || !entry_args.is_empty() {
            let b = self.ctx.blocks.alloc(crate::context::Block::default());
            self.attach_block(region, b);
            for (name, ty, loc) in entry_args {
                let v = self.ctx.add_block_arg(b, *ty);
                super::define(self, name.clone(), v, *loc)?;
            }
            current = Some(b);
        }
        loop {
            match self.peek().clone() {
                Tok::Punct("}") => {
                    self.advance();
                    return Ok(());
                }
                Tok::Caret(name) => {
                    let loc = self.loc();
                    self.advance();
                    let b = self.block_by_name(&name, loc)?;
                    if self.ctx.blocks[b].parent.is_some() {
                        return Err(Diagnostic::error(
                            loc,
                            format!("redefinition of block '^{name}'"),
                        ));
                    }
                    self.attach_block(region, b);
                    if self.consume_punct("(") {
                        if !self.is_punct(")") {
                            loop {
                                let aloc = self.loc();
                                let Tok::Percent(an) = self.peek().clone() else {
                                    return Err(super::expected(self, "block argument name"));
                                };
                                self.advance();
                                self.expect_punct(":")?;
                                let ty = self.parse_type()?;
                                super::skip_loc(self)?;
                                let v = self.ctx.add_block_arg(b, ty);
                                super::define(self, an, v, aloc)?;
                                if !self.consume_punct(",") {
                                    break;
                                }
                            }
                        }
                        self.expect_punct(")")?;
                    }
                    self.expect_punct(":")?;
                    current = Some(b);
                }
                Tok::Eof => {
                    return Err(
                        self.error("unexpected end of input: missing '}' to close a region")
                    );
                }
                _ => {
                    let Some(b) = current else {
                        return Err(super::expected(self, "block label"));
                    };
                    let op = super::parse_op(self)?;
                    self.ctx.append_op(b, op);
                }
            }
        }
    }

    pub(super) fn attach_block(&mut self, region: RegionId, b: BlockId) {
        self.ctx.blocks[b].parent = Some(region);
        self.ctx.regions[region].blocks.push(b);
    }

    // ---- small helpers for pretty forms ----
}
