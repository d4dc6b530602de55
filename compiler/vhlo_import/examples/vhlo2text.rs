//! Prints the StableHLO text of a portable artifact or a JAX export:
//! `cargo run --example vhlo2text -- FILE`.

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: vhlo2text FILE");
        std::process::exit(2);
    };
    let bytes = match std::fs::read(&path) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
    };
    let result = if strata_vhlo_import::looks_like_jax_export(&bytes) {
        strata_vhlo_import::jax_export_to_text(&bytes).map(|e| {
            eprintln!("platforms {:?}", e.platforms);
            for (n, s) in e.in_names.iter().zip(&e.in_shapes) {
                eprintln!("in  {n}: {s}");
            }
            for (n, s) in e.out_names.iter().zip(&e.out_shapes) {
                eprintln!("out {n}: {s}");
            }
            e.module_text
        })
    } else {
        strata_vhlo_import::portable_artifact_to_text(&bytes)
    };
    match result {
        Ok(text) => print!("{text}"),
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
    }
}
