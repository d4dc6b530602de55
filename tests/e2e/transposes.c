/* Checks the transposes of transposes.mlir element by element against the
 * definition: result[j] (row-major over the permuted shape) is the operand
 * element at the permuted index. Inputs hold their own index. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "transposes.h"

static int failures;

/* The operand index of result element `j` for `shape` permuted by `perm`. */
static long source_index(long j, int rank, const long *shape, const int *perm) {
    long out_shape[4], in_strides[4], at = 0;
    in_strides[rank - 1] = 1;
    for (int d = rank - 2; d >= 0; d--) in_strides[d] = in_strides[d + 1] * shape[d + 1];
    for (int p = 0; p < rank; p++) out_shape[p] = shape[perm[p]];
    for (int p = rank - 1; p >= 0; p--) {
        at += (j % out_shape[p]) * in_strides[perm[p]];
        j /= out_shape[p];
    }
    return at;
}

static void check_f32(const char *name, const float *got, long n, int rank, const long *shape, const int *perm) {
    for (long j = 0; j < n; j++) {
        long want = source_index(j, rank, shape, perm);
        if (got[j] != (float)want) {
            printf("%s: element %ld is %g, want %ld\n", name, j, got[j], want);
            failures++;
            return;
        }
    }
}

static float *iota_f32(long n) {
    float *x = malloc(n * sizeof *x);
    for (long i = 0; i < n; i++) x[i] = (float)i;
    return x;
}

int main(void) {
    {
        long shape[] = {600, 520};
        int perm[] = {1, 0};
        long n = 600 * 520;
        float *x = iota_f32(n), *y = malloc(n * sizeof *y);
        if (transposes_t2d(x, y) != 0) { printf("t2d: %s\n", transposes_last_error()); return 1; }
        check_f32("t2d", y, n, 2, shape, perm);
        free(x); free(y);
    }
    {
        long shape[] = {4, 300, 260};
        int perm[] = {2, 0, 1};
        long n = 4 * 300 * 260;
        float *x = iota_f32(n), *y = malloc(n * sizeof *y);
        if (transposes_t3d(x, y) != 0) { printf("t3d: %s\n", transposes_last_error()); return 1; }
        check_f32("t3d", y, n, 3, shape, perm);
        free(x); free(y);
    }
    {
        long shape[] = {3, 40, 9, 128};
        int perm[] = {0, 3, 2, 1};
        long n = 3 * 40 * 9 * 128;
        float *x = iota_f32(n), *y = malloc(n * sizeof *y);
        if (transposes_t4d(x, y) != 0) { printf("t4d: %s\n", transposes_last_error()); return 1; }
        check_f32("t4d", y, n, 4, shape, perm);
        free(x); free(y);
    }
    {
        long n = 2048L * 1040;
        int32_t *x = malloc(n * sizeof *x);
        for (long i = 0; i < n; i++) x[i] = (int32_t)(i * 7 - 3);
        /* Once on a 64-byte aligned result, once one element past it. */
        int32_t *base = aligned_alloc(64, (n + 16) * sizeof *base);
        for (int offset = 0; offset <= 1; offset++) {
            int32_t *y = base + offset;
            if (transposes_tbig(x, y) != 0) { printf("tbig: %s\n", transposes_last_error()); return 1; }
            for (long r = 0; r < 2048 && !failures; r++)
                for (long c = 0; c < 1040; c++)
                    if (y[c * 2048 + r] != x[r * 1040 + c]) {
                        printf("tbig (offset %d): (%ld, %ld) is %d, want %d\n", offset, c, r, y[c * 2048 + r], x[r * 1040 + c]);
                        failures++;
                        break;
                    }
        }
        free(x); free(base);
    }
    if (failures) return 1;
    printf("transposes: all checks passed\n");
    return 0;
}
