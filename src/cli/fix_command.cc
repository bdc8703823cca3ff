// fix_command.cc: `warpscope fix`: read, record, search, prove, print.
#include "cli/fix_command.h"

#include <CLI/CLI.hpp>

#include <cstdlib>
#include <memory>
#include <ostream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "cli/command.h"
#include "cli/launch_options.h"
#include "cli/progress_bar.h"
#include "driver/analyze.h"
#include "driver/input.h"
#include "report/fix_report.h"
#include "report/html_writer.h"
#include "report/kernel_text.h"

#include <nlohmann/json.hpp>

namespace warpscope::cli {

namespace {

struct FixOptions {
  LaunchOptions launch;
  bool json = false;
  std::string html;
  int keep = 5;
  int registers = 0;  // --registers: given, instead of asking ptxas -v
  std::string min_gain = "1%";
};

// "1%", "0.5%" or "0.01" -> a fraction; a usage error otherwise.
Expected<double> parse_min_gain(const std::string& text) {
  std::string s = text;
  const bool percent = !s.empty() && s.back() == '%';
  if (percent) s.pop_back();
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (s.empty() || end != s.c_str() + s.size() || !(v >= 0) || (percent ? v > 100 : v > 1))
    return make_usage_error("--min-gain: '" + text + "' is not a fraction 0..1 or a percentage like 1%");
  return percent ? v / 100 : v;
}

int fail(CommandContext& ctx, const Error& e) { return report_error(ctx, e); }

int run_fix(const FixOptions& o, CommandContext& ctx) {
  auto min_gain = parse_min_gain(o.min_gain);
  if (!min_gain) return fail(ctx, min_gain.error());
  auto prepared = prepare_launch(o.launch, ctx.in);
  if (!prepared) return fail(ctx, prepared.error());
  const driver::PreparedLaunch& p = **prepared;
  // One bar per run: the fix runs the kernel several times; a count that starts again
  // begins a new bar.
  ProgressBar bar(ctx.err, ctx.err_is_terminal && !o.launch.quiet, terminal_columns());
  auto draw = bar.hook();
  std::uint64_t last = 0;
  driver::ProgressHook progress;
  if (draw)
    progress = [&](std::uint64_t done, std::uint64_t total) {
      if (done < last) bar.restart();
      last = done;
      draw(done, total);
    };
  auto fixed = driver::fix_kernel(p, driver::FixRequest{static_cast<std::size_t>(std::max(1, o.keep)), o.registers, *min_gain},
                                  progress);
  bar.finish();
  if (!fixed) return fail(ctx, fixed.error());
  const analysis::FixReport& report = fixed->report;
  if (fixed->failed) {  // partial figures: nothing to fix or prove yet
    if (o.json) {
      nlohmann::json diagnostics = nlohmann::json::array();
      for (const auto& d : fixed->diagnostics) diagnostics.push_back(report::diagnostic_text(d, o.launch.verbose));
      ctx.out << nlohmann::json{{"kernel", report.before.kernel}, {"failed", true}, {"diagnostics", diagnostics}}.dump(2)
              << "\n";
    } else {
      ctx.out << "warpscope fix: " << report.before.kernel
              << ": the emulation stopped with an error, so there is nothing to fix or prove yet:\n";
      for (const auto& d : fixed->diagnostics) ctx.out << "  " << report::diagnostic_text(d, o.launch.verbose) << "\n";
    }
    for (const auto& d : fixed->diagnostics) ctx.err << "warpscope: " << report::diagnostic_text(d, o.launch.verbose) << "\n";
    return kExitError;
  }
  if (!o.html.empty())
    if (auto written = driver::write_text_file(o.html, report::fix_html(report, *p.arch)); !written)
      return fail(ctx, written.error());
  if (o.json)
    ctx.out << report::fix_json(report).dump(2) << "\n";
  else
    ctx.out << report::fix_text(report);
  for (const auto& d : fixed->diagnostics) ctx.err << "warpscope: " << report::diagnostic_text(d, o.launch.verbose) << "\n";
  return kExitOk;
}

}  // namespace

void add_fix_command(CLI::App& app, CommandContext& ctx) {
  auto o = std::make_shared<FixOptions>();
  CLI::App* sub = app.add_subcommand(
      "fix", "Find the shared layouts, atomics rewrites and global changes that remove a kernel's excess memory traffic, and "
             "prove them by re-running the kernel");
  add_launch_options(*sub, o->launch);
  sub->add_option("--candidates", o->keep, "candidate layouts reported per array")->capture_default_str();
  sub->add_option("--min-gain", o->min_gain,
                  "offer only changes that save at least this much of what they change: a fraction or a percentage "
                  "(an array's wavefronts, a line's sectors)")
      ->capture_default_str();
  sub->add_flag("--json", o->json, "print the result as JSON");
  sub->add_option("--html", o->html, "also write the first run's report as an HTML page, with the chosen layouts")
      ->type_name("FILE");
  sub->add_option("--registers", o->registers,
                  "registers per thread for occupancy (default: ptxas -v when ptxas is found and --no-sass is not given)")
      ->check(CLI::Range(1, 255));
  sub->callback([o, &ctx] { ctx.exit_code = run_fix(*o, ctx); });
}

}  // namespace warpscope::cli
