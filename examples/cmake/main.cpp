// The MLP example from C++: the model compiled by strata_add_model (CMake), called through its
// C++ header (model.hpp: namespace strata::model, std::span buffers, results as vectors, errors
// as exceptions), checked against JAX/XLA:CPU's outputs (../mlp/expected.h).
#include <cmath>
#include <cstdio>
#include <exception>

#include "expected.h"
#include "inputs.h"
#include "model.hpp"

int main() {
    try {
        auto out = strata::model::main(input_x, input_w1, input_b1, input_w2, input_b2).result;
        const float tolerance = 1e-5f;
        for (std::size_t i = 0; i < out.size(); i++) {
            if (!(std::fabs(out[i] - expected_out[i]) <= tolerance)) {  // NaN fails too
                std::printf("output %zu: %g, XLA gives %g\n", i, out[i], expected_out[i]);
                return 1;
            }
        }
        std::printf("OK: all %d outputs match XLA within %g\n", MODEL_MAIN_RES0_COUNT, tolerance);
        return 0;
    } catch (const std::exception &e) {
        std::printf("strata::model::main failed: %s\n", e.what());
        return 1;
    }
}
