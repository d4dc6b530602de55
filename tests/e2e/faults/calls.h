/* Calls of tests/e2e/faults/model.mlir (prefix flt) with their checks.
 * Small integers, so every expected value is exact in f32 whatever the
 * order of the sums or the use of fused multiply-add. */
#include <stdio.h>
#include <string.h>
#include "flt.h"

#define EW_N 262144
#define MM_N 256

/* Whether @ew and @mm give the right results; on failure, a message on
 * stderr (written straight to the descriptor: safe in a forked child). */
static inline int calls_ok(const char *who) {
  static float x[EW_N], y[EW_N], z[EW_N];
  static float a[MM_N * MM_N], b[MM_N * MM_N], c[MM_N * MM_N];
  for (int i = 0; i < EW_N; i++) {
    x[i] = (float)(i % 97);
    y[i] = (float)(i % 31) - 15.0f;
  }
  if (flt_ew(x, y, z) != 0) {
    dprintf(2, "%s: ew failed: %s\n", who, flt_last_error());
    return 0;
  }
  for (int i = 0; i < EW_N; i++)
    if (z[i] != x[i] * y[i] + x[i]) {
      dprintf(2, "%s: ew element %d is %g\n", who, i, z[i]);
      return 0;
    }
  for (int i = 0; i < MM_N * MM_N; i++) {
    a[i] = (float)(i % 7) - 3.0f;
    b[i] = (float)(i % 5) - 2.0f;
  }
  if (flt_mm(a, b, c) != 0) {
    dprintf(2, "%s: mm failed: %s\n", who, flt_last_error());
    return 0;
  }
  for (int i = 0; i < MM_N; i += 17)
    for (int j = 0; j < MM_N; j += 13) {
      float want = 0;
      for (int k = 0; k < MM_N; k++) want += a[i * MM_N + k] * b[k * MM_N + j];
      if (c[i * MM_N + j] != want) {
        dprintf(2, "%s: mm element (%d, %d) is %g, not %g\n", who, i, j, c[i * MM_N + j], want);
        return 0;
      }
    }
  return 1;
}

/* The threads of this process (entries of /proc/self/task). */
#include <dirent.h>
static inline int thread_count(void) {
  DIR *d = opendir("/proc/self/task");
  int n = 0;
  if (!d) return -1;
  for (struct dirent *e; (e = readdir(d)) != NULL;)
    if (e->d_name[0] != '.') n++;
  closedir(d);
  return n;
}
