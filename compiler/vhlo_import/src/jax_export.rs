//! JAX's serialized `Exported` (`jax.export.Exported.serialize()`): a
//! flatbuffer (schema `jax/_src/export/serialization.fbs`) holding the
//! portable artifact and what JAX knows about the function around it.

use std::fmt;

use crate::error::{ReadError, Result, err};
use crate::flatbuffer::{Buf, Table};

/// Field slots of the `Exported` table.
mod slot {
    pub const SERIALIZATION_VERSION: usize = 0;
    pub const FUNCTION_NAME: usize = 1;
    pub const IN_TREE: usize = 2;
    pub const IN_AVALS: usize = 3;
    pub const OUT_TREE: usize = 4;
    pub const OUT_AVALS: usize = 5;
    pub const NR_DEVICES_SHORT: usize = 6;
    pub const PLATFORMS: usize = 9;
    pub const ORDERED_EFFECTS: usize = 10;
    pub const UNORDERED_EFFECTS: usize = 11;
    pub const DISABLED_CHECKS: usize = 12;
    pub const MLIR_MODULE: usize = 13;
    pub const CALLING_CONVENTION_VERSION: usize = 14;
    pub const MODULE_KEPT_VAR_IDX: usize = 15;
    pub const USES_GLOBAL_CONSTANTS: usize = 16;
    pub const NR_DEVICES: usize = 18;
    pub const UNIQUE_AVALS: usize = 19;
    pub const IN_AVALS_IDXS: usize = 22;
    pub const OUT_AVALS_IDXS: usize = 23;
}

/// How deeply a pytree may nest.
const MAX_TREE_DEPTH: usize = 100;

/// An abstract value: element type and dimensions (symbolic ones, such as
/// `b` or `2*b`, as JAX wrote them). Displays as `float32[b,4]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shape {
    pub dtype: String,
    pub dims: Vec<String>,
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}[{}]", self.dtype, self.dims.join(","))
    }
}

/// A decoded JAX export.
///
/// Argument names are the key paths of the flattened `(args, kwargs)`
/// pytree, spelled like `jax.tree_util.keystr` with the positional
/// arguments under `args` and keyword ones under `kwargs`:
/// `args[0]['params']['w']`, `args[1]`, `kwargs['x']`. Result names are
/// `result` followed by the key path in the output pytree (`result`,
/// `result[0]`, `result['loss']`), as JAX's `jax.result_info` spells them.
/// Custom pytree nodes are indexed by position (`[i]`).
#[derive(Debug, Clone)]
pub struct JaxExport {
    /// The StableHLO text of the exported module.
    pub module_text: String,
    pub function_name: String,
    /// Lowering platforms (`cpu`, `cuda`, `rocm`, `tpu`); a module exported
    /// for several takes the platform index as its first argument.
    pub platforms: Vec<String>,
    pub in_names: Vec<String>,
    pub out_names: Vec<String>,
    pub in_shapes: Vec<Shape>,
    pub out_shapes: Vec<Shape>,
    pub nr_devices: u32,
    pub calling_convention_version: u16,
    pub serialization_version: u16,
    /// Which of the flattened arguments the module kept (the others are unused).
    pub module_kept_var_idx: Vec<u16>,
    pub uses_global_constants: bool,
    /// Effect type names (Python class names) of ordered and unordered effects.
    pub ordered_effects: Vec<String>,
    pub unordered_effects: Vec<String>,
    /// Disabled safety checks, as `platform`, `shape_assertions` or
    /// `custom_call:TARGET`.
    pub disabled_safety_checks: Vec<String>,
    /// The StableHLO version of the embedded portable artifact.
    pub stablehlo_version: Option<String>,
}

/// True if `bytes` is a flatbuffer whose root table looks like JAX's
/// `Exported`: a function name string and an MLIR bytecode module. (The
/// schema declares no file identifier, so the check is structural.)
pub fn looks_like_jax_export(bytes: &[u8]) -> bool {
    let check = || -> Result<bool> {
        let root = Buf { data: bytes }.root()?;
        let name_ok = root.string(slot::FUNCTION_NAME)?.is_some();
        let module = root.bytes(slot::MLIR_MODULE)?.unwrap_or(&[]);
        Ok(name_ok && crate::looks_like_mlir_bytecode(module))
    };
    bytes.len() >= 8 && check().unwrap_or(false)
}

/// Decodes a serialized JAX export and its module.
pub fn jax_export_to_text(bytes: &[u8]) -> std::result::Result<JaxExport, ReadError> {
    let root = Buf { data: bytes }.root()?;
    let Some(module) = root.bytes(slot::MLIR_MODULE)? else {
        return err(0, "JAX export has no module");
    };
    let module_at = module.as_ptr() as usize - bytes.as_ptr() as usize;
    let module_text = crate::portable_artifact_to_text(module)
        .map_err(|e| ReadError::new(e.offset.saturating_add(module_at), e.message))?;
    let (in_shapes, out_shapes) = avals(&root)?;
    let nr = root.u32(slot::NR_DEVICES, 0)?;
    let nr_devices = if nr != 0 {
        nr
    } else {
        u32::from(root.u16(slot::NR_DEVICES_SHORT, 0)?)
    };
    Ok(JaxExport {
        module_text,
        function_name: root.string(slot::FUNCTION_NAME)?.unwrap_or_default(),
        platforms: root.strings(slot::PLATFORMS)?,
        in_names: tree_names(root.table(slot::IN_TREE)?, true)?,
        out_names: tree_names(root.table(slot::OUT_TREE)?, false)?,
        in_shapes,
        out_shapes,
        nr_devices,
        calling_convention_version: root.u16(slot::CALLING_CONVENTION_VERSION, 0)?,
        serialization_version: root.u16(slot::SERIALIZATION_VERSION, 0)?,
        module_kept_var_idx: root.u16s(slot::MODULE_KEPT_VAR_IDX)?,
        uses_global_constants: root.u8(slot::USES_GLOBAL_CONSTANTS, 0)? != 0,
        ordered_effects: effects(&root, slot::ORDERED_EFFECTS)?,
        unordered_effects: effects(&root, slot::UNORDERED_EFFECTS)?,
        disabled_safety_checks: disabled_checks(&root)?,
        stablehlo_version: crate::portable_artifact_version(module),
    })
}

/// Input and output avals: by index into the unique avals (newer
/// exports), else listed in full.
fn avals(root: &Table<'_>) -> Result<(Vec<Shape>, Vec<Shape>)> {
    let unique = root
        .tables(slot::UNIQUE_AVALS)?
        .iter()
        .map(aval)
        .collect::<Result<Vec<_>>>()?;
    let pick = |idx_slot: usize, full_slot: usize| -> Result<Vec<Shape>> {
        let idxs = root.u32s(idx_slot)?;
        if !idxs.is_empty() {
            return idxs
                .iter()
                .map(|&i| match unique.get(i as usize) {
                    Some(s) => Ok(s.clone()),
                    None => err(0, format!("aval index {i} out of range")),
                })
                .collect();
        }
        root.tables(full_slot)?.iter().map(aval).collect()
    };
    Ok((
        pick(slot::IN_AVALS_IDXS, slot::IN_AVALS)?,
        pick(slot::OUT_AVALS_IDXS, slot::OUT_AVALS)?,
    ))
}

/// An `AbstractValue`: kind (slot 0), shape strings (1), dtype (2).
fn aval(t: &Table<'_>) -> Result<Shape> {
    if t.u8(0, 0)? == 1 {
        return Ok(Shape {
            dtype: "token".into(),
            dims: Vec::new(),
        });
    }
    Ok(Shape {
        dtype: dtype_name(t.u8(2, 0)?),
        dims: t.strings(1)?,
    })
}

fn dtype_name(code: u8) -> String {
    const NAMES: [&str; 30] = [
        "bool",
        "int8",
        "int16",
        "int32",
        "int64",
        "uint8",
        "uint16",
        "uint32",
        "uint64",
        "float16",
        "float32",
        "float64",
        "complex64",
        "complex128",
        "bfloat16",
        "int4",
        "uint4",
        "float8_e4m3b11fnuz",
        "float8_e4m3fn",
        "float8_e4m3fnuz",
        "float8_e5m2",
        "float8_e5m2fnuz",
        "float0",
        "float8_e4m3",
        "float8_e3m4",
        "float8_e8m0fnu",
        "float4_e2m1fn",
        "key<fry>",
        "key<rbg>",
        "key<unsafe_rbg>",
    ];
    NAMES
        .get(usize::from(code))
        .map_or_else(|| format!("dtype{code}"), |s| s.to_string())
}

fn effects(root: &Table<'_>, s: usize) -> Result<Vec<String>> {
    root.tables(s)?
        .iter()
        .map(|t| Ok(t.string(0)?.unwrap_or_default()))
        .collect()
}

fn disabled_checks(root: &Table<'_>) -> Result<Vec<String>> {
    root.tables(slot::DISABLED_CHECKS)?
        .iter()
        .map(|t| {
            Ok(match t.u8(0, 0)? {
                0 => "platform".to_string(),
                1 => format!("custom_call:{}", t.string(1)?.unwrap_or_default()),
                2 => "shape_assertions".to_string(),
                k => format!("check{k}"),
            })
        })
        .collect()
}

/// The key path of every leaf of a pytree, in flattening order.
fn tree_names(tree: Option<Table<'_>>, inputs: bool) -> Result<Vec<String>> {
    let mut out = Vec::new();
    let Some(tree) = tree else { return Ok(out) };
    if inputs {
        // The input tree is `((args...), {kwargs})`.
        let kids = tree.tables(1)?;
        if tree.u8(0, 0)? == 2 && kids.len() == 2 {
            for (prefix, kid) in ["args", "kwargs"].iter().zip(kids) {
                walk(&kid, &mut prefix.to_string(), &mut out, 0)?;
            }
            return Ok(out);
        }
        walk(&tree, &mut "args".to_string(), &mut out, 0)?;
    } else {
        walk(&tree, &mut "result".to_string(), &mut out, 0)?;
    }
    Ok(out)
}

/// PyTreeDef: kind (slot 0: leaf, none, tuple, list, dict, custom),
/// children (1), dict keys (2).
fn walk(t: &Table<'_>, path: &mut String, out: &mut Vec<String>, depth: usize) -> Result<()> {
    if depth > MAX_TREE_DEPTH {
        return err(0, "pytree nests too deeply");
    }
    let kind = t.u8(0, 0)?;
    if kind == 0 {
        out.push(path.clone());
        return Ok(());
    }
    let kids = t.tables(1)?;
    let keys = if kind == 4 { t.strings(2)? } else { Vec::new() };
    if kind == 4 && keys.len() != kids.len() {
        return err(0, "pytree dict has a different number of keys and children");
    }
    for (i, kid) in kids.iter().enumerate() {
        let len = path.len();
        match keys.get(i) {
            Some(k) => {
                path.push('[');
                py_repr(path, k);
                path.push(']');
            }
            None => path.push_str(&format!("[{i}]")),
        }
        walk(kid, path, out, depth + 1)?;
        path.truncate(len);
    }
    Ok(())
}

/// Python's `repr` of a string, as `keystr` shows dict keys.
fn py_repr(o: &mut String, s: &str) {
    let q = if s.contains('\'') && !s.contains('"') {
        '"'
    } else {
        '\''
    };
    o.push(q);
    for ch in s.chars() {
        match ch {
            '\\' => o.push_str("\\\\"),
            '\n' => o.push_str("\\n"),
            '\r' => o.push_str("\\r"),
            '\t' => o.push_str("\\t"),
            c if c == q => {
                o.push('\\');
                o.push(c);
            }
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                o.push_str(&format!("\\x{:02x}", c as u32))
            }
            c => o.push(c),
        }
    }
    o.push(q);
}
