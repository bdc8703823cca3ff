// html_bulk.cc: TMA and bulk copies in the HTML report (see html_bulk.h).
#include "report/html_bulk.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "report/html_access.h"

namespace warpscope::report {
namespace {

constexpr int kLabelWidth = 64;
constexpr int kCellWidth = 30;
constexpr int kCellHeight = 28;
constexpr int kHeaderHeight = 20;
constexpr int kBanks = 32;
constexpr int kRowBytes = 128;  // one row of the diagram: every bank once

}  // namespace

const char* bulk_kind_name(const analysis::BulkCost& c) {
  using K = emu::BulkCopyEvent::Kind;
  switch (c.kind) {
    case K::Load: return c.tensor ? "TMA load" : "bulk load";
    case K::Store: return c.tensor ? "TMA store" : "bulk store";
    case K::Reduce: return c.tensor ? "TMA reduction" : "bulk reduction";
    case K::Prefetch: return c.tensor ? "TMA prefetch" : "bulk prefetch";
  }
  return "bulk copy";
}

std::string bulk_footprint_svg(const analysis::BulkCost& c, int max_rows) {
  if (c.footprint.empty()) return "";
  // The 128-byte rows of shared memory the first issue touches, in address order.
  std::map<std::uint32_t, std::vector<const emu::SharedChunk*>> rows;
  for (const emu::SharedChunk& k : c.footprint) rows[k.shared / kRowBytes].push_back(&k);
  const int shown = std::min<int>(max_rows, static_cast<int>(rows.size()));
  const int width = kLabelWidth + kBanks * kCellWidth + 2;
  const int height = kHeaderHeight + shown * kCellHeight + 2;
  std::string s = fmt::format(
      "<svg class=\"bank-diagram footprint\" data-banks=\"{}\" data-rows=\"{}\" data-chunks=\"{}\" width=\"{}\" "
      "height=\"{}\" viewBox=\"0 0 {} {}\" role=\"img\" aria-label=\"shared footprint: {} chunks of 16 bytes in {} rows of "
      "128 bytes\">\n",
      kBanks, rows.size(), c.footprint.size(), width, height, width, height, c.footprint.size(), rows.size());
  s += "<text class=\"axis\" x=\"2\" y=\"14\">bank</text>\n";
  for (int b = 0; b < kBanks; ++b)
    s += fmt::format("<text class=\"bank-col\" x=\"{}\" y=\"14\" text-anchor=\"middle\">{}</text>\n",
                     kLabelWidth + b * kCellWidth + kCellWidth / 2, b);
  int y = kHeaderHeight, n = 0;
  for (const auto& [row, chunks] : rows) {
    if (n++ == shown) break;
    s += fmt::format("<text class=\"wf\" x=\"2\" y=\"{}\">+0x{:x}</text>\n", y + 18, row * kRowBytes - (c.shared / kRowBytes) * kRowBytes);
    for (const emu::SharedChunk* k : chunks) {
      const int bank = static_cast<int>((k->shared % kRowBytes) / 4);
      const int x = kLabelWidth + bank * kCellWidth;
      s += fmt::format("<g class=\"cell chunk r{}\" data-row=\"{}\" data-column=\"{}\" data-shared=\"{}\" data-bank=\"{}\">", k->row % 8,
                       k->row, k->column, k->shared, bank);
      s += fmt::format("<title>box row {} bytes {}-{} at shared 0x{:x}: banks {}-{}</title>", k->row, k->column,
                       k->column + 15, k->shared, bank, bank + 3);
      s += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>", x, y, 4 * kCellWidth, kCellHeight);
      s += fmt::format("<text class=\"lane\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">r{} +{}</text></g>\n",
                       x + 2 * kCellWidth, y + 18, k->row, k->column);
    }
    y += kCellHeight;
  }
  s += "</svg>\n";
  return s;
}

std::string bulk_copy_html(const analysis::LineBulkCopy& b) {
  const analysis::BulkCost& c = b.cost;
  std::string s = "<div class=\"access bulk\">\n";
  s += fmt::format("<h3>{} <small>(PTX line {}, {})</small></h3>\n", html_escape(b.text), b.ptx_line, bulk_kind_name(c));
  s += fmt::format("<p>{} issues: {} bytes, {} in the tensor; {} global sectors, ideal {}{}</p>\n", c.issues, c.bytes,
                   c.global_bytes, c.global_sectors, c.ideal_sectors,
                   c.swizzle_bytes > 0 ? fmt::format("; {}B swizzle", c.swizzle_bytes) : std::string());
  if (const std::string svg = bulk_footprint_svg(c); !svg.empty()) {
    s += fmt::format("<p class=\"worst\">first issue: block {} warp {}, shared 0x{:x}, rows of {} bytes</p>\n",
                     emu::to_string(c.first_block), c.first_warp, c.shared, c.row_bytes);
    s += svg;
    s += "<p class=\"legend\">cell: a 16-byte chunk of the box (4 banks): its box row (r) and byte column (+)</p>\n";
  }
  s += "</div>\n";
  return s;
}

}  // namespace warpscope::report
