// The every-size MLP through its C++ header (`--header-cpp`): the dimension
// variable b comes first, spans are checked against the count formulas of b,
// results return as vectors; b = 0 throws strata::mlp::Error with JAX's
// shape-assertion message. Results are checked against XLA:CPU's
// (every_size_data.h).
#include <cmath>
#include <cstdio>
#include <string>

#include "every_size_data.h"
#include "mlp.hpp"

static int failures;

static void expect_close(const char *what, std::span<const float> got, std::span<const float> want) {
    if (got.size() != want.size()) {
        std::printf("%s: %zu values, XLA gives %zu\n", what, got.size(), want.size());
        failures++;
        return;
    }
    for (std::size_t i = 0; i < got.size(); i++) {
        if (!(std::fabs(got[i] - want[i]) <= 2e-4f + 2e-4f * std::fabs(want[i]))) {
            std::printf("%s: element %zu is %g, XLA says %g\n", what, i, got[i], want[i]);
            failures++;
            return;
        }
    }
}

int main() {
    namespace mlp = strata::mlp;
    expect_close("b=7", mlp::main(7, mlp_x7, mlp_p0, mlp_p1, mlp_p2, mlp_p3).result, mlp_want7);
    float out[100 * 10];
    mlp::main(100, mlp_x100, mlp_p0, mlp_p1, mlp_p2, mlp_p3, out);
    expect_close("b=100", out, mlp_want100);
    try {
        // x holds 7 rows: b = 13 does not fit it.
        mlp::main(13, mlp_x7, mlp_p0, mlp_p1, mlp_p2, mlp_p3);
        std::printf("b=13 with 7 rows: no exception\n");
        failures++;
    } catch (const std::invalid_argument &e) {
        if (std::string(e.what()).find("arg0 holds 168 values, the model takes 312") == std::string::npos) {
            std::printf("b=13 with 7 rows: %s\n", e.what());
            failures++;
        }
    }
    try {
        float none[10];
        mlp::main(0, std::span<const float>(), mlp_p0, mlp_p1, mlp_p2, mlp_p3, std::span<float>(none, 0));
        std::printf("b=0: no exception\n");
        failures++;
    } catch (const mlp::Error &e) {
        std::string message = e.what();
        if (e.status() == 0 || message.find("Expected value >= 1 for dimension variable 'b'") == std::string::npos) {
            std::printf("b=0: status %d, message %s\n", e.status(), e.what());
            failures++;
        }
    }
    if (failures == 0) std::printf("every_size C++: all checks passed\n");
    return failures != 0;
}
