// source_position_test.cc: user positions: toolkit headers give way to the user's call site.
#include <gtest/gtest.h>

#include "ptx/source_position.h"

namespace warpscope::ptx {
namespace {

constexpr const char* kAtomics = "/usr/local/cuda/bin/../targets/x86_64-linux/include/device_atomic_functions.hpp";

Module module_with_files() {
  Module m;
  m.path = "hist.ptx";
  m.files = {{1, "hist.cu"}, {2, kAtomics}, {3, "/usr/local/cuda-13.0/include/cccl/cub/warp/warp_scan.cuh"}};
  return m;
}

TEST(SourcePosition, ToolkitHeadersAreKnownByTheirPaths) {
  EXPECT_TRUE(is_toolkit_header(kAtomics));
  EXPECT_TRUE(is_toolkit_header("/usr/local/cuda-13.0/include/cccl/cub/warp/warp_scan.cuh"));
  EXPECT_TRUE(is_toolkit_header("/usr/local/cuda/include/sm_32_intrinsics.hpp"));
  EXPECT_TRUE(is_toolkit_header("/opt/cuda-12.4/include/cooperative_groups.h"));
  EXPECT_TRUE(is_toolkit_header("/usr/include/c++/12/cmath"));
  EXPECT_FALSE(is_toolkit_header("hist.cu"));
  EXPECT_FALSE(is_toolkit_header("/home/me/cuda/include_helpers/my.cuh"));
  EXPECT_FALSE(is_toolkit_header("/home/me/cudafun/include/my.cuh"));
  EXPECT_FALSE(is_toolkit_header("/tmp/pub/NVIDIA+cuda-samples/Common/helper_math.h"));
  EXPECT_EQ(display_file(kAtomics), "device_atomic_functions.hpp");
  EXPECT_EQ(display_file("/usr/local/cuda/bin/../targets/x86_64-linux/include/cooperative_groups/details/reduce.h"),
            "cooperative_groups/details/reduce.h");
  EXPECT_EQ(display_file("/home/me/k.cu"), "/home/me/k.cu");
}

TEST(SourcePosition, InlinedToolkitCodeIsAtTheInnermostUserCallSite) {
  const Module m = module_with_files();
  Instruction atom;
  atom.ptx_line = 140;
  atom.debug.loc = {2, 112, 10};
  atom.debug.inner = atom.debug.outer = {1, 35, 5};
  EXPECT_EQ(user_loc(m, atom.debug), (SourceLoc{1, 35, 5}));
  EXPECT_EQ(source_position(m, atom), "hist.cu:35:5");
  // A toolkit function called from a user helper inlined into the kernel: the helper's line.
  atom.debug.inner = {1, 12, 3};
  EXPECT_EQ(source_position(m, atom), "hist.cu:12:3");
  // CUB inside CUB inside the user's kernel.
  atom.debug.loc = {3, 400, 1};
  atom.debug.inner = {3, 500, 1};
  EXPECT_EQ(source_position(m, atom), "hist.cu:35:5");
  // The user's own inlined helper keeps its line.
  atom.debug.loc = {1, 8, 7};
  EXPECT_EQ(source_position(m, atom), "hist.cu:8:7");
  // No .loc: the PTX line.
  Instruction bare;
  bare.ptx_line = 77;
  EXPECT_EQ(source_position(m, bare), "hist.ptx:77");
  Module from_cu = m;
  from_cu.path = "hist.cu";
  EXPECT_EQ(source_position(from_cu, bare), "PTX line 77");
}

}  // namespace
}  // namespace warpscope::ptx
