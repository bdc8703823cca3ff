// analyze.cc: running and pricing a prepared launch (see analyze.h).
#include "driver/analyze.h"

#include <algorithm>
#include <memory>

#include "analysis/cost_listener.h"
#include "driver/toolchain.h"
#include "emu/launch.h"

namespace warpscope::driver {

namespace {

// Registers per thread: given, else `ptxas -v` unless no_sass keeps the tools out.
std::pair<int, std::string> registers_of(const FixRequest& f, const PreparedLaunch& p) {
  if (f.registers > 0) return {f.registers, "--registers"};
  if (p.request.no_sass) return {0, "--no-sass: ptxas not run"};
  auto n = ptxas_registers(p.ptx.text, p.request.arch, p.kernel_name);
  if (!n) return {0, n.error().message.substr(0, n.error().message.find('\n'))};
  return {*n, "ptxas -v"};
}

}  // namespace

Expected<KernelAnalysis> analyze_kernel(const PreparedLaunch& p, const ProgressHook& progress) {
  emu::GlobalMemory memory;
  auto args = p.arguments(memory);
  if (!args) return args.error();
  const model::Arch& a = *p.arch;
  const analysis::FusionPlan* plan = p.plan_or_null();
  emu::RunOptions options = p.run_options;
  options.progress = progress;
  auto run = emu::run(p.module, p.kernel_name, p.launch, args->values, memory, options,
                      [&a, plan] { return std::make_unique<analysis::CostListener>(a, plan); });
  if (!run) return run.error();
  KernelAnalysis result;
  result.report = analysis::build_kernel_report(p.module, p.kernel_name, p.launch, *run, p.blocks_total,
                                                [&p](const std::string& path) { return p.source_lines(path); }, plan);
  p.stamp(result.report);
  result.failed = run->failed();
  return result;
}

Expected<FixAnalysis> fix_kernel(const PreparedLaunch& p, const FixRequest& request, const ProgressHook& progress) {
  FixAnalysis result;
  bool first = true;
  // Every run starts from fresh buffers: the kernel may overwrite its inputs.
  auto runner = [&](const emu::ListenerFactory& listeners) -> Expected<emu::RunReport> {
    emu::GlobalMemory memory;
    auto args = p.arguments(memory);
    if (!args) return args.error();
    emu::RunOptions options = p.run_options;
    options.progress = progress;
    auto run = emu::run(p.module, p.kernel_name, p.launch, args->values, memory, options, listeners);
    if (run && first) result.diagnostics = run->diagnostics;
    if (run) {
      first = false;
      result.failed = result.failed || run->failed();
    }
    return run;
  };
  analysis::FixInputs inputs{p.module, p.kernel_name, p.launch, p.blocks_total, *p.arch, p.plan_or_null(), runner,
                             [&p](const std::string& path) { return p.source_lines(path); },
                             std::max<std::size_t>(1, request.keep), request.min_gain, 0, ""};
  std::tie(inputs.registers_per_thread, inputs.registers_note) = registers_of(request, p);
  auto report = analysis::fix_kernel(inputs);
  if (!report) return report.error();
  for (analysis::KernelReport* k : {&report->before, &report->after}) p.stamp(*k);
  result.report = std::move(*report);
  return result;
}

}  // namespace warpscope::driver
