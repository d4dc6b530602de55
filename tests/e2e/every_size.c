/* Two shape-polymorphic JAX exports, each compiled without --dim into one
 * library for every batch size b: called with b = 1, 7, 13, 64 and 100
 * (compiled sizes, a padded chunk, chunks of the largest size) against
 * XLA:CPU's results, through the direct and the packed entries (and a result
 * batched along its last axis for b = 1, 13, 100, and a model regrouping the
 * rows with reshapes for b = 1, 7, 13); b = 0 fails
 * with JAX's shape assertion, b filled in. The MLP once more as a program with
 * `?` dimensions and no variable names (every_size_unnamed.mlir): its size
 * parameter is arg0_dim0, 0 rows are allowed and a negative size fails; and
 * with two `?` arguments the program requires equal (every_size_tied.mlir:
 * mlp((x + y) * 0.5), called with y = x): one size parameter. A CNN
 * (convolutions, max and average pooling), a signal model (|rfft|, top_k)
 * gathers and scatters keeping the rows apart (the same columns of each row,
 * each row's own indices), an RNN (lax.scan over time) and batched linear
 * algebra (cholesky, solve, eigh) from gen_every_size_cnn.py at b = 1, 7,
 * 13; two batched arguments of one variable b (every_size_shared.mlir); and
 * batch dimensions that are multiples of b: a language model's logits
 * flattened over its 6 positions (6*b rows, every_size_lm.mlir) and an
 * argument JAX declares 2*b (every_size_pairs.mlir). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "every_size_data.h"
#include "every_size_cnn_data.h"
#include "mlp.h"
#include "tf.h"
#include "cols.h"
#include "flat.h"
#include "unnamed.h"
#include "tied.h"
#include "cnn.h"
#include "sig.h"
#include "scat.h"
#include "rnn.h"
#include "lin.h"
#include "shared.h"
#include "lm.h"
#include "pairs.h"

static int failures = 0;

static void expect_close(const char *what, long b, const float *got, const float *want, long n) {
    for (long i = 0; i < n; i++) {
        if (!(fabsf(got[i] - want[i]) <= 2e-4f + 2e-4f * fabsf(want[i]))) {
            printf("%s b=%ld: element %ld is %g, XLA says %g\n", what, b, i, got[i], want[i]);
            failures++;
            return;
        }
    }
}

#define CHECK_STATUS(s, lib)                                              \
    if ((s) != 0) {                                                       \
        printf("%s failed: %s\n", #lib, lib##_last_error());              \
        failures++;                                                       \
    }

#define RUN_MLP(B)                                                                          \
    do {                                                                                    \
        float *out = malloc(sizeof(float) * MLP_MAIN_RES0_COUNT(B));                        \
        CHECK_STATUS(mlp_main(B, mlp_x##B, mlp_p0, mlp_p1, mlp_p2, mlp_p3, out), mlp);      \
        expect_close("mlp", B, out, mlp_want##B, MLP_MAIN_RES0_COUNT(B));                   \
        memset(out, 0, sizeof(float) * MLP_MAIN_RES0_COUNT(B));                             \
        int64_t dims[1] = {B};                                                              \
        void *buffers[6] = {(void *)mlp_x##B, (void *)mlp_p0, (void *)mlp_p1,               \
                            (void *)mlp_p2, (void *)mlp_p3, out};                           \
        CHECK_STATUS(mlp_main_packed(dims, buffers), mlp);                                  \
        expect_close("mlp packed", B, out, mlp_want##B, MLP_MAIN_RES0_COUNT(B));            \
        free(out);                                                                          \
    } while (0)

#define RUN_TF(B)                                                                           \
    do {                                                                                    \
        float *out = malloc(sizeof(float) * TF_MAIN_RES0_COUNT(B));                         \
        CHECK_STATUS(tf_main(B, tf_x##B, tf_p0, tf_p1, tf_p2, tf_p3, tf_p4, tf_p5, tf_p6,   \
                             tf_p7, tf_p8, tf_p9, tf_p10, tf_p11, tf_p12, tf_p13, tf_p14,   \
                             tf_p15, out),                                                  \
                     tf);                                                                   \
        expect_close("tf", B, out, tf_want##B, TF_MAIN_RES0_COUNT(B));                      \
        free(out);                                                                          \
    } while (0)

/* A result batched along its last axis (its rows of b are strided). */
#define RUN_COLS(B)                                                                         \
    do {                                                                                    \
        float *t = malloc(sizeof(float) * COLS_MAIN_RES0_COUNT(B));                         \
        float *y = malloc(sizeof(float) * COLS_MAIN_RES1_COUNT(B));                         \
        CHECK_STATUS(cols_main(B, cols_x##B, cols_w, t, y), cols);                          \
        expect_close("cols x.T", B, t, cols_t##B, COLS_MAIN_RES0_COUNT(B));                 \
        expect_close("cols tanh(x) @ w", B, y, cols_y##B, COLS_MAIN_RES1_COUNT(B));         \
        free(t);                                                                            \
        free(y);                                                                            \
    } while (0)

/* Rows regrouped by reshapes: (b, T, D) -> (b*T, D) @ W -> (b, T, F). */
#define RUN_FLAT(B)                                                                         \
    do {                                                                                    \
        float *y = malloc(sizeof(float) * FLAT_MAIN_RES0_COUNT(B));                         \
        CHECK_STATUS(flat_main(B, flat_x##B, flat_w, y), flat);                             \
        expect_close("flat", B, y, flat_want##B, FLAT_MAIN_RES0_COUNT(B));                  \
        free(y);                                                                            \
    } while (0)

/* One call of lib_main with B rows: the arguments after B, then the result,
 * checked against want. */
#define RUN_ONE(lib, LIB, B, want, ...)                                                     \
    do {                                                                                    \
        float *out = malloc(sizeof(float) * LIB##_MAIN_RES0_COUNT(B));                      \
        CHECK_STATUS(lib##_main(B, __VA_ARGS__, out), lib);                                 \
        expect_close(#lib, B, out, want, LIB##_MAIN_RES0_COUNT(B));                         \
        free(out);                                                                          \
    } while (0)

/* The MLP without dimension-variable names: arg0_dim0 rows. */
#define RUN_UNNAMED(B) \
    RUN_ONE(unnamed, UNNAMED, B, mlp_want##B, mlp_x##B, mlp_p0, mlp_p1, mlp_p2, mlp_p3)
/* Two tied `?` arguments, one size: mlp((x + x) * 0.5) is mlp(x). */
#define RUN_TIED(B) \
    RUN_ONE(tied, TIED, B, mlp_want##B, mlp_x##B, mlp_x##B, mlp_p0, mlp_p1, mlp_p2, mlp_p3)
#define RUN_CNN(B) RUN_ONE(cnn, CNN, B, cnn_want##B, cnn_x##B, cnn_p0, cnn_p1, cnn_p2)
#define RUN_SIG(B) RUN_ONE(sig, SIG, B, sig_want##B, sig_x##B)
#define RUN_SCAT(B) RUN_ONE(scat, SCAT, B, scat_want##B, scat_x##B)
#define RUN_RNN(B) RUN_ONE(rnn, RNN, B, rnn_want##B, rnn_x##B, rnn_p0)
#define RUN_LIN(B) RUN_ONE(lin, LIN, B, lin_want##B, lin_x##B)
#define RUN_SHARED(B) RUN_ONE(shared, SHARED, B, shared_want##B, shared_x##B, shared_y##B)
#define RUN_LM(B) RUN_ONE(lm, LM, B, lm_want##B, lm_x##B, lm_p0, lm_p1, lm_p2, lm_p3)
#define RUN_PAIRS(B) RUN_ONE(pairs, PAIRS, B, pairs_want##B, pairs_x##B, pairs_y##B, pairs_w)

int main(void) {
    RUN_MLP(1);
    RUN_MLP(7);
    RUN_MLP(13);
    RUN_MLP(64);
    RUN_MLP(100);
    RUN_TF(1);
    RUN_TF(7);
    RUN_TF(13);
    RUN_TF(64);
    RUN_TF(100);
    RUN_COLS(1);
    RUN_COLS(13);
    RUN_COLS(100);
    RUN_FLAT(1);
    RUN_FLAT(7);
    RUN_FLAT(13);
    RUN_UNNAMED(1);
    RUN_UNNAMED(7);
    RUN_UNNAMED(13);
    RUN_UNNAMED(100);
    RUN_CNN(1);
    RUN_CNN(7);
    RUN_CNN(13);
    RUN_SIG(1);
    RUN_SIG(7);
    RUN_SIG(13);
    RUN_SCAT(1);
    RUN_SCAT(7);
    RUN_SCAT(13);
    RUN_RNN(1);
    RUN_RNN(7);
    RUN_RNN(13);
    RUN_LIN(1);
    RUN_LIN(7);
    RUN_LIN(13);
    RUN_SHARED(1);
    RUN_SHARED(7);
    RUN_SHARED(13);
    RUN_LM(1);
    RUN_LM(7);
    RUN_LM(13);
    RUN_PAIRS(1);
    RUN_PAIRS(7);
    RUN_PAIRS(13);
    RUN_TIED(1);
    RUN_TIED(13);
    RUN_TIED(100);
    float none[10];
    CHECK_STATUS(unnamed_main(0, mlp_x1, mlp_p0, mlp_p1, mlp_p2, mlp_p3, none), unnamed);
    if (unnamed_main(-1, mlp_x1, mlp_p0, mlp_p1, mlp_p2, mlp_p3, none) == 0) {
        printf("unnamed arg0_dim0=-1 succeeded\n");
        failures++;
    } else if (!strstr(unnamed_last_error(), "arg0_dim0 = -1 is out of range")) {
        printf("unnamed arg0_dim0=-1: unexpected message: %s\n", unnamed_last_error());
        failures++;
    }
    if (mlp_main(0, mlp_x1, mlp_p0, mlp_p1, mlp_p2, mlp_p3, none) == 0) {
        printf("mlp b=0 succeeded\n");
        failures++;
    } else if (!strstr(mlp_last_error(), "Expected value >= 1 for dimension variable 'b'") ||
               !strstr(mlp_last_error(), "'b' = 0")) {
        printf("mlp b=0: unexpected message: %s\n", mlp_last_error());
        failures++;
    }
    if (failures == 0) printf("every_size: all checks passed\n");
    return failures != 0;
}
