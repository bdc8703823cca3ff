// check_report.cc: the check table, its JSON, baselines, and the comparison (check_report.h).
#include "report/check_report.h"

#include "support/kernel_name.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "ptx/source_position.h"
#include "report/sarif_writer.h"

namespace warpscope::report {

namespace {

long long get(const analysis::Metrics& m, const std::string& name) {
  auto it = m.find(name);
  return it == m.end() ? 0 : it->second;
}

std::string line_key(const analysis::LineReport& l) { return l.file + ":" + std::to_string(l.line); }

// A line's figures as a baseline keeps them: the Source page's four, and the excess.
analysis::Metrics line_figures(const analysis::Metrics& m) {
  analysis::Metrics out;
  for (const char* name : {analysis::kSourceWavefronts, analysis::kSourceWavefrontsIdeal, analysis::kSourceSectors,
                           analysis::kSourceSectorsIdeal})
    out[name] = get(m, name);
  return out;
}

// The figures compared, per line: cost can only be worse when it grows.
struct LineFigure {
  const char* what;
  long long (*of)(const analysis::Metrics&);
};
constexpr LineFigure kLineFigures[] = {
    {"shared wavefronts", [](const analysis::Metrics& m) { return get(m, analysis::kSourceWavefronts); }},
    {"excess shared wavefronts",
     [](const analysis::Metrics& m) { return get(m, analysis::kSourceWavefronts) - get(m, analysis::kSourceWavefrontsIdeal); }},
    {"global sectors", [](const analysis::Metrics& m) { return get(m, analysis::kSourceSectors); }},
    {"excess global sectors",
     [](const analysis::Metrics& m) { return get(m, analysis::kSourceSectors) - get(m, analysis::kSourceSectorsIdeal); }},
};

std::string fraction(long long a, long long b) { return fmt::format("{}/{}", a, b); }

}  // namespace

const char* CheckedLaunch::status() const {
  if (!error.empty() || !report) return "error";
  if (!failures.empty()) return "failed";
  if (!regressions.empty()) return "worse";
  return "ok";
}

Expected<std::vector<BaselineLaunch>> read_baseline(const std::string& json_text, const std::string& path) {
  const auto j = nlohmann::json::parse(json_text, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("launches") || !j["launches"].is_array())
    return make_error("--baseline: '" + path + "' is not the output of `warpscope check --json`");
  std::vector<BaselineLaunch> out;
  try {
    for (const auto& l : j["launches"]) {
      if (!l.contains("metrics")) continue;  // a launch that could not run has no figures
      BaselineLaunch b;
      b.name = l.at("name").get<std::string>();
      b.metrics = l.at("metrics").get<analysis::Metrics>();
      for (const auto& line : l.value("lines", nlohmann::json::array()))
        b.lines.emplace_back(line.at("file").get<std::string>() + ":" + std::to_string(line.at("line").get<int>()),
                             line.at("metrics").get<analysis::Metrics>());
      out.push_back(std::move(b));
    }
  } catch (const nlohmann::json::exception& e) {
    return make_error("--baseline: '" + path + "' is not the output of `warpscope check --json` (" + e.what() + ")");
  }
  return out;
}

std::vector<std::string> regressions(const analysis::KernelReport& now, const BaselineLaunch& before) {
  std::vector<std::string> out;
  for (const std::string& name : analysis::kernel_metric_names())
    if (get(now.metrics, name) > get(before.metrics, name))
      out.push_back(fmt::format("{}: {} -> {}", name, get(before.metrics, name), get(now.metrics, name)));
  std::map<std::string, const analysis::Metrics*> old_lines;
  for (const auto& [key, m] : before.lines) old_lines[key] = &m;
  for (const analysis::LineReport& l : now.lines) {
    auto it = old_lines.find(line_key(l));
    if (it == old_lines.end()) continue;  // a line that moved or is new: the kernel's totals judge it
    for (const LineFigure& f : kLineFigures)
      if (f.of(l.metrics) > f.of(*it->second))
        out.push_back(fmt::format("{}:{} {}: {} -> {}", ptx::display_file(l.file), l.line, f.what, f.of(*it->second),
                                  f.of(l.metrics)));
  }
  return out;
}

std::string check_text(const CheckRun& run, bool verbose) {
  std::size_t name_width = 6, kernel_width = 6;
  for (const CheckedLaunch& l : run.launches) {
    name_width = std::max(name_width, l.name.size());
    if (l.report) kernel_width = std::max(kernel_width, std::min<std::size_t>(kernel_short_name(l.report->kernel_symbol).size(), 40));
  }
  std::string s = fmt::format("warpscope check {}: {} launches{}\n", run.launches_file, run.launches.size(),
                              run.has_baseline ? ", against the baseline" : "");
  s += fmt::format("  {:<{}}  {:<{}}  {:>17}  {:>10}  {:>21}  {}\n", "launch", name_width, "kernel", kernel_width,
                   "shared wf/ideal", "conflicts", "global sectors/ideal", "status");
  int counts[4] = {0, 0, 0, 0};  // ok, failed, worse, error
  for (const CheckedLaunch& l : run.launches) {
    const std::string status = l.status();
    ++counts[status == "ok" ? 0 : status == "failed" ? 1 : status == "worse" ? 2 : 3];
    if (!l.report) {
      s += fmt::format("  {:<{}}  {:<{}}  {:>17}  {:>10}  {:>21}  {}\n", l.name, name_width, "-", kernel_width, "-", "-",
                       "-", "ERROR");
      continue;
    }
    const analysis::Metrics& m = l.report->metrics;
    const long long wf = get(m, analysis::kSourceWavefronts), ideal = get(m, analysis::kSourceWavefrontsIdeal);
    std::string kernel = kernel_short_name(l.report->kernel_symbol);  // the table names templates, not parameters
    if (kernel.size() > 40) kernel = kernel.substr(0, 37) + "...";
    std::string shown = status == "ok" ? "ok" : status == "failed" ? "FAIL" : "WORSE";
    if (status == "failed" && !l.regressions.empty()) shown += ", WORSE";
    s += fmt::format("  {:<{}}  {:<{}}  {:>17}  {:>10}  {:>21}  {}\n", l.name, name_width, kernel, kernel_width,
                     fraction(wf, ideal), wf - ideal,
                     fraction(get(m, analysis::kSourceSectors), get(m, analysis::kSourceSectorsIdeal)), shown);
  }
  for (const CheckedLaunch& l : run.launches) {
    if (std::string(l.status()) == "ok") continue;
    s += fmt::format("\n{} ({}):\n", l.name, l.origin);
    if (!l.error.empty()) s += "  could not run: " + l.error + "\n";
    for (const std::string& f : l.failures) s += "  " + f + "\n";
    for (const std::string& r : l.regressions) s += "  worse than the baseline: " + r + "\n";
    if (l.report && (!l.failures.empty() || !l.regressions.empty()) && !l.fix_command.empty())
      s += "  to see why and what would fix it: " + l.fix_command + "\n";
    if (verbose && l.report)
      for (const auto& d : l.report->diagnostics) s += "  " + d.message + "\n";
  }
  for (const std::string& n : run.notes) s += "\nnote: " + n + "\n";
  s += fmt::format("\n{} launches: {} ok, {} failed a --fail-on condition, {} worse than the baseline, {} could not run\n",
                   run.launches.size(), counts[0], counts[1], counts[2], counts[3]);
  return s;
}

nlohmann::json check_json(const CheckRun& run) {
  nlohmann::json launches = nlohmann::json::array();
  int counts[4] = {0, 0, 0, 0};
  for (const CheckedLaunch& l : run.launches) {
    const std::string status = l.status();
    ++counts[status == "ok" ? 0 : status == "failed" ? 1 : status == "worse" ? 2 : 3];
    nlohmann::json j{{"name", l.name}, {"origin", l.origin}, {"status", status}};
    if (!l.error.empty()) j["error"] = l.error;
    if (l.report) {
      j["kernel"] = l.report->kernel;
      j["metrics"] = l.report->metrics;
      nlohmann::json lines = nlohmann::json::array();
      for (const analysis::LineReport& line : l.report->lines)
        lines.push_back({{"file", line.file}, {"line", line.line}, {"metrics", line_figures(line.metrics)}});
      j["lines"] = std::move(lines);
    }
    j["failures"] = l.failures;
    j["regressions"] = l.regressions;
    launches.push_back(std::move(j));
  }
  return {{"check", run.launches_file},
          {"launches", std::move(launches)},
          {"notes", run.notes},
          {"summary",
           {{"launches", run.launches.size()}, {"ok", counts[0]}, {"failed", counts[1]}, {"worse", counts[2]},
            {"errors", counts[3]}}}};
}

nlohmann::json check_sarif(const CheckRun& run) {
  nlohmann::json runs = nlohmann::json::array();
  for (const CheckedLaunch& l : run.launches) {
    if (!l.report) continue;
    nlohmann::json one = kernel_sarif(*l.report)["runs"][0];
    one["properties"]["launch"] = l.name;
    one["automationDetails"] = {{"id", "warpscope-check/" + l.name}};
    runs.push_back(std::move(one));
  }
  return {{"$schema", kSarifSchema}, {"version", "2.1.0"}, {"runs", std::move(runs)}};
}

}  // namespace warpscope::report
