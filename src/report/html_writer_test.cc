// html_writer_test.cc: the HTML page is well formed, self-contained, escapes the source, and
// draws the bank diagram the cost model's figures describe.
#include "report/html_writer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "model/access_cost.h"
#include "report/html_access.h"
#include "report/test_report.h"

namespace warpscope::report {
namespace {

const model::Arch& sm90() { return **model::find_arch("sm_90"); }

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

// Every element opened is closed, in order (void elements and "/>" aside); <style> and
// <script> bodies are skipped. Returns the first problem, or "".
std::string unbalanced_tags(const std::string& html) {
  static const std::vector<std::string> kVoid = {"meta", "br", "hr", "img", "input", "link"};
  std::vector<std::string> open;
  std::size_t at = 0;
  while ((at = html.find('<', at)) != std::string::npos) {
    const std::size_t end = html.find('>', at);
    if (end == std::string::npos) return "unterminated tag at " + std::to_string(at);
    const std::string tag = html.substr(at + 1, end - at - 1);
    at = end + 1;
    if (tag.empty() || tag[0] == '!') continue;
    if (tag[0] == '/') {
      const std::string name = tag.substr(1);
      if (open.empty() || open.back() != name) return "</" + name + "> closes <" + (open.empty() ? "" : open.back()) + ">";
      open.pop_back();
      continue;
    }
    const std::string name = tag.substr(0, tag.find_first_of(" \n>/"));
    if (tag.back() == '/' || std::find(kVoid.begin(), kVoid.end(), name) != kVoid.end()) continue;
    if (name == "style" || name == "script") {
      at = html.find("</" + name + ">", at);
      if (at == std::string::npos) return "unclosed <" + name + ">";
      at += name.size() + 3;
      continue;
    }
    open.push_back(name);
  }
  return open.empty() ? "" : "unclosed <" + open.back() + ">";
}

// The sample report with real worst warps: s[lane * 32] (32-way in bank 0), and the source
// of transpose_tiled.cu with characters that need escaping.
analysis::KernelReport report_with_warps() {
  analysis::KernelReport r = testing::sample_report();
  const model::Arch& arch = sm90();
  analysis::InstructionCost& c = r.lines[0].instructions[0].cost;
  for (int lane = 0; lane < model::kWarpSize; ++lane) c.worst_access.address[lane] = 128u * lane;
  c.worst_cost = *model::price(arch, c.worst_access);
  r.lines[0].worst = r.lines[0].instructions[0];
  std::vector<std::string> source(30, "  // padding");
  source[21] = "    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];";
  source[26] = r.lines[0].source;
  source[27] = "    if (a < b && c) { /* <script>alert(1)</script> */ }";
  r.sources = {{"transpose_tiled.cu", source}};
  return r;
}

TEST(HtmlWriter, WellFormedAndSelfContained) {
  const std::string html = kernel_html(report_with_warps(), sm90());
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_EQ(unbalanced_tags(html), "");
  EXPECT_EQ(count(html, "http:"), 0u);
  EXPECT_EQ(count(html, "https:"), 0u);
  EXPECT_EQ(count(html, "<link"), 0u);
  EXPECT_EQ(count(html, " src="), 0u);
  EXPECT_EQ(count(html, "<style>"), 1u);
  EXPECT_EQ(count(html, "<script>"), 1u);  // the page's own; the source's is escaped
}

TEST(HtmlWriter, EscapesTheSource) {
  const std::string html = kernel_html(report_with_warps(), sm90());
  EXPECT_NE(html.find("if (a &lt; b &amp;&amp; c) { /* &lt;script&gt;alert(1)&lt;/script&gt; */ }"), std::string::npos);
  EXPECT_EQ(html.find("a < b"), std::string::npos);
  EXPECT_EQ(html_escape("<a href=\"x\">&'"), "&lt;a href=&quot;x&quot;&gt;&amp;&#39;");
}

TEST(HtmlWriter, ListsEveryLineShadedByItsExcess) {
  const std::string html = kernel_html(report_with_warps(), sm90());
  EXPECT_EQ(count(html, "<tr class=\"src-line"), 30u + 1u);  // the file, and aos_soa.cu:17 (unreadable)
  // Line 27 is the worst: opened first, shaded fully, marked 32-way.
  const std::size_t row = html.find("data-target=\"acc-0\" data-line=\"27\"");
  ASSERT_NE(row, std::string::npos);
  const std::string tr = html.substr(html.rfind("<tr", row), html.find("</tr>", row) - html.rfind("<tr", row));
  EXPECT_NE(tr.find("src-line hot conflict"), std::string::npos);
  EXPECT_NE(tr.find("rgba(220, 50, 32, 0.72)"), std::string::npos);
  EXPECT_NE(tr.find("<span class=\"deg\">32-way</span>"), std::string::npos);
  EXPECT_NE(tr.find(">253952<"), std::string::npos);
  // Line 22 has accesses and no excess: clickable, not shaded.
  const std::size_t clean = html.find("data-line=\"22\"");
  ASSERT_NE(clean, std::string::npos);
  const std::string clean_tr = html.substr(html.rfind("<tr", clean), html.find("</tr>", clean) - html.rfind("<tr", clean));
  EXPECT_NE(clean_tr.find("src-line clean"), std::string::npos);
  EXPECT_EQ(clean_tr.find("style="), std::string::npos);
  EXPECT_NE(html.find("<h2>Lines whose source was not readable</h2>"), std::string::npos);
  EXPECT_NE(html.find("aos_soa.cu:17"), std::string::npos);
  EXPECT_NE(html.find("<section class=\"line-detail\" id=\"acc-0\">"), std::string::npos);
  EXPECT_NE(html.find("<section class=\"line-detail\" id=\"acc-1\" hidden>"), std::string::npos);
}

TEST(HtmlWriter, DrawsTheBankDiagramOfTheWorstWarp) {
  const std::string html = kernel_html(report_with_warps(), sm90());
  EXPECT_EQ(count(html, "<svg class=\"bank-diagram\""), 1u);  // the shared load only
  EXPECT_NE(html.find("data-banks=\"32\" data-wavefronts=\"32\""), std::string::npos);
  EXPECT_EQ(count(html, "<text class=\"bank-col"), 32u);
  EXPECT_EQ(count(html, "<text class=\"bank-col worst\""), 1u);
  // 32 lanes, 32 distinct words, all in bank 0: one column of 32 conflicting cells.
  EXPECT_EQ(count(html, "<g class=\"cell conflict\""), 32u);
  EXPECT_EQ(count(html, "data-bank=\"0\" data-word="), 32u);
  EXPECT_NE(html.find("data-lane=\"31\" data-bank=\"0\" data-word=\"992\""), std::string::npos);
  EXPECT_NE(html.find("32 wavefronts (ideal 1), 32-way in bank 0, lane groups of 32"), std::string::npos);
  EXPECT_NE(html.find("32-way shared-memory bank conflict loading &#39;tile&#39;"), std::string::npos);
}

TEST(HtmlWriter, BroadcastCellsAndLaneTable) {
  analysis::InstructionCost c = testing::shared_load(1, 1, 1, 0).cost;
  c.worst_access.address.fill(0);  // every lane reads word 0: one broadcast cell
  c.worst_access.address[5] = 4;
  c.worst_cost = *model::price(sm90(), c.worst_access);
  const std::string svg = bank_diagram_svg(sm90(), c);
  EXPECT_EQ(count(svg, "<g class=\"cell broadcast\" data-lane=\"0\" data-bank=\"0\""), 1u);
  EXPECT_EQ(count(svg, "<g class=\"cell ok\" data-lane=\"5\" data-bank=\"1\""), 1u);
  EXPECT_EQ(count(svg, "<g class=\"cell"), 2u);
  EXPECT_NE(svg.find("31 lanes share it (broadcast)"), std::string::npos);
  const std::string table = lane_table_html(sm90(), c);
  EXPECT_EQ(count(table, "<tr>"), 33u);  // the head and 32 lanes
  EXPECT_NE(table.find("<tr><td>5</td><td>0x4</td><td>1</td><td>1</td></tr>"), std::string::npos);
}

TEST(HtmlWriter, FixPageShowsTheChosenLayoutBesideTheAccesses) {
  analysis::FixReport fix;
  fix.before = report_with_warps();
  fix.after = fix.before;
  analysis::ArrayFix a;
  a.region = 0;
  a.name = "tile";
  a.size = 4096;
  a.search.elem_bytes = 4;
  a.before = 270336;
  a.after = 16384;
  a.ideal = 16384;
  a.chosen = analysis::LayoutCandidate{layout::Swizzle{5, 2, 5}, 16384, 0, 2};
  fix.arrays = {a};
  const std::string html = fix_html(fix, sm90());
  EXPECT_EQ(unbalanced_tags(html), "");
  EXPECT_EQ(count(html, "<div class=\"fix\">suggested fix for 'tile': Swizzle&lt;5,2,5&gt; <code>tile[r][c ^ (r &amp; 31)]"), 1u);
  EXPECT_NE(html.find("270336 &#8594; 16384 shared wavefronts"), std::string::npos);
}

}  // namespace
}  // namespace warpscope::report
