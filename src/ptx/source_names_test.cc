// source_names_test.cc: kernel parameter names from the .cu signature.
#include "ptx/source_names.h"

#include <gtest/gtest.h>

#include "ptx/parser.h"

namespace warpscope::ptx {
namespace {

using Names = std::vector<std::string>;

const char* kSource = R"(// kernels of our own, written the ways people write them
#include <cuda_fp16.h>
template <class T, int N>
__global__ void __launch_bounds__(256) reduce(T* __restrict__ out, const T* in,
                                              unsigned int n /* elements */) {
  // reduce(a, b) inside a comment is no definition
}
template __global__ void reduce<float, 256>(float*, const float*, unsigned);

__device__ float helper(float x, float y) { return x + y; }

__global__ void scale(float* data, int n) {}
__global__ void scale(double* data, int n, double factor = 2.0) {}

extern "C" __global__ void unnamed(float*, int) {}
extern "C" __global__ void arrays(float data[], const int table[4], cudaTextureObject_t tex) {}
__global__ void novoid(void) {}
__global__ void pointer_fn(float (*f)(float), float* out) {}
)";

TEST(SourceNames, FromTheKernelsSignature) {
  EXPECT_EQ(source_parameter_names(kSource, "reduce", 6, 3), (Names{"out", "in", "n"}));
  EXPECT_EQ(source_parameter_names(kSource, "reduce", 0, 3), (Names{"out", "in", "n"}));
  // Overloads: the parameter count chooses, then the definition nearest before the body.
  EXPECT_EQ(source_parameter_names(kSource, "scale", 12, 2), (Names{"data", "n"}));
  EXPECT_EQ(source_parameter_names(kSource, "scale", 13, 3), (Names{"data", "n", "factor"}));
  EXPECT_EQ(source_parameter_names(kSource, "unnamed", 15, 2), (Names{"", ""}));
  EXPECT_EQ(source_parameter_names(kSource, "arrays", 16, 3), (Names{"data", "table", "tex"}));
  EXPECT_EQ(source_parameter_names(kSource, "novoid", 17, 0), Names{});
  EXPECT_EQ(source_parameter_names(kSource, "pointer_fn", 18, 2), (Names{"", "out"}));
  // Not kernels, not there, or another parameter count: nothing.
  EXPECT_EQ(source_parameter_names(kSource, "helper", 10, 2), Names{});
  EXPECT_EQ(source_parameter_names(kSource, "absent", 0, 1), Names{});
  EXPECT_EQ(source_parameter_names(kSource, "reduce", 6, 4), Names{});
}

// parse_file reads the .cu that the PTX's .file names, beside the PTX.
TEST(SourceNames, ParseFileNamesTheParameters) {
  auto m = parse_file(std::string(WARPSCOPE_TEST_DATA) + "/ptx/transpose.ptx");
  ASSERT_TRUE(m) << m.error().render();
  const Function& f = m->functions[static_cast<std::size_t>(m->find_function("transpose_tiled"))];
  ASSERT_EQ(f.params.size(), 3u);
  EXPECT_EQ(m->variables[static_cast<std::size_t>(f.params[0])].source_name, "out");
  EXPECT_EQ(m->variables[static_cast<std::size_t>(f.params[2])].source_name, "n");
  EXPECT_EQ(m->variables[static_cast<std::size_t>(f.params[0])].name, "transpose_tiled_param_0");
  // parse() alone reads no file.
  auto text = parse(".version 8.0\n.target sm_90\n.file 1 \"transpose.cu\"\n.visible .entry k(.param .u64 p)\n{\n"
                    ".loc 1 5 1\nret;\n}\n",
                    "k.ptx");
  ASSERT_TRUE(text);
  EXPECT_EQ(text->variables[0].source_name, "");
}

}  // namespace
}  // namespace warpscope::ptx
