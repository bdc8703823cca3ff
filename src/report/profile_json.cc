// profile_json.cc: the measured-against-predicted comparison as data.
#include "report/profile_json.h"

#include "support/kernel_name.h"

namespace warpscope::report {

namespace {

nlohmann::json figures_json(const std::vector<profile::FigureComparison>& figures) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& f : figures) {
    nlohmann::json j{{"name", f.name}, {"predicted", f.predicted}};
    if (f.measured) {
      j["measured"] = *f.measured;
      j["difference"] = *f.measured - static_cast<double>(f.predicted);
    } else {
      j["measured"] = nullptr;
    }
    if (!f.explanation.empty()) j["explanation"] = f.explanation;
    out.push_back(std::move(j));
  }
  return out;
}

}  // namespace

nlohmann::json profile_json(const std::vector<profile::KernelComparison>& kernels) {
  nlohmann::json list = nlohmann::json::array();
  int predicted = 0, agree = 0, differences = 0, unexplained = 0;
  for (const auto& k : kernels) {
    const auto& m = k.measured;
    // ncu's name when it is demangled already; a mangled one (--print-kernel-base mangled)
    // demangled, with ncu's kept as ncu_name.
    const std::string shown = demangle(m.name) == m.name ? m.name : kernel_display_name(m.name);
    nlohmann::json j{{"name", shown},
                     {"id", m.id},
                     {"grid", {m.grid.x, m.grid.y, m.grid.z}},
                     {"block", {m.block.x, m.block.y, m.block.z}},
                     {"predicted", k.predicted}};
    if (shown != m.name) j["ncu_name"] = m.name;
    if (!m.device.empty()) j["device"] = m.device;
    if (!k.launch.empty()) j["launch"] = k.launch;
    if (!k.predicted) {
      j["missing"] = k.missing;
      j["measured"] = m.metrics;
    } else {
      j["notes"] = k.notes;
      j["metrics"] = figures_json(k.metrics);
      nlohmann::json lines = nlohmann::json::array();
      for (const auto& l : k.lines)
        lines.push_back({{"file", l.file}, {"line", l.line}, {"source", l.source}, {"figures", figures_json(l.figures)}});
      j["source_page"] = k.has_source_page;
      j["lines"] = std::move(lines);
      j["differences"] = k.differences;
      j["unexplained"] = k.unexplained;
      ++predicted;
      agree += k.differences == 0;
      differences += k.differences;
      unexplained += k.unexplained;
    }
    list.push_back(std::move(j));
  }
  return {{"kernels", std::move(list)},
          {"summary",
           {{"kernels", kernels.size()},
            {"predicted", predicted},
            {"agree", agree},
            {"differences", differences},
            {"unexplained", unexplained}}}};
}

}  // namespace warpscope::report
