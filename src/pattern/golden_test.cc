// golden_test.cc: every patterns/NAME.ws against its patterns/NAME.expected.
//
// The expected file is exactly what `warpscope pattern patterns/NAME.ws` prints (the report,
// or the rendered error). patterns/update_golden.sh regenerates them when output changes on
// purpose; review the diff before committing.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "pattern/test_util.h"
#include "pattern/text_writer.h"

namespace warpscope::pattern {
namespace {

namespace fs = std::filesystem;

std::string read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(Golden, EveryPatternMatchesItsExpectedOutput) {
  const fs::path dir = WARPSCOPE_PATTERNS_DIR;
  int checked = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".ws") continue;
    const std::string name = "patterns/" + entry.path().filename().string();
    fs::path expected_path = entry.path();
    expected_path.replace_extension(".expected");
    ASSERT_TRUE(fs::exists(expected_path)) << name << " has no .expected file: run patterns/update_golden.sh";
    const Source source(name, read(entry.path()));
    auto report = analyze(source, testing::sm90());
    const std::string actual = report ? text_report(*report) : report.error().render() + "\n";
    EXPECT_EQ(actual, read(expected_path)) << name << " differs: run patterns/update_golden.sh and review the diff";
    ++checked;
  }
  EXPECT_GE(checked, 7);
}

}  // namespace
}  // namespace warpscope::pattern
