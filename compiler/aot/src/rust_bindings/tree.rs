//! The Rust bindings' named form of a function: its arguments and results
//! as structs along the model's pytree, one struct per level, fields named
//! by the JAX path's keys. For JAX's `params['attn']['wk']` and `x`, and
//! results `result['y']` and `result['aux']['norm']`:
//!
//! ```text
//! pub struct MainArgs<'a> { pub params: MainArgsParams<'a>, pub x: &'a [f32; 8] }
//! pub struct MainArgsParams<'a> { pub attn: MainArgsParamsAttn<'a> }
//! pub struct MainArgsParamsAttn<'a> { pub wk: &'a [f32; 64] }
//! pub struct MainResults { pub y: Vec<f32>, pub aux: MainResultsAux }
//! pub struct MainResultsAux { pub norm: Vec<f32> }
//! pub fn main_named(args: &MainArgs<'_>) -> Result<MainResults, Error>
//! ```
//!
//! Swapping two same-shaped weights is then a compile error of the caller's
//! program instead of a wrong answer. A function gets the named form only
//! when every argument has a path, the paths parse (`name`, `['key']`,
//! `[0]`, `.attr`), and their keys make distinct identifiers at each level
//! (by the header's identifier rule); results are a struct when they all
//! share their first key (JAX's `result`) and have keys below it, else the
//! named form returns them as the positional form does. Field names follow
//! the header's identifier rule (`path_identifier`: keywords get a `_`).

use std::collections::HashSet;
use std::fmt::Write as _;

use crate::header::comment_text;
use crate::interface::{CFunction, CParam};
use crate::param_names::path_identifier;

/// A level of the pytree: fields in first-seen order, each a buffer (its
/// index in the function's parameters) or a level below.
#[derive(Debug, Default)]
struct Level {
    fields: Vec<(String, Field)>,
}

#[derive(Debug)]
enum Field {
    Buffer(usize),
    Level(Level),
}

/// The keys of a JAX pytree path: `params['attn']['wk']` -> params, attn,
/// wk; `[0]` gives "0", `.w` gives "w". `None` for anything else.
fn keys(path: &str) -> Option<Vec<String>> {
    let mut out = Vec::new();
    let mut rest = path.trim();
    let lead: String = rest
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    if !lead.is_empty() {
        out.push(lead.clone());
        rest = &rest[lead.len()..];
    }
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix('.') {
            let attr: String = r
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if attr.is_empty() {
                return None;
            }
            rest = &r[attr.len()..];
            out.push(attr);
        } else if let Some(r) = rest.strip_prefix('[') {
            let (key, after) = bracketed(r)?;
            out.push(key);
            rest = after;
        } else {
            return None;
        }
    }
    (!out.is_empty()).then_some(out)
}

/// The key of `['key']`, `["key"]` or `[0]` (after its `[`) and the text
/// after its `]`.
fn bracketed(r: &str) -> Option<(String, &str)> {
    let quote = r.chars().next()?;
    if quote == '\'' || quote == '"' {
        let mut key = String::new();
        let mut chars = r[1..].char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                '\\' => key.push(chars.next()?.1),
                c if c == quote => {
                    let after = r[1 + i + 1..].strip_prefix(']')?;
                    return Some((key, after));
                }
                c => key.push(c),
            }
        }
        None
    } else {
        let end = r.find(']')?;
        let index = &r[..end];
        index
            .chars()
            .all(|c| c.is_ascii_digit())
            .then(|| (index.to_string(), &r[end + 1..]))
            .filter(|(i, _)| !i.is_empty())
    }
}

/// The tree of `items` (each buffer's keys), or `None` when two buffers
/// collide (the same field, or a buffer where a level is).
fn tree(items: &[(Vec<String>, usize)]) -> Option<Level> {
    let mut root = Level::default();
    for (keys, index) in items {
        let fields: Vec<String> = keys
            .iter()
            .map(|k| path_identifier(k))
            .collect::<Option<_>>()?;
        insert(&mut root, &fields, *index)?;
    }
    Some(root)
}

fn insert(level: &mut Level, fields: &[String], index: usize) -> Option<()> {
    let (first, rest) = fields.split_first()?;
    let found = level.fields.iter_mut().find(|(f, _)| f == first);
    match (found, rest.is_empty()) {
        (None, true) => level.fields.push((first.clone(), Field::Buffer(index))),
        (None, false) => {
            let mut below = Level::default();
            insert(&mut below, rest, index)?;
            level.fields.push((first.clone(), Field::Level(below)));
        }
        (Some((_, Field::Level(below))), false) => insert(below, rest, index)?,
        (Some(_), _) => return None,
    }
    Some(())
}

/// `params_attn` -> `ParamsAttn`.
fn camel(id: &str) -> String {
    id.split('_')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let mut c = p.chars();
            c.next()
                .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                .unwrap_or_default()
        })
        .collect()
}

/// The named form of function `f` (Rust name `name`), for the bindings.
pub(crate) struct Named {
    args: Level,
    /// `None`: the results are returned as the positional form returns them.
    results: Option<Level>,
}

impl Named {
    /// The named form, when `f`'s paths make one (see the module docs).
    pub(crate) fn of(f: &CFunction) -> Option<Named> {
        if f.batch.is_some() {
            return None;
        }
        let mut args = Vec::new();
        let mut results = Vec::new();
        for (i, p) in f.params.iter().enumerate() {
            let keys = p.path.as_deref().and_then(keys);
            match (p.is_output, keys) {
                (false, Some(k)) => args.push((k, i)),
                (false, None) => return None,
                (true, k) => results.push((k, i)),
            }
        }
        let args = tree(&args)?;
        let results = results_tree(results);
        let named = Named { args, results };
        let mut names = HashSet::new();
        named
            .struct_names("F")
            .into_iter()
            .all(|n| names.insert(n))
            .then_some(named)
    }

    /// Every struct the named form defines, for a function of Rust name
    /// `name`.
    pub(crate) fn struct_names(&self, name: &str) -> Vec<String> {
        let base = camel(name.trim_start_matches("r#"));
        let mut out = Vec::new();
        level_names(&self.args, &format!("{base}Args"), &mut out);
        if let Some(results) = &self.results {
            level_names(results, &format!("{base}Results"), &mut out);
        }
        out
    }

    /// Writes the structs and `NAME_named`; `ret` is the positional form's
    /// result type and `results` the names it returns them in.
    pub(crate) fn write(&self, s: &mut String, name: &str, f: &CFunction, ret: &str) {
        let base = camel(name.trim_start_matches("r#"));
        let args_ty = format!("{base}Args");
        write_level(s, &self.args, &args_ty, &f.params, true);
        let ins: Vec<String> = f
            .params
            .iter()
            .enumerate()
            .filter(|(_, p)| !p.is_output)
            .map(|(i, _)| format!("args.{}", access(&self.args, i).unwrap_or_default()))
            .collect();
        let outs: Vec<&CParam> = f.params.iter().filter(|p| p.is_output).collect();
        let bound = match outs.len() {
            1 => outs[0].name.clone(),
            _ => format!(
                "({})",
                outs.iter()
                    .map(|p| p.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        let (result_ty, value) = match &self.results {
            Some(results) => {
                let ty = format!("{base}Results");
                write_level(s, results, &ty, &f.params, false);
                let value = construct(results, &ty, &f.params);
                (ty, value)
            }
            None => (ret.to_string(), bound.clone()),
        };
        let bare = name.trim_start_matches("r#");
        let _ = writeln!(
            s,
            "\n/// `{name}` with its arguments and results by the model's names.\n\
             pub fn {bare}_named(args: &{args_ty}<'_>) -> Result<{result_ty}, Error> {{\n    \
             let {bound} = {name}({})?;\n    Ok({value})\n}}",
            ins.join(", ")
        );
    }
}

/// The results' tree below their shared first key, if they have one.
fn results_tree(results: Vec<(Option<Vec<String>>, usize)>) -> Option<Level> {
    let first = results.first()?.0.as_ref()?.first()?.clone();
    let below: Vec<(Vec<String>, usize)> = results
        .into_iter()
        .map(|(k, i)| {
            let k = k?;
            (k.first() == Some(&first) && k.len() > 1).then(|| (k[1..].to_vec(), i))
        })
        .collect::<Option<_>>()?;
    tree(&below)
}

fn level_names(level: &Level, name: &str, out: &mut Vec<String>) {
    out.push(name.to_string());
    for (field, f) in &level.fields {
        if let Field::Level(below) = f {
            level_names(below, &format!("{name}{}", camel(field)), out);
        }
    }
}

/// The Rust element type and count of buffer `p`.
fn leaf_type(p: &CParam, borrowed: bool) -> String {
    let t = super::rust_type(&p.c_type);
    if borrowed {
        format!("&'a [{t}; {}]", p.c_count())
    } else {
        format!("Vec<{t}>")
    }
}

fn write_level(s: &mut String, level: &Level, name: &str, params: &[CParam], borrowed: bool) {
    let lifetime = if borrowed { "<'a>" } else { "" };
    let mut fields = Vec::new();
    for (field, f) in &level.fields {
        let ty = match f {
            Field::Buffer(i) => leaf_type(&params[*i], borrowed),
            Field::Level(below) => {
                let below_name = format!("{name}{}", camel(field));
                write_level(s, below, &below_name, params, borrowed);
                format!("{below_name}{lifetime}")
            }
        };
        let doc = match f {
            Field::Buffer(i) => format!(
                "    /// `{}`: {}\n",
                params[*i]
                    .path
                    .as_deref()
                    .map(comment_text)
                    .unwrap_or_default(),
                params[*i].ir_type()
            ),
            Field::Level(_) => String::new(),
        };
        fields.push(format!("{doc}    pub {field}: {ty},"));
    }
    let _ = writeln!(
        s,
        "\n#[derive(Clone, Debug)]\npub struct {name}{lifetime} {{\n{}\n}}",
        fields.join("\n")
    );
}

/// The struct expression of the results `level` from the positional
/// results (bound under their parameter names).
fn construct(level: &Level, name: &str, params: &[CParam]) -> String {
    let fields: Vec<String> = level
        .fields
        .iter()
        .map(|(field, f)| {
            let value = match f {
                Field::Buffer(i) => params[*i].name.clone(),
                Field::Level(below) => construct(below, &format!("{name}{}", camel(field)), params),
            };
            format!("{field}: {value}")
        })
        .collect();
    format!("{name} {{ {} }}", fields.join(", "))
}

/// The field path to buffer `index` (`params.attn.wk`).
fn access(level: &Level, index: usize) -> Option<String> {
    level.fields.iter().find_map(|(field, f)| match f {
        Field::Buffer(i) if *i == index => Some(field.clone()),
        Field::Level(below) => access(below, index).map(|a| format!("{field}.{a}")),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jax_paths_split_into_keys() {
        assert_eq!(
            keys("params['attn']['wk']").unwrap(),
            ["params", "attn", "wk"]
        );
        assert_eq!(keys("x").unwrap(), ["x"]);
        assert_eq!(keys("args[0][1].w").unwrap(), ["args", "0", "1", "w"]);
        assert_eq!(keys(r#"p["a]b"]"#).unwrap(), ["p", "a]b"]);
        assert_eq!(keys(r"p['it\'s']").unwrap(), ["p", "it's"]);
        assert!(keys("p[").is_none());
        assert!(keys("p['a'").is_none());
        assert!(keys("p[x]").is_none());
        assert!(keys("").is_none());
    }

    fn func(paths: &[(Option<&str>, bool)]) -> CFunction {
        CFunction {
            c_name: "m_main".into(),
            params: paths
                .iter()
                .enumerate()
                .map(|(i, &(path, out))| CParam {
                    name: format!("p{i}"),
                    position: format!("p{i}"),
                    path: path.map(str::to_string),
                    c_type: "float".into(),
                    shape: vec![2],
                    is_output: out,
                    elem_doc: "f32".into(),
                })
                .collect(),
            scratch_bytes: None,
            dropped: vec![],
            aliases: vec![],
            batch: None,
        }
    }

    #[test]
    fn named_form_needs_every_argument_named() {
        let named = Named::of(&func(&[
            (Some("params['w']"), false),
            (Some("x"), false),
            (Some("result['y']"), true),
        ]))
        .expect("a named form");
        assert_eq!(
            named.struct_names("main"),
            ["MainArgs", "MainArgsParams", "MainResults"]
        );
        // An argument without a path: positional only.
        assert!(Named::of(&func(&[(Some("params['w']"), false), (None, false)])).is_none());
        // One result that is the whole result: returned as the positional
        // form returns it.
        let named =
            Named::of(&func(&[(Some("x"), false), (Some("result"), true)])).expect("a named form");
        assert_eq!(named.struct_names("main"), ["MainArgs"]);
    }

    #[test]
    fn colliding_paths_give_no_tree() {
        let k = |p: &str| keys(p).unwrap();
        assert!(tree(&[(k("p['a']"), 0), (k("p['b']"), 1)]).is_some());
        // A buffer where a level is.
        assert!(tree(&[(k("p['a']"), 0), (k("p['a']['b']"), 1)]).is_none());
        // Keys that make the same identifier.
        assert!(tree(&[(k("p['a b']"), 0), (k("p['a-b']"), 1)]).is_none());
    }
}
