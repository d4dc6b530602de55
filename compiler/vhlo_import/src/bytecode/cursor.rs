//! A bounds-checked reader over a slice of the input, with the primitive
//! encodings of MLIR bytecode: prefix varints, zigzag varints, blobs,
//! null-terminated strings and sections.

use crate::error::{Result, err};

/// Reads from `data`, which starts `base` bytes into the whole input (so
/// errors carry offsets into the original buffer).
#[derive(Clone, Copy)]
pub struct Cursor<'a> {
    data: &'a [u8],
    pos: usize,
    base: usize,
}

/// The byte that fills alignment padding.
const ALIGNMENT_BYTE: u8 = 0xCB;

impl<'a> Cursor<'a> {
    pub fn new(data: &'a [u8], base: usize) -> Self {
        Cursor { data, pos: 0, base }
    }

    /// Offset of the next byte in the whole input.
    pub fn offset(&self) -> usize {
        self.base.saturating_add(self.pos)
    }

    pub fn remaining(&self) -> usize {
        self.data.len().saturating_sub(self.pos)
    }

    pub fn is_empty(&self) -> bool {
        self.remaining() == 0
    }

    pub fn error<T>(&self, message: impl Into<String>) -> Result<T> {
        err(self.offset(), message)
    }

    pub fn byte(&mut self) -> Result<u8> {
        match self.data.get(self.pos) {
            Some(&b) => {
                self.pos += 1;
                Ok(b)
            }
            None => self.error("unexpected end of data"),
        }
    }

    /// The next `len` bytes, and a cursor-free view of them.
    pub fn bytes(&mut self, len: u64) -> Result<&'a [u8]> {
        let len = usize::try_from(len).unwrap_or(usize::MAX);
        if len > self.remaining() {
            return self.error(format!(
                "length {len} runs past the end of the data ({} bytes left)",
                self.remaining()
            ));
        }
        let start = self.pos;
        self.pos += len;
        Ok(self.data.get(start..self.pos).unwrap_or(&[]))
    }

    /// A sub-cursor over the next `len` bytes (consumed from this one).
    pub fn sub(&mut self, len: u64) -> Result<Cursor<'a>> {
        let base = self.offset();
        let data = self.bytes(len)?;
        Ok(Cursor::new(data, base))
    }

    /// MLIR's prefix varint: the count of trailing zero bits of the first
    /// byte is the number of extra bytes; a zero first byte means 8 more.
    pub fn varint(&mut self) -> Result<u64> {
        let first = self.byte()?;
        if first & 1 == 1 {
            return Ok(u64::from(first >> 1));
        }
        if first == 0 {
            let b = self.bytes(8)?;
            let mut v = [0u8; 8];
            v.copy_from_slice(b);
            return Ok(u64::from_le_bytes(v));
        }
        let extra = first.trailing_zeros() as usize;
        let rest = self.bytes(extra as u64)?;
        let mut v = [0u8; 8];
        v[0] = first;
        for (dst, src) in v.iter_mut().skip(1).zip(rest) {
            *dst = *src;
        }
        Ok(u64::from_le_bytes(v) >> (extra + 1))
    }

    /// A zigzag-encoded signed varint.
    pub fn svarint(&mut self) -> Result<i64> {
        let v = self.varint()?;
        Ok(((v >> 1) as i64) ^ -((v & 1) as i64))
    }

    /// A varint whose low bit is a flag: `(value << 1) | flag`.
    pub fn varint_flag(&mut self) -> Result<(u64, bool)> {
        let v = self.varint()?;
        Ok((v >> 1, v & 1 == 1))
    }

    /// A count that prefixes `count` items of at least `min_item` bytes each;
    /// rejected when the remaining data cannot hold them, so callers may
    /// reserve memory for it.
    pub fn count(&mut self, min_item: usize) -> Result<usize> {
        let at = self.offset();
        let n = self.varint()?;
        let cap = self.remaining() / min_item.max(1);
        match usize::try_from(n) {
            Ok(n) if n <= cap || min_item == 0 => Ok(n),
            _ => err(
                at,
                format!("count {n} exceeds the data left ({cap} items at most)"),
            ),
        }
    }

    pub fn null_terminated(&mut self) -> Result<&'a [u8]> {
        let rest = self.data.get(self.pos..).unwrap_or(&[]);
        match rest.iter().position(|&b| b == 0) {
            Some(n) => {
                let s = rest.get(..n).unwrap_or(&[]);
                self.pos += n + 1;
                Ok(s)
            }
            None => self.error("string has no terminating null byte"),
        }
    }

    /// Skips 0xCB padding so the next byte sits at a multiple of `align`
    /// from the start of the whole input.
    pub fn align_to(&mut self, align: u64) -> Result<()> {
        if align == 0 || !align.is_power_of_two() || align > 1 << 32 {
            return self.error(format!("alignment {align} is not a power of two"));
        }
        while !(self.offset() as u64).is_multiple_of(align) {
            if self.byte()? != ALIGNMENT_BYTE {
                return err(self.offset() - 1, "expected alignment padding byte 0xCB");
            }
        }
        Ok(())
    }

    /// A section header `id | hasAlign << 7, length, [alignment, padding]`
    /// and its data.
    pub fn section(&mut self) -> Result<(u8, Cursor<'a>)> {
        let id_and_align = self.byte()?;
        let len = self.varint()?;
        if id_and_align & 0x80 != 0 {
            let align = self.varint()?;
            self.align_to(align)?;
        }
        Ok((id_and_align & 0x7f, self.sub(len)?))
    }
}
