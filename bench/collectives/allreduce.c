/* all_reduce bandwidth of a Strata library (built from allreduce.mlir with
 * --name ar) on 4 devices: threads (ar_replicas_run starts 4 threads) or MPI
 * (run under mpirun -np 4, built with --collectives mpi). Each device sums
 * COUNT floats REPS times; prints seconds per all_reduce (max over devices
 * for MPI is taken by the driver from rank 0's barrier-bracketed timing). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "ar.h"

#ifndef COUNT
#error "define COUNT"
#endif

static int reps;
static double seconds[64];

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static void device(int32_t d, void *user) {
  (void)user;
  float *x = malloc(sizeof(float) * COUNT), *y = malloc(sizeof(float) * COUNT);
  for (long i = 0; i < COUNT; i++) x[i] = (float)(d + 1);
  if (ar_main(x, y) != 0) { printf("error: %s\n", ar_last_error()); exit(1); } /* warm-up */
  double t0 = now();
  for (int r = 0; r < reps; r++)
    if (ar_main(x, y) != 0) { printf("error: %s\n", ar_last_error()); exit(1); }
  seconds[d] = (now() - t0) / reps;
  if (y[COUNT - 1] != 10.0f) { printf("wrong sum %g\n", y[COUNT - 1]); exit(1); }
  free(x);
  free(y);
}

int main(int argc, char **argv) {
  reps = argc > 1 ? atoi(argv[1]) : 10;
  if (ar_replicas_run(4, device, NULL) != 0) { printf("error: %s\n", ar_last_error()); return 1; }
  double worst = 0;
  for (int d = 0; d < 4; d++) if (seconds[d] > worst) worst = seconds[d];
  printf("%.9f\n", worst);
  return 0;
}
