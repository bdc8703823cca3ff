// html_access.cc: the SVG bank diagram and the lane table of one instruction's worst warp.
#include "report/html_access.h"

#include <fmt/format.h>

#include <algorithm>

#include "pattern/bank_view.h"

namespace warpscope::report {

namespace {

constexpr int kLabelWidth = 64;  // the "wf N" column
constexpr int kCellWidth = 30;
constexpr int kCellHeight = 28;
constexpr int kHeaderHeight = 20;
constexpr int kGroupBand = 16;  // the "lanes a-b" band above each lane group

int words_per_lane(const model::Arch& arch, const model::WarpAccess& a) {
  if (model::is_matrix_rows(a.op)) return 16 / arch.bank_bytes;
  return std::max(1, a.width / arch.bank_bytes);
}

// The word a lane touches in `bank` (a wide lane touches several consecutive banks).
std::uint64_t word_in_bank(const model::Arch& arch, const model::WarpAccess& a, int lane, int bank) {
  const std::uint64_t word0 = a.address[static_cast<std::size_t>(lane)] / static_cast<std::uint64_t>(arch.bank_bytes);
  const auto banks = static_cast<std::uint64_t>(arch.banks);
  const std::uint64_t offset = (static_cast<std::uint64_t>(bank) + banks - word0 % banks) % banks;
  return word0 + std::min<std::uint64_t>(offset, static_cast<std::uint64_t>(words_per_lane(arch, a) - 1));
}

}  // namespace

std::string html_escape(const std::string& text) {
  std::string s;
  s.reserve(text.size());
  for (char c : text) switch (c) {
      case '&': s += "&amp;"; break;
      case '<': s += "&lt;"; break;
      case '>': s += "&gt;"; break;
      case '"': s += "&quot;"; break;
      case '\'': s += "&#39;"; break;
      default: s += c;
    }
  return s;
}

std::string bank_diagram_svg(const model::Arch& arch, const analysis::InstructionCost& c) {
  if (!c.used() || !c.worst_cost.shared) return "";
  const model::WarpAccess& a = c.worst_access;
  const model::SharedCost& sc = *c.worst_cost.shared;
  const pattern::BankDiagram d = pattern::bank_diagram(arch, a, c.worst_cost);
  if (d.rows.empty()) return "";
  const int banks = arch.banks;
  const int width = kLabelWidth + banks * kCellWidth + 2;
  const int height = kHeaderHeight + static_cast<int>(d.groups.size()) * kGroupBand +
                     static_cast<int>(d.rows.size()) * kCellHeight + 2;
  std::string s = fmt::format(
      "<svg class=\"bank-diagram\" data-banks=\"{}\" data-wavefronts=\"{}\" width=\"{}\" height=\"{}\" "
      "viewBox=\"0 0 {} {}\" role=\"img\" aria-label=\"bank diagram: {} wavefronts, {}-way\">\n",
      banks, d.rows.size(), width, height, width, height, d.rows.size(), sc.worst_degree);
  s += fmt::format("<text class=\"axis\" x=\"2\" y=\"14\">bank</text>\n");
  for (int b = 0; b < banks; ++b)
    s += fmt::format("<text class=\"bank-col{}\" x=\"{}\" y=\"14\" text-anchor=\"middle\">{}</text>\n",
                     b == sc.worst_bank && sc.worst_degree > 1 ? " worst" : "",
                     kLabelWidth + b * kCellWidth + kCellWidth / 2, b);
  int y = kHeaderHeight;
  for (const pattern::BankDiagram::Group& g : d.groups) {
    s += fmt::format("<line class=\"group\" x1=\"0\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>\n", y, width, y);
    s += fmt::format("<text class=\"group-label\" x=\"2\" y=\"{}\">lanes {}&#8211;{}: {} wavefront{}</text>\n",
                     y + 12, g.first_lane, g.last_lane, g.rows, g.rows == 1 ? "" : "s");
    y += kGroupBand;
    // A bank with more than one row in the group serves distinct words one wavefront each.
    std::vector<int> load(static_cast<std::size_t>(banks), 0);
    for (int r = g.first_row; r < g.first_row + g.rows; ++r)
      for (int b = 0; b < banks; ++b)
        if (d.rows[static_cast<std::size_t>(r)][static_cast<std::size_t>(b)].lane >= 0) ++load[static_cast<std::size_t>(b)];
    for (int r = g.first_row; r < g.first_row + g.rows; ++r) {
      s += fmt::format("<text class=\"wf\" x=\"2\" y=\"{}\">wf {}</text>\n", y + 18, r + 1);
      for (int b = 0; b < banks; ++b) {
        const pattern::DiagramCell& cell = d.rows[static_cast<std::size_t>(r)][static_cast<std::size_t>(b)];
        const int x = kLabelWidth + b * kCellWidth;
        if (cell.lane < 0) {
          s += fmt::format("<rect class=\"idle\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>\n", x, y, kCellWidth,
                           kCellHeight);
          continue;
        }
        const bool conflict = load[static_cast<std::size_t>(b)] > 1;
        const bool broadcast = cell.sharers > 1;
        const std::uint64_t word = word_in_bank(arch, a, cell.lane, b);
        const std::string kind = conflict ? "conflict" : broadcast ? "broadcast" : "ok";
        s += fmt::format("<g class=\"cell {}\" data-lane=\"{}\" data-bank=\"{}\" data-word=\"{}\">", kind, cell.lane, b,
                         word);
        s += fmt::format("<title>lane {} {} word {} (byte {}) in bank {}{}{}</title>", cell.lane,
                         a.op == model::MemOp::SharedStore ? "writes" : "reads", word,
                         word * static_cast<std::uint64_t>(arch.bank_bytes), b,
                         broadcast ? fmt::format("; {} lanes share it (broadcast)", cell.sharers) : "",
                         conflict ? fmt::format("; bank {} serves {} words in this group: conflict", b,
                                                load[static_cast<std::size_t>(b)])
                                  : "");
        s += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>", x, y, kCellWidth, kCellHeight);
        s += fmt::format("<text class=\"lane\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">L{}{}</text>",
                         x + kCellWidth / 2, y + 12, cell.lane, broadcast ? "+" : "");
        s += fmt::format("<text class=\"word\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">w{}</text></g>\n",
                         x + kCellWidth / 2, y + 24, word);
      }
      y += kCellHeight;
    }
  }
  s += "</svg>\n";
  return s;
}

std::string lane_table_html(const model::Arch& arch, const analysis::InstructionCost& c) {
  if (!c.used()) return "";
  const bool shared = model::space_of(c.worst_access.op) == model::Space::Shared;
  std::string s = "<table class=\"lanes\">\n<thead><tr><th>lane</th><th>address</th>";
  s += shared ? "<th>word</th><th>bank</th>" : "<th>sector</th><th>line</th>";
  s += "</tr></thead>\n<tbody>\n";
  for (const pattern::LaneView& v : pattern::lane_views(arch, c.worst_access, c.worst_cost)) {
    if (!v.active) continue;
    s += fmt::format("<tr{}><td>{}</td><td>0x{:x}</td>", v.colliding ? " class=\"colliding\"" : "", v.lane, v.address);
    if (shared)
      s += fmt::format("<td>{}</td><td>{}{}</td></tr>\n", v.word, v.bank,
                       v.banks > 1 ? fmt::format("&#8211;{}", (v.bank + v.banks - 1) % arch.banks) : "");
    else
      s += fmt::format("<td>{}</td><td>{}</td></tr>\n", v.sector, v.line);
  }
  s += "</tbody>\n</table>\n";
  return s;
}

}  // namespace warpscope::report
