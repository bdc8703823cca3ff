// check_command.cc: `warpscope check LAUNCHES`: a project's kernels gated in CI, without a GPU.
//
//   warpscope check examples/launches.txt --fail-on bank-conflicts --baseline main.json --sarif out.sarif
//
// Every line of the launches file (profile_launches.h reads it) is prepared and analysed by
// src/driver like `warpscope kernel`, each --fail-on is tested on it, and with --baseline its
// figures are compared with a saved `check --json` run (report/check_report.h). One table,
// one exit status: 0 all ok, 1 a launch could not run, 3 a condition held or a figure got worse.
#include "cli/check_command.h"

#include <CLI/CLI.hpp>

#include <map>
#include <memory>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "analysis/fail_condition.h"
#include "cli/command.h"
#include "cli/launch_options.h"
#include "cli/profile_launches.h"
#include "driver/analyze.h"
#include "driver/input.h"
#include "report/check_report.h"

namespace warpscope::cli {

namespace {

struct CheckOptions {
  std::string launches;
  std::vector<std::string> fail_on;
  std::string baseline;
  bool json = false;
  std::string sarif;
  bool verbose = false;
  bool quiet = false;
  std::vector<std::string> only;  // --launch NAME: only these
  // Given to every launch.
  std::string blocks;
  bool no_sass = false;
  int jobs = 0;
  std::string arch = "sm_90";
};

report::CheckedLaunch check_one(const LaunchSpec& spec, const CheckOptions& o,
                                const std::vector<analysis::FailCondition>& conditions,
                                const std::map<std::string, report::BaselineLaunch>& baseline,
                                std::set<std::size_t>& applied, CommandContext& ctx) {
  report::CheckedLaunch out;
  out.name = spec.name;
  out.origin = spec.origin;
  auto options = launch_options_from_words(spec.words);
  if (!options) {
    out.error = options.error().message;
    return out;
  }
  LaunchOptions& lo = *options;
  if (!o.blocks.empty()) lo.request.blocks = o.blocks;
  lo.request.no_sass = lo.request.no_sass || o.no_sass;
  lo.request.jobs = o.jobs;
  lo.request.arch = o.arch;
  out.fix_command = fix_command_line(lo);
  auto prepared = prepare_launch(lo, ctx.in);
  if (!prepared) {
    out.error = prepared.error().message;
    return out;
  }
  auto analysis = driver::analyze_kernel(**prepared);
  if (!analysis) {
    out.error = analysis.error().message;
    return out;
  }
  if (analysis->failed) {  // partial figures: neither gated nor compared
    for (const auto& d : analysis->report.diagnostics)
      if (d.severity == emu::Diagnostic::Severity::Error) {
        out.error = "the emulation stopped: " + d.message;
        break;
      }
    return out;
  }
  out.report = std::move(analysis->report);
  for (std::size_t i = 0; i < conditions.size(); ++i) {
    const analysis::FailCondition& c = conditions[i];
    if (c.scope != analysis::FailCondition::Scope::Kernel && !analysis::fail_condition_applies(c, *out.report)) continue;
    applied.insert(i);
    if (auto why = analysis::check_fail_condition(c, *out.report)) out.failures.push_back("--fail-on " + c.text + ": " + *why);
  }
  if (auto it = baseline.find(spec.name); it != baseline.end())
    out.regressions = report::regressions(*out.report, it->second);
  return out;
}

int run_check(const CheckOptions& o, CommandContext& ctx) {
  auto conditions = analysis::parse_fail_conditions(o.fail_on);
  if (!conditions) return report_error(ctx, conditions.error());
  auto specs = read_launches_file(o.launches);
  if (!specs) return report_error(ctx, specs.error());
  std::map<std::string, report::BaselineLaunch> baseline;
  report::CheckRun run;
  run.launches_file = o.launches;
  if (!o.baseline.empty()) {
    auto text = driver::read_text_file(o.baseline);
    if (!text) return report_error(ctx, text.error());
    auto launches = report::read_baseline(*text, o.baseline);
    if (!launches) return report_error(ctx, launches.error());
    for (auto& b : *launches) baseline.emplace(b.name, std::move(b));
    run.has_baseline = true;
  }
  std::vector<const LaunchSpec*> chosen;
  for (const LaunchSpec& s : *specs)
    if (o.only.empty() || std::find(o.only.begin(), o.only.end(), s.name) != o.only.end()) chosen.push_back(&s);
  for (const std::string& name : o.only)
    if (std::none_of(specs->begin(), specs->end(), [&](const LaunchSpec& s) { return s.name == name; }))
      return report_error(ctx, make_usage_error("--launch: " + o.launches + " has no launch named '" + name + "'"));
  if (chosen.empty()) return report_error(ctx, make_error(o.launches + " has no launches"));
  std::set<std::size_t> applied;
  const bool progress = ctx.err_is_terminal && !o.quiet;
  for (std::size_t i = 0; i < chosen.size(); ++i) {
    if (progress) ctx.err << "\r\033[K" << "checking " << (i + 1) << "/" << chosen.size() << " " << chosen[i]->name << std::flush;
    run.launches.push_back(check_one(*chosen[i], o, *conditions, baseline, applied, ctx));
  }
  if (progress) ctx.err << "\r\033[K" << std::flush;
  for (std::size_t i = 0; i < conditions->size(); ++i)
    if (applied.count(i) == 0)
      run.notes.push_back("--fail-on " + (*conditions)[i].text + " names a line or array no launch has: it held nowhere");
  for (const auto& entry : baseline) {
    const std::string& name = entry.first;
    if (std::none_of(run.launches.begin(), run.launches.end(), [&](const report::CheckedLaunch& l) { return l.name == name; }))
      run.notes.push_back("the baseline's launch '" + name + "' is not in this run");
  }
  if (!o.sarif.empty())
    if (auto written = driver::write_text_file(o.sarif, report::check_sarif(run).dump(2) + "\n"); !written)
      return report_error(ctx, written.error());
  if (o.json)
    ctx.out << report::check_json(run).dump(2) << "\n";
  else
    ctx.out << report::check_text(run, o.verbose);
  bool error = false, gate = false;
  for (const report::CheckedLaunch& l : run.launches) {
    const std::string status = l.status();
    error = error || status == "error";
    gate = gate || status == "failed" || status == "worse";
  }
  // A condition that named nothing in any launch is a gate that cannot pass (a typo, a moved line).
  gate = gate || applied.size() < conditions->size();
  return error ? kExitError : gate ? kExitGateFailed : kExitOk;
}

}  // namespace

void add_check_command(CLI::App& app, CommandContext& ctx) {
  auto o = std::make_shared<CheckOptions>();
  CLI::App* sub = app.add_subcommand(
      "check", "Analyse every launch of a launches file, gate them with --fail-on and a baseline: one table, one exit status");
  sub->add_option("launches", o->launches,
                  "a launches file: NAME FILE --kernel K --grid .. --block .. [--dyn-smem N] --arg SPEC ... per line "
                  "(examples/launches.txt; paths relative to the file's folder or its parent)")
      ->required();
  sub->add_option("--fail-on", o->fail_on,
                  "exit with status 3 when CONDITION holds for a launch (repeatable): bank-conflicts, "
                  "sector-efficiency<X, excess-wavefronts>N, excess-sectors>N, or scoped: 'line FILE:N CONDITION', "
                  "'array NAME CONDITION' (tested on the launches that have that line or array)")
      ->type_name("CONDITION")
      ->allow_extra_args(false);
  sub->add_option("--baseline", o->baseline,
                  "a saved `warpscope check --json` run: exit with status 3 when any figure got worse (each kernel's "
                  "metrics, each line's shared wavefronts, global sectors and their excess)")
      ->type_name("FILE");
  sub->add_flag("--json", o->json, "print the run as JSON (the next run's --baseline)");
  sub->add_option("--sarif", o->sarif, "also write every launch's flagged lines as one SARIF 2.1.0 log")->type_name("FILE");
  sub->add_option("--launch", o->only, "check only the launch of this NAME (repeatable)")->type_name("NAME");
  sub->add_option("--blocks", o->blocks, "emulate only these blocks of every launch (e.g. 10%); totals are scaled");
  sub->add_flag("--no-sass", o->no_sass, "price the PTX as written, without ptxas/nvdisasm");
  sub->add_option("-j,--jobs", o->jobs, "worker threads per launch (default: one per core)");
  sub->add_option("--arch", o->arch, "target architecture")->capture_default_str();
  sub->add_flag("-v,--verbose", o->verbose, "also list each failing launch's diagnostics");
  sub->add_flag("-q,--quiet", o->quiet, "no progress line on standard error");
  sub->footer(
      "Exit status: 0 every launch ran and passed, 1 a launch could not run (a bad line, an emulation error), 2 usage\n"
      "error (a bad --fail-on, an unknown --launch), 3 a --fail-on condition held or a figure got worse than the\n"
      "baseline. Save a baseline on the main branch with --json > baseline.json; check branches with\n"
      "--baseline baseline.json to fail on regressions only.");
  sub->callback([o, &ctx] { ctx.exit_code = run_check(*o, ctx); });
}

}  // namespace warpscope::cli
