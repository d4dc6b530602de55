/* Checks the C ABI of tests/e2e/abi.mlir (compiled with --header abi.h). Exit 0 on success. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "abi.h"

_Static_assert(ABI_MAIN_ARG0_COUNT == 3 && ABI_MAIN_ARG1_COUNT == 3, "main inputs");
_Static_assert(ABI_MAIN_RES0_COUNT == 3 && ABI_MAIN_RES1_COUNT == 3 && ABI_MAIN_RES2_COUNT == 3, "main results");
_Static_assert(ABI_NEG_ARG0_COUNT == 4 && ABI_NEG_RES0_COUNT == 4, "neg");
_Static_assert(ABI_HALF_ARG0_COUNT == 2 && ABI_HALF_ARG1_COUNT == 1 && ABI_HALF_RES1_COUNT == 1, "half");

static int failures = 0;
#define EXPECT(cond)                                              \
  do {                                                            \
    if (!(cond)) {                                                \
      fprintf(stderr, "%s:%d: failed: %s\n", __FILE__, __LINE__, #cond); \
      failures++;                                                 \
    }                                                             \
  } while (0)

int main(void) {
  const float a[3] = {1.5f, -2.0f, 0.0f};
  const int32_t b[3] = {-1, 0, 2147483646};
  float r0[3];
  int32_t r1[3];
  uint8_t r2[3] = {7, 7, 7};
  EXPECT(abi_main(a, b, r0, r1, r2) == 0);
  EXPECT(r0[0] == 3.0f && r0[1] == -4.0f && r0[2] == 0.0f);
  EXPECT(r1[0] == 0 && r1[1] == 1 && r1[2] == 2147483647);
  EXPECT(r2[0] == 1 && r2[1] == 0 && r2[2] == 0); /* pred is one byte, 0 or 1 */

  const double x[4] = {1.0, -2.0, 0.5, 0.0};
  double y[4];
  EXPECT(abi_neg(x, y) == 0);
  EXPECT(y[0] == -1.0 && y[1] == 2.0 && y[2] == -0.5 && y[3] == 0.0);

  const uint16_t h[2] = {0x3c00 /* 1.0 */, 0xc100 /* -2.5 */};
  const int64_t s = 21;
  uint16_t hr[2];
  int64_t sr = 0;
  EXPECT(abi_half(h, &s, hr, &sr) == 0);
  EXPECT(hr[0] == 0x4000 /* 2.0 */ && hr[1] == 0xc500 /* -5.0 */);
  EXPECT(sr == 42);

  EXPECT(strcmp(abi_last_error(), "") == 0);
  if (failures == 0) printf("abi: all checks passed\n");
  return failures == 0 ? 0 : 1;
}
