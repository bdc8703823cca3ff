// sass_listing_test.cc: nvdisasm listings of the examples, read back.
#include "sass/sass_listing.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace warpscope::sass {
namespace {

std::string read(const std::string& name) {
  std::ifstream in(std::string(WARPSCOPE_TEST_DATA) + "/sass/" + name);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(SassListing, FindsTheVectorizedLoadsOfTheTiledGemm) {
  auto fs = parse_sass_listing(read("gemm_tiled.sass"));
  ASSERT_TRUE(fs.ok()) << fs.error().message;
  ASSERT_EQ(fs->size(), 1u);
  EXPECT_EQ((*fs)[0].name, "gemm_tiled");
  int lds128 = 0, lds32 = 0;
  for (const auto& op : (*fs)[0].memory_ops) {
    if (op.kind != Kind::SharedLoad) continue;
    EXPECT_EQ(op.file, "gemm_tiled.cu");
    EXPECT_EQ(op.line, 26);
    (op.width == 16 ? lds128 : lds32) += 1;
  }
  EXPECT_EQ(lds128, 8);  // As[ty][k..k+3], four k at a time
  EXPECT_EQ(lds32, 32);  // Bs[k][tx], one k at a time
}

TEST(SassListing, ReadsPredicatedInstructionsAndWidths) {
  auto fs = parse_sass_listing("//--- .text.k ---\n.text.k:\n\t//## File \"a.cu\", line 7\n"
                               "        /*0010*/  @!P1 STS.64 [R5], R12 ;\n"
                               "        /*0020*/  LDG.E.U8 R2, desc[UR4][R2.64] ;\n"
                               "        /*0030*/  ATOMS.POPC.INC.32 RZ, [R4+URZ] ;\n"
                               "        /*0040*/  LDC R1, c[0x0][0x28] ;\n");
  ASSERT_TRUE(fs.ok());
  const auto& ops = (*fs)[0].memory_ops;
  ASSERT_EQ(ops.size(), 3u);
  EXPECT_EQ(ops[0].kind, Kind::SharedStore);
  EXPECT_EQ(ops[0].width, 8);
  EXPECT_EQ(ops[0].line, 7);
  EXPECT_EQ(ops[1].kind, Kind::GlobalLoad);
  EXPECT_EQ(ops[1].width, 1);
  EXPECT_EQ(ops[2].kind, Kind::Other);
}

TEST(SassListing, NoFunctionIsAnError) {
  EXPECT_FALSE(parse_sass_listing("garbage\n").ok());
}

}  // namespace
}  // namespace warpscope::sass
