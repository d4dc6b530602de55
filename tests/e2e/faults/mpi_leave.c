/* Three MPI processes (a --collectives mpi build of model.mlir) where rank 1
 * leaves early. The argument says how:
 *   never  rank 1 returns from its device body without calling @sum, then
 *          exits;
 *   once   rank 1 calls @sum once while the others call it twice, then
 *          exits;
 *   stuck  as never, but rank 1 then sleeps for 5 minutes instead of exiting
 *          (a rank busy elsewhere);
 *   sizes  nobody leaves, but rank 0 calls @sum (8 floats) while the others
 *          call @sum16 (16 floats) at the same collective: every rank must
 *          fail at once, saying the operands differ in size.
 * The others must get an error naming device 1 once
 * STRATA_COLLECTIVE_TIMEOUT_MS has passed, not hang, and the job must end.
 * Each rank prints
 *   rank R: call K ok
 *   rank R: call K failed after T ms: MESSAGE
 *   rank R: run returned S[: MESSAGE]
 * and exits with 3 when its run failed. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include "calls.h"

static int once, stuck, sizes;
static int rank = -1;

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static void body(int32_t d, void *user) {
  (void)user;
  rank = d;
  int calls = d == 1 && !sizes ? (once ? 1 : 0) : (once ? 2 : 1);
  for (int k = 1; k <= calls; k++) {
    float x[16], s[16];
    for (int i = 0; i < 16; i++) x[i] = (float)(d + i);
    double t0 = now_ms();
    int status = sizes && d != 0 ? flt_sum16(x, s) : flt_sum(x, s);
    if (status != 0) {
      printf("rank %d: call %d failed after %.0f ms: %s\n", d, k, now_ms() - t0, flt_last_error());
      fflush(stdout);
      return;
    }
    for (int i = 0; i < 8; i++)
      if (s[i] != (float)(3 + 3 * i)) { printf("rank %d: call %d: wrong sum\n", d, k); fflush(stdout); return; }
    printf("rank %d: call %d ok\n", d, k);
    fflush(stdout);
  }
}

int main(int argc, char **argv) {
  once = argc > 1 && strcmp(argv[1], "once") == 0;
  stuck = argc > 1 && strcmp(argv[1], "stuck") == 0;
  sizes = argc > 1 && strcmp(argv[1], "sizes") == 0;
  int status = flt_replicas_run(3, body, NULL);
  if (status != 0)
    printf("rank %d: run returned %d: %s\n", rank, status, flt_last_error());
  else
    printf("rank %d: run returned 0\n", rank);
  fflush(stdout);
  if (stuck && rank == 1) sleep(300);
  return status != 0 ? 3 : 0;
}
