// diagnostics_writer_test.cc: compiler-style lines, positions and carets.
#include "report/diagnostics_writer.h"

#include <gtest/gtest.h>

#include "report/test_report.h"

namespace warpscope::report {
namespace {

TEST(DiagnosticsWriter, CompilerStyleLinesWithSourceAndCaret) {
  EXPECT_EQ(diagnostics_text(testing::sample_report()),
            "aos_soa.cu:17:5: warning: uncoalesced global load: 49152 sectors, ideal 16384 (33% efficiency, stride)\n"
            "transpose_tiled.cu:27:5: warning: 32-way shared-memory bank conflict loading 'tile' (262144 wavefronts, "
            "ideal 8192)\n"
            "    out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];\n"
            "    ^\n");
}

TEST(DiagnosticsWriter, NoColumnNoCaret) {
  auto r = testing::sample_report();
  r.lines[0].column = 0;
  const std::string s = diagnostics_text(r);
  EXPECT_NE(s.find("transpose_tiled.cu:27: warning: 32-way"), std::string::npos) << s;
  EXPECT_EQ(s.find('^'), std::string::npos) << s;
}

TEST(DiagnosticsWriter, TabsKeptUnderTheCaret) {
  auto r = testing::sample_report();
  r.lines[0].source = "\t\tx = tile[i];";
  r.lines[0].column = 7;
  const std::string s = diagnostics_text(r);
  EXPECT_NE(s.find("\t\tx = tile[i];\n\t\t    ^\n"), std::string::npos) << s;
}

TEST(DiagnosticsWriter, ACleanKernelSaysNothing) {
  auto r = testing::sample_report();
  r.lines.erase(r.lines.begin(), r.lines.begin() + 2);
  EXPECT_EQ(diagnostics_text(r), "");
}

}  // namespace
}  // namespace warpscope::report
