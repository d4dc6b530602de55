//! NumPy `.npy` files (format versions 1 to 3) for `strata run`: arguments
//! read from `--input @x.npy` (or raw `--input @x.bin` in the argument's
//! declared type), results written by `--output-dir`.
//!
//! The element type must be the argument's (`<f4` for f32, `|b1` for i1,
//! `<c8` for complex<f32>, `<f2` for f16; bf16 and the f8 formats, which
//! NumPy lacks, as the raw `<V2` / `|V1` that `ml_dtypes` writes), C order,
//! little-endian, and the shape the argument's.

use std::path::Path;

use strata_ir::{Context, FloatKind, Signedness, Type, TypeKind};

const MAGIC: &[u8] = b"\x93NUMPY";
/// The longest header read: NumPy's own reader refuses headers over 10,000
/// bytes unless told otherwise (`max_header_size`).
const NPY_MAX_HEADER: usize = 10_000;

/// NumPy's `descr` for an element type (little-endian).
fn descr(ctx: &Context, elem: Type) -> Option<String> {
    Some(match ctx.types.kind(elem) {
        TypeKind::Int { width: 1, .. } => "|b1".into(),
        TypeKind::Int { sign, .. } => {
            let bytes = ctx.types.storage_bytes(elem);
            let kind = if *sign == Signedness::Unsigned {
                'u'
            } else {
                'i'
            };
            let order = if bytes == 1 { '|' } else { '<' };
            format!("{order}{kind}{bytes}")
        }
        TypeKind::Float(FloatKind::F16) => "<f2".into(),
        TypeKind::Float(FloatKind::F32) => "<f4".into(),
        TypeKind::Float(FloatKind::F64) => "<f8".into(),
        TypeKind::Float(FloatKind::BF16) => "<V2".into(),
        TypeKind::Float(_) if ctx.types.storage_bytes(elem) == 1 => "|V1".into(),
        TypeKind::Complex(p) => format!("<c{}", 2 * ctx.types.storage_bytes(*p)),
        _ => return None,
    })
}

/// Descriptions that mean the same as `want` (`|V2` for `<V2`, ...).
fn same_descr(found: &str, want: &str) -> bool {
    let strip = |s: &str| s.trim_start_matches(['<', '|', '=']).to_string();
    found == want || (strip(found) == strip(want) && !found.starts_with('>'))
}

/// The header's value for `key` ('descr', 'fortran_order', 'shape').
fn header_value<'a>(header: &'a str, key: &str) -> Option<&'a str> {
    let at = header.find(&format!("'{key}'"))?;
    let rest = header[at + key.len() + 2..]
        .trim_start()
        .strip_prefix(':')?
        .trim_start();
    let end = if rest.starts_with('(') {
        rest.find(')')? + 1
    } else {
        rest.find([',', '}'])?
    };
    Some(rest[..end].trim())
}

fn parse_shape(text: &str) -> Option<Vec<i64>> {
    let inner = text.strip_prefix('(')?.strip_suffix(')')?;
    inner
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().ok())
        .collect()
}

/// The data bytes of a C-order `.npy` file, as they are (`strata bench`
/// checks their size against the argument's; their type is the caller's
/// responsibility).
pub fn raw_data(path: &Path) -> Result<Vec<u8>, String> {
    let bad = |m: String| format!("{}: {m}", path.display());
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let (header, data) = split_npy(&bytes).map_err(bad)?;
    if header_value(header, "fortran_order") != Some("False") {
        return Err(bad("is in Fortran order; save it in C order".into()));
    }
    Ok(data.to_vec())
}

/// The shape a `.npy` file's header states (its data is not read).
pub fn shape_of(path: &Path) -> Result<Vec<i64>, String> {
    let bad = |m: String| format!("{}: {m}", path.display());
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| {
            let cap = (NPY_MAX_HEADER + 12) as u64;
            std::io::Read::read_to_end(&mut std::io::Read::take(f, cap), &mut bytes)
        })
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let (header, _) = split_npy(&bytes).map_err(bad)?;
    header_value(header, "shape")
        .and_then(parse_shape)
        .ok_or_else(|| bad("the header's 'shape' is not readable".into()))
}

/// The data of `path` as the buffer of an argument of type `ty`.
/// Reads no more than the argument needs (plus NumPy's largest header), so
/// `@/dev/zero` or a huge file is an error, not an endless read.
pub fn read(ctx: &Context, path: &Path, ty: Type) -> Result<Vec<u8>, String> {
    let bad = |m: String| format!("{}: {m}", path.display());
    let expected_len =
        ctx.types.num_elements(ty) as usize * ctx.types.storage_bytes(ctx.types.elem(ty)) as usize;
    let cap = expected_len + NPY_MAX_HEADER + 12;
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| {
            std::io::Read::read_to_end(&mut std::io::Read::take(f, cap as u64 + 1), &mut bytes)
        })
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if bytes.len() > cap {
        return Err(bad(format!(
            "holds more than the {expected_len} bytes the argument's type {} needs",
            strata_ir::text::printer::type_to_string(ctx, ty)
        )));
    }
    if !path.extension().is_some_and(|e| e == "npy") {
        // Raw bytes in the declared type.
        if bytes.len() != expected_len {
            return Err(bad(format!(
                "holds {} bytes; the argument's type {} needs {expected_len}",
                bytes.len(),
                strata_ir::text::printer::type_to_string(ctx, ty)
            )));
        }
        return Ok(bytes);
    }
    let (header, data) = split_npy(&bytes).map_err(bad)?;
    let elem = ctx.types.elem(ty);
    let want = descr(ctx, elem).ok_or_else(|| bad("no NumPy type for this argument".into()))?;
    let found = header_value(header, "descr")
        .map(|d| d.trim_matches(['\'', '"']))
        .ok_or_else(|| bad("the header has no 'descr'".into()))?;
    if !same_descr(found, &want) {
        return Err(bad(format!(
            "holds '{found}' elements; the argument needs '{want}' ({})",
            strata_ir::text::printer::type_to_string(ctx, elem)
        )));
    }
    if header_value(header, "fortran_order") != Some("False") {
        return Err(bad("is in Fortran order; save it in C order".into()));
    }
    let shape = header_value(header, "shape")
        .and_then(parse_shape)
        .ok_or_else(|| bad("the header's 'shape' is not readable".into()))?;
    let want_shape = ctx.types.shape(ty).unwrap_or(&[]).to_vec();
    if shape != want_shape {
        return Err(bad(format!(
            "has shape {shape:?}; the argument's is {want_shape:?}"
        )));
    }
    if data.len() != expected_len {
        return Err(bad(format!(
            "has {} data bytes, expected {expected_len}",
            data.len()
        )));
    }
    // Through the dense form, so narrow integers are sign- or zero-extended
    // as the ABI stores them.
    let dense = crate::abi::from_bytes(ctx, ty, data);
    Ok(crate::abi::to_bytes(ctx, &dense))
}

/// The header text and the data of an `.npy` file.
fn split_npy(bytes: &[u8]) -> Result<(&str, &[u8]), String> {
    if !bytes.starts_with(MAGIC) || bytes.len() < 10 {
        return Err("is not a NumPy .npy file".into());
    }
    let major = bytes[6];
    let (len, start): (usize, usize) = match major {
        1 => (u16::from_le_bytes([bytes[8], bytes[9]]) as usize, 10),
        2 | 3 if bytes.len() >= 12 => (
            u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize,
            12,
        ),
        _ => return Err(format!("has .npy format version {major}, not 1, 2 or 3")),
    };
    let end = start
        .checked_add(len)
        .filter(|&e| e <= bytes.len())
        .ok_or("has a truncated header")?;
    let header =
        std::str::from_utf8(&bytes[start..end]).map_err(|_| "has a header that is not text")?;
    Ok((header, &bytes[end..]))
}

/// Writes a result buffer of type `ty` as `.npy` (version 1).
pub fn write(ctx: &Context, path: &Path, ty: Type, data: &[u8]) -> Result<(), String> {
    let elem = ctx.types.elem(ty);
    let d = descr(ctx, elem).ok_or_else(|| format!("no NumPy type for {}", path.display()))?;
    let shape = ctx.types.shape(ty).unwrap_or(&[]);
    let dims = match shape.len() {
        1 => format!("({},)", shape[0]),
        _ => format!(
            "({})",
            shape
                .iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    let mut header = format!("{{'descr': '{d}', 'fortran_order': False, 'shape': {dims}, }}");
    // Magic, version, length and header padded with spaces to a multiple of
    // 64 bytes, ending in a newline, as the format asks.
    let unpadded = MAGIC.len() + 4 + header.len() + 1;
    header.push_str(&" ".repeat((64 - unpadded % 64) % 64));
    header.push('\n');
    let mut out = MAGIC.to_vec();
    out.extend_from_slice(&[1, 0]);
    out.extend_from_slice(&(header.len() as u16).to_le_bytes());
    out.extend_from_slice(header.as_bytes());
    out.extend_from_slice(data);
    std::fs::write(path, out).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_files_read_back() {
        let mut ctx = strata_pipeline::new_context();
        let f32t = ctx.types.float_ty(FloatKind::F32);
        let ty = ctx.types.tensor_ty(&[2, 3], f32t);
        let data: Vec<u8> = (0..6)
            .flat_map(|i| (i as f32 * 1.5).to_le_bytes())
            .collect();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.npy");
        write(&ctx, &path, ty, &data).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        // The header (with magic, version and length) is padded to 64 bytes.
        assert_eq!((bytes.len() - data.len()) % 64, 0);
        assert_eq!(read(&ctx, &path, ty).unwrap(), data);
        let other = ctx.types.tensor_ty(&[3, 2], f32t);
        let err = read(&ctx, &path, other).unwrap_err();
        assert!(
            err.ends_with("has shape [2, 3]; the argument's is [3, 2]"),
            "{err}"
        );
    }
}
