/* The pmap export of gen_pmap.py, from C: pm_main on the global arrays, and
 * pm_main_device once per device inside pm_replicas_run(4, ...), both
 * against XLA:CPU's outputs (expected.h). The same program runs under
 * `mpirun -np 4` against a `--collectives mpi` build: each process is then
 * one device and checks its own shard. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "expected.h"
#include "pm.h"

static int close_to(const float *got, const float *want, int n, const char *what) {
  for (int i = 0; i < n; i++)
    if (fabsf(got[i] - want[i]) > 1e-6f * (1.0f + fabsf(want[i]))) {
      printf("%s[%d]: got %g, XLA %g\n", what, i, got[i], want[i]);
      return 0;
    }
  return 1;
}

static int device_ok[4], device_ran[4];

static void device(int32_t d, void *user) {
  (void)user;
  device_ran[d] = 1;
  float shard[3], out0[3], out1[12], out2[3];
  memcpy(shard, INPUT + 3 * d, sizeof shard);
  if (pm_main_device(shard, out0, out1, out2) != 0) {
    printf("device %d: %s\n", d, pm_last_error());
    return;
  }
  device_ok[d] = close_to(out0, EXPECTED0 + 3 * d, 3, "device psum+pmax") &&
                 close_to(out1, EXPECTED1 + 12 * d, 12, "device all_gather") &&
                 close_to(out2, EXPECTED2 + 3 * d, 3, "device ppermute+axis_index");
}

int main(void) {
  float r0[12], r1[48], r2[12];
  if (pm_main(INPUT, r0, r1, r2) != 0) {
    printf("pm_main: %s\n", pm_last_error());
    return 1;
  }
  if (!close_to(r0, EXPECTED0, 12, "psum+pmax") || !close_to(r1, EXPECTED1, 48, "all_gather") ||
      !close_to(r2, EXPECTED2, 12, "ppermute+axis_index"))
    return 1;
  if (pm_replicas_run(PM_NUM_DEVICES, device, NULL) != 0) {
    printf("pm_replicas_run: %s\n", pm_last_error());
    return 1;
  }
  int ran = 0;
  for (int d = 0; d < 4; d++) {
    if (device_ran[d] && !device_ok[d]) return 1;
    ran += device_ran[d];
  }
  if (ran == 0) return 1;
  printf("pmap ok (%d device%s here)\n", ran, ran == 1 ? "" : "s");
  return 0;
}
