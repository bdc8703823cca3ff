// access_json_test.cc: the wire format's reader accepts what the issue specifies and
// rejects everything else with a message, never an exception.
#include "jsonio/access_json.h"

#include <gtest/gtest.h>

#include <string>

namespace warpscope::jsonio {
namespace {

std::string offsets_json(int stride, int count = 32) {
  std::string s = "[";
  for (int i = 0; i < count; ++i) s += (i ? "," : "") + std::to_string(i * stride);
  return s + "]";
}

TEST(AccessJson, ReadsHexStringAndIntegerMasks) {
  auto a = parse_access(R"({"op":"lds","width":4,"mask":"0x0000ffff","offsets":)" + offsets_json(4) + "}");
  ASSERT_TRUE(a.ok()) << a.error().message;
  EXPECT_EQ(a->mask, 0xffffu);
  EXPECT_EQ(a->address[31], 124u);
  auto b = parse_access(R"({"op":"sts","width":8,"mask":255,"offsets":)" + offsets_json(8) + "}");
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b->mask, 255u);
  EXPECT_EQ(b->op, model::MemOp::SharedStore);
}

TEST(AccessJson, MaskDefaultsToTheFullWarp) {
  auto a = parse_access(R"({"op":"ldg","width":4,"offsets":)" + offsets_json(4) + "}");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->mask, 0xffffffffu);
}

TEST(AccessJson, RejectsBadInputWithAMessage) {
  const std::string ok_offsets = offsets_json(4);
  const std::pair<std::string, std::string> cases[] = {
      {"not json", "not valid JSON"},
      {"[1,2]", "expected a JSON object"},
      {R"({"width":4,"offsets":)" + ok_offsets + "}", "missing string field 'op'"},
      {R"({"op":"ldx","width":4,"offsets":)" + ok_offsets + "}", "unknown op 'ldx'"},
      {R"({"op":"lds","width":3,"offsets":)" + ok_offsets + "}", "unknown access width 3"},
      {R"({"op":"lds","width":"4","offsets":)" + ok_offsets + "}", "missing integer field 'width'"},
      {R"({"op":"lds","width":4,"offsets":)" + offsets_json(4, 31) + "}", "must hold 32 numbers, found 31"},
      {R"({"op":"lds","width":4,"mask":"0x1ffffffff","offsets":)" + ok_offsets + "}", "does not fit in 32 bits"},
      {R"({"op":"lds","width":4,"mask":"zz","offsets":)" + ok_offsets + "}", "not a number"},
      {R"({"op":"lds","width":4,"mask":-1,"offsets":)" + ok_offsets + "}", "must not be negative"},
      {R"({"op":"lds","width":8,"offsets":)" + ok_offsets + "}", "lane 1: address 4 is not aligned to 8 bytes"},
      {R"({"op":"ldsm","width":3,"offsets":)" + offsets_json(16) + "}", "1, 2 or 4 matrices"},
      {R"({"op":"atoms","width":16,"offsets":)" + offsets_json(16) + "}", "4- and 8-byte operands only"},
      {R"({"op":"atoms_agg","width":16,"offsets":)" + offsets_json(16) + "}", "4- or 8-byte operands, not 16"},
      {R"({"op":"lds","width":4,"offsets":[-4)" + ok_offsets.substr(2) + "}", "offsets[0] must be a non-negative integer"},
  };
  for (const auto& [input, expected] : cases) {
    auto a = parse_access(input);
    ASSERT_FALSE(a.ok()) << input;
    EXPECT_NE(a.error().message.find(expected), std::string::npos) << a.error().message << " for " << input;
  }
}

TEST(AccessJson, WritesMetricsKeyedByNcuName) {
  auto a = parse_access(R"({"op":"lds","width":4,"offsets":)" + offsets_json(128) + "}");
  ASSERT_TRUE(a.ok());
  const auto cost = model::price(**model::find_arch("sm_90"), *a);
  ASSERT_TRUE(cost.ok());
  const auto out = cost_to_json(*a, *cost);
  EXPECT_EQ(out["metrics"]["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld"], 32);
  EXPECT_EQ(out["metrics"]["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld"], 31);
  EXPECT_EQ(out["worst_bank"], 0);
  EXPECT_EQ(out["conflict_degree"], 32);
  EXPECT_EQ(out["worst_bank_lanes"].size(), 32u);
}

}  // namespace
}  // namespace warpscope::jsonio
