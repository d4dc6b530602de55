//! Untrusted input: every prefix of small artifacts, and thousands of
//! deterministic byte flips, must give `Ok` or `Err` quickly, never panic.

use std::path::Path;
use std::time::{Duration, Instant};

use strata_vhlo_import::{jax_export_to_text, looks_like_jax_export, portable_artifact_to_text};

fn read(name: &str) -> Vec<u8> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/vhlo")
        .join(name);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Runs both entry points on `bytes`; returns whether the artifact decoded.
fn run(bytes: &[u8]) -> bool {
    let start = Instant::now();
    let a = portable_artifact_to_text(bytes).is_ok();
    let _ = looks_like_jax_export(bytes);
    let b = jax_export_to_text(bytes).is_ok();
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "decoding {} bytes took {:?}",
        bytes.len(),
        start.elapsed()
    );
    a || b
}

#[test]
fn every_prefix_is_rejected_or_read() {
    for name in [
        "mlp.v1_17_0.vhlo",
        "mlp.v0_9_0.vhlo",
        "cond.v1_5_0.vhlo",
        "mlp.jaxexp",
    ] {
        let bytes = read(name);
        assert!(run(&bytes), "{name} must decode whole");
        for n in 0..bytes.len() {
            let prefix = &bytes[..n];
            if run(prefix) && !name.ends_with(".jaxexp") {
                panic!("{name}: prefix of {n} bytes decoded");
            }
        }
    }
}

/// xorshift64*: deterministic and dependency-free.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

#[test]
fn byte_flips_never_panic() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for name in [
        "mlp.v1_17_0.vhlo",
        "mlp.v0_9_0.vhlo",
        "mlp.v0_14_0.vhlo",
        "scatter_gather.v1_5_0.vhlo",
        "mlp.jaxexp",
    ] {
        let orig = read(name);
        for _ in 0..1500 {
            let mut b = orig.clone();
            for _ in 0..1 + rng.below(3) {
                let i = rng.below(b.len());
                let v = match rng.below(4) {
                    0 => 0,
                    1 => 0xFF,
                    2 => b[i] ^ (1 << rng.below(8)),
                    _ => rng.next() as u8,
                };
                b[i] = v;
            }
            run(&b);
        }
    }
}

#[test]
fn garbage_is_rejected() {
    let mut rng = Rng(42);
    for len in [0usize, 1, 4, 5, 16, 100, 1000] {
        for _ in 0..50 {
            let mut b: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
            if len >= 4 && rng.below(2) == 0 {
                b[..4].copy_from_slice(b"ML\xefR");
            }
            run(&b);
        }
    }
    assert!(portable_artifact_to_text(b"").is_err());
    let e = portable_artifact_to_text(b"ML\xefR").unwrap_err();
    assert_eq!(e.to_string(), "byte 4: unexpected end of data");
}

/// Replaces the first occurrence of `from` by `to` (same length).
fn patch(bytes: &[u8], from: &[u8], to: &[u8]) -> Vec<u8> {
    let at = bytes
        .windows(from.len())
        .position(|w| w == from)
        .expect("pattern present");
    let mut b = bytes.to_vec();
    b[at..at + to.len()].copy_from_slice(to);
    b
}

#[test]
fn newer_op_versions_are_named() {
    let bytes = read("mlp.v1_17_0.vhlo");
    let e = portable_artifact_to_text(&patch(&bytes, b"tanh_v2", b"tanh_v7")).unwrap_err();
    assert!(
        e.message == "vhlo.tanh_v7 is newer than this reader supports (StableHLO 1.20.0)",
        "{e}"
    );
    let e = portable_artifact_to_text(&patch(&bytes, b"tanh_v2", b"tanx_v2")).unwrap_err();
    assert!(e.message.contains("vhlo.tanx_v2 is unknown"), "{e}");
}
