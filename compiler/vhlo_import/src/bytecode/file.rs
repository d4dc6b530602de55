//! The top level of an MLIR bytecode file: header, sections, the string
//! table, dialects and op names, the attribute/type offset table, the
//! properties table and the resource keys.

use super::cursor::Cursor;
use crate::error::{Result, err};

pub const MAGIC: &[u8] = b"ML\xefR";

/// Bytecode versions that change the encoding (MLIR's `Encoding.h`).
pub const VERSION_DIALECT_VERSIONING: u64 = 1;
pub const VERSION_LAZY_LOADING: u64 = 2;
pub const VERSION_USE_LIST_ORDERING: u64 = 3;
pub const VERSION_ELIDE_UNKNOWN_BLOCK_ARG_LOC: u64 = 4;
pub const VERSION_NATIVE_PROPERTIES: u64 = 5;
/// The newest bytecode version this reader knows.
pub const VERSION_MAX: u64 = 6;

pub const SECTION_STRING: u8 = 0;
pub const SECTION_DIALECT: u8 = 1;
pub const SECTION_ATTR_TYPE: u8 = 2;
pub const SECTION_ATTR_TYPE_OFFSET: u8 = 3;
pub const SECTION_IR: u8 = 4;
// Sections 5 and 6 hold resources (dense_resource blobs), which VHLO
// never uses; they are skipped.
pub const SECTION_DIALECT_VERSIONS: u8 = 7;
pub const SECTION_PROPERTIES: u8 = 8;
const NUM_SECTIONS: usize = 9;

/// An operation name: dialect index, name string, and (bytecode >= 5)
/// whether the op was registered when written.
#[derive(Debug, Clone)]
pub struct OpName {
    pub dialect: usize,
    pub name: Vec<u8>,
    pub registered: Option<bool>,
}

/// One attribute or type entry: its owning dialect, whether it uses the
/// dialect's custom encoding (else it is assembly text), and its bytes.
#[derive(Clone, Copy)]
pub struct Entry<'a> {
    pub dialect: usize,
    pub custom: bool,
    pub data: Cursor<'a>,
}

/// The parsed tables of a bytecode file; the IR section is kept raw.
pub struct File<'a> {
    pub version: u64,
    pub producer: Vec<u8>,
    pub strings: Vec<&'a [u8]>,
    pub dialects: Vec<Vec<u8>>,
    pub op_names: Vec<OpName>,
    pub attrs: Vec<Entry<'a>>,
    pub types: Vec<Entry<'a>>,
    pub properties: Vec<Cursor<'a>>,
    pub ir: Cursor<'a>,
}

impl<'a> File<'a> {
    pub fn parse(input: &'a [u8]) -> Result<File<'a>> {
        if !input.starts_with(MAGIC) {
            return err(0, "not MLIR bytecode (missing the 'ML\\xefR' magic number)");
        }
        let mut c = Cursor::new(input.get(MAGIC.len()..).unwrap_or(&[]), MAGIC.len());
        let at = c.offset();
        let version = c.varint()?;
        if version > VERSION_MAX {
            return err(
                at,
                format!(
                    "bytecode version {version} is newer than this reader supports ({VERSION_MAX})"
                ),
            );
        }
        let producer = c.null_terminated()?.to_vec();
        let sections = split_sections(&mut c)?;
        let need = |id: u8, what: &str| -> Result<Cursor<'a>> {
            match sections.get(usize::from(id)).copied().flatten() {
                Some(s) => Ok(s),
                None => err(input.len(), format!("missing the {what} section")),
            }
        };
        let strings = parse_strings(need(SECTION_STRING, "string")?)?;
        let mut file = File {
            version,
            producer,
            strings,
            dialects: Vec::new(),
            op_names: Vec::new(),
            attrs: Vec::new(),
            types: Vec::new(),
            properties: Vec::new(),
            ir: need(SECTION_IR, "IR")?,
        };
        file.parse_dialects(need(SECTION_DIALECT, "dialect")?)?;
        file.parse_attr_type_offsets(
            need(SECTION_ATTR_TYPE, "attribute/type")?,
            need(SECTION_ATTR_TYPE_OFFSET, "attribute/type offset")?,
        )?;
        if let Some(p) = sections
            .get(usize::from(SECTION_PROPERTIES))
            .copied()
            .flatten()
        {
            file.properties = parse_properties(p)?;
        } else if version >= VERSION_NATIVE_PROPERTIES {
            return err(input.len(), "missing the properties section");
        }
        Ok(file)
    }

    /// The string at `index` of the string table.
    pub fn string(&self, c: &Cursor<'_>, index: u64) -> Result<&'a [u8]> {
        match usize::try_from(index)
            .ok()
            .and_then(|i| self.strings.get(i))
        {
            Some(s) => Ok(s),
            None => c.error(format!("string index {index} out of range")),
        }
    }

    /// Reads a string reference (a varint index into the string table).
    pub fn read_string(&self, c: &mut Cursor<'_>) -> Result<&'a [u8]> {
        let at = *c;
        let i = c.varint()?;
        self.string(&at, i)
    }

    pub fn dialect_name(&self, index: usize) -> &[u8] {
        self.dialects
            .get(index)
            .map(|d| d.as_slice())
            .unwrap_or(b"?")
    }

    fn parse_dialects(&mut self, mut c: Cursor<'a>) -> Result<()> {
        let n = c.count(1)?;
        self.dialects.reserve(n);
        for _ in 0..n {
            if self.version < VERSION_DIALECT_VERSIONING {
                let name = self.read_string(&mut c)?.to_vec();
                self.dialects.push(name);
                continue;
            }
            let at = c;
            let (idx, versioned) = c.varint_flag()?;
            let name = self.string(&at, idx)?.to_vec();
            if versioned {
                // The version payload is a nested section; VHLO carries its
                // version in the producer string, so the payload is skipped.
                let (id, _) = c.section()?;
                if id != SECTION_DIALECT_VERSIONS {
                    return c.error("expected a dialect version section");
                }
            }
            self.dialects.push(name);
        }
        if self.version >= VERSION_ELIDE_UNKNOWN_BLOCK_ARG_LOC {
            // Total number of op names, a reservation hint.
            c.varint()?;
        }
        while !c.is_empty() {
            let dialect = self.read_dialect_index(&mut c)?;
            let count = c.count(1)?;
            for _ in 0..count {
                let at = c;
                let (name, registered) = if self.version < VERSION_NATIVE_PROPERTIES {
                    (self.read_string(&mut c)?, None)
                } else {
                    let (idx, reg) = c.varint_flag()?;
                    (self.string(&at, idx)?, Some(reg))
                };
                self.op_names.push(OpName {
                    dialect,
                    name: name.to_vec(),
                    registered,
                });
            }
        }
        Ok(())
    }

    fn read_dialect_index(&self, c: &mut Cursor<'_>) -> Result<usize> {
        let at = c.offset();
        let d = c.varint()?;
        match usize::try_from(d) {
            Ok(d) if d < self.dialects.len() => Ok(d),
            _ => err(at, format!("dialect index {d} out of range")),
        }
    }

    fn parse_attr_type_offsets(&mut self, data: Cursor<'a>, mut offs: Cursor<'a>) -> Result<()> {
        let num_attrs = offs.count(1)?;
        let num_types = offs.count(1)?;
        if num_attrs.saturating_add(num_types) > offs.remaining() {
            return offs.error("more attribute/type entries than offset bytes");
        }
        let mut data = data;
        self.attrs = self.read_entries(&mut offs, &mut data, num_attrs)?;
        self.types = self.read_entries(&mut offs, &mut data, num_types)?;
        if !offs.is_empty() {
            return offs.error("trailing data in the attribute/type offset section");
        }
        Ok(())
    }

    fn read_entries(
        &self,
        offs: &mut Cursor<'a>,
        data: &mut Cursor<'a>,
        n: usize,
    ) -> Result<Vec<Entry<'a>>> {
        let mut out = Vec::with_capacity(n);
        while out.len() < n {
            let dialect = self.read_dialect_index(offs)?;
            let count = offs.count(1)?;
            if count > n - out.len() {
                return offs.error("attribute/type group overruns its table");
            }
            for _ in 0..count {
                let (size, custom) = offs.varint_flag()?;
                let entry = data.sub(size)?;
                out.push(Entry {
                    dialect,
                    custom,
                    data: entry,
                });
            }
        }
        Ok(out)
    }
}

/// Splits the rest of the file into its sections, by id; each at most once.
fn split_sections<'a>(c: &mut Cursor<'a>) -> Result<[Option<Cursor<'a>>; NUM_SECTIONS]> {
    let mut out = [None; NUM_SECTIONS];
    while !c.is_empty() {
        let at = c.offset();
        let (id, data) = c.section()?;
        match out.get_mut(usize::from(id)) {
            Some(slot @ None) => *slot = Some(data),
            Some(Some(_)) => return err(at, format!("duplicate section {id}")),
            None => return err(at, format!("unknown section id {id}")),
        }
    }
    Ok(out)
}

/// The string table: a count, the lengths in reverse order, then the
/// null-terminated strings back to back.
fn parse_strings(mut c: Cursor<'_>) -> Result<Vec<&[u8]>> {
    let n = c.count(1)?;
    let mut lens = Vec::with_capacity(n);
    for _ in 0..n {
        lens.push(c.varint()?);
    }
    let at = c.offset();
    let total: u64 = lens.iter().fold(0u64, |a, &l| a.saturating_add(l));
    if total != c.remaining() as u64 {
        return err(at, "string lengths do not match the string data");
    }
    let mut out = Vec::with_capacity(n);
    for &len in lens.iter().rev() {
        let at = c.offset();
        let s = c.bytes(len)?;
        match s.split_last() {
            Some((0, body)) => out.push(body),
            _ => return err(at, "string is not null-terminated"),
        }
    }
    Ok(out)
}

/// The properties table: a count, then `count` blobs (size + bytes).
fn parse_properties(mut c: Cursor<'_>) -> Result<Vec<Cursor<'_>>> {
    if c.is_empty() {
        return Ok(Vec::new());
    }
    let n = c.count(1)?;
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        let len = c.varint()?;
        out.push(c.sub(len)?);
    }
    if !c.is_empty() {
        return c.error("trailing data in the properties section");
    }
    Ok(out)
}
