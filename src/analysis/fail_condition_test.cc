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

analysis::KernelReport scoped_report() {
  KernelReport r;
  r.kernel = "k";
  r.regions = {{"_ZZ1kE4tile", model::Space::Shared, 0, 4096}, {"arg1", model::Space::Global, 0x700000000, 1 << 20}};
  LineReport conflicted;
  conflicted.file = "examples/transpose_tiled.cu";
  conflicted.line = 27;
  conflicted.metrics = {{kSourceWavefronts, 262144}, {kSourceWavefrontsIdeal, 8192}};
  LineReport clean;
  clean.file = "examples/transpose_tiled.cu";
  clean.line = 22;
  clean.metrics = {{kSourceWavefronts, 8192}, {kSourceWavefrontsIdeal, 8192}, {kSourceSectors, 32768},
                   {kSourceSectorsIdeal, 32768}};
  r.lines = {conflicted, clean};
  r.arrays = {{0, 270336, 16384, 0, 0}, {1, 0, 0, 65536, 32768}};
  r.metrics = {{kSourceWavefronts, 270336}, {kSourceWavefrontsIdeal, 16384}};
  return r;
}

TEST(FailCondition, LineAndArrayScopesLookAtTheirOwnFigures) {
  const KernelReport r = scoped_report();
  auto holds = [&](const char* text) {
    auto c = parse_fail_condition(text);
    EXPECT_TRUE(c) << text << ": " << c.error().message;
    return c ? check_fail_condition(*c, r) : std::optional<std::string>();
  };
  auto line = parse_fail_condition("line transpose_tiled.cu:27 bank-conflicts");
  ASSERT_TRUE(line);
  EXPECT_EQ(line->scope, FailCondition::Scope::Line);
  EXPECT_EQ(line->target, "transpose_tiled.cu");
  EXPECT_EQ(line->line, 27);
  EXPECT_EQ(*holds("line transpose_tiled.cu:27 bank-conflicts"), "253952 shared wavefronts beyond the ideal");
  EXPECT_FALSE(holds("line transpose_tiled.cu:22 bank-conflicts"));
  EXPECT_FALSE(holds("line examples/transpose_tiled.cu:22 sector-efficiency<100%"));
  EXPECT_TRUE(holds("line examples/transpose_tiled.cu:27 excess-wavefronts>253951"));
  EXPECT_FALSE(holds("line examples/transpose_tiled.cu:27 excess-wavefronts>253952"));
  EXPECT_FALSE(holds("line tiled.cu:27 bank-conflicts")->empty());  // not a path component: no such line
  EXPECT_EQ(*holds("line tiled.cu:27 bank-conflicts"), "no memory access of kernel 'k' is on tiled.cu:27");
  EXPECT_EQ(*holds("array tile excess-wavefronts>0"), "253952 excess shared wavefronts, above 0");
  EXPECT_FALSE(holds("array tile excess-sectors>0"));
  EXPECT_TRUE(holds("array arg1 sector-efficiency<60%"));
  EXPECT_EQ(*holds("array tilee bank-conflicts"), "kernel 'k' has no array 'tilee' (it has: tile, arg1)");
  KernelReport named = r;
  named.parameter_names = {"out", "in"};
  auto in = parse_fail_condition("array in excess-sectors>32767");
  EXPECT_TRUE(check_fail_condition(*in, named));
  EXPECT_TRUE(fail_condition_applies(*in, named));
  EXPECT_FALSE(fail_condition_applies(*in, r));
  for (const char* bad : {"line transpose_tiled.cu bank-conflicts", "line :27 bank-conflicts", "array tile",
                          "line k.cu:0 bank-conflicts", "array tile conflicts"})
    EXPECT_FALSE(parse_fail_condition(bad)) << bad;
}

}  // namespace
}  // namespace warpscope::analysis
