# Writes linalg-decomp.mlir: jnp.linalg.qr, eigh / eigvalsh, svd and what is
# built on svd (pinv, lstsq, matrix_rank, norm(ord=2)) exported by JAX (LAPACK
# geqrf / orgqr / syevd / gesdd custom calls on CPU, which Strata rewrites
# into its own ops computed by its runtime), against XLA:CPU on the same
# arguments: f32 and f64, complex, batched.
#
# QR follows LAPACK's Householder conventions, so q, r, and geqrf's raw
# reflectors and tau are compared as they are. Eigenvalues and singular
# values are unique and compared as they are; eigen- and singular vectors
# are unique only up to sign (phase, for complex), so they are checked by
# what does not depend on that choice: |entries| (distinct values here),
# reconstructions (v diag(w) vᴴ, u diag(s) vᴴ) and orthonormality.
import jax

jax.config.update("jax_enable_x64", True)
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

import jaxgen  # noqa: E402
from jax._src.lax.linalg import geqrf  # noqa: E402  (no public name in jax 0.10)

rs = np.random.RandomState(41)
pieces = []


def check(name, f, args, tol):
    out = np.asarray(jax.jit(f)(*args))
    pieces.append(jaxgen.piece(name, f, args, jaxgen.expect_almost_eq(out, tol)))


def adjoint(x):
    return jnp.conj(jnp.swapaxes(x, -1, -2))


def eigh_reconstruction(a):
    w, v = jnp.linalg.eigh(a)
    return (v * w[..., None, :]) @ adjoint(v)


def svd_reconstruction(a, full):
    u, s, vt = jnp.linalg.svd(a, full_matrices=full)
    k = s.shape[-1]
    return (u[..., :, :k] * s[..., None, :]) @ vt[..., :k, :]


def gram(x):
    return adjoint(x) @ x


def real(shape):
    return rs.randn(*shape)


def cplx(shape):
    return rs.randn(*shape) + 1j * rs.randn(*shape)


tall, wide, square = real((2, 5, 3)), real((2, 3, 5)), real((4, 3))
sym = real((2, 4, 4))
sym = sym + np.swapaxes(sym, -1, -2) + np.diag([0.0, 1.0, 3.0, 6.0])
lhs, rhs = real((5, 3)), real((5, 2))
deficient = real((4, 2)) @ real((2, 4))
for name, dt, tol in [("f32", np.float32, 5e-4), ("f64", np.float64, 1e-10)]:
    t, w, s4, h = tall.astype(dt), wide.astype(dt), square.astype(dt), sym.astype(dt)
    # QR: reduced and complete, tall and wide, batched; geqrf's raw results.
    check(f"qr_q_tall_{name}", lambda a: jnp.linalg.qr(a)[0], (t,), tol)
    check(f"qr_r_tall_{name}", lambda a: jnp.linalg.qr(a)[1], (t,), tol)
    check(f"qr_q_complete_{name}", lambda a: jnp.linalg.qr(a, mode="complete")[0], (s4,), tol)
    check(f"qr_r_complete_{name}", lambda a: jnp.linalg.qr(a, mode="complete")[1], (s4,), tol)
    check(f"qr_q_wide_{name}", lambda a: jnp.linalg.qr(a)[0], (w,), tol)
    check(f"qr_r_wide_{name}", lambda a: jnp.linalg.qr(a)[1], (w,), tol)
    check(f"qr_r_only_{name}", lambda a: jnp.linalg.qr(a, mode="r"), (t,), tol)
    check(f"geqrf_{name}", lambda a: geqrf(a)[0], (t,), tol)
    check(f"geqrf_tau_{name}", lambda a: geqrf(a)[1], (w,), tol)
    # eigh / eigvalsh: values ascending; vectors by |v| and reconstruction.
    check(f"eigvalsh_{name}", jnp.linalg.eigvalsh, (h,), tol * 4)
    check(f"eigh_values_{name}", lambda a: jnp.linalg.eigh(a)[0], (h,), tol * 4)
    check(f"eigh_abs_vectors_{name}", lambda a: jnp.abs(jnp.linalg.eigh(a)[1]), (h,), tol * 4)
    check(f"eigh_reconstruction_{name}", eigh_reconstruction, (h,), tol * 8)
    check(f"eigh_upper_{name}", lambda a: jnp.linalg.eigh(a, UPLO="U")[0], (h,), tol * 4)
    # svd: values descending; vectors by |u|, |vᴴ|, reconstruction, uᴴu = I.
    check(f"svd_values_{name}", lambda a: jnp.linalg.svd(a, compute_uv=False), (w,), tol)
    check(f"svd_s_{name}", lambda a: jnp.linalg.svd(a)[1], (s4,), tol)
    check(f"svd_abs_u_full_{name}", lambda a: jnp.abs(jnp.linalg.svd(a)[0]), (s4,), tol)
    check(f"svd_abs_vt_full_{name}", lambda a: jnp.abs(jnp.linalg.svd(a)[2]), (s4,), tol)
    check(f"svd_u_orthonormal_{name}", lambda a: gram(jnp.linalg.svd(a)[0]), (s4,), tol)
    check(f"svd_vt_orthonormal_{name}", lambda a: gram(adjoint(jnp.linalg.svd(a)[2])), (w,), tol)
    check(f"svd_abs_u_reduced_{name}", lambda a: jnp.abs(jnp.linalg.svd(a, full_matrices=False)[0]), (w,), tol)
    check(f"svd_abs_vt_reduced_{name}", lambda a: jnp.abs(jnp.linalg.svd(a, full_matrices=False)[2]), (t,), tol)
    check(f"svd_reconstruction_full_{name}", lambda a: svd_reconstruction(a, True), (t,), tol)
    check(f"svd_reconstruction_reduced_{name}", lambda a: svd_reconstruction(a, False), (w,), tol)
    # Built on svd.
    check(f"pinv_{name}", jnp.linalg.pinv, (w[0],), tol * 4)
    check(f"lstsq_{name}", lambda a, b: jnp.linalg.lstsq(a, b)[0], (lhs.astype(dt), rhs.astype(dt)), tol * 4)
    check(f"norm2_{name}", lambda a: jnp.linalg.norm(a, ord=2), (s4,), tol)
    pieces.append(jaxgen.piece(
        f"matrix_rank_{name}", jnp.linalg.matrix_rank, (deficient.astype(dt),),
        jaxgen.expect_eq(np.asarray(jax.jit(jnp.linalg.matrix_rank)(deficient.astype(dt))))))

ctall, cherm = cplx((2, 4, 3)), cplx((3, 3))
cherm = cherm + np.conj(cherm.T) + np.diag([0.0, 2.0, 5.0])
for name, dt, tol in [("c64", np.complex64, 5e-4), ("c128", np.complex128, 1e-10)]:
    t, h = ctall.astype(dt), cherm.astype(dt)
    check(f"qr_q_{name}", lambda a: jnp.linalg.qr(a)[0], (t,), tol)
    check(f"qr_r_{name}", lambda a: jnp.linalg.qr(a)[1], (t,), tol)
    check(f"qr_q_complete_{name}", lambda a: jnp.linalg.qr(a, mode="complete")[0], (t,), tol)
    check(f"eigh_values_{name}", lambda a: jnp.linalg.eigh(a)[0], (h,), tol * 4)
    check(f"eigh_abs_vectors_{name}", lambda a: jnp.abs(jnp.linalg.eigh(a)[1]), (h,), tol * 4)
    check(f"eigh_reconstruction_{name}", eigh_reconstruction, (h,), tol * 8)
    check(f"svd_values_{name}", lambda a: jnp.linalg.svd(a, compute_uv=False), (t,), tol)
    check(f"svd_reconstruction_{name}", lambda a: svd_reconstruction(a, True), (t,), tol)
    check(f"svd_u_orthonormal_{name}", lambda a: gram(jnp.linalg.svd(a)[0]), (t,), tol)
    check(f"pinv_{name}", jnp.linalg.pinv, (t[0],), tol * 4)

jaxgen.write("linalg-decomp.mlir", pieces,
             "Generated by gen_linalg_decomp.py: jnp.linalg.qr, eigh, svd, pinv, lstsq, matrix_rank, norm(ord=2)\n"
             "exported by JAX, against XLA:CPU (vectors by sign-invariant properties).")
