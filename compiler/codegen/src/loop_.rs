//! `loop` ops: counted loops and conditionals as basic blocks.
//!
//! `loop.for %lb, %ub, %step`:
//! ```text
//!   pre:    br header
//!   header: %iv = phi [%lb, pre], [%next, latch]
//!           br (icmp slt %iv, %ub), body, exit
//!   body:   ...                       ; may end in another block (latch)
//!   latch:  %next = add nsw %iv, %step ; br header
//!   exit:
//! ```
//! `loop.if %c`: `br %c, then, else|merge`; each arm branches to `merge`.
//! `loop.while`: `br cond; cond: ... br %c, body, exit; body: ... br cond`.

use strata_diag::{Diagnostic, Result};
use strata_dialect_loop as lp;
use strata_ir::OpId;

use crate::ice;
use crate::state::Lowerer;

impl<'ctx> Lowerer<'ctx, '_> {
    pub(crate) fn lower_loop(&mut self, op: OpId) -> Result<()> {
        match self.ir.op(op).name {
            lp::FOR => self.lower_for(op),
            lp::IF => self.lower_if(op),
            lp::WHILE => self.lower_while(op),
            // Terminators of loop bodies and arms: the parent adds the branch.
            lp::YIELD | lp::CONDITION => Ok(()),
            name => Err(Diagnostic::unsupported(
                self.loc(op),
                format!("'{name}' op cannot be lowered to LLVM IR"),
            )),
        }
    }

    fn lower_for(&mut self, op: OpId) -> Result<()> {
        let (lb, ub, step) = (self.int(op, 0)?, self.int(op, 1)?, self.int(op, 2)?);
        let body_block = self
            .ir
            .entry_block(op, 0)
            .ok_or_else(|| self.internal(op, "has no body"))?;
        let iv_arg = *self.ir.blocks[body_block]
            .args
            .first()
            .ok_or_else(|| self.internal(op, "has no induction variable"))?;
        let f = self.current_fn()?;
        let pre = self
            .b
            .get_insert_block()
            .ok_or_else(|| ice("builder has no block"))?;
        let header = self.cx.append_basic_block(f, "loop.header");
        let body = self.cx.append_basic_block(f, "loop.body");
        let exit = self.cx.append_basic_block(f, "loop.exit");
        self.b.build_unconditional_branch(header).map_err(ice)?;

        self.b.position_at_end(header);
        let iv = self.b.build_phi(self.cx.i64_type(), "iv").map_err(ice)?;
        iv.add_incoming(&[(&lb, pre)]);
        let ivv = iv.as_basic_value().into_int_value();
        let cond = self
            .b
            .build_int_compare(inkwell::IntPredicate::SLT, ivv, ub, "")
            .map_err(ice)?;
        self.b
            .build_conditional_branch(cond, body, exit)
            .map_err(ice)?;

        self.b.position_at_end(body);
        self.values.insert(iv_arg, ivv.into());
        self.lower_block(body_block)?;
        let latch = self
            .b
            .get_insert_block()
            .ok_or_else(|| ice("builder has no block"))?;
        let next = self
            .b
            .build_int_nsw_add(ivv, step, "iv.next")
            .map_err(ice)?;
        self.b.build_unconditional_branch(header).map_err(ice)?;
        iv.add_incoming(&[(&next, latch)]);

        self.b.position_at_end(exit);
        Ok(())
    }

    fn lower_if(&mut self, op: OpId) -> Result<()> {
        let cond = self.int(op, 0)?;
        let f = self.current_fn()?;
        let then_block = self
            .ir
            .entry_block(op, 0)
            .ok_or_else(|| self.internal(op, "has no then block"))?;
        let else_block = self.ir.entry_block(op, 1);
        let then_bb = self.cx.append_basic_block(f, "if.then");
        let else_bb = else_block.map(|_| self.cx.append_basic_block(f, "if.else"));
        let merge = self.cx.append_basic_block(f, "if.end");
        self.b
            .build_conditional_branch(cond, then_bb, else_bb.unwrap_or(merge))
            .map_err(ice)?;
        for (block, bb) in [(Some(then_block), Some(then_bb)), (else_block, else_bb)] {
            if let (Some(block), Some(bb)) = (block, bb) {
                self.b.position_at_end(bb);
                self.lower_block(block)?;
                self.b.build_unconditional_branch(merge).map_err(ice)?;
            }
        }
        self.b.position_at_end(merge);
        Ok(())
    }

    fn lower_while(&mut self, op: OpId) -> Result<()> {
        let cond_block = self
            .ir
            .entry_block(op, 0)
            .ok_or_else(|| self.internal(op, "has no cond block"))?;
        let body_block = self
            .ir
            .entry_block(op, 1)
            .ok_or_else(|| self.internal(op, "has no body block"))?;
        let term = *self.ir.blocks[cond_block]
            .ops
            .last()
            .ok_or_else(|| self.internal(op, "has an empty cond block"))?;
        let f = self.current_fn()?;
        let cond_bb = self.cx.append_basic_block(f, "while.cond");
        let body_bb = self.cx.append_basic_block(f, "while.body");
        let exit = self.cx.append_basic_block(f, "while.exit");
        self.b.build_unconditional_branch(cond_bb).map_err(ice)?;
        self.b.position_at_end(cond_bb);
        self.lower_block(cond_block)?;
        let c = self.int(term, 0)?;
        self.b
            .build_conditional_branch(c, body_bb, exit)
            .map_err(ice)?;
        self.b.position_at_end(body_bb);
        self.lower_block(body_block)?;
        self.b.build_unconditional_branch(cond_bb).map_err(ice)?;
        self.b.position_at_end(exit);
        Ok(())
    }
}
