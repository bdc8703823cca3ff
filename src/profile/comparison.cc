// comparison.cc: measured against predicted, with the known causes of differences.
#include "profile/comparison.h"

#include <cmath>
#include <map>

namespace warpscope::profile {

namespace {

// Known causes, checked in order; the first that applies explains a difference.
constexpr const char* kArbitration =
    "arbitration: ncu's bank-conflict counter also counts cycles an access waits for the shared-memory "
    "pipe behind other traffic; the wavefronts, which cost the time, agree";
constexpr const char* kInlined =
    "inlined code: ncu shows an inlined instruction at its innermost line, and at the call site only for some "
    "instructions; warpscope counts it at both";
constexpr const char* kSampled = "sampled: the prediction ran only some blocks (--blocks) and scales their totals";
constexpr const char* kPtxOnly =
    "priced from the PTX: ptxas may have merged accesses into vector instructions (ptxas or nvdisasm was missing)";

const char* const kLineColumns[] = {analysis::kSourceWavefronts, analysis::kSourceWavefrontsIdeal,
                                    analysis::kSourceSectors, analysis::kSourceSectorsIdeal};

// Every launch is priced from its listing when ptxas and nvdisasm can make one (driver/launch.cc).
bool priced_without_sass(const analysis::KernelReport& r) { return r.priced_from != "sass"; }

// The wavefront metric that a bank-conflict metric is the excess of.
std::string wavefronts_of(const std::string& conflicts) {
  const std::string from = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_", to = "l1tex__data_pipe_lsu_wavefronts_mem_shared_";
  return conflicts.rfind(from, 0) == 0 ? to + conflicts.substr(from.size()) : std::string();
}

void explain_common(FigureComparison& f, const analysis::KernelReport& r) {
  if (!f.differs() || !f.explanation.empty()) return;
  if (r.blocks_run < r.blocks_total) f.explanation = kSampled;
  else if (priced_without_sass(r)) f.explanation = kPtxOnly;
}

void count(KernelComparison& k, const FigureComparison& f) {
  if (!f.differs()) return;
  ++k.differences;
  if (f.explanation.empty()) ++k.unexplained;
}

}  // namespace

std::string file_key(const std::string& path) {
  const auto slash = path.find_last_of("/\\");
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

LineSet inlined_call_sites(const ptx::Module& module, int function) {
  LineSet sites;
  if (function < 0 || static_cast<std::size_t>(function) >= module.functions.size()) return sites;
  for (const ptx::Instruction& inst : module.functions[static_cast<std::size_t>(function)].body) {
    if (!inst.debug.inlined()) continue;
    for (const ptx::SourceLoc& loc : {inst.debug.outer, inst.debug.inner}) {
      auto file = module.files.find(loc.file);
      if (loc.known() && file != module.files.end() && !(loc == inst.debug.loc)) sites.insert({file_key(file->second), loc.line});
    }
  }
  return sites;
}

KernelComparison measured_only(const MeasuredKernel& measured, std::string why) {
  KernelComparison k;
  k.measured = measured;
  k.missing = std::move(why);
  return k;
}

KernelComparison compare_kernel(const MeasuredKernel& measured, const MeasuredSource* source,
                                const analysis::KernelReport& report, const LineSet& call_sites) {
  KernelComparison k;
  k.measured = measured;
  k.predicted = true;
  if (report.blocks_run < report.blocks_total)
    k.notes.push_back("predicted from " + std::to_string(report.blocks_run) + " of " + std::to_string(report.blocks_total) +
                      " blocks, totals scaled");
  if (priced_without_sass(report)) k.notes.push_back("priced from the PTX: " + report.sass_note);

  for (const std::string& name : analysis::kernel_metric_names()) {
    FigureComparison f;
    f.name = name;
    auto p = report.metrics.find(name);
    f.predicted = p == report.metrics.end() ? 0 : p->second;
    if (auto m = measured.metrics.find(name); m != measured.metrics.end()) f.measured = m->second;
    if (f.differs()) {
      const std::string wf = wavefronts_of(name);
      auto mw = measured.metrics.find(wf);
      auto pw = report.metrics.find(wf);
      if (!wf.empty() && mw != measured.metrics.end() && pw != report.metrics.end() &&
          mw->second == static_cast<double>(pw->second))
        f.explanation = kArbitration;
      explain_common(f, report);
    }
    count(k, f);
    k.metrics.push_back(std::move(f));
  }

  if (source == nullptr) return k;
  if (source->lines.empty()) {  // only SASS rows: ncu found none of the CUDA files
    k.notes.push_back("the Source page has no CUDA lines (ncu did not find the .cu files): per-line figures not compared");
    return k;
  }
  k.has_source_page = true;
  // (file, line) -> [measured line, predicted line]
  std::map<std::pair<std::string, int>, std::pair<const MeasuredLine*, const analysis::LineReport*>> lines;
  for (const MeasuredLine& l : source->lines) lines[{file_key(l.file), l.line}].first = &l;
  for (const analysis::LineReport& l : report.lines) lines[{file_key(l.file), l.line}].second = &l;
  for (const auto& [key, pair] : lines) {
    const auto& [m, p] = pair;
    LineComparison lc;
    lc.file = key.first;
    lc.line = key.second;
    lc.source = p != nullptr && !p->source.empty() ? p->source : m != nullptr ? m->source : "";
    bool any = false;
    for (const char* column : kLineColumns) {
      FigureComparison f;
      f.name = column;
      if (p != nullptr)
        if (auto it = p->metrics.find(column); it != p->metrics.end()) f.predicted = it->second;
      double mv = 0;
      if (m != nullptr)
        if (auto it = m->metrics.find(column); it != m->metrics.end()) mv = it->second;
      f.measured = mv;
      any = any || mv != 0 || f.predicted != 0;
      if (f.differs() && call_sites.count(key) && mv < static_cast<double>(f.predicted)) f.explanation = kInlined;
      explain_common(f, report);
      lc.figures.push_back(std::move(f));
    }
    if (!any) continue;
    for (const auto& f : lc.figures) count(k, f);
    k.lines.push_back(std::move(lc));
  }
  return k;
}

}  // namespace warpscope::profile
