/* The params-dict model through its named C interface and through the
 * packed entry (`pd_main_packed`): both match XLA:CPU's outputs. */
#include <math.h>
#include <stdio.h>

#include "params_dict.h"
#include "params_dict_data.h"

static int failures;

static void expect(const char *what, const float *got, const float *want, int n) {
    for (int i = 0; i < n; i++) {
        if (fabsf(got[i] - want[i]) > 1e-5f * (1.0f + fabsf(want[i]))) {
            printf("%s[%d] = %g, XLA gives %g\n", what, i, got[i], want[i]);
            failures++;
            return;
        }
    }
}

int main(void) {
    float norm[1], out[6];
    /* Named after the model's paths: params['attn']['wk'] ... result['out']. */
    if (pd_main(/*params_attn_wk=*/wk, /*params_attn_wv=*/wv, /*params_b=*/b, /*x=*/x,
                /*result_aux_norm=*/norm, /*result_out=*/out) != 0) {
        printf("pd_main failed: %s\n", pd_last_error());
        return 1;
    }
    expect("norm", norm, want_norm, 1);
    expect("out", out, want_out, 6);

    float norm2[1], out2[6];
    void *const buffers[6] = {(void *)wk, (void *)wv, (void *)b, (void *)x, norm2, out2};
    if (pd_main_packed(buffers) != 0) {
        printf("pd_main_packed failed: %s\n", pd_last_error());
        return 1;
    }
    expect("packed norm", norm2, want_norm, 1);
    expect("packed out", out2, want_out, 6);
    if (pd_main_packed(NULL) == 0) {
        printf("pd_main_packed(NULL) succeeded\n");
        failures++;
    }
    if (failures == 0) printf("params_dict: all checks passed\n");
    return failures != 0;
}
