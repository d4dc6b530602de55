/* The runtime's limits through a library's C ABI, one check per argument:
 *   threads N   P_set_num_threads(N), then a call: prints "threads T cap C"
 *               (T: pool threads after the call; C: 4 x the CPUs this
 *               process may use)
 *   env         the same with P_set_num_threads untouched
 *               (STRATA_NUM_THREADS comes from the caller's environment)
 *   devices     P_replicas_run(INT_MAX or 4097) fails with a message and
 *               never calls the body; P_replicas_run(3) still works
 *   timeouts    STRATA_COLLECTIVE_TIMEOUT_MS of 0, -1 or abc: the run is
 *               refused with a message naming the value
 *   late        device 2 reaches the all_reduce after the others gave up:
 *               every device's message names device 2
 * Prints "<check> ok" on success. */
#define _GNU_SOURCE
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include "calls.h"

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int cpus(void) {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) != 0) return 1;
  return CPU_COUNT(&set);
}

static int threads_after_a_call(void) {
  double t0 = now_ms();
  if (!calls_ok("threads")) return 1;
  printf("threads %d cap %d (%.0f ms)\n", thread_count() - 1, 4 * cpus(), now_ms() - t0);
  return 0;
}

static int bodies;
static void count_body(int32_t d, void *user) {
  (void)d; (void)user;
  __atomic_add_fetch(&bodies, 1, __ATOMIC_RELAXED);
}

static char messages[3][1024];
static int late_device = -1;
static void sum_body(int32_t d, void *user) {
  (void)user;
  float x[8], s[8];
  for (int i = 0; i < 8; i++) x[i] = (float)(d + i);
  if (d == late_device) usleep(900 * 1000);
  if (flt_sum(x, s) != 0) {
    snprintf(messages[d], sizeof messages[d], "%s", flt_last_error());
    return;
  }
  for (int i = 0; i < 8; i++)
    if (s[i] != (float)(3 + 3 * i)) snprintf(messages[d], sizeof messages[d], "wrong sum");
}

static int expect(int ok, const char *what) {
  if (!ok) printf("FAILED: %s (last error: %s)\n", what, flt_last_error());
  return ok;
}

int main(int argc, char **argv) {
  if (argc < 2) return 2;
  const char *check = argv[1];
  if (strcmp(check, "threads") == 0 && argc == 3) {
    if (!expect(flt_set_num_threads(atoi(argv[2])) == 0, "set_num_threads")) return 1;
    return threads_after_a_call();
  }
  if (strcmp(check, "env") == 0) return threads_after_a_call();
  if (strcmp(check, "devices") == 0) {
    int32_t counts[] = {INT_MAX, 4097};
    for (int i = 0; i < 2; i++) {
      if (!expect(flt_replicas_run(counts[i], count_body, NULL) != 0, "too many devices refused")) return 1;
      if (!expect(strstr(flt_last_error(), "exceeds the 4096 devices") != NULL, "the message names the cap")) return 1;
    }
    if (!expect(bodies == 0, "no body ran")) return 1;
    if (!expect(flt_replicas_run(3, sum_body, NULL) == 0, "a run of 3")) return 1;
    for (int d = 0; d < 3; d++)
      if (!expect(messages[d][0] == 0, messages[d])) return 1;
    printf("devices ok\n");
    return 0;
  }
  if (strcmp(check, "timeouts") == 0) {
    const char *bad[] = {"0", "-1", "abc"};
    for (int i = 0; i < 3; i++) {
      char want[64];
      setenv("STRATA_COLLECTIVE_TIMEOUT_MS", bad[i], 1);
      snprintf(want, sizeof want, "STRATA_COLLECTIVE_TIMEOUT_MS=\"%s\"", bad[i]);
      if (!expect(flt_replicas_run(3, count_body, NULL) != 0, "a bad timeout refused")) return 1;
      if (!expect(strstr(flt_last_error(), want) != NULL, want)) return 1;
    }
    if (!expect(bodies == 0, "no body ran")) return 1;
    setenv("STRATA_COLLECTIVE_TIMEOUT_MS", "5000", 1);
    if (!expect(flt_replicas_run(3, count_body, NULL) == 0 && bodies == 3, "a good timeout")) return 1;
    printf("timeouts ok\n");
    return 0;
  }
  if (strcmp(check, "late") == 0) {
    setenv("STRATA_COLLECTIVE_TIMEOUT_MS", "300", 1);
    late_device = 2;
    if (!expect(flt_replicas_run(3, sum_body, NULL) != 0, "a run with a late device fails")) return 1;
    printf("run: %s\n", flt_last_error());
    for (int d = 0; d < 3; d++) {
      printf("device %d: %s\n", d, messages[d]);
      if (!expect(strstr(messages[d], "device(s) [2] of group [0, 1, 2]") != NULL, "the message names device 2")) return 1;
    }
    printf("late ok\n");
    return 0;
  }
  printf("unknown check %s\n", check);
  return 2;
}
