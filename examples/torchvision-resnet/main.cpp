// Runs ResNet-18, exported from PyTorch by export.py and compiled by
// polyblocks_add_kernel, on the exported input; checks its logits against
// torch's and times it.
//
//   resnet18 DATA_DIR   (the folder holding input.bin and reference.bin)

#include "resnet18.h" // generated: int resnet18(const float*, float*)

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

static bool readFloats(const std::string &path, std::vector<float> &data) {
  std::ifstream in(path, std::ios::binary);
  return bool(in.read(reinterpret_cast<char *>(data.data()),
                      data.size() * sizeof(float)));
}

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DATA_DIR\n", argv[0]);
    return 2;
  }
  std::string dir = argv[1];
  std::vector<float> image(RESNET18_ARG0_SIZE), logits(RESNET18_RESULT0_SIZE),
      reference(RESNET18_RESULT0_SIZE);
  if (!readFloats(dir + "/input.bin", image) ||
      !readFloats(dir + "/reference.bin", reference)) {
    std::fprintf(stderr, "cannot read input.bin and reference.bin in %s\n",
                 dir.c_str());
    return 2;
  }
  if (int status = resnet18(image.data(), logits.data())) {
    std::fprintf(stderr, "resnet18 returned status %d\n", status);
    return 1;
  }
  // The error relative to the logits' magnitude.
  float scale = 0, error = 0;
  for (size_t i = 0; i < logits.size(); ++i) {
    scale = std::max(scale, std::fabs(reference[i]));
    error = std::max(error, std::fabs(logits[i] - reference[i]));
  }
  size_t best = std::max_element(logits.begin(), logits.end()) - logits.begin();
  size_t expected =
      std::max_element(reference.begin(), reference.end()) - reference.begin();
  std::printf("ResNet-18: class %zu (torch: %zu), max error %.2g of %.2g\n",
              best, expected, error, scale);

  std::vector<double> times;
  for (int i = 0; i < 10; ++i) {
    auto start = std::chrono::steady_clock::now();
    resnet18(image.data(), logits.data());
    times.push_back(std::chrono::duration<double, std::milli>(
                        std::chrono::steady_clock::now() - start)
                        .count());
  }
  std::sort(times.begin(), times.end());
  std::printf("median of 10 runs: %.1f ms\n", times[times.size() / 2]);
  bool ok = error <= 1e-4f * scale && best == expected;
  std::printf("%s\n", ok ? "OK" : "MISMATCH");
  return ok ? 0 : 1;
}
