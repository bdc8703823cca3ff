// kernel_json.cc: the kernel report as data.
#include "report/kernel_json.h"

#include "report/html_bulk.h"
#include "report/address_label.h"

namespace warpscope::report {

namespace {

nlohmann::json lanes_json(const analysis::KernelReport& r, const analysis::InstructionCost& c) {
  nlohmann::json lanes = nlohmann::json::array();
  const model::WarpAccess& a = c.worst_access;
  for (int lane = 0; lane < model::kWarpSize; ++lane) {
    if (!a.active(lane)) continue;
    nlohmann::json l{{"lane", lane}, {"address", a.address[lane]}};
    if (model::space_of(a.op) == model::Space::Shared) {
      l["bank"] = (a.address[lane] / 4) % 32;
    } else {
      l["sector"] = a.address[lane] / 32;
      l["at"] = address_label(r, a.address[lane]);  // "arg1+0x1f40"
    }
    lanes.push_back(std::move(l));
  }
  return lanes;
}

}  // namespace

nlohmann::json kernel_json(const analysis::KernelReport& r) {
  nlohmann::json out;
  out["kernel"] = r.kernel;
  if (!r.kernel_symbol.empty() && r.kernel_symbol != r.kernel) out["kernel_symbol"] = r.kernel_symbol;
  out["ptx"] = r.ptx_file;
  out["grid"] = {r.launch.grid.x, r.launch.grid.y, r.launch.grid.z};
  out["block"] = {r.launch.block.x, r.launch.block.y, r.launch.block.z};
  out["dynamic_shared_bytes"] = r.launch.dynamic_shared_bytes;
  out["priced_from"] = r.priced_from;
  out["merged_vector_groups"] = r.merged_groups;
  if (!r.sass_note.empty()) out["sass_note"] = r.sass_note;
  out["blocks_total"] = r.blocks_total;
  out["blocks_run"] = r.blocks_run;
  out["sampled"] = r.blocks_run < r.blocks_total;
  out["scale"] = r.scale;
  out["failed"] = r.failed();
  nlohmann::json diags = nlohmann::json::array();
  for (const auto& d : r.diagnostics) {
    nlohmann::json j{{"severity", d.severity == emu::Diagnostic::Severity::Error ? "error" : "warning"},
                     {"message", d.message},
                     {"count", d.count}};
    if (d.instruction != nullptr) j["ptx_line"] = d.instruction->ptx_line;
    diags.push_back(std::move(j));
  }
  if (r.failed()) {  // partial figures are not results: only what went wrong
    out["diagnostics"] = std::move(diags);
    return out;
  }
  out["metrics"] = r.metrics;
  out["timing_dependent"] = r.timing_dependent;
  out["timing_dependent_metrics"] = r.timing_dependent_metrics;
  nlohmann::json lines = nlohmann::json::array();
  for (const analysis::LineReport& l : r.lines) {
    nlohmann::json j{{"file", l.file}, {"line", l.line}, {"metrics", l.metrics}};
    if (!l.source.empty()) j["source"] = l.source;
    j["excess_wavefronts"] = l.excess_wavefronts;
    j["excess_sectors"] = l.excess_sectors;
    j["conflict_degree"] = l.conflict_degree;
    j["timing_dependent"] = l.timing_dependent;
    if (!l.also_counted_at.empty()) j["also_counted_at"] = l.also_counted_at;
    nlohmann::json insts = nlohmann::json::array();
    for (const auto& i : l.instructions)
      insts.push_back({{"ptx_line", i.ptx_line},
                       {"instruction", i.text},
                       {"op", std::string(model::op_name(i.cost.op))},
                       {"executions", i.cost.executions},
                       {"wavefronts", i.cost.wavefronts},
                       {"ideal_wavefronts", i.cost.ideal_wavefronts},
                       {"requests", i.cost.requests},
                       {"sectors", i.cost.sectors},
                       {"ideal_sectors", i.cost.ideal_sectors},
                       {"timing_dependent", i.cost.timing_dependent}});
    j["instructions"] = std::move(insts);
    nlohmann::json copies = nlohmann::json::array();
    for (const auto& b : l.bulk_copies) {
      nlohmann::json chunks = nlohmann::json::array();  // the first issue's: [shared, box row, byte column]
      for (const emu::SharedChunk& k : b.cost.footprint) chunks.push_back({k.shared, k.row, k.column});
      copies.push_back({{"ptx_line", b.ptx_line},
                        {"instruction", b.text},
                        {"kind", bulk_kind_name(b.cost)},
                        {"issues", b.cost.issues},
                        {"bytes", b.cost.bytes},
                        {"global_bytes", b.cost.global_bytes},
                        {"global_sectors", b.cost.global_sectors},
                        {"ideal_sectors", b.cost.ideal_sectors},
                        {"swizzle_bytes", b.cost.swizzle_bytes},
                        {"shared_footprint",
                         {{"block", {b.cost.first_block.x, b.cost.first_block.y, b.cost.first_block.z}},
                          {"warp", b.cost.first_warp},
                          {"shared", b.cost.shared},
                          {"row_bytes", b.cost.row_bytes},
                          {"chunks", std::move(chunks)}}}});
    }
    if (!copies.empty()) j["bulk_copies"] = std::move(copies);
    if (l.worst && l.worst->cost.worst_excess > 0) {
      const auto& c = l.worst->cost;
      j["worst_warp"] = {{"instruction", l.worst->text},
                         {"block", {c.worst_block.x, c.worst_block.y, c.worst_block.z}},
                         {"warp", c.worst_warp},
                         {"excess", c.worst_excess},
                         {"lanes", lanes_json(r, c)}};
    }
    lines.push_back(std::move(j));
  }
  out["lines"] = std::move(lines);
  out["diagnostics"] = std::move(diags);
  out["emulation"] = {{"warp_instructions", r.warp_instructions},
                      {"thread_instructions", r.thread_instructions},
                      {"seconds", r.seconds},
                      {"workers", r.workers}};
  return out;
}

}  // namespace warpscope::report
