// Compiles the MLP that JAX exported (examples/mlp/model.mlir) into this crate:
// OUT_DIR/libmlp.a, linked statically, and OUT_DIR/mlp.rs, the typed bindings.
fn main() -> Result<(), strata_build::Error> {
    strata_build::Model::new("../mlp/model.mlir").name("mlp").compile()?;
    Ok(())
}
