//! A small bounds-checked flatbuffer reader: tables through their vtables,
//! scalars, strings, vectors of scalars and of tables. Every offset is
//! checked against the buffer before it is followed.

use crate::error::{Result, err};

#[derive(Clone, Copy)]
pub struct Buf<'a> {
    pub data: &'a [u8],
}

/// A table: its position and the position of its vtable.
#[derive(Clone, Copy)]
pub struct Table<'a> {
    buf: Buf<'a>,
    pos: usize,
    vtable: usize,
    vtable_len: usize,
}

impl<'a> Buf<'a> {
    fn u16_at(&self, at: usize) -> Result<u16> {
        match self.data.get(at..at.saturating_add(2)) {
            Some(&[a, b]) => Ok(u16::from_le_bytes([a, b])),
            _ => err(at, "flatbuffer read past the end"),
        }
    }

    fn u32_at(&self, at: usize) -> Result<u32> {
        match self.data.get(at..at.saturating_add(4)) {
            Some(&[a, b, c, d]) => Ok(u32::from_le_bytes([a, b, c, d])),
            _ => err(at, "flatbuffer read past the end"),
        }
    }

    /// Follows the unsigned offset stored at `at`.
    fn deref(&self, at: usize) -> Result<usize> {
        let off = self.u32_at(at)? as usize;
        match at.checked_add(off) {
            Some(p) if p < self.data.len() => Ok(p),
            _ => err(at, "flatbuffer offset points outside the buffer"),
        }
    }

    pub fn root(&self) -> Result<Table<'a>> {
        let pos = self.deref(0)?;
        self.table(pos)
    }

    fn table(&self, pos: usize) -> Result<Table<'a>> {
        let soff = self.u32_at(pos)? as i32;
        let vtable = (pos as i64).checked_sub(i64::from(soff));
        let vtable = match vtable.and_then(|v| usize::try_from(v).ok()) {
            Some(v) if v < self.data.len() => v,
            _ => return err(pos, "flatbuffer vtable outside the buffer"),
        };
        let vtable_len = usize::from(self.u16_at(vtable)?);
        if vtable_len < 4
            || vtable_len % 2 != 0
            || vtable.saturating_add(vtable_len) > self.data.len()
        {
            return err(vtable, "malformed flatbuffer vtable");
        }
        Ok(Table {
            buf: *self,
            pos,
            vtable,
            vtable_len,
        })
    }
}

impl<'a> Table<'a> {
    /// Position of field `slot`'s inline data, if present.
    fn field(&self, slot: usize) -> Result<Option<usize>> {
        let entry = 4 + 2 * slot;
        if entry + 2 > self.vtable_len {
            return Ok(None);
        }
        let off = usize::from(self.buf.u16_at(self.vtable + entry)?);
        if off == 0 {
            return Ok(None);
        }
        Ok(Some(self.pos.saturating_add(off)))
    }

    pub fn u8(&self, slot: usize, default: u8) -> Result<u8> {
        match self.field(slot)? {
            Some(p) => match self.buf.data.get(p) {
                Some(b) => Ok(*b),
                None => err(p, "flatbuffer read past the end"),
            },
            None => Ok(default),
        }
    }

    pub fn u16(&self, slot: usize, default: u16) -> Result<u16> {
        match self.field(slot)? {
            Some(p) => self.buf.u16_at(p),
            None => Ok(default),
        }
    }

    pub fn u32(&self, slot: usize, default: u32) -> Result<u32> {
        match self.field(slot)? {
            Some(p) => self.buf.u32_at(p),
            None => Ok(default),
        }
    }

    pub fn table(&self, slot: usize) -> Result<Option<Table<'a>>> {
        match self.field(slot)? {
            Some(p) => Ok(Some(self.buf.table(self.buf.deref(p)?)?)),
            None => Ok(None),
        }
    }

    /// A vector field: (position of the first element, length).
    fn vector(&self, slot: usize, elem_size: usize) -> Result<Option<(usize, usize)>> {
        let Some(p) = self.field(slot)? else {
            return Ok(None);
        };
        let v = self.buf.deref(p)?;
        let n = self.buf.u32_at(v)? as usize;
        let start = v + 4;
        let end = n.checked_mul(elem_size).and_then(|b| start.checked_add(b));
        match end {
            Some(e) if e <= self.buf.data.len() => Ok(Some((start, n))),
            _ => err(v, "flatbuffer vector runs past the end"),
        }
    }

    pub fn bytes(&self, slot: usize) -> Result<Option<&'a [u8]>> {
        Ok(self
            .vector(slot, 1)?
            .and_then(|(s, n)| self.buf.data.get(s..s + n)))
    }

    pub fn string(&self, slot: usize) -> Result<Option<String>> {
        Ok(self
            .bytes(slot)?
            .map(|b| String::from_utf8_lossy(b).into_owned()))
    }

    pub fn u16s(&self, slot: usize) -> Result<Vec<u16>> {
        let Some((s, n)) = self.vector(slot, 2)? else {
            return Ok(Vec::new());
        };
        (0..n).map(|i| self.buf.u16_at(s + 2 * i)).collect()
    }

    pub fn u32s(&self, slot: usize) -> Result<Vec<u32>> {
        let Some((s, n)) = self.vector(slot, 4)? else {
            return Ok(Vec::new());
        };
        (0..n).map(|i| self.buf.u32_at(s + 4 * i)).collect()
    }

    pub fn tables(&self, slot: usize) -> Result<Vec<Table<'a>>> {
        let Some((s, n)) = self.vector(slot, 4)? else {
            return Ok(Vec::new());
        };
        (0..n)
            .map(|i| self.buf.table(self.buf.deref(s + 4 * i)?))
            .collect()
    }

    pub fn strings(&self, slot: usize) -> Result<Vec<String>> {
        let Some((s, n)) = self.vector(slot, 4)? else {
            return Ok(Vec::new());
        };
        (0..n)
            .map(|i| {
                let p = self.buf.deref(s + 4 * i)?;
                let len = self.buf.u32_at(p)? as usize;
                match self.buf.data.get(p + 4..(p + 4).saturating_add(len)) {
                    Some(b) => Ok(String::from_utf8_lossy(b).into_owned()),
                    None => err(p, "flatbuffer string runs past the end"),
                }
            })
            .collect()
    }
}
