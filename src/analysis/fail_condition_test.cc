// fail_condition_test.cc: parsing `--fail-on` conditions, and when they hold.
#include "analysis/fail_condition.h"

#include <gtest/gtest.h>

namespace warpscope::analysis {
namespace {

using Kind = FailCondition::Kind;

TEST(FailCondition, ParsesEachForm) {
  struct Case {
    const char* text;
    Kind kind;
    double threshold;
  } cases[] = {
      {"bank-conflicts", Kind::BankConflicts, 0},
      {" bank-conflicts ", Kind::BankConflicts, 0},
      {"sector-efficiency<0.8", Kind::SectorEfficiencyBelow, 0.8},
      {"sector-efficiency<80%", Kind::SectorEfficiencyBelow, 0.8},
      {"sector-efficiency < 1", Kind::SectorEfficiencyBelow, 1.0},
      {"sector-efficiency<0%", Kind::SectorEfficiencyBelow, 0.0},
      {"excess-wavefronts>0", Kind::ExcessWavefrontsAbove, 0},
      {"excess-wavefronts>1000", Kind::ExcessWavefrontsAbove, 1000},
      {"excess-sectors>4096", Kind::ExcessSectorsAbove, 4096},
  };
  for (const auto& c : cases) {
    auto parsed = parse_fail_condition(c.text);
    ASSERT_TRUE(parsed) << c.text << ": " << parsed.error().message;
    EXPECT_EQ(parsed->kind, c.kind) << c.text;
    EXPECT_DOUBLE_EQ(parsed->threshold, c.threshold) << c.text;
  }
}

TEST(FailCondition, BadSyntaxIsAClearMessage) {
  struct Case {
    const char* text;
    const char* expected;
  } cases[] = {
      {"", "expected bank-conflicts, sector-efficiency<X"},
      {"bank-conflict", "expected bank-conflicts"},
      {"occupancy<0.5", "expected bank-conflicts"},
      {"sector-efficiency>0.5", "sector-efficiency takes '<'"},
      {"sector-efficiency<", "'' is not a number"},
      {"sector-efficiency<fast", "'fast' is not a number"},
      {"sector-efficiency<80", "an efficiency is 0 to 1 (or write a percentage, like 80%)"},
      {"sector-efficiency<120%", "a percentage is 0% to 100%"},
      {"excess-wavefronts<10", "excess-wavefronts takes '>'"},
      {"excess-sectors>-1", "'-1' is not a count"},
      {"excess-sectors>1.5", "'1.5' is not a count"},
  };
  for (const auto& c : cases) {
    auto parsed = parse_fail_condition(c.text);
    ASSERT_FALSE(parsed) << c.text;
    EXPECT_NE(parsed.error().message.find(c.expected), std::string::npos) << parsed.error().message;
    EXPECT_EQ(parsed.error().message.rfind(std::string("--fail-on '") + c.text + "'", 0), 0u) << parsed.error().message;
  }
}

KernelReport report_with(long long wavefronts, long long ideal_wavefronts, long long sectors, long long ideal_sectors) {
  KernelReport r;
  r.metrics[kSourceWavefronts] = wavefronts;
  r.metrics[kSourceWavefrontsIdeal] = ideal_wavefronts;
  r.metrics[kSourceSectors] = sectors;
  r.metrics[kSourceSectorsIdeal] = ideal_sectors;
  return r;
}

std::optional<std::string> check(const char* text, const KernelReport& r) {
  auto c = parse_fail_condition(text);
  EXPECT_TRUE(c) << text;
  return check_fail_condition(*c, r);
}

TEST(FailCondition, HoldsOnTheKernelTotals) {
  const KernelReport conflicted = report_with(262144, 8192, 49152, 16384);
  const KernelReport clean = report_with(8192, 8192, 16384, 16384);
  EXPECT_EQ(check("bank-conflicts", conflicted), "253952 shared wavefronts beyond the ideal");
  EXPECT_FALSE(check("bank-conflicts", clean));
  EXPECT_EQ(check("sector-efficiency<80%", conflicted),
            "global sector efficiency 33.3% (49152 sectors, ideal 16384), below 80%");
  EXPECT_FALSE(check("sector-efficiency<0.33", conflicted));
  EXPECT_FALSE(check("sector-efficiency<1", clean));  // 100% is not below 100%
  EXPECT_EQ(check("excess-wavefronts>253951", conflicted), "253952 excess shared wavefronts, above 253951");
  EXPECT_FALSE(check("excess-wavefronts>253952", conflicted));
  EXPECT_EQ(check("excess-sectors>0", conflicted), "32768 excess global sectors, above 0");
  EXPECT_FALSE(check("excess-sectors>0", clean));
}

TEST(FailCondition, NoGlobalAccessesNeverTripsEfficiency) {
  EXPECT_FALSE(check("sector-efficiency<100%", report_with(32, 1, 0, 0)));
}

}  // namespace
}  // namespace warpscope::analysis
