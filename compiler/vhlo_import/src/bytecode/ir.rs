//! The IR section: operations, regions and blocks, read into a plain tree.
//! Values get dense ids; an operand that names a value not yet defined (a
//! forward reference) gets its id early and the definition adopts it.

use super::cursor::Cursor;
use super::file::{
    File, SECTION_IR, VERSION_ELIDE_UNKNOWN_BLOCK_ARG_LOC, VERSION_LAZY_LOADING,
    VERSION_USE_LIST_ORDERING,
};
use crate::error::{Result, err};

/// How deeply regions may nest (ops inside regions inside ops ...).
pub const MAX_REGION_DEPTH: usize = 200;

pub type ValueId = u32;

/// Where an op's inherent attributes live.
#[derive(Debug, Clone)]
pub enum Props {
    None,
    /// A registered op's native properties: the raw blob of its entry.
    Native(usize),
    /// An unregistered op's properties: one attribute.
    Attr(u64),
}

#[derive(Debug)]
pub struct Op {
    pub offset: usize,
    pub name: usize,
    pub loc: u64,
    pub attrs: Option<u64>,
    pub props: Props,
    pub results: Vec<(ValueId, u64)>,
    pub operands: Vec<ValueId>,
    pub successors: Vec<u64>,
    pub regions: Vec<Region>,
}

#[derive(Debug, Default)]
pub struct Region {
    pub blocks: Vec<Block>,
}

#[derive(Debug, Default)]
pub struct Block {
    /// (value, type index, location attribute index if not unknown)
    pub args: Vec<(ValueId, u64, Option<u64>)>,
    pub ops: Vec<Op>,
}

/// One scope of value numbering (an isolated-from-above op's regions).
#[derive(Default)]
struct Scope {
    slots: Vec<Option<ValueId>>,
    /// Next free slot of each region currently being read.
    next: Vec<usize>,
}

struct IrReader<'f, 'a> {
    file: &'f File<'a>,
    scopes: Vec<Scope>,
    num_values: u32,
    /// Values used before their definition and not yet defined.
    pending: u32,
    /// Value slots reserved by all regions being read; a well-formed file
    /// defines at most one value per byte, so more is rejected.
    live_slots: usize,
    max_slots: usize,
}

/// Reads the IR section: the top-level block (normally one builtin.module).
pub fn read_ir(file: &File<'_>) -> Result<Block> {
    let mut r = IrReader {
        file,
        scopes: vec![Scope::default()],
        num_values: 0,
        pending: 0,
        live_slots: 0,
        max_slots: file.ir.remaining().saturating_add(16),
    };
    let mut c = file.ir;
    let block = r.block(&mut c, 0)?;
    if r.pending != 0 {
        return c.error("an operand refers to a value that is never defined");
    }
    Ok(block)
}

impl<'a> IrReader<'_, 'a> {
    fn block(&mut self, c: &mut Cursor<'a>, depth: usize) -> Result<Block> {
        let (num_ops, has_args) = c.varint_flag()?;
        let mut block = Block::default();
        if has_args {
            self.block_args(c, &mut block)?;
        }
        if self.file.version >= VERSION_USE_LIST_ORDERING && has_args && c.byte()? != 0 {
            let n = block.args.len();
            skip_use_lists(c, n)?;
        }
        let num_ops = usize::try_from(num_ops).unwrap_or(usize::MAX);
        if num_ops > c.remaining() {
            return c.error(format!("block claims {num_ops} operations"));
        }
        block.ops.reserve(num_ops);
        for _ in 0..num_ops {
            let op = self.op(c, depth)?;
            block.ops.push(op);
        }
        Ok(block)
    }

    fn block_args(&mut self, c: &mut Cursor<'a>, block: &mut Block) -> Result<()> {
        let n = c.count(1)?;
        block.args.reserve(n);
        for _ in 0..n {
            let (ty, loc) = if self.file.version >= VERSION_ELIDE_UNKNOWN_BLOCK_ARG_LOC {
                let (ty, has_loc) = c.varint_flag()?;
                (ty, if has_loc { Some(c.varint()?) } else { None })
            } else {
                let ty = c.varint()?;
                (ty, Some(c.varint()?))
            };
            let v = self.define(c)?;
            block.args.push((v, ty, loc));
        }
        Ok(())
    }

    fn op(&mut self, c: &mut Cursor<'a>, depth: usize) -> Result<Op> {
        let offset = c.offset();
        let name = c.varint()?;
        let name = match usize::try_from(name) {
            Ok(n) if n < self.file.op_names.len() => n,
            _ => return err(offset, format!("operation name index {name} out of range")),
        };
        let mask = c.byte()?;
        let loc = c.varint()?;
        let mut op = Op {
            offset,
            name,
            loc,
            attrs: None,
            props: Props::None,
            results: Vec::new(),
            operands: Vec::new(),
            successors: Vec::new(),
            regions: Vec::new(),
        };
        if mask & 0x01 != 0 {
            op.attrs = Some(c.varint()?);
        }
        if mask & 0x40 != 0 {
            op.props = self.props(c, name)?;
        }
        let result_types = if mask & 0x02 != 0 {
            let n = c.count(1)?;
            (0..n).map(|_| c.varint()).collect::<Result<Vec<_>>>()?
        } else {
            Vec::new()
        };
        if mask & 0x04 != 0 {
            let n = c.count(1)?;
            op.operands.reserve(n);
            for _ in 0..n {
                let v = self.operand(c)?;
                op.operands.push(v);
            }
        }
        if mask & 0x08 != 0 {
            let n = c.count(1)?;
            op.successors = (0..n).map(|_| c.varint()).collect::<Result<Vec<_>>>()?;
        }
        if self.file.version >= VERSION_USE_LIST_ORDERING && mask & 0x20 != 0 {
            skip_use_lists(c, result_types.len())?;
        }
        // Results are defined before the regions are read (regions may use them).
        for ty in result_types {
            let v = self.define(c)?;
            op.results.push((v, ty));
        }
        if mask & 0x10 != 0 {
            let (n, isolated) = c.varint_flag()?;
            op.regions = self.regions(c, n, isolated, depth)?;
        }
        Ok(op)
    }

    fn props(&self, c: &mut Cursor<'a>, name: usize) -> Result<Props> {
        let registered = self.file.op_names.get(name).and_then(|n| n.registered);
        match registered {
            None => c.error("operation has properties in bytecode older than version 5"),
            Some(false) => Ok(Props::Attr(c.varint()?)),
            Some(true) => {
                let at = c.offset();
                let i = c.varint()?;
                match usize::try_from(i) {
                    Ok(i) if i < self.file.properties.len() => Ok(Props::Native(i)),
                    _ => err(at, format!("properties index {i} out of range")),
                }
            }
        }
    }

    fn regions(
        &mut self,
        c: &mut Cursor<'a>,
        n: u64,
        isolated: bool,
        depth: usize,
    ) -> Result<Vec<Region>> {
        if depth >= MAX_REGION_DEPTH {
            return c.error(format!(
                "regions nest deeper than {MAX_REGION_DEPTH} levels"
            ));
        }
        let n = usize::try_from(n).unwrap_or(usize::MAX);
        if n > c.remaining() {
            return c.error(format!("operation claims {n} regions"));
        }
        // Isolated regions are a nested IR section from bytecode version 2.
        let mut own;
        let reader: &mut Cursor<'a> = if isolated && self.file.version >= VERSION_LAZY_LOADING {
            let (id, data) = c.section()?;
            if id != SECTION_IR {
                return c.error("expected an IR section for an isolated region");
            }
            own = data;
            &mut own
        } else {
            c
        };
        if isolated {
            self.scopes.push(Scope::default());
        }
        let mut out = Vec::with_capacity(n);
        for _ in 0..n {
            out.push(self.region(reader, depth + 1)?);
        }
        if isolated {
            self.scopes.pop();
        }
        Ok(out)
    }

    fn region(&mut self, c: &mut Cursor<'a>, depth: usize) -> Result<Region> {
        let num_blocks = c.count(1)?;
        if num_blocks == 0 {
            return Ok(Region::default());
        }
        let num_values = c.count(1)?;
        self.live_slots = self.live_slots.saturating_add(num_values);
        if self.live_slots > self.max_slots {
            return c.error("regions declare more values than the IR section can define");
        }
        let scope = self.scope(c)?;
        let start = scope.slots.len();
        scope.slots.resize(start + num_values, None);
        scope.next.push(start);
        let mut region = Region::default();
        for _ in 0..num_blocks {
            let b = self.block(c, depth)?;
            region.blocks.push(b);
        }
        let scope = self.scope(c)?;
        scope.next.pop();
        scope.slots.truncate(start);
        self.live_slots = self.live_slots.saturating_sub(num_values);
        Ok(region)
    }

    fn scope(&mut self, c: &Cursor<'_>) -> Result<&mut Scope> {
        match self.scopes.last_mut() {
            Some(s) => Ok(s),
            None => c.error("no value scope"),
        }
    }

    /// Defines the next value of the current region.
    fn define(&mut self, c: &Cursor<'_>) -> Result<ValueId> {
        let fresh = self.num_values;
        let scope = self.scope(c)?;
        let Some(next) = scope.next.last_mut() else {
            // The top-level block declares no values: MLIR leaves what is
            // defined there unreferenceable, and so does this reader.
            self.new_id(c)?;
            return Ok(fresh);
        };
        let slot_index = *next;
        let Some(slot) = scope.slots.get_mut(slot_index) else {
            return c.error("more values defined than the region declared");
        };
        *next += 1;
        let id = match *slot {
            Some(forward) => {
                // Only a forward reference can have filled the slot first.
                self.pending = self.pending.saturating_sub(1);
                forward
            }
            None => {
                *slot = Some(fresh);
                fresh
            }
        };
        if id == fresh {
            self.new_id(c)?;
        }
        Ok(id)
    }

    fn new_id(&mut self, c: &Cursor<'_>) -> Result<()> {
        match self.num_values.checked_add(1) {
            Some(n) => {
                self.num_values = n;
                Ok(())
            }
            None => c.error("too many values"),
        }
    }

    fn operand(&mut self, c: &mut Cursor<'a>) -> Result<ValueId> {
        let at = c.offset();
        let i = c.varint()?;
        let fresh = self.num_values;
        let scope = self.scope(c)?;
        let slot = usize::try_from(i).ok().and_then(|i| scope.slots.get_mut(i));
        let Some(slot) = slot else {
            return err(
                at,
                format!("operand refers to value index {i} out of range"),
            );
        };
        if let Some(v) = *slot {
            return Ok(v);
        }
        *slot = Some(fresh);
        self.new_id(c)?;
        self.pending += 1;
        Ok(fresh)
    }
}

/// Skips a use-list order encoding for a range of `n` values (the order of
/// uses carries no meaning for the printed program).
fn skip_use_lists(c: &mut Cursor<'_>, n: usize) -> Result<()> {
    let count = if n > 1 { c.count(1)? } else { 1 };
    for _ in 0..count {
        if n > 1 {
            c.varint()?;
        }
        let (len, _) = c.varint_flag()?;
        if len > c.remaining() as u64 {
            return c.error("use-list order longer than the data");
        }
        for _ in 0..len {
            c.varint()?;
        }
    }
    Ok(())
}
