// The MLP example from C++: the model compiled by strata_add_model (CMake), called with
// std::vector buffers, checked against JAX/XLA:CPU's outputs (../mlp/expected.h).
#include <cmath>
#include <cstdio>
#include <vector>

#include "expected.h"
#include "inputs.h"
#include "model.h"

int main() {
    std::vector<float> out(MODEL_MAIN_RES0_COUNT);
    if (model_main(input_x, input_w1, input_b1, input_w2, input_b2, out.data()) != 0) {
        std::printf("model_main failed: %s\n", model_last_error());
        return 1;
    }
    const float tolerance = 1e-5f;
    for (std::size_t i = 0; i < out.size(); i++) {
        if (!(std::fabs(out[i] - expected_out[i]) <= tolerance)) {  // NaN fails too
            std::printf("output %zu: %g, XLA gives %g\n", i, out[i], expected_out[i]);
            return 1;
        }
    }
    std::printf("OK: all %d outputs match XLA within %g\n", MODEL_MAIN_RES0_COUNT, tolerance);
    return 0;
}
