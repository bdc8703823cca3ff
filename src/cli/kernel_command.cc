// kernel_command.cc: `warpscope kernel`: read, emulate, price, report.
#include "cli/kernel_command.h"

#include <CLI/CLI.hpp>

#include <fstream>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "analysis/fail_condition.h"
#include "analysis/kernel_report.h"
#include "cli/command.h"
#include "cli/launch_options.h"
#include "cli/progress_bar.h"
#include "driver/analyze.h"
#include "driver/input.h"
#include "report/diagnostics_writer.h"
#include "report/html_writer.h"
#include "report/kernel_json.h"
#include "report/kernel_text.h"
#include "report/sarif_writer.h"

namespace warpscope::cli {

namespace {

struct KernelOptions {
  LaunchOptions launch;
  bool json = false;
  // Reports for editors, dashboards and CI (see docs/ci.md).
  bool no_diagnostics = false;
  std::string sarif;
  std::string html;
  std::vector<std::string> fail_on;
};

int fail(CommandContext& ctx, const Error& e) { return report_error(ctx, e); }

// Compiler-style diagnostics, the SARIF log, and the --fail-on gate: kExitOk, kExitError
// (the SARIF file could not be written) or kExitGateFailed.
int report_findings(const KernelOptions& o, const analysis::KernelReport& report,
                    const std::vector<analysis::FailCondition>& conditions, CommandContext& ctx) {
  if (!o.no_diagnostics) ctx.err << report::diagnostics_text(report);
  if (!o.sarif.empty()) {
    std::ofstream file(o.sarif, std::ios::binary);
    file << report::kernel_sarif(report).dump(2) << "\n";
    if (!file.flush()) return fail(ctx, make_error("--sarif: cannot write '" + o.sarif + "'"));
  }
  int status = kExitOk;
  for (const auto& c : conditions)
    if (auto why = analysis::check_fail_condition(c, report)) {
      ctx.err << "warpscope: --fail-on " << c.text << ": " << *why << "\n";
      status = kExitGateFailed;
    }
  return status;
}

int run_kernel(const KernelOptions& o, CommandContext& ctx) {
  auto conditions = analysis::parse_fail_conditions(o.fail_on);  // before the emulation: a typo costs no time
  if (!conditions) return fail(ctx, conditions.error());
  auto prepared = prepare_launch(o.launch, ctx.in);
  if (!prepared) return fail(ctx, prepared.error());
  const driver::PreparedLaunch& p = **prepared;
  ProgressBar bar(ctx.err, ctx.err_is_terminal && !o.launch.quiet, terminal_columns());
  auto analysis = driver::analyze_kernel(p, bar.hook());
  bar.finish();
  if (!analysis) return fail(ctx, analysis.error());
  const analysis::KernelReport& report = analysis->report;
  if (!o.html.empty())
    if (auto written = driver::write_text_file(o.html, report::kernel_html(report, *p.arch)); !written)
      return fail(ctx, written.error());
  if (o.json)
    ctx.out << report::kernel_json(report).dump(2) << "\n";
  else
    ctx.out << report::kernel_text(report, {o.launch.verbose, fix_command_line(o.launch)});
  for (const auto& d : report.diagnostics) ctx.err << "warpscope: " << report::diagnostic_text(d, o.launch.verbose) << "\n";
  if (analysis->failed) return kExitError;  // partial figures: no gate, no findings
  return report_findings(o, report, *conditions, ctx);
}

}  // namespace

void add_kernel_command(CLI::App& app, CommandContext& ctx) {
  auto o = std::make_shared<KernelOptions>();
  CLI::App* sub = app.add_subcommand("kernel", "Emulate a CUDA kernel on the CPU and report its memory costs per source line");
  add_launch_options(*sub, o->launch);
  sub->add_flag("--json", o->json, "print the report as JSON");
  sub->add_flag("--no-diagnostics", o->no_diagnostics,
                "leave out the compiler-style warnings (file:line:col: warning: ...) on standard error");
  sub->add_option("--sarif", o->sarif, "also write the flagged lines as a SARIF 2.1.0 log to this file")
      ->type_name("FILE");
  sub->add_option("--html", o->html,
                  "also write the report as one self-contained HTML page (source shaded by cost, bank diagrams)")
      ->type_name("FILE");
  sub->add_option("--fail-on", o->fail_on,
                  "exit with status 3 when CONDITION holds (repeatable): bank-conflicts, sector-efficiency<X "
                  "(0..1 or N%), excess-wavefronts>N, excess-sectors>N, on the kernel's totals, or on one line or "
                  "array: 'line FILE:N CONDITION', 'array NAME CONDITION' (e.g. 'line transpose_tiled.cu:27 "
                  "bank-conflicts', 'array tile excess-wavefronts>0')")
      ->type_name("CONDITION")
      ->allow_extra_args(false);  // one condition per --fail-on, so FILE may follow it
  sub->callback([o, &ctx] { ctx.exit_code = run_kernel(*o, ctx); });
}

}  // namespace warpscope::cli
