// sarif_writer.h: `warpscope kernel --sarif FILE`: the flagged lines as a SARIF 2.1.0 log,
// for code-scanning dashboards. One run, two rules, one result per finding (findings.h):
//
//   {"$schema": ".../sarif-2.1.0.json", "version": "2.1.0", "runs": [{
//     "tool": {"driver": {"name": "warpscope", "rules": [{"id": "shared-bank-conflict", ...},
//                                                       {"id": "uncoalesced-global", ...}]}},
//     "results": [{"ruleId": "shared-bank-conflict", "ruleIndex": 0, "level": "warning",
//                  "message": {"text": "32-way shared-memory bank conflict loading 'tile' (...)"},
//                  "locations": [{"physicalLocation": {"artifactLocation": {"uri": "transpose_tiled.cu"},
//                                                      "region": {"startLine": 27, "startColumn": 5}}}],
//                  "properties": {"wavefronts": 262144, "idealWavefronts": 8192, ...}}],
//     "properties": {"kernel": ..., "grid": [...], "block": [...], ...}}]}
#pragma once

#include <nlohmann/json.hpp>

#include "analysis/kernel_report.h"

namespace warpscope::report {

inline constexpr const char* kSarifSchema = "https://json.schemastore.org/sarif-2.1.0.json";

nlohmann::json kernel_sarif(const analysis::KernelReport& report);

// A file path as a SARIF artifact URI: relative paths stay relative (to the source root),
// absolute ones become file:// URIs; characters outside RFC 3986's unreserved set and '/'
// are percent-encoded.
std::string artifact_uri(const std::string& path);

}  // namespace warpscope::report
