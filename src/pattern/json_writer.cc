// json_writer.cc: the report model as nlohmann::json, field for field.
#include "pattern/json_writer.h"

#include <fmt/format.h>

namespace warpscope::pattern {

namespace {

using nlohmann::json;

json bit_list(std::uint32_t bits) {
  json list = json::array();
  for (int i = 0; i < 32; ++i)
    if (bits >> i & 1u) list.push_back(i);
  return list;
}

json behaviour_json(const StatementReport& s, const Behaviour& b) {
  json j;
  j["warps"] = b.executions;
  j["warp_ids"] = bit_list(b.warps);
  json loops = json::object();
  for (std::size_t i = 0; i < s.loops.size() && i < b.first_iteration.size(); ++i) loops[s.loops[i]] = b.first_iteration[i];
  j["first"] = {{"warp", b.first_warp}, {"loops", loops}};
  j["mask"] = fmt::format("{:#010x}", b.access.mask);
  json metrics = json::object();
  for (const auto& [name, value] : model::ncu_metrics(b.cost)) metrics[name] = value;
  j["metrics"] = metrics;
  json lanes = json::array();
  if (const auto& c = b.cost.shared) {
    j["wavefronts"] = c->wavefronts;
    j["ideal_wavefronts"] = c->ideal_wavefronts;
    j["bank_conflicts"] = c->bank_conflicts();
    j["worst_bank"] = c->worst_bank;
    j["degree"] = c->worst_degree;
    j["colliding_lanes"] = bit_list(c->colliding_lanes);
    for (const LaneView& l : b.lanes) {
      json lane = {{"lane", l.lane}, {"active", l.active}};
      if (l.active) {
        lane["address"] = l.address;
        lane["word"] = l.word;
        if (l.colliding && c->bank_conflicts() > 0) lane["colliding"] = true;
        lane["bank"] = l.bank;
        if (l.banks > 1) lane["banks"] = l.banks;
      }
      lanes.push_back(lane);
    }
    j["banks"] = b.diagram.bank_load;
    json diagram = json::array();
    for (const auto& row : b.diagram.rows) {
      json cells = json::array();
      for (const DiagramCell& cell : row) cells.push_back(cell.lane);
      diagram.push_back(cells);
    }
    j["diagram"] = diagram;
    json groups = json::array();
    for (const BankDiagram::Group& g : b.diagram.groups)
      groups.push_back({{"first_lane", g.first_lane}, {"last_lane", g.last_lane}, {"first_row", g.first_row}, {"rows", g.rows}});
    j["diagram_groups"] = groups;
  }
  if (const auto& g = b.cost.global) {
    j["requests"] = g->requests;
    j["sectors"] = g->sectors;
    j["ideal_sectors"] = g->ideal_sectors;
    j["lines"] = g->lines;
    j["bytes_requested"] = g->bytes_requested;
    j["bytes_moved"] = g->bytes_moved;
    j["efficiency"] = g->efficiency();
    j["cause"] = model::coalescing_name(g->cause);
    for (const LaneView& l : b.lanes) {
      json lane = {{"lane", l.lane}, {"active", l.active}};
      if (l.active) {
        lane["address"] = l.address;
        lane["sector"] = l.sector;
        lane["line"] = l.line;
      }
      lanes.push_back(lane);
    }
  }
  j["lanes"] = lanes;
  return j;
}

json statement_json(const StatementReport& s) {
  json j;
  j["file"] = s.file;
  j["line"] = s.line;
  j["column"] = s.column;
  j["text"] = s.text;
  j["array"] = s.array;
  j["space"] = s.space == model::Space::Shared ? "shared" : "global";
  j["type"] = s.element_type;
  j["element_bytes"] = s.element_bytes;
  j["dims"] = s.dims;
  j["base"] = s.base;
  j["op"] = model::op_name(s.op);
  j["width"] = s.width;
  j["loops"] = s.loops;
  j["iterations"] = s.iterations;
  j["executions"] = s.executions();
  j["idle_executions"] = s.idle_executions;
  if (s.space == model::Space::Shared)
    j["totals"] = {{"wavefronts", s.total_wavefronts()},
                   {"ideal_wavefronts", s.total_ideal_wavefronts()},
                   {"bank_conflicts", s.total_wavefronts() - s.total_ideal_wavefronts()}};
  else
    j["totals"] = {{"sectors", s.total_sectors()}, {"ideal_sectors", s.total_ideal_sectors()}};
  json behaviours = json::array();
  for (const Behaviour& b : s.behaviours) behaviours.push_back(behaviour_json(s, b));
  j["behaviours"] = behaviours;
  return j;
}

}  // namespace

nlohmann::json json_report(const PatternReport& report) {
  json j;
  j["arch"] = report.arch;
  j["block"] = {report.block.x, report.block.y, report.block.z};
  json statements = json::array();
  for (const StatementReport& s : report.statements) statements.push_back(statement_json(s));
  j["statements"] = statements;
  return j;
}

}  // namespace warpscope::pattern
