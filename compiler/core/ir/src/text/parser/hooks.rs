//! The parser as dialects' pretty-syntax hooks see it: [`OpParser`],
//! each operation forwarded to the parser's own method of that name (as
//! MLIR's custom-op parser forwards to its operation parser).

use strata_diag::{Location, Result};

use super::Parser;
use crate::attrs::{Attr, Literal};
use crate::context::{Context, FunctionSignature, OpParser, OpState, RegionId, Value};
use crate::text::lexer::Tok;
use crate::types::Type;

impl OpParser for Parser<'_> {
    fn ctx(&mut self) -> &mut Context {
        self.ctx
    }
    fn peek(&self) -> &Tok {
        Parser::peek(self)
    }
    fn loc(&self) -> Location {
        Parser::loc(self)
    }
    fn advance(&mut self) -> Tok {
        Parser::advance(self)
    }
    fn is_punct(&self, p: &str) -> bool {
        Parser::is_punct(self, p)
    }
    fn consume_punct(&mut self, p: &str) -> bool {
        Parser::consume_punct(self, p)
    }
    fn expect_punct(&mut self, p: &str) -> Result<()> {
        Parser::expect_punct(self, p)
    }
    fn is_keyword(&self, kw: &str) -> bool {
        Parser::is_keyword(self, kw)
    }
    fn consume_keyword(&mut self, kw: &str) -> bool {
        Parser::consume_keyword(self, kw)
    }
    fn expect_keyword(&mut self, kw: &str) -> Result<()> {
        Parser::expect_keyword(self, kw)
    }
    fn parse_ident(&mut self) -> Result<String> {
        Parser::parse_ident(self)
    }
    fn parse_symbol(&mut self, what: &str) -> Result<String> {
        Parser::parse_symbol(self, what)
    }
    fn parse_operand(&mut self) -> Result<Value> {
        Parser::parse_operand(self)
    }
    fn parse_operands(&mut self) -> Result<Vec<Value>> {
        Parser::parse_operands(self)
    }
    fn parse_operands_colon_types(&mut self, st: &mut OpState) -> Result<()> {
        Parser::parse_operands_colon_types(self, st)
    }
    fn check_operand_types(&self, operands: &[Value], types: &[Type], loc: Location) -> Result<()> {
        Parser::check_operand_types(self, operands, types, loc)
    }
    fn parse_type(&mut self) -> Result<Type> {
        Parser::parse_type(self)
    }
    fn parse_type_list(&mut self) -> Result<Vec<Type>> {
        Parser::parse_type_list(self)
    }
    fn parse_result_types(&mut self) -> Result<Vec<Type>> {
        Parser::parse_result_types(self)
    }
    fn parse_function_type(&mut self) -> Result<Type> {
        Parser::parse_function_type(self)
    }
    fn parse_function_signature_with_attrs(&mut self) -> Result<FunctionSignature> {
        Parser::parse_function_signature_with_attrs(self)
    }
    fn parse_attr(&mut self) -> Result<Attr> {
        Parser::parse_attr(self)
    }
    fn parse_attr_dict(&mut self, out: &mut Vec<(String, Attr)>) -> Result<()> {
        Parser::parse_attr_dict(self, out)
    }
    fn parse_optional_attr_dict(&mut self, st: &mut OpState) -> Result<()> {
        Parser::parse_optional_attr_dict(self, st)
    }
    fn parse_struct_body(&mut self, name: &str) -> Result<Attr> {
        Parser::parse_struct_body(self, name)
    }
    fn parse_scalar_literal(&mut self) -> Result<Literal> {
        Parser::parse_scalar_literal(self)
    }
    fn parse_i64(&mut self) -> Result<i64> {
        Parser::parse_i64(self)
    }
    fn parse_i64_list(&mut self) -> Result<Vec<i64>> {
        Parser::parse_i64_list(self)
    }
    fn parse_region_args(&mut self) -> Result<Vec<(String, Type, Location)>> {
        Parser::parse_region_args(self)
    }
    fn parse_region(
        &mut self,
        entry_args: &[(String, Type, Location)],
        isolated: bool,
    ) -> Result<RegionId> {
        Parser::parse_region(self, entry_args, isolated)
    }
}
