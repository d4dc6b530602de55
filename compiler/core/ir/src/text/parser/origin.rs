//! Where an op came from in the model's own source: the debug locations
//! JAX prints (`loc(#loc12)` after each op, and at the end of the module
//! `#loc12 = loc("jit(f)/dot_general"(#loc9))`, `#loc9 =
//! loc(callsite(#loc7 at #loc8))`, `#loc7 = loc("f"(#loc5))`, `#loc5 =
//! loc("model.py":12:5 to :20)`), resolved to the innermost source line and
//! the op's name: `model.py:12:5 (jit(f)/dot_general)`. Diagnostics about
//! the op add it as a note, so an error points at the user's Python line
//! as well as at the `.mlir`.

use std::collections::HashMap;

use strata_diag::Result;

use super::Parser;
use crate::context::{Context, OpId};
use crate::text::lexer::Tok;

/// The locations an input defines and the ops that refer to them.
#[derive(Default)]
pub(super) struct Origins {
    aliases: HashMap<String, LocExpr>,
    ops: Vec<(OpId, LocExpr)>,
}

impl Origins {
    pub(super) fn note(&mut self, op: OpId, origin: Option<LocExpr>) {
        if let Some(o) = origin {
            self.ops.push((op, o));
        }
    }

    /// Resolves every op's location (aliases may be defined after the ops,
    /// as JAX prints them) into `ctx.origins`.
    pub(super) fn record(&mut self, ctx: &mut Context) {
        for (op, e) in std::mem::take(&mut self.ops) {
            if let Some(text) = resolve(&e, &self.aliases) {
                ctx.origins.insert(op, text);
            }
        }
    }
}

/// Most tokens one location may hold (a longer one is skipped, not read).
const MAX_TOKENS: usize = 4096;

impl Parser<'_> {
    /// `#name = loc(...)`: its name (for arguments named by an alias) and
    /// the location itself.
    pub(super) fn parse_loc_alias(&mut self, alias: String) -> Result<()> {
        let tokens = loc_tokens(self)?;
        let name = match tokens.first() {
            Some(Tok::Str(s)) => Some(s.clone()),
            Some(Tok::Hash(other)) => self.loc_names.get(other).cloned(),
            _ => None,
        };
        if let Some(n) = name {
            self.loc_names.insert(alias.clone(), n);
        }
        if tokens.len() < MAX_TOKENS
            && let Some(e) = interpret(&tokens)
        {
            self.origins.aliases.insert(alias, e);
        }
        Ok(())
    }

    /// An op's trailing `loc(...)`, if any.
    pub(super) fn parse_op_loc(&mut self) -> Result<Option<LocExpr>> {
        if !self.is_keyword("loc") {
            return Ok(None);
        }
        let tokens = loc_tokens(self)?;
        Ok((tokens.len() < MAX_TOKENS)
            .then(|| interpret(&tokens))
            .flatten())
    }
}

/// The tokens of `loc(...)` (the keyword is next), consumed.
fn loc_tokens(p: &mut Parser<'_>) -> Result<Vec<Tok>> {
    p.advance();
    p.expect_punct("(")?;
    let mut tokens = Vec::new();
    let mut depth = 1;
    loop {
        let t = p.advance();
        match t {
            Tok::Punct("(") => depth += 1,
            Tok::Punct(")") => {
                depth -= 1;
                if depth == 0 {
                    return Ok(tokens);
                }
            }
            Tok::Eof => return Err(p.error("unterminated 'loc(' location")),
            _ => {}
        }
        if tokens.len() < MAX_TOKENS {
            tokens.push(t);
        }
    }
}

/// One location, as far as it matters here.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum LocExpr {
    /// `"file":line:col` (a range's end is dropped).
    File(String, i64, i64),
    /// `"name"` with an optional child location.
    Name(String, Option<Box<LocExpr>>),
    /// `#alias`.
    Alias(String),
    /// `callsite(callee at caller)`.
    CallSite(Box<LocExpr>, Box<LocExpr>),
    /// `fused[...]`.
    Fused(Vec<LocExpr>),
    Unknown,
}

/// Reads the tokens inside `loc(...)`, or None when they are not a form
/// known here (the location is then ignored, never an error).
pub(super) fn interpret(tokens: &[Tok]) -> Option<LocExpr> {
    let mut at = 0;
    let e = expr(tokens, &mut at, 0)?;
    (at == tokens.len()).then_some(e)
}

/// Deepest nesting of locations read (callsites of callsites ...).
const MAX_DEPTH: usize = 64;

fn expr(t: &[Tok], at: &mut usize, depth: usize) -> Option<LocExpr> {
    if depth > MAX_DEPTH {
        return None;
    }
    let tok = t.get(*at)?.clone();
    *at += 1;
    match tok {
        Tok::Hash(a) => Some(LocExpr::Alias(a)),
        Tok::Ident(k) if k == "unknown" => Some(LocExpr::Unknown),
        Tok::Ident(k) if k == "callsite" => {
            punct(t, at, "(")?;
            let callee = expr(t, at, depth + 1)?;
            matches!(t.get(*at), Some(Tok::Ident(w)) if w == "at").then_some(())?;
            *at += 1;
            let caller = expr(t, at, depth + 1)?;
            punct(t, at, ")")?;
            Some(LocExpr::CallSite(Box::new(callee), Box::new(caller)))
        }
        Tok::Ident(k) if k == "fused" => {
            if punct(t, at, "<").is_some() {
                // Metadata: skipped up to the closing `>`.
                while !matches!(t.get(*at), Some(Tok::Punct(">")) | None) {
                    *at += 1;
                }
                punct(t, at, ">")?;
            }
            punct(t, at, "[")?;
            let mut parts = vec![expr(t, at, depth + 1)?];
            while punct(t, at, ",").is_some() {
                parts.push(expr(t, at, depth + 1)?);
            }
            punct(t, at, "]")?;
            Some(LocExpr::Fused(parts))
        }
        Tok::Str(s) => match t.get(*at) {
            Some(Tok::Punct(":")) => {
                *at += 1;
                let line = int(t, at)?;
                punct(t, at, ":")?;
                let col = int(t, at)?;
                // `to :29` or `to 110:5`: the end of a range.
                if matches!(t.get(*at), Some(Tok::Ident(w)) if w == "to") {
                    *at += 1;
                    if punct(t, at, ":").is_some() {
                        int(t, at)?;
                    } else {
                        int(t, at)?;
                        punct(t, at, ":")?;
                        int(t, at)?;
                    }
                }
                Some(LocExpr::File(s, line, col))
            }
            Some(Tok::Punct("(")) => {
                *at += 1;
                let child = expr(t, at, depth + 1)?;
                punct(t, at, ")")?;
                Some(LocExpr::Name(s, Some(Box::new(child))))
            }
            _ => Some(LocExpr::Name(s, None)),
        },
        _ => None,
    }
}

fn punct(t: &[Tok], at: &mut usize, p: &str) -> Option<()> {
    match t.get(*at) {
        Some(Tok::Punct(q)) if *q == p => {
            *at += 1;
            Some(())
        }
        _ => None,
    }
}

fn int(t: &[Tok], at: &mut usize) -> Option<i64> {
    match t.get(*at) {
        Some(Tok::Int(s)) => {
            *at += 1;
            s.parse().ok()
        }
        _ => None,
    }
}

/// `file:line:col (name)` for `e`: the first source line found (a call
/// site's callee before its caller: the innermost frame, where the user's
/// code is) and the outermost name on the way, through `aliases`.
pub(super) fn resolve(e: &LocExpr, aliases: &HashMap<String, LocExpr>) -> Option<String> {
    let mut name = None;
    let mut steps = MAX_RESOLVE_STEPS;
    let file = first_file(e, aliases, &mut name, (0, &mut steps))?;
    Some(match name {
        Some(n) => format!("{file} ({n})"),
        None => file,
    })
}

/// Most locations one op's resolution visits. Depth alone does not bound
/// the work: a call site tries its callee and then its caller, so aliases
/// that refer to one another (`#l = loc(callsite(#l at #l))`, found by
/// fuzzing) or a chain of call sites of two unresolvable halves cost two
/// tries per level, 2^64 at the depth limit. JAX's chains take a few
/// dozen steps.
const MAX_RESOLVE_STEPS: usize = 1024;

fn first_file(
    e: &LocExpr,
    aliases: &HashMap<String, LocExpr>,
    name: &mut Option<String>,
    (depth, steps): (usize, &mut usize),
) -> Option<String> {
    if depth > MAX_DEPTH || *steps == 0 {
        return None;
    }
    *steps -= 1;
    let next = depth + 1;
    match e {
        LocExpr::File(f, line, col) => Some(format!("{f}:{line}:{col}")),
        LocExpr::Name(n, child) => {
            name.get_or_insert_with(|| n.clone());
            first_file(child.as_deref()?, aliases, name, (next, steps))
        }
        LocExpr::Alias(a) => first_file(aliases.get(a)?, aliases, name, (next, steps)),
        LocExpr::CallSite(callee, caller) => first_file(callee, aliases, name, (next, steps))
            .or_else(|| first_file(caller, aliases, name, (next, steps))),
        LocExpr::Fused(parts) => parts
            .iter()
            .find_map(|p| first_file(p, aliases, name, (next, &mut *steps))),
        LocExpr::Unknown => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(x: &str) -> Tok {
        Tok::Str(x.into())
    }
    fn p(x: &'static str) -> Tok {
        Tok::Punct(x)
    }
    fn i(x: &str) -> Tok {
        Tok::Int(x.into())
    }

    #[test]
    fn jax_locations_resolve_to_the_innermost_source_line() {
        let mut aliases = HashMap::new();
        // #loc5 = loc("m.py":108:21 to :29)
        let file = interpret(&[
            s("m.py"),
            p(":"),
            i("108"),
            p(":"),
            i("21"),
            Tok::Ident("to".into()),
            p(":"),
            i("29"),
        ]);
        aliases.insert("loc5".into(), file.unwrap());
        // #loc6 = loc("m.py":113:11)
        aliases.insert(
            "loc6".into(),
            interpret(&[s("m.py"), p(":"), i("113"), p(":"), i("11")]).unwrap(),
        );
        // #loc7 = loc("<lambda>"(#loc5)); #loc9 = loc(callsite(#loc7 at #loc6))
        aliases.insert(
            "loc7".into(),
            interpret(&[s("<lambda>"), p("("), Tok::Hash("loc5".into()), p(")")]).unwrap(),
        );
        let callsite = interpret(&[
            Tok::Ident("callsite".into()),
            p("("),
            Tok::Hash("loc7".into()),
            Tok::Ident("at".into()),
            Tok::Hash("loc6".into()),
            p(")"),
        ]);
        aliases.insert("loc9".into(), callsite.unwrap());
        // loc("jit(f)/reduce_sum"(#loc9))
        let op = interpret(&[
            s("jit(f)/reduce_sum"),
            p("("),
            Tok::Hash("loc9".into()),
            p(")"),
        ])
        .unwrap();
        assert_eq!(
            resolve(&op, &aliases).as_deref(),
            Some("m.py:108:21 (jit(f)/reduce_sum)")
        );
        assert_eq!(resolve(&LocExpr::Unknown, &aliases), None);
        // A cycle of aliases ends.
        aliases.insert("a".into(), LocExpr::Alias("b".into()));
        aliases.insert("b".into(), LocExpr::Alias("a".into()));
        assert_eq!(resolve(&LocExpr::Alias("a".into()), &aliases), None);
        assert_eq!(interpret(&[p(")")]), None);
    }

    /// `#l = loc(callsite(#l at #l))`: each level tries the callee, then
    /// the caller; without a bound on the steps this took 2^64 of them.
    #[test]
    fn call_sites_of_themselves_resolve_in_bounded_steps() {
        let mut aliases = HashMap::new();
        let l = || Box::new(LocExpr::Alias("l".into()));
        aliases.insert("l".into(), LocExpr::CallSite(l(), l()));
        assert_eq!(resolve(&LocExpr::Alias("l".into()), &aliases), None);
        // A chain of distinct aliases, each a call site of the one below
        // twice, the last one unresolvable, ends as fast.
        for i in 1..200 {
            let below = || Box::new(LocExpr::Alias(format!("c{}", i - 1)));
            aliases.insert(format!("c{i}"), LocExpr::CallSite(below(), below()));
        }
        assert_eq!(resolve(&LocExpr::Alias("c199".into()), &aliases), None);
    }
}
