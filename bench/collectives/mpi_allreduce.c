/* MPI_Allreduce (sum of COUNT floats) run directly, for comparison: Open MPI
 * loaded with dlopen as Strata's runtime does (no MPI headers needed). Run
 * under mpirun -np 4; rank 0 prints seconds per call (max over ranks). */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifndef COUNT
#error "define COUNT"
#endif

typedef void *handle;

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 10;
  void *lib = dlopen("libmpi.so.40", RTLD_NOW | RTLD_GLOBAL);
  if (!lib) { printf("cannot load libmpi.so.40\n"); return 1; }
  int (*init)(int *, char ***) = (int (*)(int *, char ***))dlsym(lib, "MPI_Init");
  int (*finalize)(void) = (int (*)(void))dlsym(lib, "MPI_Finalize");
  int (*rank_of)(handle, int *) = (int (*)(handle, int *))dlsym(lib, "MPI_Comm_rank");
  int (*allreduce)(const void *, void *, int, handle, handle, handle) =
      (int (*)(const void *, void *, int, handle, handle, handle))dlsym(lib, "MPI_Allreduce");
  int (*reduce_max)(const void *, void *, int, handle, handle, int, handle) =
      (int (*)(const void *, void *, int, handle, handle, int, handle))dlsym(lib, "MPI_Reduce");
  handle world = dlsym(lib, "ompi_mpi_comm_world"), f32 = dlsym(lib, "ompi_mpi_float"),
         f64 = dlsym(lib, "ompi_mpi_double"), sum = dlsym(lib, "ompi_mpi_op_sum"),
         max = dlsym(lib, "ompi_mpi_op_max");
  init(&argc, &argv);
  int rank;
  rank_of(world, &rank);
  float *x = malloc(sizeof(float) * COUNT), *y = malloc(sizeof(float) * COUNT);
  for (long i = 0; i < COUNT; i++) x[i] = (float)(rank + 1);
  allreduce(x, y, COUNT, f32, sum, world);
  struct timespec a, b;
  clock_gettime(CLOCK_MONOTONIC, &a);
  for (int r = 0; r < reps; r++) allreduce(x, y, COUNT, f32, sum, world);
  clock_gettime(CLOCK_MONOTONIC, &b);
  double s = (b.tv_sec - a.tv_sec + (b.tv_nsec - a.tv_nsec) * 1e-9) / reps, worst;
  reduce_max(&s, &worst, 1, f64, max, 0, world);
  if (rank == 0) printf("%.9f\n", worst);
  finalize();
  return y[COUNT - 1] == 10.0f ? 0 : 1;
}
