// calibration_check_test.cc: agreements and disagreements are counted and named.
#include "jsonio/calibration_check.h"

#include <gtest/gtest.h>

#include <string>

namespace warpscope::jsonio {
namespace {

std::string row(int stride, long long wavefronts, long long conflicts) {
  std::string offsets;
  for (int i = 0; i < 32; ++i) offsets += (i ? "," : "") + std::to_string(i * stride * 4);
  return R"({"op":"lds","width":4,"mask":"0xffffffff","name":"s)" + std::to_string(stride) + R"(","offsets":[)" +
         offsets + R"(],"metrics":{"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld":)" + std::to_string(wavefronts) +
         R"(,"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld":)" + std::to_string(conflicts) + "}}";
}

TEST(CalibrationCheck, CountsAgreementAndNamesDisagreement) {
  const auto& arch = **model::find_arch("sm_90");
  const auto c = check_calibration(row(1, 1, 0) + "\n" + row(2, 3, 2) + "\nnot json\n", arch);
  EXPECT_EQ(c.rows, 2);
  EXPECT_EQ(c.agreeing_rows, 1);
  EXPECT_EQ(c.compared, 4);
  ASSERT_EQ(c.disagreements.size(), 2u);
  EXPECT_EQ(c.disagreements[0].row, 2);
  EXPECT_EQ(c.disagreements[0].pattern, "lds width 4 's2' mask 0xffffffff");
  EXPECT_EQ(c.disagreements[0].predicted, 2);
  EXPECT_EQ(c.disagreements[0].measured, 3);
  ASSERT_EQ(c.unreadable.size(), 1u);
  EXPECT_EQ(c.unreadable[0], "row 3: not valid JSON");
}

}  // namespace
}  // namespace warpscope::jsonio
