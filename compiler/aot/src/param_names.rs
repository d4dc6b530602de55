//! The parameter names a header and the bindings give a model's buffers:
//! identifiers made from the model's paths for them (JAX's pytree paths),
//! kept clear of C, C++ and Rust keywords and of the C types a header
//! spells.

/// What a parameter must not be named besides C and C++ keywords
/// (`CPP_KEYWORDS`): C-only keywords, Rust keywords, the C types a header
/// spells and the header's own parameter names; such a name gets a trailing
/// `_`.
const KEYWORDS: &[&str] = &[
    "restrict", "typeof", "as", "async", "await", "crate", "dyn", "fn", "impl", "in", "let",
    "loop", "match", "mod", "move", "mut", "pub", "ref", "self", "Self", "super", "trait", "type",
    "unsafe", "use", "where", "abstract", "become", "box", "final", "gen", "macro", "override",
    "priv", "unsized", "yield", "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t",
    "uint32_t", "uint64_t", "size_t", "scratch", "buffers",
];

/// C++20's keywords and alternative tokens: a C++ header's names avoid
/// them (`--header-cpp`), and so do parameter names.
const CPP_KEYWORDS: &[&str] = &[
    "alignas",
    "alignof",
    "and",
    "and_eq",
    "asm",
    "auto",
    "bitand",
    "bitor",
    "bool",
    "break",
    "case",
    "catch",
    "char",
    "char8_t",
    "char16_t",
    "char32_t",
    "class",
    "compl",
    "concept",
    "const",
    "consteval",
    "constexpr",
    "constinit",
    "const_cast",
    "continue",
    "co_await",
    "co_return",
    "co_yield",
    "decltype",
    "default",
    "delete",
    "do",
    "double",
    "dynamic_cast",
    "else",
    "enum",
    "explicit",
    "export",
    "extern",
    "false",
    "float",
    "for",
    "friend",
    "goto",
    "if",
    "inline",
    "int",
    "long",
    "mutable",
    "namespace",
    "new",
    "noexcept",
    "not",
    "not_eq",
    "nullptr",
    "operator",
    "or",
    "or_eq",
    "private",
    "protected",
    "public",
    "register",
    "reinterpret_cast",
    "requires",
    "return",
    "short",
    "signed",
    "sizeof",
    "static",
    "static_assert",
    "static_cast",
    "struct",
    "switch",
    "template",
    "this",
    "thread_local",
    "throw",
    "true",
    "try",
    "typedef",
    "typeid",
    "typename",
    "union",
    "unsigned",
    "using",
    "virtual",
    "void",
    "volatile",
    "wchar_t",
    "while",
    "xor",
    "xor_eq",
    "std",
];

/// Whether `s` is a C++ keyword (or `std`, which a namespace or parameter
/// of a generated C++ header must not be named).
pub fn is_cpp_keyword(s: &str) -> bool {
    CPP_KEYWORDS.contains(&s)
}

/// Longest parameter name taken from a model's path.
const MAX_PARAM_NAME: usize = 64;

/// The C/Rust identifier for a buffer the model names `path` (JAX's pytree
/// path, `params['attn']['wk']`): every run of other characters than ASCII
/// letters and digits becomes one `_` (`params_attn_wk`), none at either
/// end; a leading digit gets a `v` before it, a keyword a `_` after it; at
/// most 64 characters. `None` when nothing is left.
pub fn path_identifier(path: &str) -> Option<String> {
    let mut id = String::new();
    for c in path.chars() {
        if c.is_ascii_alphanumeric() {
            id.push(c);
        } else if !id.is_empty() && !id.ends_with('_') {
            id.push('_');
        }
    }
    while id.ends_with('_') {
        id.pop();
    }
    id.truncate(MAX_PARAM_NAME);
    if id.is_empty() {
        return None;
    }
    if id.starts_with(|c: char| c.is_ascii_digit()) {
        id.insert(0, 'v');
    }
    if KEYWORDS.contains(&id.as_str()) || is_cpp_keyword(&id) {
        id.push('_');
    }
    Some(id)
}

/// The parameter names of one function: `paths[i]`'s identifier when it
/// has one and no earlier parameter took it, else the positional name
/// (`positions[i]`, `arg0`/`res0`, which no path identifier can take: those
/// are made unique the same way).
pub fn param_names(paths: &[Option<&str>], positions: &[String]) -> Vec<String> {
    let from_paths: Vec<Option<String>> =
        paths.iter().map(|p| p.and_then(path_identifier)).collect();
    let mut taken: std::collections::HashSet<String> = positions
        .iter()
        .enumerate()
        .filter(|&(i, _)| from_paths.get(i).is_none_or(|p| p.is_none()))
        .map(|(_, p)| p.clone())
        .collect();
    positions
        .iter()
        .enumerate()
        .map(|(i, position)| match from_paths.get(i).cloned().flatten() {
            Some(id) if taken.insert(id.clone()) => id,
            Some(id) => {
                let unique = format!("{id}_{position}");
                taken.insert(unique.clone());
                unique
            }
            None => position.clone(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameter_names_come_from_paths() {
        assert_eq!(
            path_identifier("params['attn']['wk']").as_deref(),
            Some("params_attn_wk")
        );
        assert_eq!(path_identifier("result[0]").as_deref(), Some("result_0"));
        assert_eq!(path_identifier("[0]").as_deref(), Some("v0"));
        assert_eq!(path_identifier("type").as_deref(), Some("type_"));
        assert_eq!(path_identifier("*/ evil \n"), Some("evil".into()));
        assert_eq!(path_identifier("['']"), None);
        let positions: Vec<String> = ["arg0", "arg1", "arg2", "res0"].map(String::from).to_vec();
        let names = param_names(&[Some("x"), Some("x"), None, Some("arg2")], &positions);
        assert_eq!(names, ["x", "x_arg1", "arg2", "arg2_res0"]);
    }
}
