// kernel_text.cc: the human-readable kernel report.
#include "report/kernel_text.h"

#include <fmt/format.h>

#include <algorithm>

#include "report/html_bulk.h"

namespace warpscope::report {

namespace {

using analysis::LineReport;
using analysis::Metrics;

long long get(const Metrics& m, const std::string& name) {
  auto it = m.find(name);
  return it == m.end() ? 0 : it->second;
}

// "wavefronts/ideal" of one shared op on a line, or "-".
std::string shared_cell(const LineReport& l, const char* suffix) {
  long long wf = 0, ideal = 0;
  bool any = false;
  for (const auto& i : l.instructions) {
    if (i.cost.async_copy || std::string(model::ncu_op_suffix(i.cost.op)) != suffix) continue;
    any = true;
    wf += static_cast<long long>(i.cost.wavefronts);
    ideal += static_cast<long long>(i.cost.ideal_wavefronts);
  }
  return any ? fmt::format("{}/{}", wf, ideal) : "-";
}

std::string global_cell(const LineReport& l, const char* suffix) {
  long long sectors = 0, ideal = 0;
  bool any = false;
  for (const auto& i : l.instructions) {
    if (i.cost.async_copy || std::string(model::ncu_op_suffix(i.cost.op)) != suffix) continue;
    any = true;
    sectors += static_cast<long long>(i.cost.sectors);
    ideal += static_cast<long long>(i.cost.ideal_sectors);
  }
  return any ? fmt::format("{}/{}", sectors, ideal) : "-";
}

std::string lane_listing(const analysis::LineInstruction& worst) {
  const auto& c = worst.cost;
  const model::WarpAccess& a = c.worst_access;
  const bool shared = model::space_of(a.op) == model::Space::Shared;
  std::string s = fmt::format("    worst warp: {} in block ({},{},{}) warp {}", worst.text, c.worst_block.x,
                              c.worst_block.y, c.worst_block.z, c.worst_warp);
  if (shared && c.worst_cost.shared) {
    const auto& sc = *c.worst_cost.shared;
    s += fmt::format(": {} wavefronts (ideal {}), {}-way in bank {}\n", sc.wavefronts, sc.ideal_wavefronts,
                     sc.worst_degree, sc.worst_bank);
  } else if (c.worst_cost.global) {
    const auto& g = *c.worst_cost.global;
    s += fmt::format(": {} sectors (ideal {}), {}\n", g.sectors, g.ideal_sectors, model::coalescing_name(g.cause));
  } else {
    s += "\n";
  }
  s += shared ? "      lane  address  bank\n" : "      lane  address  sector\n";
  for (int lane = 0; lane < model::kWarpSize; ++lane) {
    if (!a.active(lane)) continue;
    const bool hit = shared && c.worst_cost.shared && ((c.worst_cost.shared->colliding_lanes >> lane) & 1u);
    s += fmt::format("      {:>4}  {:>7}  {:>4}{}\n", lane, a.address[lane],
                     shared ? (a.address[lane] / 4) % 32 : a.address[lane] / 32, hit ? "  *" : "");
  }
  return s;
}

}  // namespace

std::string kernel_text(const analysis::KernelReport& r) {
  std::string s = fmt::format("{} ({}): grid ({},{},{}) block ({},{},{}), {} of {} blocks emulated{}, priced from {}\n",
                              r.kernel, r.ptx_file, r.launch.grid.x, r.launch.grid.y, r.launch.grid.z, r.launch.block.x,
                              r.launch.block.y, r.launch.block.z, r.blocks_run, r.blocks_total,
                              r.blocks_run < r.blocks_total ? fmt::format(" (totals scaled by {:.3g})", r.scale) : "",
                              r.priced_from == "sass"
                                  ? fmt::format("the SASS ptxas emits ({} vector merges)", r.merged_groups)
                                  : fmt::format("PTX ({})", r.sass_note.empty() ? "no SASS" : r.sass_note));
  s += "\nKernel totals (ncu metrics, .sum):\n";
  for (const std::string& name : analysis::kernel_metric_names())
    if (get(r.metrics, name) != 0) s += fmt::format("  {:<56} {:>12}\n", name, get(r.metrics, name));
  s += "\nPer source line, worst first (shared: wavefronts/ideal; global: sectors/ideal):\n";
  // A wgmma column (its shared-memory operands) only for kernels that have one.
  const bool gmma = get(r.metrics, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma") != 0;
  s += fmt::format("  {:<28} {:>15} {:>13} {:>13}{} {:>4} {:>15} {:>15} {:>13} {:>13}\n", "line", "shared ld", "shared st",
                   "shared atom", gmma ? fmt::format(" {:>15}", "wgmma") : "", "deg", "global ld", "global st", "global red",
                   "global atom");
  for (const LineReport& l : r.lines)
    s += fmt::format("  {:<28} {:>15} {:>13} {:>13}{} {:>4} {:>15} {:>15} {:>13} {:>13}\n",
                     fmt::format("{}:{}{}", l.file, l.line, l.timing_dependent ? " ~" : ""),
                     shared_cell(l, "shared_op_ld"), shared_cell(l, "shared_op_st"), shared_cell(l, "shared_op_atom"),
                     gmma ? fmt::format(" {:>15}", shared_cell(l, "shared_op_gmma")) : "",
                     l.conflict_degree > 0 ? std::to_string(l.conflict_degree) : "-", global_cell(l, "global_op_ld"),
                     global_cell(l, "global_op_st"), global_cell(l, "global_op_red"), global_cell(l, "global_op_atom"));
  if (r.timing_dependent) {
    s += "  ~ timing-dependent: a compare-and-swap retry loop (ptxas's, for a shared float or 64-bit add or a 16-bit\n"
         "    atomic); its figures count the retries the lanes of one warp force on each other, the fewest any run\n"
         "    takes: on the GPU, other warps on the same words add retries that depend on timing.\n";
  }
  bool any_bulk = false;
  for (const LineReport& l : r.lines) any_bulk = any_bulk || !l.bulk_copies.empty();
  if (any_bulk) {
    s += "\nTMA and bulk copies (issues, bytes moved, global sectors/ideal):\n";
    for (const LineReport& l : r.lines) {
      // The line's instructions of one kind together (an unrolled loop's copies).
      std::vector<analysis::BulkCost> kinds;
      for (const analysis::LineBulkCopy& b : l.bulk_copies) {
        auto same = std::find_if(kinds.begin(), kinds.end(), [&](const analysis::BulkCost& k) {
          return k.kind == b.cost.kind && k.tensor == b.cost.tensor && k.swizzle_bytes == b.cost.swizzle_bytes;
        });
        if (same == kinds.end()) {
          kinds.push_back(b.cost);
        } else {
          same->issues += b.cost.issues;
          same->bytes += b.cost.bytes;
          same->global_sectors += b.cost.global_sectors;
          same->ideal_sectors += b.cost.ideal_sectors;
        }
      }
      for (const analysis::BulkCost& k : kinds)
        s += fmt::format("  {:<28} {:<15} {:>8} issues {:>12} bytes {:>15} sectors{}\n",
                         fmt::format("{}:{}", l.file, l.line), bulk_kind_name(k), k.issues, k.bytes,
                         fmt::format("{}/{}", k.global_sectors, k.ideal_sectors),
                         k.swizzle_bytes > 0 ? fmt::format("  {}B swizzle", k.swizzle_bytes) : "");
    }
  }
  for (const LineReport& l : r.lines) {
    if (l.excess_wavefronts == 0 && l.excess_sectors == 0) continue;
    s += fmt::format("\n{}:{}: {} excess wavefronts, {} excess sectors\n", l.file, l.line, l.excess_wavefronts,
                     l.excess_sectors);
    if (!l.source.empty()) s += fmt::format("    | {}\n", l.source);
    if (l.worst) s += lane_listing(*l.worst);
  }
  if (!r.diagnostics.empty()) {
    s += "\nDiagnostics:\n";
    for (const auto& d : r.diagnostics)
      s += fmt::format("  {}: {}{}\n", d.severity == emu::Diagnostic::Severity::Error ? "error" : "warning", d.message,
                       d.count > 1 ? fmt::format(" ({} times)", d.count) : "");
  }
  return s;
}

}  // namespace warpscope::report
