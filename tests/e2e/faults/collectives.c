/* @ops of model.mlir on 3 devices: threads (P_replicas_run(3) in this
 * process) or MPI (a --collectives mpi build under mpirun -np 3, one device
 * per rank). Each device checks its results against values computed here
 * (f64 products and sums folded in member order, as both backends
 * promise; the sums' inputs are chosen so that another order gives other
 * bits) and prints "device D ok BITS BITS", or what went wrong. */
#include <inttypes.h>
#include <stdint.h>
#include "calls.h"

static int32_t xs(int d, int i) { return (d * 7 + i * 3) % 11 - 5; }
static double ys(int d, int i) { return 1.0 + 0.1 * (d + 1) + 0.01 * i; }
/* Sums of three of these depend on the order they are added in: member
 * order rounds 1e16 + 1 back to 1e16 twice, another order adds the ones
 * first. */
static double zs(int d, int i) { return d == 0 ? 1e16 + 2.0 * (i % 3) : 1.0 + (d == 2) * (i % 2); }

#define Z 30001
static double z[3][Z], big[3][Z];

static void body(int32_t d, void *user) {
  (void)user;
  int32_t x[7], max[7], all[21];
  double y[5], prod[5], next[5];
  for (int i = 0; i < 7; i++) x[i] = xs(d, i);
  for (int i = 0; i < 5; i++) y[i] = ys(d, i);
  for (int i = 0; i < Z; i++) z[d][i] = zs(d, i);
  if (flt_ops(x, y, z[d], max, prod, all, next, big[d]) != 0) {
    printf("device %d: %s\n", d, flt_last_error());
    return;
  }
  for (int i = 0; i < 7; i++) {
    int32_t m = xs(0, i);
    for (int k = 1; k < 3; k++) m = xs(k, i) > m ? xs(k, i) : m;
    if (max[i] != m) { printf("device %d: max[%d] = %d, not %d\n", d, i, max[i], m); return; }
  }
  for (int k = 0; k < 21; k++)
    if (all[k] != xs(k / 7, k % 7)) { printf("device %d: all_gather[%d] = %d\n", d, k, all[k]); return; }
  for (int i = 0; i < 5; i++) {
    double p = (ys(0, i) * ys(1, i)) * ys(2, i);
    if (prod[i] != p) { printf("device %d: prod[%d] = %.17g, not %.17g\n", d, i, prod[i], p); return; }
    if (next[i] != ys((d + 2) % 3, i)) { printf("device %d: permute[%d] = %g\n", d, i, next[i]); return; }
  }
  for (int i = 0; i < Z; i++) {
    double s = (zs(0, i) + zs(1, i)) + zs(2, i);
    if (big[d][i] != s) { printf("device %d: big[%d] = %.17g, not %.17g\n", d, i, big[d][i], s); return; }
  }
  uint64_t bits, big_bits;
  memcpy(&bits, &prod[4], sizeof bits);
  memcpy(&big_bits, &big[d][Z - 1], sizeof big_bits);
  printf("device %d ok %016" PRIx64 " %016" PRIx64 "\n", d, bits, big_bits);
  fflush(stdout);
}

int main(void) {
  if (flt_replicas_run(3, body, NULL) != 0) {
    printf("run failed: %s\n", flt_last_error());
    return 1;
  }
  return 0;
}
