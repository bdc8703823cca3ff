// progress_bar_test.cc: the progress line's figures and layout, and when the bar draws.
#include "cli/progress_bar.h"

#include <gtest/gtest.h>

#include <sstream>

namespace warpscope::cli {
namespace {

TEST(ProgressBar, FormatsDurations) {
  EXPECT_EQ(format_duration(0), "0:00");
  EXPECT_EQ(format_duration(7.4), "0:07");
  EXPECT_EQ(format_duration(754), "12:34");
  EXPECT_EQ(format_duration(3723), "1:02:03");
  EXPECT_EQ(format_duration(-3), "0:00");
}

TEST(ProgressBar, LineHasBarCountsRateAndEta) {
  // A quarter done in 2 s: 256 blocks/s, 1536 blocks left -> 6 s.
  const std::string line = progress_line(512, 2048, 2.0, 80);
  EXPECT_EQ(line, "[#######-----------------------]   512/2048 blocks   25%  256 blocks/s  ETA 0:06");
  EXPECT_EQ(line.size(), 80u);
}

TEST(ProgressBar, BarWidthFollowsTheTerminal) {
  EXPECT_EQ(progress_line(1, 2, 1.0, 120).find(']'), 51u);  // at most 50 columns of bar
  // Counts are padded to the total's width: the bar keeps its width as the count grows.
  EXPECT_NE(progress_line(7, 16384, 1.0, 90).find("]      7/16384 blocks    0%  "), std::string::npos);
  EXPECT_EQ(progress_line(1, 2, 1.0, 30).find(']'), 11u);   // at least 10
  EXPECT_EQ(progress_line(1, 2, 1.0, 30).size(), 30u);      // cut to the terminal, never wrapped
  EXPECT_EQ(progress_line(65536, 65536, 7.0, 100),
            "[###############################################]  65536/65536 blocks  100%  9.4k blocks/s  ETA 0:00");
}

TEST(ProgressBar, NoRateBeforeTheFirstBlock) {
  EXPECT_EQ(progress_line(0, 100, 0.0, 70), "[-----------------------]    0/100 blocks    0%  - blocks/s  ETA --:--");
}

TEST(ProgressBar, DrawsInPlaceAndErasesWhenDone) {
  std::ostringstream out;
  {
    ProgressBar bar(out, true, 80, 0.0, 0.0);
    ASSERT_TRUE(bar.hook());
    bar.hook()(1, 4);
    bar.hook()(4, 4);
  }
  const std::string s = out.str();
  EXPECT_EQ(s.rfind("\r\033[K[", 0), 0u);
  EXPECT_NE(s.find("1/4 blocks   25%"), std::string::npos);
  EXPECT_NE(s.find("4/4 blocks  100%"), std::string::npos);
  EXPECT_EQ(s.substr(s.size() - 4), "\r\033[K");  // erased at the end
}

TEST(ProgressBar, QuietWhenDisabledOrShort) {
  std::ostringstream out;
  {
    ProgressBar disabled(out, false);
    EXPECT_FALSE(disabled.hook());
    disabled.update(1, 2);
    ProgressBar short_run(out, true, 80, 60.0);  // a run shorter than the delay draws nothing
    short_run.update(1, 2);
    short_run.update(2, 2);
  }
  EXPECT_EQ(out.str(), "");
}

}  // namespace
}  // namespace warpscope::cli
