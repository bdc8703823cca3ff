// sarif_writer.cc: findings as a SARIF 2.1.0 log.
#include "report/sarif_writer.h"

#include <fmt/format.h>

#include <cctype>

#include "report/findings.h"

namespace warpscope::report {

namespace {

nlohmann::json rule(const char* id, const char* name, const char* short_text, const char* full_text) {
  return {{"id", id},
          {"name", name},
          {"shortDescription", {{"text", short_text}}},
          {"fullDescription", {{"text", full_text}}},
          {"defaultConfiguration", {{"level", "warning"}}}};
}

nlohmann::json rules() {
  return nlohmann::json::array(
      {rule(kRuleBankConflict, "SharedMemoryBankConflict", "Shared-memory bank conflict",
            "A warp's shared-memory accesses fall in the same bank at different addresses, so the access takes "
            "more wavefronts than its width needs (ncu: l1tex__data_bank_conflicts_pipe_lsu_mem_shared)."),
       rule(kRuleUncoalesced, "UncoalescedGlobalAccess", "Uncoalesced global-memory access",
            "A warp's global-memory accesses touch more 32-byte sectors than the bytes it asks for need "
            "(ncu: L2 Theoretical Sectors Global against its ideal).")});
}

nlohmann::json result(const Finding& f) {
  nlohmann::json region{{"startLine", f.line}};
  if (f.column > 0) region["startColumn"] = f.column;
  if (!f.source.empty()) region["snippet"] = {{"text", f.source}};
  nlohmann::json properties{{"operation", f.operation}};
  if (!f.array.empty()) properties["array"] = f.array;
  if (f.kind == Finding::Kind::SharedBankConflict) {
    properties["conflictDegree"] = f.conflict_degree;
    properties["wavefronts"] = f.wavefronts;
    properties["idealWavefronts"] = f.ideal_wavefronts;
    properties["excessWavefronts"] = f.wavefronts - f.ideal_wavefronts;
  } else {
    properties["sectors"] = f.sectors;
    properties["idealSectors"] = f.ideal_sectors;
    properties["excessSectors"] = f.sectors - f.ideal_sectors;
    properties["sectorEfficiency"] = f.sector_efficiency();
    if (!f.cause.empty()) properties["cause"] = f.cause;
  }
  return {{"ruleId", f.rule()},
          {"ruleIndex", f.kind == Finding::Kind::SharedBankConflict ? 0 : 1},
          {"level", "warning"},
          {"message", {{"text", finding_message(f)}}},
          {"locations",
           nlohmann::json::array(
               {{{"physicalLocation", {{"artifactLocation", {{"uri", artifact_uri(f.file)}}}, {"region", region}}}}})},
          {"properties", properties}};
}

}  // namespace

std::string artifact_uri(const std::string& path) {
  std::string s = path.rfind('/', 0) == 0 ? "file://" : "";
  for (unsigned char c : path) {
    if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~' || c == '/') s += static_cast<char>(c);
    else s += fmt::format("%{:02X}", c);
  }
  return s;
}

nlohmann::json kernel_sarif(const analysis::KernelReport& r) {
  nlohmann::json results = nlohmann::json::array();
  for (const Finding& f : find_flagged_lines(r)) results.push_back(result(f));
  nlohmann::json run{{"tool", {{"driver", {{"name", "warpscope"}, {"rules", rules()}}}}},
                     {"results", std::move(results)},
                     {"properties",
                      {{"kernel", r.kernel},
                       {"kernel_symbol", r.kernel_symbol.empty() ? r.kernel : r.kernel_symbol},
                       {"ptx", r.ptx_file},
                       {"grid", {r.launch.grid.x, r.launch.grid.y, r.launch.grid.z}},
                       {"block", {r.launch.block.x, r.launch.block.y, r.launch.block.z}},
                       {"blocksRun", r.blocks_run},
                       {"blocksTotal", r.blocks_total},
                       {"pricedFrom", r.priced_from}}}};
  return {{"$schema", kSarifSchema}, {"version", "2.1.0"}, {"runs", nlohmann::json::array({std::move(run)})}};
}

}  // namespace warpscope::report
