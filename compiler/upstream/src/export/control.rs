//! `loop.for` / `loop.if` / `loop.while` → `scf`, and `func.call` /
//! `func.return`. Regions that cannot fail become plain `scf.for`,
//! `scf.if` and `scf.while`; one that can carries an `i32` status out (see
//! the module comment of `export`).

use strata_diag::Result;
use strata_dialect_loop as lp;
use strata_ir::builtin::{CALL, RETURN};
use strata_ir::{BlockId, OpId, Signedness, TypeKind};

use super::{Exporter, unsupported};

impl Exporter<'_> {
    pub(crate) fn loop_op(&mut self, op: OpId) -> Result<Option<String>> {
        match self.ir.op(op).name {
            lp::FOR => self.for_loop(op),
            lp::IF => self.if_op(op),
            lp::WHILE => self.while_loop(op),
            lp::DISPATCH | lp::RUN_DEVICES => self.launch(op),
            name => Err(unsupported(self.loc(op), format!("'{name}' op"))),
        }
    }

    /// `loop.dispatch` / `loop.run_devices`: a call to the op's launch
    /// stub, `P.launch.<callee>(operands...)`, which Strata's C glue defines
    /// (the runtime's thread pool or device threads, the same task and
    /// frame ABI as the native backend; see `strata_codegen::launch_stub_name`).
    /// Upstream's own `async-parallel-for` would need MLIR's async runtime
    /// library, which a standalone `.so` does not carry.
    fn launch(&mut self, op: OpId) -> Result<Option<String>> {
        let callee = lp::dispatch_callee(self.ir, op)
            .ok_or_else(|| self.internal(op, "has no 'callee'"))?
            .to_string();
        let n = self.ir.op(op).operands.len();
        let (mut args, mut types) = (Vec::new(), Vec::new());
        for i in 0..n {
            if self
                .ir
                .op(op)
                .operands
                .get(i)
                .is_some_and(|v| self.pointers.contains_key(v))
            {
                return Err(unsupported(
                    self.loc(op),
                    "a 'mem.offset' buffer captured by an outlined loop",
                ));
            }
            args.push(self.operand(op, i)?);
            types.push(self.ty(self.operand_ty(op, i)?, op)?);
        }
        let stub = self.launch_symbol(&callee);
        let sig = format!("({})", types.join(", "));
        self.declare_quoted(&stub, format!("{sig} -> i32"));
        let s = self.fresh();
        self.line(format!(
            "{s} = func.call @\"{stub}\"({}) : {sig} -> i32",
            args.join(", ")
        ));
        Ok(self.returns_status.then_some(s))
    }

    /// The ops of region `i`'s only block without its terminator, and the
    /// block; `None` for an empty region.
    fn region_body(&self, op: OpId, i: usize) -> Result<Option<(BlockId, Vec<OpId>)>> {
        let region = *self
            .ir
            .op(op)
            .regions
            .get(i)
            .ok_or_else(|| self.internal(op, format!("has no region #{i}")))?;
        match self.ir.regions[region].blocks[..] {
            [] => Ok(None),
            [b] => {
                let ops = &self.ir.blocks[b].ops;
                let body = ops
                    .split_last()
                    .map(|(_, r)| r.to_vec())
                    .unwrap_or_default();
                Ok(Some((b, body)))
            }
            _ => Err(unsupported(self.loc(op), "a region of several blocks")),
        }
    }

    fn for_loop(&mut self, op: OpId) -> Result<Option<String>> {
        let (lb, ub, step) = (
            self.operand(op, 0)?,
            self.operand(op, 1)?,
            self.operand(op, 2)?,
        );
        let (block, body) = self
            .region_body(op, 0)?
            .ok_or_else(|| self.internal(op, "has no body"))?;
        let &[iv] = &self.ir.blocks[block].args[..] else {
            return Err(self.internal(op, "body does not take one induction variable"));
        };
        if !self.can_fail(&body) {
            let i = self.define(iv);
            self.open(format!("scf.for {i} = {lb} to {ub} step {step} {{"));
            self.block(&body)?;
            self.close("}");
            return Ok(None);
        }
        // for i in lb..ub while no iteration failed.
        let zero = self.constant(0, "i32");
        let (i0, s0) = (self.fresh(), self.fresh());
        let out = self.fresh();
        self.open(format!(
            "{out}:2 = scf.while ({i0} = {lb}, {s0} = {zero}) : (index, i32) -> (index, i32) {{"
        ));
        let more = self.fresh();
        self.line(format!("{more} = arith.cmpi slt, {i0}, {ub} : index"));
        let ok = self.fresh();
        let z = self.constant(0, "i32");
        self.line(format!("{ok} = arith.cmpi eq, {s0}, {z} : i32"));
        let go = self.fresh();
        self.line(format!("{go} = arith.andi {more}, {ok} : i1"));
        self.line(format!("scf.condition({go}) {i0}, {s0} : index, i32"));
        self.close("} do {");
        let i = self.define(iv);
        let s = self.fresh();
        self.line(format!("^bb0({i}: index, {s}: i32):"));
        self.indent += 1;
        let status = self.block(&body)?;
        let status = match status {
            Some(st) => st,
            None => self.constant(0, "i32"),
        };
        let next = self.fresh();
        self.line(format!("{next} = arith.addi {i}, {step} : index"));
        self.line(format!("scf.yield {next}, {status} : index, i32"));
        self.close("}");
        Ok(Some(format!("{out}#1")))
    }

    fn if_op(&mut self, op: OpId) -> Result<Option<String>> {
        let c = self.operand(op, 0)?;
        let then = self
            .region_body(op, 0)?
            .map(|(_, ops)| ops)
            .unwrap_or_default();
        let other = self.region_body(op, 1)?.map(|(_, ops)| ops);
        let fails = self.can_fail(&then) || other.as_deref().is_some_and(|o| self.can_fail(o));
        if !fails {
            self.open(format!("scf.if {c} {{"));
            self.block(&then)?;
            if let Some(other) = &other {
                self.close("} else {");
                self.indent += 1;
                self.block(other)?;
            }
            self.close("}");
            return Ok(None);
        }
        let r = self.fresh();
        self.open(format!("{r} = scf.if {c} -> (i32) {{"));
        self.yield_status(&then)?;
        self.close("} else {");
        self.indent += 1;
        self.yield_status(other.as_deref().unwrap_or(&[]))?;
        self.close("}");
        Ok(Some(r))
    }

    /// Emits `ops` and yields their status (0 if none can fail).
    fn yield_status(&mut self, ops: &[OpId]) -> Result<()> {
        let s = match self.block(ops)? {
            Some(s) => s,
            None => self.constant(0, "i32"),
        };
        self.line(format!("scf.yield {s} : i32"));
        Ok(())
    }

    /// The `loop.condition` ending a while's cond region, and its flag.
    fn condition_value(&self, op: OpId) -> Result<strata_ir::Value> {
        let region = self.ir.op(op).regions[0];
        let block = *self.ir.regions[region]
            .blocks
            .first()
            .ok_or_else(|| self.internal(op, "has no cond block"))?;
        let term = *self.ir.blocks[block]
            .ops
            .last()
            .ok_or_else(|| self.internal(op, "has an empty cond block"))?;
        if self.ir.op(term).name != lp::CONDITION {
            return Err(self.internal(op, "cond does not end with 'loop.condition'"));
        }
        self.ir
            .op(term)
            .operands
            .first()
            .copied()
            .ok_or_else(|| self.internal(term, "has no operand"))
    }

    fn condition_flag(&self, op: OpId) -> Result<String> {
        let v = self.condition_value(op)?;
        self.name(op, v)
    }

    fn while_loop(&mut self, op: OpId) -> Result<Option<String>> {
        let (_, cond) = self
            .region_body(op, 0)?
            .ok_or_else(|| self.internal(op, "has no cond"))?;
        let (_, body) = self
            .region_body(op, 1)?
            .ok_or_else(|| self.internal(op, "has no body"))?;
        if !self.can_fail(&body) && !self.can_fail(&cond) {
            self.open("scf.while : () -> () {");
            self.block(&cond)?;
            let c = self.condition_flag(op)?;
            self.line(format!("scf.condition({c})"));
            self.close("} do {");
            self.indent += 1;
            self.block(&body)?;
            self.line("scf.yield");
            self.close("}");
            return Ok(None);
        }
        let zero = self.constant(0, "i32");
        let (s0, out) = (self.fresh(), self.fresh());
        self.open(format!(
            "{out} = scf.while ({s0} = {zero}) : (i32) -> i32 {{"
        ));
        let flag = self.condition_value(op)?;
        let (cond_status, c) = self.block_out(&cond, &[flag])?;
        let c = c
            .into_iter()
            .next()
            .ok_or_else(|| self.internal(op, "cond has no flag"))?;
        // A failed condition ends the loop with its status; a failed body
        // (the carried status) keeps its own.
        let s0 = match cond_status {
            Some(cs) => {
                let z = self.constant(0, "i32");
                let body_ok = self.fresh();
                self.line(format!("{body_ok} = arith.cmpi eq, {s0}, {z} : i32"));
                let either = self.fresh();
                self.line(format!(
                    "{either} = arith.select {body_ok}, {cs}, {s0} : i32"
                ));
                either
            }
            None => s0,
        };
        let z = self.constant(0, "i32");
        let ok = self.fresh();
        self.line(format!("{ok} = arith.cmpi eq, {s0}, {z} : i32"));
        let go = self.fresh();
        self.line(format!("{go} = arith.andi {c}, {ok} : i1"));
        self.line(format!("scf.condition({go}) {s0} : i32"));
        self.close("} do {");
        let s = self.fresh();
        self.line(format!("^bb0({s}: i32):"));
        self.indent += 1;
        let status = match self.block(&body)? {
            Some(st) => st,
            None => self.constant(0, "i32"),
        };
        self.line(format!("scf.yield {status} : i32"));
        self.close("}");
        Ok(Some(out))
    }

    /// `func.call`: to a function of the module (its status propagates) or
    /// to an external (memrefs passed as pointers, as the C ABI says).
    pub(crate) fn call(&mut self, op: OpId) -> Result<Option<String>> {
        if self.ir.op(op).name != CALL {
            let name = self.ir.op(op).name;
            return Err(unsupported(self.loc(op), format!("'{name}' op here")));
        }
        let callee = self
            .callee(op)
            .ok_or_else(|| self.internal(op, "has no 'callee'"))?;
        if let Some(target) = self.custom_calls.get(&callee) {
            // The registry of host implementations is the native backend's.
            return Err(unsupported(
                self.loc(op),
                format!("custom_call @{target} (host custom calls run with --backend native)"),
            ));
        }
        let n = self.ir.op(op).operands.len();
        let results = self.ir.op(op).results.clone();
        if let Some(returns_status) = self.external_returns_status(&callee) {
            return self.call_external(op, &callee, returns_status);
        }
        let defined_status = self.is_status_func(&callee);
        let mut args = Vec::new();
        let mut types = Vec::new();
        for i in 0..n {
            if self
                .ir
                .op(op)
                .operands
                .get(i)
                .is_some_and(|v| self.pointers.contains_key(v))
            {
                return Err(unsupported(
                    self.loc(op),
                    "a 'mem.offset' buffer passed to a function of the module",
                ));
            }
            args.push(self.operand(op, i)?);
            types.push(self.ty(self.operand_ty(op, i)?, op)?);
        }
        let sym = self.defined_symbol(&callee);
        let sig = format!("({})", types.join(", "));
        if defined_status {
            let s = self.fresh();
            self.line(format!(
                "{s} = func.call {sym}({}) : {sig} -> i32",
                args.join(", ")
            ));
            return Ok(self.returns_status.then_some(s));
        }
        match results[..] {
            [] => self.line(format!(
                "func.call {sym}({}) : {sig} -> ()",
                args.join(", ")
            )),
            [r] => {
                let t = self.ty(self.ir.value_ty(r), op)?;
                let v = self.define(r);
                self.line(format!(
                    "{v} = func.call {sym}({}) : {sig} -> {t}",
                    args.join(", ")
                ));
            }
            _ => return Err(unsupported(self.loc(op), "a call with several results")),
        }
        Ok(None)
    }

    /// A call to a bodiless function: buffers as `!llvm.ptr`, narrow
    /// integers extended as the C ABI says.
    fn call_external(
        &mut self,
        op: OpId,
        callee: &str,
        returns_status: bool,
    ) -> Result<Option<String>> {
        let (inputs, results) = self
            .external(callee)
            .map(|e| (e.inputs.clone(), e.results.clone()))
            .ok_or_else(|| self.internal(op, format!("calls unknown '@{callee}'")))?;
        let n = self.ir.op(op).operands.len();
        let (mut args, mut params, mut types) = (Vec::new(), Vec::new(), Vec::new());
        for i in 0..n {
            let v = self.ir.op(op).operands[i];
            let declared = *inputs
                .get(i)
                .ok_or_else(|| self.internal(op, "passes more arguments than declared"))?;
            if let Some(p) = self.pointers.get(&v) {
                args.push(p.clone());
            } else if matches!(self.ir.kind(self.ir.value_ty(v)), TypeKind::MemRef { .. }) {
                let (m, t) = (self.operand(op, i)?, self.ty(self.ir.value_ty(v), op)?);
                args.push(self.pointer_of(&m, &t));
            } else {
                args.push(self.operand(op, i)?);
            }
            if matches!(self.ir.kind(declared), TypeKind::MemRef { .. }) {
                params.push("!llvm.ptr".to_string());
                types.push("!llvm.ptr".to_string());
            } else {
                let t = self.scalar_ty(declared, op)?;
                params.push(format!("{t}{}", self.extension(declared)));
                types.push(t);
            }
        }
        let result = match results[..] {
            [] => None,
            [r] => Some((self.scalar_ty(r, op)?, self.extension(r))),
            _ => {
                return Err(unsupported(
                    self.loc(op),
                    "an external with several results",
                ));
            }
        };
        let sig_result = match &result {
            None => String::new(),
            Some((t, "")) => format!(" -> {t}"),
            Some((t, ext)) => format!(" -> ({t}{ext})"),
        };
        self.declare(callee, format!("({}){sig_result}", params.join(", ")));
        let call_ty = format!(
            "({}) -> {}",
            types.join(", "),
            result.as_ref().map_or("()".to_string(), |(t, _)| t.clone())
        );
        let line = format!("func.call @{callee}({}) : {call_ty}", args.join(", "));
        let Some(_) = result else {
            self.line(line);
            return Ok(None);
        };
        let r = match self.ir.op(op).results.first() {
            Some(&v) => self.define(v),
            None => self.fresh(),
        };
        self.line(format!("{r} = {line}"));
        Ok((returns_status && self.returns_status).then_some(r))
    }

    /// ` {llvm.signext}` / ` {llvm.zeroext}` for integers narrower than 32
    /// bits, as the native backend marks them.
    fn extension(&self, t: strata_ir::Type) -> &'static str {
        match self.ir.kind(t) {
            TypeKind::Int { width, sign } if *width < 32 => {
                if *sign == Signedness::Unsigned || *width == 1 {
                    " {llvm.zeroext}"
                } else {
                    " {llvm.signext}"
                }
            }
            _ => "",
        }
    }

    /// `func.return`: the status (0 if nothing failed) or the value.
    pub(crate) fn func_return(&mut self, op: OpId, status: Option<String>) -> Result<()> {
        if self.ir.op(op).name != RETURN {
            return Err(self.internal(op, "is not 'func.return'"));
        }
        match self.ir.op(op).operands.len() {
            0 if self.returns_status => {
                let s = match status {
                    Some(s) => s,
                    None => self.constant(0, "i32"),
                };
                self.line(format!("func.return {s} : i32"));
            }
            0 => self.line("func.return"),
            1 => {
                let v = self.operand(op, 0)?;
                let t = self.ty(self.operand_ty(op, 0)?, op)?;
                self.line(format!("func.return {v} : {t}"));
            }
            _ => return Err(unsupported(self.loc(op), "returning several values")),
        }
        Ok(())
    }
}
