/* A call in the child of fork() (what Python's multiprocessing does) after
 * the parent has woken the library's thread pool: the child must get the
 * right results instead of waiting forever for threads it does not have.
 * Forks land while another host thread keeps the pool busy, a child forks
 * again, and the child's pool keeps the size the parent chose. A hang is
 * caught by alarm() in the child. Prints "fork ok" when all is well. */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include "calls.h"

#define THREADS 3

static volatile int stop;

/* Keeps the pool busy (own buffers; results are not checked here). */
static void *busy(void *arg) {
  (void)arg;
  static float x[EW_N], y[EW_N], z[EW_N];
  while (!stop) flt_ew(x, y, z);
  return NULL;
}

/* Runs `child` in a forked child; 0 when it exited 0, else prints why. */
static int in_child(int (*child)(void), const char *what) {
  pid_t pid = fork();
  if (pid < 0) { perror("fork"); return 1; }
  if (pid == 0) {
    alarm(30); /* a hang becomes SIGALRM */
    _exit(child());
  }
  int st;
  if (waitpid(pid, &st, 0) != pid) { perror("waitpid"); return 1; }
  if (WIFSIGNALED(st)) {
    printf("%s: killed by signal %d%s\n", what, WTERMSIG(st),
           WTERMSIG(st) == SIGALRM ? " (the call hung)" : "");
    return 1;
  }
  if (WEXITSTATUS(st) != 0) { printf("%s: failed (exit %d)\n", what, WEXITSTATUS(st)); return 1; }
  return 0;
}

/* A child: right results, on THREADS pool threads plus this one. */
static int child(void) {
  if (!calls_ok("child")) return 1;
  int n = thread_count();
  if (n != THREADS + 1) { dprintf(2, "child: %d threads, want %d\n", n, THREADS + 1); return 2; }
  return 0;
}

/* A child that forks a grandchild after using its own pool. */
static int parent_child(void) {
  if (child() != 0) return 1;
  return in_child(child, "grandchild") == 0 ? 0 : 3;
}

int main(void) {
  if (flt_set_num_threads(THREADS) != 0) { printf("set_num_threads: %s\n", flt_last_error()); return 1; }
  if (!calls_ok("parent")) return 1;
  if (in_child(child, "child of an idle pool")) return 1;
  pthread_t t;
  if (pthread_create(&t, NULL, busy, NULL) != 0) { perror("pthread_create"); return 1; }
  for (int i = 0; i < 8; i++)
    if (in_child(child, "child of a busy pool")) return 1;
  stop = 1;
  pthread_join(t, NULL);
  if (in_child(parent_child, "child that forks")) return 1;
  if (!calls_ok("parent after the forks")) return 1;
  printf("fork ok\n");
  return 0;
}
