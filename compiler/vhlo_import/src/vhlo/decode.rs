//! Decoding the attribute and type tables: VHLO's custom encodings and the
//! builtin dialect's (locations, dictionaries, strings, ...). Entries are
//! decoded on demand and memoized; references nest at most `MAX_DEPTH`.

use super::model::*;
use crate::bytecode::cursor::Cursor;
use crate::bytecode::file::File;
use crate::error::{Result, err};

/// How deeply attributes and types may refer to each other.
pub const MAX_DEPTH: usize = 100;

enum Slot<T> {
    Todo,
    Busy,
    Done(T),
}

pub struct Tables<'f, 'a> {
    pub file: &'f File<'a>,
    attrs: Vec<Slot<Attr>>,
    types: Vec<Slot<Type>>,
}

impl<'f, 'a> Tables<'f, 'a> {
    pub fn new(file: &'f File<'a>) -> Self {
        let attrs = file.attrs.iter().map(|_| Slot::Todo).collect();
        let types = file.types.iter().map(|_| Slot::Todo).collect();
        Tables { file, attrs, types }
    }

    /// The decoded attribute `id` (decoding it first if needed).
    pub fn attr_at(&mut self, c: &Cursor<'_>, id: u64, depth: usize) -> Result<AttrId> {
        let i = self.index(c, id, self.attrs.len(), "attribute")?;
        match self.attrs.get(i) {
            Some(Slot::Done(_)) => return Ok(i),
            Some(Slot::Busy) => return c.error(format!("attribute {i} refers to itself")),
            _ => {}
        }
        if depth >= MAX_DEPTH {
            return c.error(format!("attributes nest deeper than {MAX_DEPTH} levels"));
        }
        let Some(entry) = self.file.attrs.get(i).copied() else {
            return c.error("attribute index out of range");
        };
        self.set_attr(i, Slot::Busy);
        let mut r = entry.data;
        let a = if !entry.custom {
            Attr::Opaque(asm_text(&mut r)?)
        } else {
            match self.file.dialect_name(entry.dialect) {
                b"vhlo" => self.vhlo_attr(&mut r, depth + 1)?,
                b"builtin" => self.builtin_attr(&mut r, depth + 1)?,
                d => return r.error(format!(
                    "attribute of dialect '{}' uses a custom encoding this reader does not know",
                    String::from_utf8_lossy(d)
                )),
            }
        };
        if !r.is_empty() {
            return r.error("trailing bytes after attribute");
        }
        self.set_attr(i, Slot::Done(a));
        Ok(i)
    }

    pub fn type_at(&mut self, c: &Cursor<'_>, id: u64, depth: usize) -> Result<TypeId> {
        let i = self.index(c, id, self.types.len(), "type")?;
        match self.types.get(i) {
            Some(Slot::Done(_)) => return Ok(i),
            Some(Slot::Busy) => return c.error(format!("type {i} refers to itself")),
            _ => {}
        }
        if depth >= MAX_DEPTH {
            return c.error(format!("types nest deeper than {MAX_DEPTH} levels"));
        }
        let Some(entry) = self.file.types.get(i).copied() else {
            return c.error("type index out of range");
        };
        if let Some(s) = self.types.get_mut(i) {
            *s = Slot::Busy;
        }
        let mut r = entry.data;
        let t = if !entry.custom {
            Type::Opaque(asm_text(&mut r)?)
        } else {
            match self.file.dialect_name(entry.dialect) {
                b"vhlo" => self.vhlo_type(&mut r, depth + 1)?,
                b"builtin" => self.builtin_type(&mut r, depth + 1)?,
                d => {
                    return r.error(format!(
                        "type of dialect '{}' uses a custom encoding this reader does not know",
                        String::from_utf8_lossy(d)
                    ));
                }
            }
        };
        if !r.is_empty() {
            return r.error("trailing bytes after type");
        }
        if let Some(s) = self.types.get_mut(i) {
            *s = Slot::Done(t);
        }
        Ok(i)
    }

    fn set_attr(&mut self, i: usize, s: Slot<Attr>) {
        if let Some(slot) = self.attrs.get_mut(i) {
            *slot = s;
        }
    }

    fn index(&self, c: &Cursor<'_>, id: u64, len: usize, what: &str) -> Result<usize> {
        match usize::try_from(id) {
            Ok(i) if i < len => Ok(i),
            _ => c.error(format!("{what} index {id} out of range")),
        }
    }

    /// A decoded attribute (must have been returned by `attr_at`).
    pub fn attr(&self, id: AttrId) -> &Attr {
        match self.attrs.get(id) {
            Some(Slot::Done(a)) => a,
            _ => &Attr::Unit,
        }
    }

    pub fn ty(&self, id: TypeId) -> &Type {
        match self.types.get(id) {
            Some(Slot::Done(t)) => t,
            _ => &Type::Scalar(Scalar::None),
        }
    }

    /// Reads an attribute reference and decodes it.
    pub fn read_attr(&mut self, r: &mut Cursor<'_>, depth: usize) -> Result<AttrId> {
        let at = *r;
        let id = r.varint()?;
        self.attr_at(&at, id, depth)
    }

    pub fn read_type(&mut self, r: &mut Cursor<'_>, depth: usize) -> Result<TypeId> {
        let at = *r;
        let id = r.varint()?;
        self.type_at(&at, id, depth)
    }

    pub fn read_attrs(&mut self, r: &mut Cursor<'_>, depth: usize) -> Result<Vec<AttrId>> {
        let n = r.count(1)?;
        (0..n).map(|_| self.read_attr(r, depth)).collect()
    }

    pub fn read_types(&mut self, r: &mut Cursor<'_>, depth: usize) -> Result<Vec<TypeId>> {
        let n = r.count(1)?;
        (0..n).map(|_| self.read_type(r, depth)).collect()
    }

    pub fn read_string(&self, r: &mut Cursor<'_>) -> Result<Vec<u8>> {
        Ok(self.file.read_string(r)?.to_vec())
    }

    /// The element type of a scalar type, if it is one.
    pub fn scalar(&self, t: TypeId) -> Option<Scalar> {
        match self.ty(t) {
            Type::Scalar(s) => Some(*s),
            _ => None,
        }
    }

    /// Reads an APInt of a known bit width: one byte up to 8 bits, a
    /// zigzag varint up to 64, else a count of zigzag 64-bit words.
    pub fn read_apint(&self, r: &mut Cursor<'_>, bits: u32) -> Result<u128> {
        let raw = if bits <= 8 {
            u128::from(r.byte()?)
        } else if bits <= 64 {
            u128::from(r.svarint()? as u64)
        } else {
            let n = r.count(1)?;
            if n > 2 || bits > 128 {
                return r.error(format!("integer of {bits} bits is wider than 128"));
            }
            let mut v = 0u128;
            for k in 0..n {
                v |= u128::from(r.svarint()? as u64) << (64 * k);
            }
            v
        };
        Ok(if bits >= 128 {
            raw
        } else {
            raw & ((1u128 << bits) - 1)
        })
    }
}

/// Sign- or zero-extends the low `bits` of `raw`.
pub fn extend(raw: u128, bits: u32, signed: bool) -> i128 {
    if bits == 0 || bits >= 128 {
        return raw as i128;
    }
    let masked = raw & ((1u128 << bits) - 1);
    if signed && masked >> (bits - 1) & 1 == 1 {
        (masked | !((1u128 << bits) - 1)) as i128
    } else {
        masked as i128
    }
}

/// An attribute or type kept in assembly form: accepted only if it is
/// printable ASCII with balanced brackets and closed strings, so that it
/// stays one token tree wherever it is printed.
fn asm_text(r: &mut Cursor<'_>) -> Result<String> {
    let at = r.offset();
    let s = r.null_terminated()?;
    let mut stack = Vec::new();
    let mut in_str = false;
    let mut escaped = false;
    let mut prev = 0u8;
    for &b in s {
        let before = prev;
        prev = b;
        if !(0x20..0x7f).contains(&b) {
            return err(
                at,
                "assembly-format attribute or type has a non-printable byte",
            );
        }
        if in_str {
            match (escaped, b) {
                (false, b'\\') => escaped = true,
                (false, b'"') => in_str = false,
                _ => escaped = false,
            }
            continue;
        }
        match b {
            b'"' => in_str = true,
            b'(' | b'[' | b'{' | b'<' => stack.push(b),
            b')' | b']' | b'}' | b'>' => {
                let open = match b {
                    b')' => b'(',
                    b']' => b'[',
                    b'}' => b'{',
                    _ => b'<',
                };
                // `->` in function types is not a closing bracket.
                if b == b'>' && before == b'-' {
                    continue;
                }
                if stack.pop() != Some(open) {
                    return err(
                        at,
                        "assembly-format attribute or type has unbalanced brackets",
                    );
                }
            }
            _ => {}
        }
    }
    if in_str || !stack.is_empty() || s.is_empty() {
        return err(at, "assembly-format attribute or type is not well formed");
    }
    Ok(String::from_utf8_lossy(s).into_owned())
}
