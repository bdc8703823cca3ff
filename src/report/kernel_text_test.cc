// kernel_text_test.cc: the text report: buffers + offsets, long paths, inlined toolkit code,
// failed runs, and the next command.
#include <gtest/gtest.h>

#include <sstream>

#include "report/address_label.h"
#include "report/findings.h"
#include "report/kernel_text.h"
#include "report/test_report.h"

namespace warpscope::report {
namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream s(text);
  for (std::string l; std::getline(s, l);) out.push_back(l);
  return out;
}

TEST(AddressLabel, GlobalAddressesAreBufferPlusOffset) {
  analysis::KernelReport r = testing::sample_report();
  r.regions.push_back({"arg1", model::Space::Global, 0x700000000, 4096});
  r.regions.push_back({"arg2.0", model::Space::Global, 0x700200000, 64});
  EXPECT_EQ(address_label(r, 0x10000 + 0x1f40), "in+0x1f40");
  EXPECT_EQ(address_label(r, 0x700000000 + 0x10), "arg1+0x10");
  EXPECT_EQ(address_label(r, 0x7fff0000), "0x7fff0000");  // in no buffer
  r.parameter_names = {"out", "in_data", "params"};
  EXPECT_EQ(address_label(r, 0x700000000 + 0x10), "in_data+0x10");
  EXPECT_EQ(address_label(r, 0x700200000 + 8), "params.0+0x8");
  EXPECT_EQ(buffer_display_name(r, "arg17"), "arg17");  // no name known
  EXPECT_EQ(buffer_display_name(r, "argument"), "argument");
}

TEST(KernelText, TheWorstGlobalWarpIsListedByBufferAndOffset) {
  analysis::KernelReport r = testing::sample_report();
  r.regions.push_back({"arg0", model::Space::Global, 0x700000000, 1 << 20});
  auto& load = r.lines[1].instructions[0].cost;
  load.worst_access.op = model::MemOp::GlobalLoad;
  load.worst_access.width = 4;
  for (int l = 0; l < 32; ++l) load.worst_access.address[static_cast<std::size_t>(l)] = 0x700000000 + 0x1f40 + 12 * l;
  r.lines[1].worst = r.lines[1].instructions[0];
  const std::string text = kernel_text(r);
  EXPECT_NE(text.find("         0  arg0+0x1f40  arg0+0x1f40\n         1  arg0+0x1f4c  arg0+0x1f40\n"
                      "         2  arg0+0x1f58  arg0+0x1f40\n         3  arg0+0x1f64  arg0+0x1f60\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("300647"), std::string::npos);  // no raw address (0x700001f40 = 30064779072)
  r.parameter_names = {"points"};
  EXPECT_NE(kernel_text(r).find("         1  points+0x1f4c  points+0x1f40\n"), std::string::npos);
}

TEST(KernelText, LongPathsKeepTheTableAligned) {
  analysis::KernelReport r = testing::sample_report();
  r.lines[1].file = "/home/someone/projects/a/very/long/path/to/the/kernels/aos_soa.cu";
  const auto lines = lines_of(kernel_text(r));
  std::vector<std::size_t> ends;  // where the global ld column ends, on the header and every row
  bool in_table = false;
  for (const std::string& l : lines) {
    if (l.rfind("  line ", 0) == 0) {
      in_table = true;
      ends.push_back(l.find("global ld") + 9);
      continue;
    }
    if (!in_table) continue;
    if (l.empty()) break;
    const std::size_t ld = l.find("49152/16384") != std::string::npos ? l.find("49152/16384") + 11
                           : l.find("32768/32768") != std::string::npos && l.find("transpose_tiled.cu:22") == 2
                               ? l.find("32768/32768") + 11
                               : std::string::npos;
    if (ld != std::string::npos) ends.push_back(ld);
  }
  ASSERT_EQ(ends.size(), 3u);
  EXPECT_EQ(ends[0], ends[1]);
  EXPECT_EQ(ends[0], ends[2]);
}

TEST(KernelText, AToolkitLineSaysWhereItIsCountedAndFindingsAreAtTheCallSite) {
  analysis::KernelReport r = testing::sample_report();
  analysis::LineReport header = r.lines[0];
  header.file = "/usr/local/cuda/bin/../targets/x86_64-linux/include/device_atomic_functions.hpp";
  header.line = 112;
  header.also_counted_at = {"transpose_tiled.cu:27"};
  r.lines.insert(r.lines.begin(), header);
  const std::string text = kernel_text(r);
  EXPECT_NE(text.find("  device_atomic_functions.hpp:112 "), std::string::npos) << text;
  EXPECT_NE(text.find("(inlined: also counted at transpose_tiled.cu:27)"), std::string::npos) << text;
  EXPECT_EQ(text.find("device_atomic_functions.hpp:112: "), std::string::npos) << "its listing is at the call site";
  for (const Finding& f : find_flagged_lines(r)) EXPECT_EQ(f.file.find("device_atomic"), std::string::npos) << f.file;
  EXPECT_EQ(find_flagged_lines(r).size(), 2u);
}

TEST(KernelText, AFailedRunPrintsNoFigures) {
  analysis::KernelReport r = testing::sample_report();
  emu::Diagnostic d;
  d.severity = emu::Diagnostic::Severity::Error;
  d.message = "out-of-bounds shared store of 4 bytes at offset 0x0 by block (0,0,0) thread (0,0,0) at r.cu:12:3";
  ptx::Instruction inst;
  inst.ptx_line = 46;
  d.instruction = &inst;
  r.diagnostics.push_back(d);
  const std::string text = kernel_text(r, {false, "warpscope fix k.ptx"});
  EXPECT_NE(text.find("The emulation stopped with an error, so no figures are reported"), std::string::npos);
  EXPECT_EQ(text.find("Kernel totals"), std::string::npos) << text;
  EXPECT_EQ(text.find("262144"), std::string::npos) << text;
  EXPECT_EQ(text.find("warpscope fix"), std::string::npos) << text;
  EXPECT_NE(text.find("  error: out-of-bounds shared store of 4 bytes at offset 0x0 by block (0,0,0) thread (0,0,0) at "
                      "r.cu:12:3\n"),
            std::string::npos);
  EXPECT_NE(kernel_text(r, {true, ""}).find("at r.cu:12:3 [PTX line 46]\n"), std::string::npos);
}

TEST(KernelText, AFlaggedLineEndsTheReportWithTheFixCommand) {
  analysis::KernelReport r = testing::sample_report();
  const std::string command = "warpscope fix transpose_tiled.ptx --kernel transpose_tiled_f32 --grid 16,16";
  const std::string text = kernel_text(r, {false, command});
  EXPECT_EQ(text.substr(text.size() - command.size() - 1), command + "\n");
  r.lines.erase(r.lines.begin(), r.lines.begin() + 2);  // only the clean line: nothing to fix
  EXPECT_EQ(kernel_text(r, {false, command}).find("warpscope fix"), std::string::npos);
}

}  // namespace
}  // namespace warpscope::report
