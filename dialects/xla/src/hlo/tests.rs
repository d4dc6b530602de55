//! Importer tests: HLO text in, printed IR out (checked against parsing the
//! same program written as generic MLIR), and errors with their `line:col`.

use strata_ir::Context;
use strata_ir::text::printer::print_op;

use super::{import_module, looks_like_hlo};

fn context() -> Context {
    let mut ctx = Context::new();
    strata_ir::builtin::register(&mut ctx);
    crate::register(&mut ctx);
    ctx
}

/// Imports `hlo`, verifies it, and returns the printed module.
fn import(hlo: &str) -> String {
    let mut ctx = context();
    let module = match import_module(&mut ctx, "t.hlo", hlo) {
        Ok(m) => m,
        Err(d) => panic!("import failed:\n{}", ctx.sources.render(&d)),
    };
    if let Err(errors) = strata_ir::verify::verify(&ctx, module) {
        let text: Vec<String> = errors.iter().map(|d| ctx.sources.render(d)).collect();
        panic!("verification failed:\n{}", text.join("\n"));
    }
    print_op(&ctx, module)
}

#[test]
#[ignore]
fn probe_files() {
    let dir = std::env::var("HLO_PROBE_DIR").unwrap_or_default();
    let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().flatten().collect();
    entries.sort_by_key(|e| e.path());
    for e in entries {
        let p = e.path();
        if p.extension().is_some_and(|x| x == "hlo") {
            let text = std::fs::read_to_string(&p).unwrap();
            let mut ctx = context();
            println!("=== {}", p.display());
            match import_module(&mut ctx, &p.display().to_string(), &text) {
                Ok(m) => {
                    if let Err(errs) = strata_ir::verify::verify(&ctx, m) {
                        for d in errs {
                            println!("VERIFY: {}", ctx.sources.render(&d));
                        }
                    }
                    let printed = print_op(&ctx, m);
                    if let Ok(out) = std::env::var("HLO_PROBE_OUT") {
                        let name = p.with_extension("mlir");
                        let name = name.file_name().unwrap_or_default();
                        let _ = std::fs::write(std::path::Path::new(&out).join(name), &printed);
                    }
                    println!("{printed}");
                }
                Err(d) => println!("ERROR: {}", ctx.sources.render(&d)),
            }
        }
    }
}

#[test]
fn detects_hlo_by_content() {
    assert!(looks_like_hlo("HloModule m\n"));
    assert!(looks_like_hlo("// comment\n/* c */ HloModule m, entry_computation_layout={()->f32[]}"));
    assert!(!looks_like_hlo("module @m {}"));
    assert!(!looks_like_hlo("HloModuleX"));
    assert!(!looks_like_hlo(""));
}
