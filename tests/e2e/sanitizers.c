/* Harness of tools/strata/tests/sanitizers.rs: calls the functions of
 * sanitizers.mlir with adversarial inputs. Every buffer is malloc'd with its
 * exact size, so a stray access by the (instrumented) library hits an ASan
 * redzone. Expected values follow XLA's semantics and are written by hand:
 * gather and dynamic_slice clamp start indices into the operand; scatter
 * skips out-of-bounds updates; TOTALORDER sorts -NaN first and +NaN last. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "adv.h"

static int failures;

#define FAIL(...) do { printf(__VA_ARGS__); printf("\n"); failures++; } while (0)

/* An exactly-sized heap copy (malloc(0) for an empty one: no byte usable). */
static void *heap(const void *data, size_t bytes) {
  void *p = malloc(bytes);
  if (bytes) memcpy(p, data, bytes);
  return p;
}

static void expect_floats(const char *what, const float *got, const float *want, int n) {
  for (int i = 0; i < n; i++)
    if (memcmp(&got[i], &want[i], sizeof(float)) != 0)
      FAIL("%s: element %d is %g, expected %g", what, i, got[i], want[i]);
}

static void expect_ok(const char *what, int32_t status) {
  if (status != 0) FAIL("%s: status %d: %s", what, status, adv_last_error());
}

static void gather_rows(void) {
  const float a[15] = {0, 1, 2, 10, 11, 12, 20, 21, 22, 30, 31, 32, 40, 41, 42};
  const int32_t idx[4] = {-1, 5, INT_MIN, INT_MAX};
  /* Starts clamp into [0, 4]: rows 0, 4, 0, 4. */
  const float want[12] = {0, 1, 2, 40, 41, 42, 0, 1, 2, 40, 41, 42};
  float *pa = heap(a, sizeof a), *pi = heap(idx, sizeof idx), *out = malloc(sizeof want);
  expect_ok("gather_rows", adv_gather_rows(pa, (int32_t *)pi, out));
  expect_floats("gather_rows", out, want, 12);
  free(pa), free(pi), free(out);
}

static void gather_none(void) {
  const float a[15] = {0};
  float *pa = heap(a, sizeof a), *pi = malloc(0), *out = malloc(0);
  expect_ok("gather_none", adv_gather_none(pa, (int32_t *)pi, out));
  free(pa), free(pi), free(out);
}

static void scatter_add(void) {
  const float a[5] = {1, 1, 1, 1, 1};
  const int32_t idx[4] = {-1, 5, INT_MIN, 2};
  const float upd[4] = {100, 200, 300, 7};
  const float want[5] = {1, 1, 8, 1, 1}; /* only index 2 is in bounds */
  float *pa = heap(a, sizeof a), *pi = heap(idx, sizeof idx), *pu = heap(upd, sizeof upd);
  float *out = malloc(sizeof want);
  expect_ok("scatter_add", adv_scatter_add(pa, (int32_t *)pi, pu, out));
  expect_floats("scatter_add", out, want, 5);
  free(pa), free(pi), free(pu), free(out);
}

static void dynamic_slice(void) {
  const float a[5] = {0, 1, 2, 3, 4};
  const int32_t starts[5] = {INT_MIN, -1, 2, 4, INT_MAX};
  const float want[5][2] = {{0, 1}, {0, 1}, {2, 3}, {3, 4}, {3, 4}};
  for (int k = 0; k < 5; k++) {
    float *pa = heap(a, sizeof a), *out = malloc(2 * sizeof(float));
    int32_t *pi = heap(&starts[k], sizeof(int32_t));
    expect_ok("dynamic_slice", adv_dynamic_slice(pa, pi, out));
    expect_floats("dynamic_slice", out, want[k], 2);
    free(pa), free(pi), free(out);
  }
}

static void dynamic_slice_empty(void) {
  const int64_t i = LLONG_MIN, j = LLONG_MAX;
  float *pa = malloc(0), *out = malloc(0);
  int64_t *pi = heap(&i, sizeof i), *pj = heap(&j, sizeof j);
  expect_ok("dynamic_slice_empty", adv_dynamic_slice_empty(pa, pi, pj, out));
  free(pa), free(pi), free(pj), free(out);
}

static void dynamic_update_slice(void) {
  const float a[5] = {0, 1, 2, 3, 4}, u[2] = {-1, -2};
  const int32_t starts[4] = {INT_MIN, 1, 4, INT_MAX};
  const float want[4][5] = {
      {-1, -2, 2, 3, 4}, {0, -1, -2, 3, 4}, {0, 1, 2, -1, -2}, {0, 1, 2, -1, -2}};
  for (int k = 0; k < 4; k++) {
    float *pa = heap(a, sizeof a), *pu = heap(u, sizeof u), *out = malloc(sizeof a);
    int32_t *pi = heap(&starts[k], sizeof(int32_t));
    expect_ok("dynamic_update_slice", adv_dynamic_update_slice(pa, pu, pi, out));
    expect_floats("dynamic_update_slice", out, want[k], 5);
    free(pa), free(pu), free(pi), free(out);
  }
}

static void sort_total(void) {
  const float a[6] = {3.0f, NAN, -1.0f, -NAN, -0.0f, 0.0f};
  float *pa = heap(a, sizeof a), *out = malloc(sizeof a);
  expect_ok("sort_total", adv_sort_total(pa, out));
  if (!(isnan(out[0]) && signbit(out[0]))) FAIL("sort_total: first is %g, expected -nan", out[0]);
  const float middle[4] = {-1.0f, -0.0f, 0.0f, 3.0f};
  expect_floats("sort_total", out + 1, middle, 4);
  if (!(isnan(out[5]) && !signbit(out[5]))) FAIL("sort_total: last is %g, expected nan", out[5]);
  free(pa), free(out);
}

/* NaN keys under FLOAT LT: any order, but the same multiset of values. */
static void sort_float_nan(void) {
  enum { N = 64 };
  float a[N];
  int nans = 0;
  double sum = 0;
  for (int i = 0; i < N; i++) {
    a[i] = (i % 3 == 0) ? NAN : (float)((i * 37) % 11) - 5.0f;
    if (isnan(a[i])) nans++; else sum += a[i];
  }
  float *pa = heap(a, sizeof a), *out = malloc(sizeof a);
  expect_ok("sort_float_nan", adv_sort_float_nan(pa, out));
  int got_nans = 0;
  double got_sum = 0;
  for (int i = 0; i < N; i++) {
    if (isnan(out[i])) got_nans++; else got_sum += out[i];
  }
  if (got_nans != nans || got_sum != sum)
    FAIL("sort_float_nan: %d NaNs and sum %g, expected %d and %g", got_nans, got_sum, nans, sum);
  free(pa), free(out);
}

static void sort_empty(void) {
  float *pa = malloc(0), *out = malloc(0);
  expect_ok("sort_empty", adv_sort_empty(pa, out));
  free(pa), free(out);
}

static void reduce_window_padded(void) {
  const float a[5] = {1, 2, 3, 4, 5}, z = 0;
  const float want[4] = {1, 6, 12, 5}; /* [0 0 1] [1 2 3] [3 4 5] [5 0 0] */
  float *pa = heap(a, sizeof a), *pz = heap(&z, sizeof z), *out = malloc(sizeof want);
  expect_ok("reduce_window_padded", adv_reduce_window_padded(pa, pz, out));
  expect_floats("reduce_window_padded", out, want, 4);
  free(pa), free(pz), free(out);
}

static void reduce_window_empty(void) {
  const float z = -INFINITY;
  float *pa = malloc(0), *pz = heap(&z, sizeof z), *out = malloc(0);
  expect_ok("reduce_window_empty", adv_reduce_window_empty(pa, pz, out));
  free(pa), free(pz), free(out);
}

int main(void) {
  /* Twice: a second call must not depend on what the first left behind. */
  for (int round = 0; round < 2; round++) {
    gather_rows();
    gather_none();
    scatter_add();
    dynamic_slice();
    dynamic_slice_empty();
    dynamic_update_slice();
    sort_total();
    sort_float_nan();
    sort_empty();
    reduce_window_padded();
    reduce_window_empty();
  }
  if (failures) return 1;
  printf("all adversarial cases ok\n");
  return 0;
}
