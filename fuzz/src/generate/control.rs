//! Ops with regions or several results: optimization barriers and counted
//! while loops, whose results the lowering makes other names of their
//! operands' buffers (state passed through unchanged, read in place).

use arbitrary::{Result, Unstructured};

use super::Elem::{I1, I32};
use super::{Gen, Ty};

impl Gen {
    /// An op of several results named `%N#i`, one line or a region.
    fn emit_results(&mut self, lhs_count: usize, rhs: String, tys: &[Ty]) -> String {
        let name = format!("%{}", self.body.len());
        self.body.push(format!("    {name}:{lhs_count} = {rhs}"));
        for (i, t) in tys.iter().enumerate() {
            self.values.push((format!("{name}#{i}"), t.clone()));
        }
        name
    }

    /// `optimization_barrier` of one or two values: its results name the
    /// operands' buffers in the lowering.
    pub(super) fn barrier(&mut self, u: &mut Unstructured, x: &str, ty: &Ty) -> Result<()> {
        if u.ratio(1, 2)? {
            let rhs = format!("stablehlo.optimization_barrier {x} : {}", ty.mlir());
            self.emit(rhs, ty.clone());
            return Ok(());
        }
        let (y, yty) = self.any_value(u)?;
        let rhs = format!(
            "stablehlo.optimization_barrier {x}, {y} : {}, {}",
            ty.mlir(),
            yty.mlir()
        );
        self.emit_results(2, rhs, &[ty.clone(), yty]);
        Ok(())
    }

    /// A counted `while` that passes `x` through unchanged (as JAX passes
    /// a value a loop body closes over) and sums it into an accumulator:
    /// state the lowering reads in place beside state it updates.
    pub(super) fn while_loop(&mut self, u: &mut Unstructured, x: &str, ty: &Ty) -> Result<()> {
        let acc = self.value_of(u, ty)?;
        let trips = u.int_in_range(0..=3)?;
        let zero = self.emit(
            "stablehlo.constant dense<0> : tensor<i32>".into(),
            Ty {
                shape: vec![],
                elem: I32,
            },
        );
        let n = self.body.len();
        let t = ty.mlir();
        let step = if ty.elem == I1 { "or" } else { "add" };
        let rhs = format!(
            "stablehlo.while(%wx{n} = {x}, %wi{n} = {zero}, %wa{n} = {acc}) : {t}, tensor<i32>, {t}
    cond {{
      %wn{n} = stablehlo.constant dense<{trips}> : tensor<i32>
      %wp{n} = stablehlo.compare LT, %wi{n}, %wn{n}, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %wp{n} : tensor<i1>
    }} do {{
      %ws{n} = stablehlo.{step} %wa{n}, %wx{n} : {t}
      %wo{n} = stablehlo.constant dense<1> : tensor<i32>
      %wj{n} = stablehlo.add %wi{n}, %wo{n} : tensor<i32>
      stablehlo.return %wx{n}, %wj{n}, %ws{n} : {t}, tensor<i32>, {t}
    }}"
        );
        let i32_ty = Ty {
            shape: vec![],
            elem: I32,
        };
        self.emit_results(3, rhs, &[ty.clone(), i32_ty, ty.clone()]);
        Ok(())
    }
}
