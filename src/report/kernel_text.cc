// kernel_text.cc: the human-readable kernel report.
#include "report/kernel_text.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "ptx/source_position.h"
#include "report/address_label.h"

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

std::string lane_listing(const analysis::KernelReport& r, const analysis::LineInstruction& worst) {
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
  if (shared) {
    s += "      lane  address  bank\n";
    for (int lane = 0; lane < model::kWarpSize; ++lane) {
      if (!a.active(lane)) continue;
      const bool hit = c.worst_cost.shared && ((c.worst_cost.shared->colliding_lanes >> lane) & 1u);
      s += fmt::format("      {:>4}  {:>7}  {:>4}{}\n", lane, a.address[lane], (a.address[lane] / 4) % 32, hit ? "  *" : "");
    }
    return s;
  }
  // Global: buffer + offset for the address and for the 32-byte sector it falls in.
  std::vector<std::pair<std::string, std::string>> cells;
  std::size_t width = 7;
  for (int lane = 0; lane < model::kWarpSize; ++lane) {
    if (!a.active(lane)) continue;
    cells.emplace_back(address_label(r, a.address[lane]), address_label(r, a.address[lane] / 32 * 32));
    width = std::max(width, cells.back().first.size());
  }
  s += fmt::format("      lane  {:<{}}  sector (its first byte)\n", "address", width);
  std::size_t i = 0;
  for (int lane = 0; lane < model::kWarpSize; ++lane)
    if (a.active(lane)) {
      s += fmt::format("      {:>4}  {:<{}}  {}\n", lane, cells[i].first, width, cells[i].second);
      ++i;
    }
  return s;
}

std::string line_label(const LineReport& l) { return fmt::format("{}:{}", ptx::display_file(l.file), l.line); }

}  // namespace

std::string diagnostic_text(const emu::Diagnostic& d, bool verbose) {
  std::string s = fmt::format("{}: {}{}", d.severity == emu::Diagnostic::Severity::Error ? "error" : "warning", d.message,
                              d.count > 1 ? fmt::format(" ({} times)", d.count) : "");
  if (verbose && d.instruction != nullptr) s += fmt::format(" [PTX line {}]", d.instruction->ptx_line);
  return s;
}

std::string kernel_text(const analysis::KernelReport& r, const KernelTextOptions& o) {
  std::string s = fmt::format("{} ({}): grid ({},{},{}) block ({},{},{}), {} of {} blocks emulated{}, priced from {}\n",
                              r.kernel, r.ptx_file, r.launch.grid.x, r.launch.grid.y, r.launch.grid.z, r.launch.block.x,
                              r.launch.block.y, r.launch.block.z, r.blocks_run, r.blocks_total,
                              r.blocks_run < r.blocks_total ? fmt::format(" (totals scaled by {:.3g})", r.scale) : "",
                              r.priced_from == "sass"
                                  ? fmt::format("the SASS ptxas emits ({} vector merges)", r.merged_groups)
                                  : fmt::format("PTX ({})", r.sass_note.empty() ? "no SASS" : r.sass_note));
  auto diagnostics = [&] {
    std::string d = "\nDiagnostics:\n";
    for (const auto& x : r.diagnostics) d += "  " + diagnostic_text(x, o.verbose) + "\n";
    return d;
  };
  if (r.failed()) {  // partial figures are not results
    s += "\nThe emulation stopped with an error, so no figures are reported (they would cover only part of the "
         "kernel's work).\n";
    return s + diagnostics();
  }
  s += "\nKernel totals (ncu metrics, .sum):\n";
  for (const std::string& name : analysis::kernel_metric_names())
    if (get(r.metrics, name) != 0) s += fmt::format("  {:<56} {:>12}\n", name, get(r.metrics, name));
  s += "\nPer source line, worst first (shared: wavefronts/ideal; global: sectors/ideal):\n";
  std::size_t width = 28;  // the line column grows with the longest file name
  for (const LineReport& l : r.lines) width = std::max(width, line_label(l).size() + (l.timing_dependent ? 2 : 0));
  // A wgmma column (its shared-memory operands) only for kernels that have one.
  const bool gmma = get(r.metrics, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma") != 0;
  s += fmt::format("  {:<{}} {:>15} {:>13} {:>13}{} {:>4} {:>15} {:>15} {:>13} {:>13}\n", "line", width, "shared ld",
                   "shared st", "shared atom", gmma ? fmt::format(" {:>15}", "wgmma") : "", "deg", "global ld",
                   "global st", "global red", "global atom");
  bool any_inlined = false;
  for (const LineReport& l : r.lines) {
    std::string note;
    for (const std::string& site : l.also_counted_at) note += (note.empty() ? "" : ", ") + site;
    if (!note.empty()) note = "  (inlined: also counted at " + note + ")", any_inlined = true;
    s += fmt::format("  {:<{}} {:>15} {:>13} {:>13}{} {:>4} {:>15} {:>15} {:>13} {:>13}{}\n",
                     line_label(l) + (l.timing_dependent ? " ~" : ""), width, shared_cell(l, "shared_op_ld"),
                     shared_cell(l, "shared_op_st"), shared_cell(l, "shared_op_atom"),
                     gmma ? fmt::format(" {:>15}", shared_cell(l, "shared_op_gmma")) : "",
                     l.conflict_degree > 0 ? std::to_string(l.conflict_degree) : "-", global_cell(l, "global_op_ld"),
                     global_cell(l, "global_op_st"), global_cell(l, "global_op_red"), global_cell(l, "global_op_atom"),
                     note);
  }
  if (any_inlined)
    s += "  (a toolkit header's line holds code inlined into yours; ncu shows it there, and findings and advice point "
         "at the call site)\n";
  if (r.timing_dependent) {
    s += "  ~ timing-dependent: the line runs a loop whose trips depend on timing between warps or blocks: a\n"
         "    compare-and-swap retry loop (ptxas's, for a shared float or 64-bit add or a 16-bit atomic), a lock's\n"
         "    acquire, or a spin-wait on memory other warps or blocks write (a grid or tile barrier, a flag). Its\n"
         "    figures count the trips of one order of the warps and blocks; on the GPU two runs differ.\n";
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
                         line_label(l), bulk_kind_name(k), k.issues, k.bytes,
                         fmt::format("{}/{}", k.global_sectors, k.ideal_sectors),
                         k.swizzle_bytes > 0 ? fmt::format("  {}B swizzle", k.swizzle_bytes) : "");
    }
  }
  bool flagged = false;
  for (const LineReport& l : r.lines) {
    if (l.excess_wavefronts == 0 && l.excess_sectors == 0) continue;
    flagged = true;
    if (!l.also_counted_at.empty()) continue;  // shown at its call site
    s += fmt::format("\n{}: {} excess wavefronts, {} excess sectors\n", line_label(l), l.excess_wavefronts,
                     l.excess_sectors);
    if (!l.source.empty()) s += fmt::format("    | {}\n", l.source);
    if (l.worst) s += lane_listing(r, *l.worst);
  }
  if (!r.diagnostics.empty()) s += diagnostics();
  if (flagged && !o.fix_command.empty())
    s += "\nNext: warpscope fix finds the shared layout or global change that removes the excess, and proves it by "
         "re-running the kernel:\n  " + o.fix_command + "\n";
  return s;
}

}  // namespace warpscope::report
