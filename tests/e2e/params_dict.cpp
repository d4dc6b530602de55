// The params-dict model through its C++ header (`--header-cpp`): spans in and
// out, results returned as vectors, the caller's scratch, and the errors a
// caller can make (a span of the wrong size, too little scratch) as exceptions.
// Every result is checked against XLA:CPU's (params_dict_data.h).
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "params_dict.hpp"
#include "params_dict_data.h"
// Both headers may be included: the C part is guarded by the C header's guard.
#include "params_dict.h"

static int failures;

static void expect(const char *what, std::span<const float> got, std::span<const float> want) {
    if (got.size() != want.size()) {
        std::printf("%s: %zu values, XLA gives %zu\n", what, got.size(), want.size());
        failures++;
        return;
    }
    for (std::size_t i = 0; i < got.size(); i++) {
        if (!(std::fabs(got[i] - want[i]) <= 1e-5f * (1.0f + std::fabs(want[i])))) {
            std::printf("%s[%zu] = %g, XLA gives %g\n", what, i, got[i], want[i]);
            failures++;
            return;
        }
    }
}

template <typename F>
static void expect_throws(const char *what, const char *message_part, F call) {
    try {
        call();
        std::printf("%s: no exception\n", what);
        failures++;
    } catch (const std::invalid_argument &e) {
        if (std::string(e.what()).find(message_part) == std::string::npos) {
            std::printf("%s: message '%s' lacks '%s'\n", what, e.what(), message_part);
            failures++;
        }
    }
}

int main() {
    namespace pd = strata::pd;
    std::vector<float> x_vec(x, x + PD_MAIN_ARG3_COUNT);

    // Results as vectors, named after the model's paths.
    pd::main_results r = pd::main(wk, wv, b, x_vec);
    expect("result_aux_norm", r.result_aux_norm, want_norm);
    expect("result_out", r.result_out, want_out);

    // Into the caller's spans.
    float norm[1], out[6];
    pd::main(wk, wv, b, x_vec, norm, out);
    expect("norm", norm, want_norm);
    expect("out", out, want_out);

    // On the caller's scratch, twice (reused).
    pd::Scratch scratch(PD_MAIN_SCRATCH_BYTES);
    for (int i = 0; i < 2; i++) {
        float norm2[1], out2[6];
        pd::main(scratch, wk, wv, b, x_vec, norm2, out2);
        expect("scratch out", out2, want_out);
    }

    // Caller errors are exceptions, named by function and buffer.
    std::vector<float> short_x(PD_MAIN_ARG3_COUNT - 1);
    expect_throws("short x", "main: x holds 11 values, the model takes 12",
                  [&] { pd::main(wk, wv, b, short_x); });
    std::vector<float> long_out(7);
    expect_throws("long out", "result_out holds 7 values",
                  [&] { pd::main(wk, wv, b, x_vec, norm, long_out); });
    if (PD_MAIN_SCRATCH_BYTES > 0) {
        pd::Scratch small(PD_MAIN_SCRATCH_BYTES - 1);
        expect_throws("small scratch", "scratch holds", [&] {
            pd::main(small, wk, wv, b, x_vec, norm, out);
        });
    }
    pd::Scratch moved = std::move(scratch);
    if (scratch.data() != nullptr || moved.size() != PD_MAIN_SCRATCH_BYTES) {
        std::printf("Scratch did not move\n");
        failures++;
    }
    if (std::string(pd::signature()).find("params['attn']['wk']") == std::string::npos) {
        std::printf("signature lacks the path: %s\n", pd::signature());
        failures++;
    }
    if (failures == 0) std::printf("params_dict C++: all checks passed\n");
    return failures != 0;
}
