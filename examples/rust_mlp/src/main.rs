//! Calls the MLP compiled by Strata from safe Rust and compares its output
//! with JAX/XLA:CPU's. Exit status 0 when every output is within 1e-5.
//!
//!     STRATA=/path/to/strata cargo run --release

mod mlp {
    include!(concat!(env!("OUT_DIR"), "/mlp.rs"));
}

mod data {
    include!("../../mlp/data.rs");
}

const TOLERANCE: f32 = 1e-5;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    use data::*;
    // Inputs are checked against the model's buffer sizes when this compiles.
    let out = mlp::main(&INPUT_X, &INPUT_W1, &INPUT_B1, &INPUT_W2, &INPUT_B2)?;
    println!("output shape {:?}", mlp::MAIN_RES0_SHAPE);
    let mut mismatches = 0;
    for (i, (got, want)) in out.iter().zip(EXPECTED_OUT.iter()).enumerate() {
        let ok = (got - want).abs() <= TOLERANCE;
        mismatches += usize::from(!ok);
        println!("[{i:2}] strata {got:.6}  xla {want:.6}{}", if ok { "" } else { "  MISMATCH" });
    }
    if mismatches > 0 {
        return Err(format!("{mismatches} of {} outputs differ from XLA", out.len()).into());
    }
    println!("OK: all {} outputs match XLA", out.len());
    Ok(())
}
