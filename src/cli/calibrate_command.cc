// calibrate_command.cc: measuring the model against this GPU.
#include "cli/calibrate_command.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "cli/command.h"
#include "driver/input.h"
#include "jsonio/calibration_check.h"
#include "model/arch.h"

namespace warpscope::cli {

namespace fs = std::filesystem;

namespace {

struct CalibrateOptions {
  std::vector<std::string> patterns;
  std::vector<std::string> measured;
  std::string out = "calib-out";
  std::string calib_dir;
  std::string arch = "sm_90";
  int deadline = 480;
};

// calib/ beside the source tree the binary was built in (build/warpscope -> ../calib), or ./calib.
std::string default_calib_dir() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  for (const fs::path& candidate : {exe.parent_path().parent_path() / "calib", fs::path("calib")})
    if (fs::exists(candidate / "run_calibration.sh", ec)) return candidate.string();
  return "calib";
}

int report(const std::vector<std::string>& files, const model::Arch& arch, CommandContext& ctx) {
  int rows = 0, agreeing = 0, disagreements = 0;
  for (const std::string& file : files) {
    auto text = driver::read_text_file(file);
    if (!text) {
      ctx.err << "warpscope: " << text.error().render() << "\n";
      return kExitError;
    }
    const auto check = jsonio::check_calibration(*text, arch);
    if (check.rows == 0) {  // not calibration data at all: one line, not one per row
      std::string why = check.unreadable.empty() ? "it has no rows" : check.unreadable.front();
      if (check.unreadable.size() > 1) why += fmt::format(" (and {} more rows like it)", check.unreadable.size() - 1);
      ctx.err << "warpscope: error: " << file << " is not calibration JSON lines (op, width, mask, offsets, metrics): "
              << why << "\n";
      return kExitError;
    }
    ctx.out << fmt::format("{}: {} of {} patterns agree ({} counters compared)\n", file, check.agreeing_rows, check.rows,
                           check.compared);
    for (const auto& d : check.disagreements)
      ctx.out << fmt::format("  {}:{}: {}: {} predicted {}, measured {}\n", file, d.row, d.pattern, d.metric,
                             d.predicted, d.measured);
    constexpr std::size_t kShown = 5;  // a mostly broken file should not bury the summary
    for (std::size_t i = 0; i < check.unreadable.size() && i < kShown; ++i)
      ctx.out << fmt::format("  {}: {}\n", file, check.unreadable[i]);
    if (check.unreadable.size() > kShown)
      ctx.out << fmt::format("  {}: and {} more unreadable rows\n", file, check.unreadable.size() - kShown);
    rows += check.rows;
    agreeing += check.agreeing_rows;
    disagreements += static_cast<int>(check.disagreements.size());
  }
  ctx.out << fmt::format("model {} against this GPU: {} of {} patterns agree\n", arch.name, agreeing, rows);
  return disagreements == 0 && rows > 0 ? kExitOk : kExitDisagreement;
}

int run_calibrate(const CalibrateOptions& o, CommandContext& ctx) {
  auto arch = model::find_arch(o.arch);
  if (!arch) {
    ctx.err << "warpscope: " << arch.error().render() << "\n";
    return kExitBadInput;
  }
  if (!o.measured.empty()) return report(o.measured, **arch, ctx);
  const std::string dir = o.calib_dir.empty() ? default_calib_dir() : o.calib_dir;
  const std::string script = (fs::path(dir) / "run_calibration.sh").string();
  if (!fs::exists(script)) {
    ctx.err << "warpscope: cannot find " << script << " (give --calib-dir)\n";
    return kExitError;
  }
  std::vector<std::string> patterns = o.patterns;
  if (patterns.empty()) patterns = {(fs::path(dir) / "patterns_round3.txt").string()};
  std::vector<std::string> measured;
  for (std::size_t i = 0; i < patterns.size(); ++i) {
    const std::string out = (fs::path(o.out) / ("round" + std::to_string(i + 1))).string();
    const std::string cmd = "bash '" + script + "' '" + patterns[i] + "' '" + out + "' " + std::to_string(o.deadline);
    ctx.err << "warpscope: measuring " << patterns[i] << " under ncu (" << cmd << ")\n";
    if (std::system(cmd.c_str()) != 0) {
      ctx.err << "warpscope: the calibration run failed: it needs nvcc, ncu with access to the GPU's counters, "
                 "and cuobjdump on PATH\n";
      return kExitError;
    }
    measured.push_back((fs::path(out) / "calibration.jsonl").string());
  }
  return report(measured, **arch, ctx);
}

}  // namespace

void add_calibrate_command(CLI::App& app, CommandContext& ctx) {
  auto o = std::make_shared<CalibrateOptions>();
  CLI::App* sub = app.add_subcommand("calibrate", "Measure single-instruction patterns on this GPU under ncu and report where the model disagrees");
  sub->add_option("--patterns", o->patterns, "pattern file(s) for calib/probe.cu (default calib/patterns_round3.txt)");
  sub->add_option("--measured", o->measured, "check these calibration JSONL files instead of measuring (no GPU needed)");
  sub->add_option("--out", o->out, "where measurements go")->capture_default_str();
  sub->add_option("--calib-dir", o->calib_dir, "the calib/ folder (default: beside the build)");
  sub->add_option("--deadline", o->deadline, "seconds after which no new batch of patterns starts")->capture_default_str();
  sub->add_option("--arch", o->arch, "target architecture")->capture_default_str();
  sub->callback([o, &ctx] { ctx.exit_code = run_calibrate(*o, ctx); });
}

}  // namespace warpscope::cli
