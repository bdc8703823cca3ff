// writer_test.cc: the JSON schema and the text report's figures for known accesses.
#include <gtest/gtest.h>

#include "pattern/json_writer.h"
#include "pattern/test_util.h"
#include "pattern/text_writer.h"

namespace warpscope::pattern {
namespace {

PatternReport report_of(const std::string& text) {
  auto r = testing::analyze_text(text);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().render());
  return r.ok() ? std::move(*r) : PatternReport{};
}

TEST(JsonWriter, SharedSchema) {
  const auto j = json_report(report_of("block 32 2\nshared float s[1024]\nload s[lane*2]"));
  EXPECT_EQ(j["arch"], "sm_90");
  EXPECT_EQ(j["block"], nlohmann::json({32, 2, 1}));
  ASSERT_EQ(j["statements"].size(), 1u);
  const auto& s = j["statements"][0];
  EXPECT_EQ(s["file"], "test.ws");
  EXPECT_EQ(s["line"], 3);
  EXPECT_EQ(s["column"], 1);
  EXPECT_EQ(s["text"], "load s[lane*2]");
  EXPECT_EQ(s["array"], "s");
  EXPECT_EQ(s["space"], "shared");
  EXPECT_EQ(s["type"], "float");
  EXPECT_EQ(s["op"], "lds");
  EXPECT_EQ(s["width"], 4);
  EXPECT_EQ(s["executions"], 2);
  EXPECT_EQ(s["totals"]["wavefronts"], 4);
  EXPECT_EQ(s["totals"]["bank_conflicts"], 2);
  ASSERT_EQ(s["behaviours"].size(), 1u);
  const auto& b = s["behaviours"][0];
  EXPECT_EQ(b["warps"], 2);
  EXPECT_EQ(b["warp_ids"], nlohmann::json({0, 1}));
  EXPECT_EQ(b["first"]["warp"], 0);
  EXPECT_EQ(b["mask"], "0xffffffff");
  EXPECT_EQ(b["metrics"]["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld"], 2);
  EXPECT_EQ(b["metrics"]["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld"], 1);
  EXPECT_EQ(b["wavefronts"], 2);
  EXPECT_EQ(b["ideal_wavefronts"], 1);
  EXPECT_EQ(b["bank_conflicts"], 1);
  EXPECT_EQ(b["worst_bank"], 0);
  EXPECT_EQ(b["degree"], 2);
  EXPECT_EQ(b["colliding_lanes"], nlohmann::json({0, 16}));
  ASSERT_EQ(b["lanes"].size(), 32u);
  EXPECT_EQ(b["lanes"][17], nlohmann::json({{"lane", 17}, {"active", true}, {"address", 136}, {"word", 34}, {"bank", 2}}));
  ASSERT_EQ(b["banks"].size(), 32u);
  EXPECT_EQ(b["banks"][0], 2);
  EXPECT_EQ(b["banks"][1], 0);
  ASSERT_EQ(b["diagram"].size(), 2u);
  EXPECT_EQ(b["diagram"][1][0], 16);
  EXPECT_EQ(b["diagram"][1][1], -1);
  EXPECT_EQ(b["diagram_groups"], nlohmann::json::parse(R"([{"first_lane":0,"last_lane":31,"first_row":0,"rows":2}])"));
  EXPECT_EQ(b["lanes"][16]["colliding"], true);
}

TEST(JsonWriter, GlobalSchema) {
  const auto j = json_report(report_of("global float a[4096]\nfor k in 0..2\nstore a[lane*2 + k]"));
  const auto& s = j["statements"][0];
  EXPECT_EQ(s["space"], "global");
  EXPECT_EQ(s["op"], "stg");
  EXPECT_EQ(s["loops"], nlohmann::json({"k"}));
  EXPECT_EQ(s["totals"]["sectors"], 16);
  const auto& b = s["behaviours"][0];
  EXPECT_EQ(b["warps"], 2);  // k=1 is k=0 shifted by 4 bytes, with the same cost
  EXPECT_EQ(b["first"]["loops"]["k"], 0);
  EXPECT_EQ(b["metrics"]["l1tex__t_requests_pipe_lsu_mem_global_op_st"], 1);
  EXPECT_EQ(b["metrics"]["l1tex__t_sectors_pipe_lsu_mem_global_op_st"], 8);
  EXPECT_EQ(b["sectors"], 8);
  EXPECT_EQ(b["ideal_sectors"], 4);
  EXPECT_EQ(b["lines"], 2);
  EXPECT_EQ(b["bytes_requested"], 128);
  EXPECT_EQ(b["bytes_moved"], 256);
  EXPECT_DOUBLE_EQ(b["efficiency"].get<double>(), 0.5);
  EXPECT_EQ(b["cause"], "stride");
  EXPECT_EQ(b["lanes"][31], nlohmann::json({{"lane", 31}, {"active", true}, {"address", 248}, {"sector", 7}, {"line", 1}}));
  EXPECT_FALSE(b.contains("diagram"));
}

TEST(JsonWriter, InactiveLanesCarryNoAddress) {
  const auto j = json_report(report_of("shared float s[64]\nmask 0xfffffffe\nload s[lane]"));
  EXPECT_EQ(j["statements"][0]["behaviours"][0]["lanes"][0], nlohmann::json({{"lane", 0}, {"active", false}}));
  EXPECT_EQ(j["statements"][0]["behaviours"][0]["mask"], "0xfffffffe");
}

TEST(TextWriter, Ranges) {
  EXPECT_EQ(ranges_text(0), "none");
  EXPECT_EQ(ranges_text(1), "0");
  EXPECT_EQ(ranges_text(0xffffffffu), "0-31");
  EXPECT_EQ(ranges_text((1u << 0) | (1u << 16)), "0,16");
  EXPECT_EQ(ranges_text(0x8000000fu), "0-3,31");
}

TEST(TextWriter, StrideTwoReport) {
  const std::string text = text_report(report_of("shared float s[1024]\nload s[lane*2]"));
  EXPECT_NE(text.find("test.ws:2: load s[lane*2]\n"), std::string::npos) << text;
  EXPECT_NE(text.find("    wavefronts 2, ideal 1, bank conflicts 1\n"), std::string::npos) << text;
  EXPECT_NE(text.find("    worst bank 0: 2-way conflict, lanes 0,16\n"), std::string::npos) << text;
  EXPECT_NE(text.find("      16      128     32     0  <- worst bank\n"), std::string::npos) << text;
  EXPECT_NE(text.find("      17      136     34     2\n"), std::string::npos) << text;
  EXPECT_NE(text.find("      words   2  0  2  0"), std::string::npos) << text;
  EXPECT_NE(text.find("      wf   2 16  . 17  ."), std::string::npos) << text;
  EXPECT_EQ(text.find("      wf   3"), std::string::npos) << text;
}

TEST(TextWriter, BroadcastAndInactiveLanes) {
  const std::string text = text_report(report_of("shared float s[64]\nload s[0] if lane != 3"));
  EXPECT_NE(text.find("      wf   1 0+  ."), std::string::npos) << text;
  EXPECT_NE(text.find("       3        -      -     -  inactive\n"), std::string::npos) << text;
  EXPECT_NE(text.find("conflict-free: no bank serves more than one distinct word"), std::string::npos) << text;
}

TEST(TextWriter, GlobalFigures) {
  const std::string text = text_report(report_of("global float a[4096]\nload a[lane*2]"));
  EXPECT_NE(text.find("    requests 1, sectors 8 (ideal 4), lines 2\n"), std::string::npos) << text;
  EXPECT_NE(text.find("    bytes requested 128 of 256 moved: efficiency 50.0%, stride\n"), std::string::npos) << text;
  EXPECT_NE(text.find("      31      248       7     1\n"), std::string::npos) << text;
}

TEST(TextWriter, EmptyProgram) { EXPECT_EQ(text_report(report_of("# nothing\n")), "no access statements\n"); }

}  // namespace
}  // namespace warpscope::pattern
