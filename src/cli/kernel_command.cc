// kernel_command.cc: `warpscope kernel`: read, emulate, price, report.
#include "cli/kernel_command.h"

#include <CLI/CLI.hpp>

#include <fstream>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "analysis/cost_listener.h"
#include "analysis/fail_condition.h"
#include "analysis/fusion_plan.h"
#include "analysis/kernel_report.h"
#include "cli/command.h"
#include "cli/kernel_input.h"
#include "cli/sass_tools.h"
#include "emu/args.h"
#include "emu/launch.h"
#include "emu/program.h"
#include "model/arch.h"
#include "ptx/parser.h"
#include "report/diagnostics_writer.h"
#include "report/kernel_json.h"
#include "report/kernel_text.h"
#include "report/sarif_writer.h"
#include "sass/sass_listing.h"

namespace warpscope::cli {

namespace {

struct KernelOptions {
  std::string file;
  std::string kernel;
  std::string grid = "1";
  std::string block = "32";
  std::uint32_t dyn_smem = 0;
  std::vector<std::string> args;
  std::string blocks;
  std::string arch = "sm_90";
  bool json = false;
  bool no_sass = false;
  std::string sass_listing;
  int jobs = 0;
  // Reports for editors, dashboards and CI (see "Diagnostics, SARIF and CI gating" in the README).
  bool no_diagnostics = false;
  std::string sarif;
  std::vector<std::string> fail_on;
};

int fail(CommandContext& ctx, const Error& e) {
  ctx.err << "warpscope: " << e.render() << "\n";
  return kExitError;
}

// Parses every --fail-on before the emulation, so a typo costs no time.
Expected<std::vector<analysis::FailCondition>> parse_fail_conditions(const std::vector<std::string>& texts) {
  std::vector<analysis::FailCondition> conditions;
  for (const std::string& t : texts) {
    auto c = analysis::parse_fail_condition(t);
    if (!c) return c.error();
    conditions.push_back(std::move(*c));
  }
  return conditions;
}

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
  auto conditions = parse_fail_conditions(o.fail_on);
  if (!conditions) {
    ctx.err << "warpscope: " << conditions.error().render() << "\n";
    return kExitBadInput;
  }
  auto arch = model::find_arch(o.arch);
  if (!arch) return fail(ctx, arch.error());
  auto ptx_text = read_ptx(o.file, ctx.in);
  if (!ptx_text) return fail(ctx, ptx_text.error());
  auto module = ptx::parse(ptx_text->text, ptx_text->path);
  if (!module) return fail(ctx, module.error());
  std::string name = o.kernel;
  if (name.empty()) {  // one kernel in the file: take it
    std::vector<std::string> entries;
    for (const auto& f : module->functions)
      if (f.is_entry) entries.push_back(f.name);
    if (entries.size() != 1) {
      std::string list;
      for (const auto& e : entries) list += (list.empty() ? "" : ", ") + e;
      return fail(ctx, make_error("--kernel is required: " + ptx_text->path + " has kernels " + list));
    }
    name = entries[0];
  }
  auto kernel = emu::find_kernel(*module, name);
  if (!kernel) return fail(ctx, kernel.error());
  auto grid = parse_dim3(o.grid, "--grid");
  if (!grid) return fail(ctx, grid.error());
  auto block = parse_dim3(o.block, "--block");
  if (!block) return fail(ctx, block.error());
  if (block->count() > 1024) return fail(ctx, make_error("--block: at most 1024 threads per block"));
  emu::GlobalMemory memory;
  auto args = emu::make_arguments(*module, *kernel, o.args, memory);
  if (!args) return fail(ctx, args.error());
  emu::RunOptions options;
  options.workers = o.jobs;
  auto selection = parse_block_selection(o.blocks, grid->count());
  if (!selection) return fail(ctx, selection.error());
  options.blocks = std::move(*selection);
  const emu::LaunchConfig launch{*grid, *block, o.dyn_smem};
  const model::Arch& a = **arch;
  // Price the machine code that runs when ptxas and nvdisasm can show it.
  analysis::FusionPlan plan;
  std::string sass_note;
  if (!o.no_sass) {
    auto listing = o.sass_listing.empty() ? disassemble_ptx(ptx_text->text, o.arch) : read_text_file(o.sass_listing);
    auto functions = listing ? sass::parse_sass_listing(*listing) : Expected<std::vector<sass::SassFunction>>(listing.error());
    if (functions) plan = analysis::plan_fusions(*module, *functions);
    else sass_note = functions.error().message;
  }
  const analysis::FusionPlan* plan_ptr = o.no_sass || !sass_note.empty() ? nullptr : &plan;
  auto run = emu::run(*module, module->functions[static_cast<std::size_t>(*kernel)].name, launch, args->values,
                      memory, options, [&a, plan_ptr] { return std::make_unique<analysis::CostListener>(a, plan_ptr); });
  if (!run) return fail(ctx, run.error());
  const std::string dir = ptx_text->source_dir;
  auto report = analysis::build_kernel_report(
      *module, module->functions[static_cast<std::size_t>(*kernel)].name, launch, *run, grid->count(),
      [&dir](const std::string& path) { return read_source_lines(path, dir); });
  report.priced_from = plan_ptr != nullptr ? "sass" : "ptx";
  report.merged_groups = plan.groups;
  report.sass_note = o.no_sass ? "--no-sass" : sass_note.substr(0, sass_note.find('\n'));
  if (o.json)
    ctx.out << report::kernel_json(report).dump(2) << "\n";
  else
    ctx.out << report::kernel_text(report);
  for (const auto& d : report.diagnostics)
    ctx.err << "warpscope: " << (d.severity == emu::Diagnostic::Severity::Error ? "error: " : "warning: ") << d.message
            << "\n";
  if (run->failed()) return kExitError;  // partial figures: no gate, no findings
  return report_findings(o, report, *conditions, ctx);
}

}  // namespace

void add_kernel_command(CLI::App& app, CommandContext& ctx) {
  auto o = std::make_shared<KernelOptions>();
  CLI::App* sub = app.add_subcommand("kernel", "Emulate a CUDA kernel on the CPU and report its memory costs per source line");
  sub->add_option("file", o->file, ".ptx, .cu (needs nvcc), or '-' for PTX on standard input")->required();
  sub->add_option("--kernel", o->kernel, "kernel name, plain or mangled (optional when the file has one)");
  sub->add_option("--grid", o->grid, "grid X[,Y[,Z]]")->capture_default_str();
  sub->add_option("--block", o->block, "block X[,Y[,Z]]")->capture_default_str();
  sub->add_option("--dyn-smem", o->dyn_smem, "dynamic shared memory bytes");
  sub->add_option("--arg", o->args,
                  "kernel argument, in parameter order: buf:<bytes>, file:<path>, i32:<v>, u32:<v>, i64:<v>, u64:<v>, "
                  "f32:<v>, f64:<v>");
  sub->add_option("--blocks", o->blocks, "emulate only these blocks (e.g. 0,3,8-15 or 10%); totals are scaled");
  sub->add_option("--arch", o->arch, "target architecture")->capture_default_str();
  sub->add_option("-j,--jobs", o->jobs, "worker threads (default: one per core)");
  sub->add_flag("--json", o->json, "print the report as JSON");
  sub->add_flag("--no-sass", o->no_sass, "price the PTX as written, without asking ptxas/nvdisasm what runs");
  sub->add_option("--sass-listing", o->sass_listing,
                  "use this `nvdisasm -c -gi` listing of the kernel's cubin instead of running ptxas and nvdisasm");
  sub->add_flag("--no-diagnostics", o->no_diagnostics,
                "leave out the compiler-style warnings (file:line:col: warning: ...) on standard error");
  sub->add_option("--sarif", o->sarif, "also write the flagged lines as a SARIF 2.1.0 log to this file")
      ->type_name("FILE");
  sub->add_option("--fail-on", o->fail_on,
                  "exit with status 3 when CONDITION holds (repeatable): bank-conflicts, sector-efficiency<X "
                  "(0..1 or N%), excess-wavefronts>N, excess-sectors>N")
      ->type_name("CONDITION")
      ->allow_extra_args(false);  // one condition per --fail-on, so FILE may follow it
  sub->callback([o, &ctx] { ctx.exit_code = run_kernel(*o, ctx); });
}

}  // namespace warpscope::cli
