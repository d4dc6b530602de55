//! The one rule by which names from a model become identifiers in the
//! generated C header and Rust bindings, and the check that no two
//! generated identifiers collide.
//!
//! A model file is untrusted input: its function names end up in C and Rust
//! source that users compile. So a name is accepted only when it is already
//! an identifier (`[A-Za-z_][A-Za-z0-9_]*`, at most [`MAX_NAME_LEN`]
//! characters) — nothing is escaped into an identifier, so nothing else can
//! reach the generated text outside comments, and comments go through
//! [`crate::header::comment_text`]. Each name then gives several
//! identifiers (`P_f`, `P_F_ARG0_COUNT`, Rust's `f`, `f_into`,
//! `F_ARG0_SHAPE`); two functions whose identifiers meet (`f` and `F` share
//! their macros) or a function named like the library's own API
//! (`last_error`) is an error naming both.

use std::collections::HashMap;

use crate::header::count_macro;
use crate::interface::CFunction;
use crate::rust_bindings;

pub use strata_abi::{MAX_NAME_LEN, identifier_error, shown_name as shown};

pub use strata_abi::LIBRARY_API;

/// Items the Rust bindings define themselves.
const RUST_API: &[&str] = &[
    "Error",
    "CustomCallFn",
    "custom_call",
    "last_error",
    "set_num_threads",
];

/// The identifiers the header and the Rust bindings generate for one
/// exported function, each with what it is.
fn identifiers(prefix: &str, f: &CFunction) -> Vec<(String, &'static str)> {
    let mut ids = vec![
        (f.c_name.clone(), "C function"),
        (format!("{}_packed", f.c_name), "C function"),
    ];
    for p in &f.params {
        ids.push((count_macro(f, p), "C macro"));
    }
    if f.scratch_bytes.is_some() {
        ids.push((format!("{}_scratch_bytes", f.c_name), "C function"));
        ids.push((format!("{}_with_scratch", f.c_name), "C function"));
        ids.push((
            format!("{}_SCRATCH_BYTES", crate::header::macro_name(&f.c_name)),
            "C macro",
        ));
    }
    let rust = rust_bindings::rust_name(prefix, &f.c_name);
    for id in rust_bindings::item_names(&rust, f) {
        ids.push((id, "Rust item"));
    }
    ids
}

/// Checks the names of a library's exported functions (`funcs[i]` is
/// public function `names[i]`): each an identifier, none colliding with
/// another's generated identifiers or with the library's own API. The
/// error is `(i, message)` for the first function at fault.
pub fn check_exported(
    prefix: &str,
    names: &[&str],
    funcs: &[CFunction],
) -> Result<(), (usize, String)> {
    let mut owner: HashMap<String, (usize, &'static str)> = HashMap::new();
    for api in LIBRARY_API {
        owner.insert(format!("{prefix}_{api}"), (usize::MAX, "C function"));
    }
    for api in RUST_API {
        owner.insert((*api).to_string(), (usize::MAX, "Rust item"));
    }
    for (i, (name, f)) in names.iter().zip(funcs).enumerate() {
        if let Some(why) = identifier_error(name) {
            return Err((
                i,
                format!("public function @{} cannot be exported: {why}", shown(name)),
            ));
        }
        for (id, kind) in identifiers(prefix, f) {
            match owner.get(&id) {
                Some(&(j, _)) if j == usize::MAX => {
                    return Err((
                        i,
                        format!(
                            "public function @{name} cannot be exported: its {kind} {id} is part of the library's own API"
                        ),
                    ));
                }
                Some(&(j, _)) if j != i => {
                    return Err((
                        i,
                        format!(
                            "public function @{name} cannot be exported: its {kind} {id} is also generated for @{}",
                            names[j]
                        ),
                    ));
                }
                _ => {
                    owner.insert(id, (i, kind));
                }
            }
        }
    }
    Ok(())
}

/// Checks the custom-call targets of a library (`targets`, each once):
/// identifiers, none of the library's exported symbols (`exported`), and
/// distinct Rust names (`self` and `self_` would meet). The error is
/// `(i, message)` for the first target at fault.
pub fn check_custom_call_targets(
    targets: &[&str],
    exported: &[String],
) -> Result<(), (usize, String)> {
    let mut rust: HashMap<String, usize> = HashMap::new();
    for (i, target) in targets.iter().enumerate() {
        if let Some(why) = identifier_error(target) {
            return Err((i, format!("custom_call target cannot be registered: {why}")));
        }
        if exported.iter().any(|e| e == target) {
            return Err((
                i,
                format!("custom_call target '{target}' names one of the library's own exports"),
            ));
        }
        let name = rust_bindings::rust_name("", target)
            .trim_start_matches("r#")
            .to_string();
        if let Some(&j) = rust.get(&name) {
            return Err((
                i,
                format!(
                    "custom_call targets '{}' and '{target}' would share the Rust name custom_call::{name}",
                    targets[j]
                ),
            ));
        }
        rust.insert(name, i);
    }
    Ok(())
}

pub use crate::param_names::{is_cpp_keyword, param_names, path_identifier};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interface::CParam;

    fn func(prefix: &str, name: &str) -> CFunction {
        CFunction {
            c_name: format!("{prefix}_{name}"),
            params: vec![CParam {
                name: "arg0".into(),
                position: "arg0".into(),
                path: None,
                c_type: "float".into(),
                shape: vec![2],
                is_output: false,
                elem_doc: "f32".into(),
            }],
            scratch_bytes: Some(0),
            dropped: vec![],
            aliases: vec![],
            batch: None,
        }
    }

    fn check(names: &[&str]) -> Result<(), (usize, String)> {
        let funcs: Vec<CFunction> = names.iter().map(|n| func("m", n)).collect();
        check_exported("m", names, &funcs)
    }

    #[test]
    fn identifiers_pass_and_anything_else_is_refused() {
        assert!(check(&["main", "_step2"]).is_ok());
        for bad in ["", "2x", "a-b", "main(void);\nint x", "é", &"a".repeat(256)] {
            assert!(check(&[bad]).is_err(), "{bad:?}");
        }
        let (_, m) = check(&["a\nb"]).unwrap_err();
        assert!(!m.contains('\n'), "{m}");
    }

    #[test]
    fn collisions_name_both_functions() {
        let (i, m) = check(&["f", "F"]).unwrap_err();
        assert_eq!(i, 1);
        assert!(m.contains("M_F_ARG0_COUNT") && m.contains("@f"), "{m}");
        let (_, m) = check(&["a", "a_into"]).unwrap_err();
        assert!(m.contains("a_into"), "{m}");
        let (_, m) = check(&["a", "a_with_scratch"]).unwrap_err();
        assert!(m.contains("m_a_with_scratch"), "{m}");
        let (_, m) = check(&["last_error"]).unwrap_err();
        assert!(m.contains("library's own API"), "{m}");
        let (_, m) = check(&["register_custom_call"]).unwrap_err();
        assert!(m.contains("library's own API"), "{m}");
    }

    #[test]
    fn targets_are_identifiers_and_not_exports() {
        let exported = vec!["m_main".to_string(), "m_last_error".to_string()];
        assert!(check_custom_call_targets(&["my_op", "type"], &exported).is_ok());
        assert!(check_custom_call_targets(&["m_last_error"], &exported).is_err());
        assert!(check_custom_call_targets(&["x y"], &exported).is_err());
        let (i, m) = check_custom_call_targets(&["self", "self_"], &exported).unwrap_err();
        assert_eq!(i, 1);
        assert!(m.contains("custom_call::self_"), "{m}");
    }
}
