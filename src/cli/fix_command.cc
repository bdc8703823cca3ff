// fix_command.cc: `warpscope fix`: read, record, search, prove, print.
#include "cli/fix_command.h"

#include <CLI/CLI.hpp>

#include <memory>
#include <ostream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "analysis/fusion_plan.h"
#include "analysis/layout_fix.h"
#include "cli/command.h"
#include "cli/kernel_input.h"
#include "cli/launch_options.h"
#include "cli/progress_bar.h"
#include "cli/sass_tools.h"
#include "emu/launch.h"
#include "report/fix_report.h"
#include "report/html_writer.h"

namespace warpscope::cli {

namespace {

struct FixOptions {
  LaunchOptions launch;
  bool json = false;
  std::string html;
  int keep = 5;
  int registers = 0;  // --registers: given, instead of asking ptxas -v
};

// Registers per thread: --registers, else `ptxas -v` unless --no-sass keeps the tools out.
std::pair<int, std::string> registers_of(const FixOptions& o, const PreparedLaunch& p) {
  if (o.registers > 0) return {o.registers, "--registers"};
  if (o.launch.no_sass) return {0, "--no-sass: ptxas not run"};
  auto n = ptxas_registers(p.ptx.text, o.launch.arch, p.kernel_name);
  if (!n) return {0, n.error().message.substr(0, n.error().message.find('\n'))};
  return {*n, "ptxas -v"};
}

int fail(CommandContext& ctx, const Error& e) {
  ctx.err << "warpscope: " << e.render() << "\n";
  return kExitError;
}

int run_fix(const FixOptions& o, CommandContext& ctx) {
  auto prepared = prepare_launch(o.launch, ctx.in);
  if (!prepared) return fail(ctx, prepared.error());
  const PreparedLaunch& p = **prepared;
  const analysis::FusionPlan* plan_ptr = p.plan_or_null();
  std::vector<emu::Diagnostic> diagnostics;
  bool failed = false;
  // Every run starts from fresh buffers: the kernel may overwrite its inputs.
  auto runner = [&](const emu::ListenerFactory& listeners) -> Expected<emu::RunReport> {
    emu::GlobalMemory memory;
    auto args = p.arguments(memory, o.launch.args);
    if (!args) return args.error();
    ProgressBar bar(ctx.err, ctx.err_is_terminal && !o.launch.quiet, terminal_columns());
    emu::RunOptions options = p.run_options;
    options.progress = bar.hook();
    auto run = emu::run(p.module, p.kernel_name, p.launch, args->values, memory, options, listeners);
    bar.finish();
    if (run && diagnostics.empty()) diagnostics = run->diagnostics;
    if (run) failed = failed || run->failed();
    return run;
  };
  const std::string dir = p.ptx.source_dir;
  analysis::FixInputs inputs{p.module, p.kernel_name, p.launch, p.blocks_total, *p.arch, plan_ptr, runner,
                             [&dir](const std::string& path) { return read_source_lines(path, dir); },
                             static_cast<std::size_t>(std::max(1, o.keep)), 0, ""};
  std::tie(inputs.registers_per_thread, inputs.registers_note) = registers_of(o, p);
  auto report = analysis::fix_kernel(inputs);
  if (!report) return fail(ctx, report.error());
  for (analysis::KernelReport* k : {&report->before, &report->after}) p.stamp(*k);
  if (!o.html.empty())
    if (auto written = write_text_file(o.html, report::fix_html(*report, *p.arch)); !written)
      return fail(ctx, written.error());
  if (o.json)
    ctx.out << report::fix_json(*report).dump(2) << "\n";
  else
    ctx.out << report::fix_text(*report);
  for (const auto& d : diagnostics)
    ctx.err << "warpscope: " << (d.severity == emu::Diagnostic::Severity::Error ? "error: " : "warning: ") << d.message
            << "\n";
  return failed ? kExitError : kExitOk;
}

}  // namespace

void add_fix_command(CLI::App& app, CommandContext& ctx) {
  auto o = std::make_shared<FixOptions>();
  CLI::App* sub = app.add_subcommand(
      "fix", "Find the shared-memory layout that removes a kernel's bank conflicts, and prove it by re-running the kernel");
  add_launch_options(*sub, o->launch);
  sub->add_option("--candidates", o->keep, "candidate layouts reported per array")->capture_default_str();
  sub->add_flag("--json", o->json, "print the result as JSON");
  sub->add_option("--html", o->html, "also write the first run's report as an HTML page, with the chosen layouts")
      ->type_name("FILE");
  sub->add_option("--registers", o->registers,
                  "registers per thread for occupancy (default: ptxas -v when ptxas is found and --no-sass is not given)")
      ->check(CLI::Range(1, 255));
  sub->callback([o, &ctx] { ctx.exit_code = run_fix(*o, ctx); });
}

}  // namespace warpscope::cli
