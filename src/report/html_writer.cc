// html_writer.cc: the kernel report as one self-contained HTML page (see html_writer.h).
#include "report/html_writer.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <utility>

#include "layout/layout_code.h"
#include "report/findings.h"
#include "report/html_access.h"
#include "report/html_bulk.h"

namespace warpscope::report {

namespace {

// A suggestion shown under every access to an array (from `warpscope fix`).
struct SuggestedFix {
  int region = -1;
  std::string html;
};

constexpr const char* kStyle = R"(
body { font: 13px/1.35 system-ui, sans-serif; margin: 0; color: #1d1d1f; background: #fafafa; }
header { padding: 10px 16px; background: #24292f; color: #f0f0f0; }
header h1 { font-size: 17px; margin: 0 0 4px; }
header p { margin: 2px 0; }
table.totals { border-collapse: collapse; margin-top: 6px; font-size: 12px; }
table.totals td { padding: 0 12px 0 0; } table.totals td.n { text-align: right; font-family: monospace; }
main { display: flex; align-items: flex-start; gap: 12px; padding: 10px; }
#source { flex: 0 0 46%; overflow-x: auto; }
#detail { flex: 1 1 auto; min-width: 0; position: sticky; top: 0; max-height: 100vh; overflow: auto; }
h2 { font-size: 14px; margin: 8px 0 4px; }
table.source { border-collapse: collapse; width: 100%; font: 12px/1.3 ui-monospace, monospace; }
table.source th { text-align: right; font-weight: normal; color: #666; padding: 0 6px; }
table.source td { padding: 0 6px; white-space: pre; vertical-align: top; }
table.source td.ln, table.source td.fig { text-align: right; color: #555; }
table.source td.code { text-align: left; width: 100%; }
tr.src-line[data-target] { cursor: pointer; }
tr.src-line[data-target]:hover td { outline: 1px solid #888; }
tr.src-line.clean td.ln { border-left: 3px solid #3a9a5b; }
tr.src-line.selected td { box-shadow: inset 0 2px 0 #0550ae, inset 0 -2px 0 #0550ae; }
span.deg { color: #fff; background: #b42318; border-radius: 3px; padding: 0 4px; font-weight: bold; }
span.timing { color: #fff; background: #7a5af8; border-radius: 3px; padding: 0 4px; margin-left: 2px; font-weight: bold; }
p.timing { background: #f4f0ff; border-left: 4px solid #7a5af8; padding: 4px 8px; }
section.line-detail h2 { font-size: 15px; }
pre.code { background: #fff; border: 1px solid #ddd; padding: 4px 6px; margin: 4px 0; overflow-x: auto; }
div.access { border: 1px solid #ccc; background: #fff; border-radius: 4px; margin: 8px 0; padding: 6px 8px; }
div.access h3 { font: bold 13px ui-monospace, monospace; margin: 0 0 4px; }
p.finding { color: #b42318; margin: 4px 0; }
div.fix { background: #e6f4ea; border-left: 4px solid #3a9a5b; padding: 4px 8px; margin: 6px 0; }
div.fix code { font-size: 12px; }
svg.bank-diagram { display: block; margin: 6px 0; max-width: 100%; height: auto; font: 10px ui-monospace, monospace; }
svg.bank-diagram rect { stroke: #fff; stroke-width: 1; }
svg.bank-diagram rect.idle { fill: #f0f0f0; }
svg.bank-diagram g.ok rect { fill: #cfe8d5; }
svg.bank-diagram g.broadcast rect { fill: #b9d4f5; }
svg.bank-diagram g.conflict rect { fill: #f4a7a1; }
svg.bank-diagram text.word { font-size: 8px; fill: #444; }
svg.bank-diagram text.bank-col.worst { fill: #b42318; font-weight: bold; }
svg.bank-diagram text.group-label { font-size: 10px; fill: #0550ae; }
svg.bank-diagram line.group { stroke: #0550ae; stroke-width: 1; }
svg.footprint g.chunk rect { fill: #cfe8d5; } svg.footprint g.r1 rect, svg.footprint g.r3 rect,
svg.footprint g.r5 rect, svg.footprint g.r7 rect { fill: #b9d4f5; }
p.legend span { display: inline-block; width: 10px; height: 10px; margin: 0 3px 0 10px; }
table.lanes { border-collapse: collapse; font: 11px ui-monospace, monospace; }
table.lanes td, table.lanes th { padding: 0 8px; text-align: right; }
table.lanes tr.colliding td { background: #f4a7a1; }
)";

// Shows the clicked line's accesses; the worst line's are shown when the page opens.
constexpr const char* kScript = R"(
function showLine(id) {
  document.querySelectorAll('section.line-detail').forEach(function (s) { s.hidden = s.id !== id; });
  document.querySelectorAll('tr[data-target]').forEach(function (t) {
    t.classList.toggle('selected', t.dataset.target === id);
  });
}
document.querySelectorAll('tr[data-target]').forEach(function (t) {
  t.addEventListener('click', function () { showLine(t.dataset.target); });
  t.addEventListener('keydown', function (e) { if (e.key === 'Enter') showLine(t.dataset.target); });
});
if (document.getElementById('acc-0')) showLine('acc-0');
)";

std::uint64_t excess(const analysis::LineReport& l) { return l.excess_wavefronts + l.excess_sectors; }

std::string region_name(const analysis::KernelReport& r, int region) {
  if (region < 0 || static_cast<std::size_t>(region) >= r.regions.size()) return "";
  return source_name(r.regions[static_cast<std::size_t>(region)].name);
}

// The row background: red, stronger the larger the line's share of the worst line's excess.
std::string shade(std::uint64_t cost, std::uint64_t worst) {
  if (cost == 0 || worst == 0) return "";
  const double alpha = 0.12 + 0.6 * static_cast<double>(cost) / static_cast<double>(worst);
  return fmt::format(" style=\"background: rgba(220, 50, 32, {:.2f})\"", alpha);
}

std::string line_row(const analysis::LineReport* l, int index, int number, const std::string& label,
                     const std::string& code, std::uint64_t worst) {
  if (l == nullptr)
    return fmt::format("<tr class=\"src-line\"><td class=\"ln\">{}</td><td class=\"fig\"></td><td class=\"fig\"></td>"
                       "<td></td><td class=\"code\">{}</td></tr>\n",
                       number, html_escape(code));
  const std::uint64_t cost = excess(*l);
  std::string cls = cost > 0 ? "src-line hot" : "src-line clean";
  if (l->conflict_degree > 1) cls += " conflict";
  if (l->timing_dependent) cls += " timing";
  return fmt::format(
      "<tr class=\"{}\" data-target=\"acc-{}\" data-line=\"{}\" tabindex=\"0\"{} title=\"{}:{}: {} excess wavefronts, "
      "{} excess sectors\"><td class=\"ln\">{}</td><td class=\"fig wf\">{}</td><td class=\"fig sectors\">{}</td>"
      "<td class=\"fig\">{}</td><td class=\"code\">{}</td></tr>\n",
      cls, index, number, shade(cost, worst), html_escape(l->file), l->line, l->excess_wavefronts, l->excess_sectors,
      html_escape(label), l->excess_wavefronts > 0 ? std::to_string(l->excess_wavefronts) : "",
      l->excess_sectors > 0 ? std::to_string(l->excess_sectors) : "",
      fmt::format("{}{}", l->conflict_degree > 1 ? fmt::format("<span class=\"deg\">{}-way</span>", l->conflict_degree) : "",
                  l->timing_dependent ? "<span class=\"timing\" title=\"timing-dependent (a retry or spin loop)\">~</span>" : ""),
      html_escape(code));
}

constexpr const char* kListingHead =
    "<tr><th>line</th><th title=\"shared wavefronts beyond the ideal\">excess wf</th>"
    "<th title=\"global sectors beyond the ideal\">excess sectors</th><th>conflict</th><th></th></tr>\n";

// Every readable file, every line; then the report lines no readable file holds.
std::string listing(const analysis::KernelReport& r) {
  std::uint64_t worst = 0;
  for (const auto& l : r.lines) worst = std::max(worst, excess(l));
  std::map<std::pair<std::string, int>, int> index;  // (file, line) -> report line
  for (std::size_t k = 0; k < r.lines.size(); ++k) index.emplace(std::make_pair(r.lines[k].file, r.lines[k].line), k);
  std::vector<bool> shown(r.lines.size(), false);
  std::string s;
  for (const analysis::SourceFile& f : r.sources) {
    s += fmt::format("<h2>{}</h2>\n<table class=\"source\" data-file=\"{}\">\n{}", html_escape(f.file),
                     html_escape(f.file), kListingHead);
    for (std::size_t n = 1; n <= f.lines.size(); ++n) {
      auto it = index.find({f.file, static_cast<int>(n)});
      const analysis::LineReport* l = nullptr;
      if (it != index.end()) {
        l = &r.lines[static_cast<std::size_t>(it->second)];
        shown[static_cast<std::size_t>(it->second)] = true;
      }
      s += line_row(l, l ? it->second : -1, static_cast<int>(n), std::to_string(n), f.lines[n - 1], worst);
    }
    s += "</table>\n";
  }
  if (std::find(shown.begin(), shown.end(), false) != shown.end()) {
    s += "<h2>Lines whose source was not readable</h2>\n<table class=\"source\">\n";
    s += kListingHead;
    for (std::size_t k = 0; k < r.lines.size(); ++k) {
      if (shown[k]) continue;
      const auto& l = r.lines[k];
      std::string code;
      for (const auto& i : l.instructions) code += (code.empty() ? "" : "; ") + i.text;
      s += line_row(&l, static_cast<int>(k), l.line, fmt::format("{}:{}", l.file, l.line),
                    l.source.empty() ? code : l.source, worst);
    }
    s += "</table>\n";
  }
  return s;
}

std::string access_html(const analysis::KernelReport& r, const model::Arch& arch, const analysis::LineInstruction& i,
                        const std::vector<SuggestedFix>& fixes) {
  const analysis::InstructionCost& c = i.cost;
  std::string s = "<div class=\"access\">\n";
  const std::string array = region_name(r, c.region);
  s += fmt::format("<h3>{} <small>(PTX line {}{})</small></h3>\n", html_escape(i.text), i.ptx_line,
                   array.empty() ? "" : ", '" + html_escape(array) + "'");
  if (model::space_of(c.op) == model::Space::Shared)
    s += fmt::format("<p>{} executions: {} wavefronts, ideal {}, excess {}</p>\n", c.executions, c.wavefronts,
                     c.ideal_wavefronts, c.excess_wavefronts());
  else
    s += fmt::format("<p>{} executions: {} requests, {} sectors, ideal {}, excess {}</p>\n", c.executions, c.requests,
                     c.sectors, c.ideal_sectors, c.excess_sectors());
  std::string worst = fmt::format("worst warp: block {} warp {}", emu::to_string(c.worst_block), c.worst_warp);
  if (c.worst_cost.shared) {
    const auto& sc = *c.worst_cost.shared;
    worst += fmt::format(", {} wavefronts (ideal {}), {}-way in bank {}, lane groups of {}", sc.wavefronts,
                         sc.ideal_wavefronts, sc.worst_degree, sc.worst_bank, sc.group_lanes);
  } else if (c.worst_cost.global) {
    const auto& g = *c.worst_cost.global;
    worst += fmt::format(", {} sectors (ideal {}), {}", g.sectors, g.ideal_sectors, model::coalescing_name(g.cause));
  }
  s += fmt::format("<p class=\"worst\">{}</p>\n", html_escape(worst));
  for (const SuggestedFix& f : fixes)
    if (f.region == c.region && model::space_of(c.op) == model::Space::Shared) s += f.html;
  if (const std::string svg = bank_diagram_svg(arch, c); !svg.empty()) {
    s += svg;
    s += "<p class=\"legend\">cell: lane (L) and the word it touches in that bank; "
         "<span style=\"background:#f4a7a1\"></span>conflict (the bank serves another word in the same lane group)"
         "<span style=\"background:#b9d4f5\"></span>broadcast (L+: several lanes read the word)"
         "<span style=\"background:#cfe8d5\"></span>one word</p>\n";
  }
  s += "<details open><summary>lanes of the worst warp</summary>\n" + lane_table_html(arch, c) + "</details>\n";
  s += "</div>\n";
  return s;
}

std::string details(const analysis::KernelReport& r, const model::Arch& arch, const std::vector<SuggestedFix>& fixes) {
  std::map<std::pair<std::string, int>, std::vector<std::string>> messages;
  for (const Finding& f : find_flagged_lines(r)) messages[{f.file, f.line}].push_back(finding_message(f));
  std::string s;
  for (std::size_t k = 0; k < r.lines.size(); ++k) {
    const analysis::LineReport& l = r.lines[k];
    s += fmt::format("<section class=\"line-detail\" id=\"acc-{}\"{}>\n", k, k == 0 ? "" : " hidden");
    s += fmt::format("<h2>{}:{}: {} excess wavefronts, {} excess sectors</h2>\n", html_escape(l.file), l.line,
                     l.excess_wavefronts, l.excess_sectors);
    if (!l.source.empty()) s += "<pre class=\"code\">" + html_escape(l.source) + "</pre>\n";
    if (l.timing_dependent)
      s += "<p class=\"timing\">Timing-dependent: this line runs a loop whose trips depend on timing between warps "
           "or blocks: a compare-and-swap retry loop (ptxas's lowering of a shared float or 64-bit add, or of a "
           "16-bit atomic), a lock's acquire, or a spin-wait on memory other warps or blocks write (a grid or tile "
           "barrier, a flag). Its figures count the trips of one order of the warps and blocks; on the GPU, two runs "
           "differ.</p>\n";
    for (const std::string& m : messages[{l.file, l.line}]) s += "<p class=\"finding\">" + html_escape(m) + "</p>\n";
    for (const auto& i : l.instructions) s += access_html(r, arch, i, fixes);
    for (const auto& b : l.bulk_copies) s += bulk_copy_html(b);
    s += "</section>\n";
  }
  if (r.lines.empty()) s += "<p>No memory instruction ran.</p>\n";
  return s;
}

std::string page(const analysis::KernelReport& r, const model::Arch& arch, const std::vector<SuggestedFix>& fixes,
                 const std::string& extra_header) {
  std::string s = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  s += fmt::format("<title>warpscope: {}</title>\n<style>{}</style>\n</head>\n<body>\n", html_escape(r.kernel), kStyle);
  s += fmt::format("<header>\n<h1>warpscope: {}</h1>\n", html_escape(r.kernel));
  s += fmt::format("<p>{}: grid {} block {}, {} of {} blocks emulated, priced from {} on {}</p>\n",
                   html_escape(r.ptx_file), emu::to_string(r.launch.grid), emu::to_string(r.launch.block), r.blocks_run, r.blocks_total,
                   r.priced_from == "sass" ? "the SASS" : "the PTX", html_escape(arch.name));
  s += "<table class=\"totals\">\n";
  for (const std::string& name : analysis::kernel_metric_names()) {
    auto it = r.metrics.find(name);
    if (it != r.metrics.end() && it->second != 0)
      s += fmt::format("<tr><td>{}.sum</td><td class=\"n\">{}</td></tr>\n", name, it->second);
  }
  s += "</table>\n" + extra_header + "</header>\n<main>\n<div id=\"source\">\n";
  s += listing(r);
  s += "</div>\n<div id=\"detail\">\n" + details(r, arch, fixes) + "</div>\n</main>\n";
  s += fmt::format("<script>{}</script>\n</body>\n</html>\n", kScript);
  return s;
}

}  // namespace

std::string kernel_html(const analysis::KernelReport& report, const model::Arch& arch) {
  return page(report, arch, {}, "");
}

std::string fix_html(const analysis::FixReport& r, const model::Arch& arch) {
  std::vector<SuggestedFix> fixes;
  std::string header;
  for (const analysis::ArrayFix& a : r.arrays) {
    const layout::ArrayShape shape{a.name, a.search.elem_bytes, a.size};
    std::string text;
    if (a.chosen)
      text = fmt::format("suggested fix for '{}': {} <code>{}</code>; {} &#8594; {} shared wavefronts (ideal {}), "
                         "measured by re-running the kernel; +{} B shared",
                         html_escape(a.name), html_escape(layout::describe(a.chosen->layout)),
                         html_escape(layout::layout_code(a.chosen->layout, shape)), a.before, a.after, a.ideal,
                         a.chosen->extra_bytes);
    else
      text = fmt::format("no layout of {} tried lowers the wavefronts of '{}'", a.search.candidates, html_escape(a.name));
    fixes.push_back({a.region, "<div class=\"fix\">" + text + "</div>\n"});
    header += "<p>" + text + "</p>\n";
  }
  return page(r.before, arch, fixes, header);
}

}  // namespace warpscope::report
