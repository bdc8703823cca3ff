// sarif_writer_test.cc: the SARIF 2.1.0 log's required structure and its figures.
#include "report/sarif_writer.h"

#include <gtest/gtest.h>

#include "report/test_report.h"

namespace warpscope::report {
namespace {

// The properties SARIF 2.1.0 requires of each object we write (sarif-schema-2.1.0.json).
void expect_valid_sarif(const nlohmann::json& log) {
  ASSERT_TRUE(log.is_object());
  EXPECT_EQ(log.at("version"), "2.1.0");
  EXPECT_EQ(log.at("$schema"), kSarifSchema);
  ASSERT_TRUE(log.at("runs").is_array());
  for (const auto& run : log.at("runs")) {
    const auto& driver = run.at("tool").at("driver");
    EXPECT_TRUE(driver.at("name").is_string());
    for (const auto& rule : driver.at("rules")) {
      EXPECT_TRUE(rule.at("id").is_string());
      EXPECT_TRUE(rule.at("shortDescription").at("text").is_string());
    }
    ASSERT_TRUE(run.at("results").is_array());
    for (const auto& result : run.at("results")) {
      EXPECT_TRUE(result.at("message").at("text").is_string());
      const auto& rule = driver.at("rules").at(result.at("ruleIndex").get<std::size_t>());
      EXPECT_EQ(rule.at("id"), result.at("ruleId"));
      EXPECT_TRUE(result.at("level") == "warning" || result.at("level") == "error" || result.at("level") == "note");
      for (const auto& location : result.at("locations")) {
        const auto& physical = location.at("physicalLocation");
        EXPECT_TRUE(physical.at("artifactLocation").at("uri").is_string());
        EXPECT_GE(physical.at("region").at("startLine").get<int>(), 1);
        if (physical.at("region").contains("startColumn"))
          EXPECT_GE(physical.at("region").at("startColumn").get<int>(), 1);
      }
    }
  }
}

TEST(SarifWriter, IsAValidLogWithOneResultPerFinding) {
  const nlohmann::json log = kernel_sarif(testing::sample_report());
  expect_valid_sarif(log);
  const auto& run = log["runs"][0];
  EXPECT_EQ(run["tool"]["driver"]["name"], "warpscope");
  EXPECT_EQ(run["tool"]["driver"]["rules"][0]["id"], "shared-bank-conflict");
  EXPECT_EQ(run["tool"]["driver"]["rules"][1]["id"], "uncoalesced-global");
  ASSERT_EQ(run["results"].size(), 2u);
  const auto& conflict = run["results"][1];
  EXPECT_EQ(conflict["ruleId"], "shared-bank-conflict");
  EXPECT_EQ(conflict["level"], "warning");
  EXPECT_EQ(conflict["message"]["text"], "32-way shared-memory bank conflict loading 'tile' (262144 wavefronts, ideal 8192)");
  const auto& where = conflict["locations"][0]["physicalLocation"];
  EXPECT_EQ(where["artifactLocation"]["uri"], "transpose_tiled.cu");
  EXPECT_EQ(where["region"]["startLine"], 27);
  EXPECT_EQ(where["region"]["startColumn"], 5);
  EXPECT_EQ(conflict["properties"]["wavefronts"], 262144);
  EXPECT_EQ(conflict["properties"]["idealWavefronts"], 8192);
  EXPECT_EQ(conflict["properties"]["excessWavefronts"], 253952);
  EXPECT_EQ(conflict["properties"]["conflictDegree"], 32);
  EXPECT_EQ(conflict["properties"]["array"], "tile");
  const auto& strided = run["results"][0];
  EXPECT_EQ(strided["ruleId"], "uncoalesced-global");
  EXPECT_EQ(strided["ruleIndex"], 1);
  EXPECT_EQ(strided["properties"]["sectors"], 49152);
  EXPECT_EQ(strided["properties"]["idealSectors"], 16384);
  EXPECT_EQ(strided["properties"]["cause"], "stride");
  EXPECT_DOUBLE_EQ(strided["properties"]["sectorEfficiency"].get<double>(), 16384.0 / 49152.0);
  EXPECT_EQ(run["properties"]["kernel"], "transpose_tiled_f32");
}

TEST(SarifWriter, ACleanKernelHasNoResults) {
  auto r = testing::sample_report();
  r.lines.erase(r.lines.begin(), r.lines.begin() + 2);
  const nlohmann::json log = kernel_sarif(r);
  expect_valid_sarif(log);
  EXPECT_TRUE(log["runs"][0]["results"].empty());
}

TEST(SarifWriter, ArtifactUris) {
  EXPECT_EQ(artifact_uri("kernels/transpose.cu"), "kernels/transpose.cu");
  EXPECT_EQ(artifact_uri("/home/me/my kernels/t.cu"), "file:///home/me/my%20kernels/t.cu");
}

}  // namespace
}  // namespace warpscope::report
