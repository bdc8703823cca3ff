// text_writer.cc: formatting of statements, behaviours, lane tables and bank diagrams.
#include "pattern/text_writer.h"

#include <fmt/format.h>

#include <bit>
#include <cstdint>
#include <string>

namespace warpscope::pattern {

namespace {

std::string plural(long long n, const char* one, const char* many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

std::string dims_text(const std::vector<std::int64_t>& dims) {
  std::string s;
  for (std::int64_t d : dims) s += fmt::format("[{}]", d);
  return s;
}

std::string lanes_of(const std::vector<LaneView>& lanes, bool (*pick)(const LaneView&)) {
  std::uint32_t bits = 0;
  for (const LaneView& l : lanes)
    if (pick(l)) bits |= 1u << l.lane;
  return ranges_text(bits);
}

// "warps 0-7; first: warp 0, k=0" (the example shown is the first one).
std::string where_text(const StatementReport& s, const Behaviour& b) {
  std::string text = fmt::format("{} {}", std::popcount(b.warps) == 1 ? "warp" : "warps", ranges_text(b.warps));
  if (b.executions == 1 && s.loops.empty()) return text;
  text += fmt::format("; first: warp {}", b.first_warp);
  for (std::size_t i = 0; i < s.loops.size() && i < b.first_iteration.size(); ++i)
    text += fmt::format(", {}={}", s.loops[i], b.first_iteration[i]);
  return text;
}

void write_shared_lanes(std::string& out, const Behaviour& b) {
  const bool conflicted = b.cost.shared->bank_conflicts() > 0;
  out += "    lane  address   word  bank\n";
  for (const LaneView& l : b.lanes) {
    if (!l.active) {
      out += fmt::format("    {:>4}        -      -     -  inactive\n", l.lane);
      continue;
    }
    const std::string bank = l.banks == 1 ? fmt::format("{}", l.bank) : fmt::format("{}-{}", l.bank, l.bank + l.banks - 1);
    out += fmt::format("    {:>4} {:>8} {:>6} {:>5}{}\n", l.lane, l.address, l.word, bank, conflicted && l.colliding ? "  <- worst bank" : "");
  }
}

void write_global_lanes(std::string& out, const Behaviour& b) {
  out += "    lane  address  sector  line\n";
  for (const LaneView& l : b.lanes) {
    if (!l.active)
      out += fmt::format("    {:>4}        -       -     -  inactive\n", l.lane);
    else
      out += fmt::format("    {:>4} {:>8} {:>7} {:>5}\n", l.lane, l.address, l.sector, l.line);
  }
}

std::string bank_header(std::size_t banks) {
  std::string s = "      bank  ";
  for (std::size_t b = 0; b < banks; ++b) s += fmt::format("{:>3}", b);
  return s + "\n";
}

void write_diagram(std::string& out, const BankDiagram& d) {
  const std::size_t banks = d.bank_load.size();
  out += "    bank load (distinct words per bank)\n";
  out += bank_header(banks);
  out += "      words ";
  for (int load : d.bank_load) out += fmt::format("{:>3}", load);
  out += "\n\n    bank diagram (row: wavefront; cell: lane served; +: word shared by several lanes; .: idle)\n";
  out += bank_header(banks);
  for (const BankDiagram::Group& g : d.groups) {
    if (d.groups.size() > 1) out += fmt::format("      lanes {}-{}\n", g.first_lane, g.last_lane);
    for (int r = g.first_row; r < g.first_row + g.rows; ++r) {
      std::string line = fmt::format("      wf {:>3}", r + 1);
      for (const DiagramCell& c : d.rows[static_cast<std::size_t>(r)]) {
        if (c.lane < 0)
          line += "  .";
        else
          line += fmt::format("{:>3}", fmt::format("{}{}", c.lane, c.sharers > 1 ? "+" : ""));
      }
      while (!line.empty() && line.back() == ' ') line.pop_back();
      out += line + "\n";
    }
  }
}

void write_behaviour(std::string& out, const StatementReport& s, const Behaviour& b, std::size_t index) {
  out += fmt::format("\n  behaviour {} of {}: {} ({}), mask {:#010x}\n", index + 1, s.behaviours.size(),
                     plural(b.executions, "warp execution", "warp executions"), where_text(s, b), b.access.mask);
  if (const auto& c = b.cost.shared) {
    out += fmt::format("    wavefronts {}, ideal {}, bank conflicts {}\n", c->wavefronts, c->ideal_wavefronts,
                       c->bank_conflicts());
    if (c->bank_conflicts() > 0)
      out += fmt::format("    worst bank {}: {}-way conflict, lanes {}\n", c->worst_bank, c->worst_degree,
                         lanes_of(b.lanes, [](const LaneView& l) { return l.colliding; }));
    else if (c->worst_degree > 1)
      out += fmt::format("    conflict-free: the busiest bank serves {} distinct words, no more than the ideal\n",
                         c->worst_degree);
    else
      out += "    conflict-free: no bank serves more than one distinct word\n";
  }
  if (const auto& g = b.cost.global) {
    out += fmt::format("    requests {}, sectors {} (ideal {}), lines {}\n", g->requests, g->sectors, g->ideal_sectors,
                       g->lines);
    out += fmt::format("    bytes requested {} of {} moved: efficiency {:.1f}%, {}\n", g->bytes_requested, g->bytes_moved,
                       100.0 * g->efficiency(), model::coalescing_name(g->cause));
  }
  const auto metrics = model::ncu_metrics(b.cost);
  for (std::size_t i = 0; i < metrics.size(); ++i)
    out += fmt::format("    {} {}.sum = {}\n", i == 0 ? "ncu" : "   ", metrics[i].first, metrics[i].second);
  out += "\n";
  if (b.cost.shared) {
    write_shared_lanes(out, b);
    out += "\n";
    write_diagram(out, b.diagram);
  } else {
    write_global_lanes(out, b);
  }
}

void write_statement(std::string& out, const PatternReport& r, const StatementReport& s) {
  out += fmt::format("{}:{}: {}\n", s.file, s.line, s.text);
  out += fmt::format("  {} {} {}{} at {}: {}, {} per lane; block {}x{}x{}: {} x {}\n",
                     s.space == model::Space::Shared ? "shared" : "global", s.element_type, s.array,
                     dims_text(s.dims), s.base, model::op_name(s.op),
                     s.op == model::MemOp::LdMatrix ? plural(s.width, "matrix", "matrices")
                                                    : plural(s.element_bytes, "byte", "bytes"),
                     r.block.x, r.block.y, r.block.z, plural(r.block.warps(), "warp", "warps"),
                     plural(s.iterations, "iteration", "iterations"));
  if (s.space == model::Space::Shared)
    out += fmt::format("  total: {}, wavefronts {} (ideal {}), bank conflicts {}\n",
                       plural(s.executions(), "warp execution", "warp executions"), s.total_wavefronts(),
                       s.total_ideal_wavefronts(), s.total_wavefronts() - s.total_ideal_wavefronts());
  else
    out += fmt::format("  total: {}, sectors {} (ideal {})\n",
                       plural(s.executions(), "warp execution", "warp executions"), s.total_sectors(),
                       s.total_ideal_sectors());
  if (s.idle_executions > 0)
    out += fmt::format("  {} with no active lane (not issued)\n",
                       plural(s.idle_executions, "warp execution", "warp executions"));
  for (std::size_t i = 0; i < s.behaviours.size(); ++i) write_behaviour(out, s, s.behaviours[i], i);
}

}  // namespace

std::string ranges_text(std::uint32_t bits) {
  std::string s;
  for (int i = 0; i < 32;) {
    if (!(bits >> i & 1u)) {
      ++i;
      continue;
    }
    int j = i;
    while (j + 1 < 32 && (bits >> (j + 1) & 1u)) ++j;
    if (!s.empty()) s += ",";
    s += j == i ? fmt::format("{}", i) : fmt::format("{}-{}", i, j);
    i = j + 1;
  }
  return s.empty() ? "none" : s;
}

std::string text_report(const PatternReport& report) {
  std::string out;
  for (std::size_t i = 0; i < report.statements.size(); ++i) {
    if (i > 0) out += "\n";
    write_statement(out, report, report.statements[i]);
  }
  if (report.statements.empty()) out += "no access statements\n";
  return out;
}

}  // namespace warpscope::pattern
