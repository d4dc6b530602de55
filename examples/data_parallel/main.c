/* A data-parallel SGD step (export.py) from C, both ways Strata offers:
 *  - dp_main on the whole batch: the library runs the 4 devices itself;
 *  - dp_main_device once per device inside dp_replicas_run: each device gets
 *    its quarter of the batch, and the devices average their gradients at the
 *    all_reduce. Built with --collectives mpi, the same program runs as 4
 *    processes under mpirun, one device each.
 * Both are compared with XLA:CPU's results (expected.h). */
#include <math.h>
#include <stdio.h>
#include "dp.h"
#include "expected.h"

enum { FEATURES = 5, PER_DEVICE = 8 };

static int same(const float *got, const float *want, int n, const char *what) {
  for (int i = 0; i < n; i++)
    if (fabsf(got[i] - want[i]) > 1e-5f * (1.0f + fabsf(want[i]))) {
      printf("%s[%d]: %g, XLA %g\n", what, i, got[i], want[i]);
      return 0;
    }
  return 1;
}

static int ok[DP_NUM_DEVICES], ran[DP_NUM_DEVICES];

static void device(int32_t d, void *user) {
  (void)user;
  float w[FEATURES], b, loss;
  ran[d] = 1;
  if (dp_main_device(W, B, X + d * PER_DEVICE * FEATURES, Y + d * PER_DEVICE, w, &b, &loss) != 0) {
    printf("device %d: %s\n", d, dp_last_error());
    return;
  }
  ok[d] = same(w, NEW_W, FEATURES, "w") && same(&b, NEW_B, 1, "b") && same(&loss, LOSS, 1, "loss");
}

int main(void) {
  float w[FEATURES], b, loss;
  if (dp_main(W, B, X, Y, w, &b, &loss) != 0) {
    printf("dp_main: %s\n", dp_last_error());
    return 1;
  }
  if (!same(w, NEW_W, FEATURES, "w") || !same(&b, NEW_B, 1, "b") || !same(&loss, LOSS, 1, "loss"))
    return 1;
  printf("whole batch: loss %.6f, w[0] %.6f -> %.6f (matches XLA)\n", loss, W[0], w[0]);
  if (dp_replicas_run(DP_NUM_DEVICES, device, NULL) != 0) {
    printf("dp_replicas_run: %s\n", dp_last_error());
    return 1;
  }
  for (int d = 0; d < DP_NUM_DEVICES; d++) {
    if (ran[d] && !ok[d]) return 1;
    if (ran[d]) printf("device %d: matches XLA\n", d);
  }
  return 0;
}
