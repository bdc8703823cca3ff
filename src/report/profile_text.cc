// profile_text.cc: the measured-against-predicted comparison as text.
#include "report/profile_text.h"

#include <cmath>

#include <fmt/format.h>

#include <map>

#include "support/kernel_name.h"

namespace warpscope::report {

namespace {

std::string number(double v) {
  // Whole numbers print without decimals (the range check first: the cast of a huge or
  // non-finite value would be undefined).
  if (std::fabs(v) < 9e18 && std::floor(v) == v) return fmt::format("{}", static_cast<long long>(v));
  return fmt::format("{:.2f}", v);
}

// Numbers the distinct explanations in order of first use, for footnotes.
struct Footnotes {
  std::vector<std::string> texts;
  std::string mark(const profile::FigureComparison& f) {
    if (!f.differs()) return "";
    if (f.explanation.empty()) return "  UNEXPLAINED";
    for (std::size_t i = 0; i < texts.size(); ++i)
      if (texts[i] == f.explanation) return fmt::format("  [{}]", i + 1);
    texts.push_back(f.explanation);
    return fmt::format("  [{}]", texts.size());
  }
};

// "262144 = 262144", "0 ≠ 18399" in ASCII: "0 vs 18399".
std::string pair_cell(const profile::FigureComparison& f) {
  const std::string m = f.measured ? number(*f.measured) : "-";
  return fmt::format("{} {} {}", m, f.differs() ? "vs" : "=", f.predicted);
}

void kernel_text(const profile::KernelComparison& k, std::string& out) {
  const auto& m = k.measured;
  out += fmt::format("{}  ncu ID {}  grid {} block {}{}\n", demangle(m.name), m.id, emu::to_string(m.grid), emu::to_string(m.block),
                     m.device.empty() ? "" : "  " + m.device);
  if (!k.launch.empty()) out += fmt::format("  launch    {}\n", k.launch);
  if (!k.predicted) {
    out += fmt::format("  measured only: {}\n", k.missing);
    for (const std::string& name : analysis::kernel_metric_names())
      if (auto it = m.metrics.find(name); it != m.metrics.end() && it->second != 0)
        out += fmt::format("  {:<56} {:>12}\n", name, number(it->second));
    out += "\n";
    return;
  }
  for (const auto& n : k.notes) out += fmt::format("  note      {}\n", n);
  Footnotes notes;
  out += fmt::format("  {:<56} {:>12} {:>12} {:>12}\n", "metric (ncu, .sum)", "measured", "predicted", "difference");
  for (const auto& f : k.metrics) {
    if ((!f.measured || *f.measured == 0) && f.predicted == 0) continue;  // nothing either way
    const std::string diff = f.measured ? number(*f.measured - static_cast<double>(f.predicted)) : " not collected";
    out += fmt::format("  {:<56} {:>12} {:>12} {:>12}{}\n", f.name, f.measured ? number(*f.measured) : "-", f.predicted,
                       diff, notes.mark(f));
  }
  if (k.has_source_page) {
    out += fmt::format("  {:<34} {:>22} {:>20} {:>22} {:>20}   (measured = predicted, or vs)\n", "source line",
                       "L1 wavefronts shared", "ideal", "L2 sectors global", "ideal");
    for (const auto& l : k.lines) {
      std::string marks;
      for (const auto& f : l.figures) {
        const std::string mark = notes.mark(f);
        if (!mark.empty() && marks.find(mark) == std::string::npos) marks += mark;
      }
      out += fmt::format("  {:<34} {:>22} {:>20} {:>22} {:>20}{}\n", fmt::format("{}:{}", l.file, l.line),
                         pair_cell(l.figures[0]), pair_cell(l.figures[1]), pair_cell(l.figures[2]), pair_cell(l.figures[3]),
                         marks);
    }
  } else {
    out += "  (no Source page for this launch: per-line figures not compared)\n";
  }
  if (k.differences == 0)
    out += "  agrees: every figure measured equals its prediction\n";
  else
    out += fmt::format("  {} figure{} differ, {} unexplained\n", k.differences, k.differences == 1 ? "" : "s", k.unexplained);
  for (std::size_t i = 0; i < notes.texts.size(); ++i) out += fmt::format("  [{}] {}\n", i + 1, notes.texts[i]);
  out += "\n";
}

}  // namespace

std::string profile_text(const std::vector<profile::KernelComparison>& kernels) {
  std::string out;
  int predicted = 0, agree = 0, explained = 0, unexplained = 0;
  for (const auto& k : kernels) {
    kernel_text(k, out);
    if (!k.predicted) continue;
    ++predicted;
    agree += k.differences == 0;
    explained += k.differences > 0 && k.unexplained == 0;
    unexplained += k.unexplained > 0;
  }
  out += fmt::format("{} kernel launch{} profiled, {} predicted: {} agree on every figure, {} differ only where the cause "
                     "is known, {} differ unexplained",
                     kernels.size(), kernels.size() == 1 ? "" : "es", predicted, agree, explained, unexplained);
  if (kernels.size() > static_cast<std::size_t>(predicted))
    out += fmt::format("; {} measured only", kernels.size() - static_cast<std::size_t>(predicted));
  out += "\n";
  return out;
}

}  // namespace warpscope::report
