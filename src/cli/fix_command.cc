// fix_command.cc: `warpscope fix`: read, record, search, prove, print.
#include "cli/fix_command.h"

#include <CLI/CLI.hpp>

#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "analysis/fusion_plan.h"
#include "analysis/layout_fix.h"
#include "cli/command.h"
#include "cli/kernel_input.h"
#include "cli/sass_tools.h"
#include "emu/args.h"
#include "emu/launch.h"
#include "emu/program.h"
#include "model/arch.h"
#include "ptx/parser.h"
#include "report/fix_report.h"
#include "sass/sass_listing.h"

namespace warpscope::cli {

namespace {

struct FixOptions {
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
  int keep = 5;
};

int fail(CommandContext& ctx, const Error& e) {
  ctx.err << "warpscope: " << e.render() << "\n";
  return kExitError;
}

int run_fix(const FixOptions& o, CommandContext& ctx) {
  auto arch = model::find_arch(o.arch);
  if (!arch) return fail(ctx, arch.error());
  auto ptx_text = read_ptx(o.file, ctx.in);
  if (!ptx_text) return fail(ctx, ptx_text.error());
  auto module = ptx::parse(ptx_text->text, ptx_text->path);
  if (!module) return fail(ctx, module.error());
  std::string name = o.kernel;
  if (name.empty()) {  // one kernel in the file: take it
    for (const auto& f : module->functions)
      if (f.is_entry) name = name.empty() ? f.name : "";
    if (name.empty()) return fail(ctx, make_error("--kernel is required: " + ptx_text->path + " has several kernels"));
  }
  auto kernel = emu::find_kernel(*module, name);
  if (!kernel) return fail(ctx, kernel.error());
  const std::string kernel_name = module->functions[static_cast<std::size_t>(*kernel)].name;
  auto grid = parse_dim3(o.grid, "--grid");
  if (!grid) return fail(ctx, grid.error());
  auto block = parse_dim3(o.block, "--block");
  if (!block) return fail(ctx, block.error());
  if (block->count() > 1024) return fail(ctx, make_error("--block: at most 1024 threads per block"));
  emu::RunOptions options;
  options.workers = o.jobs;
  auto selection = parse_block_selection(o.blocks, grid->count());
  if (!selection) return fail(ctx, selection.error());
  options.blocks = std::move(*selection);
  {  // check the arguments once, before any run
    emu::GlobalMemory memory;
    auto args = emu::make_arguments(*module, *kernel, o.args, memory);
    if (!args) return fail(ctx, args.error());
  }
  const emu::LaunchConfig launch{*grid, *block, o.dyn_smem};
  analysis::FusionPlan plan;
  std::string sass_note;
  if (!o.no_sass) {
    auto listing = o.sass_listing.empty() ? disassemble_ptx(ptx_text->text, o.arch) : read_text_file(o.sass_listing);
    auto functions = listing ? sass::parse_sass_listing(*listing) : Expected<std::vector<sass::SassFunction>>(listing.error());
    if (functions) plan = analysis::plan_fusions(*module, *functions);
    else sass_note = functions.error().message;
  }
  const analysis::FusionPlan* plan_ptr = o.no_sass || !sass_note.empty() ? nullptr : &plan;
  std::vector<emu::Diagnostic> diagnostics;
  bool failed = false;
  // Every run starts from fresh buffers: the kernel may overwrite its inputs.
  auto runner = [&](const emu::ListenerFactory& listeners) -> Expected<emu::RunReport> {
    emu::GlobalMemory memory;
    auto args = emu::make_arguments(*module, *kernel, o.args, memory);
    if (!args) return args.error();
    auto run = emu::run(*module, kernel_name, launch, args->values, memory, options, listeners);
    if (run && diagnostics.empty()) diagnostics = run->diagnostics;
    if (run) failed = failed || run->failed();
    return run;
  };
  const std::string dir = ptx_text->source_dir;
  analysis::FixInputs inputs{*module, kernel_name, launch, grid->count(), **arch, plan_ptr, runner,
                             [&dir](const std::string& path) { return read_source_lines(path, dir); },
                             static_cast<std::size_t>(std::max(1, o.keep))};
  auto report = analysis::fix_kernel(inputs);
  if (!report) return fail(ctx, report.error());
  for (analysis::KernelReport* k : {&report->before, &report->after}) {
    k->priced_from = plan_ptr != nullptr ? "sass" : "ptx";
    k->merged_groups = plan.groups;
    k->sass_note = o.no_sass ? "--no-sass" : sass_note.substr(0, sass_note.find('\n'));
  }
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
  sub->add_option("--candidates", o->keep, "candidate layouts reported per array")->capture_default_str();
  sub->add_flag("--json", o->json, "print the result as JSON");
  sub->add_flag("--no-sass", o->no_sass, "price the PTX as written, without asking ptxas/nvdisasm what runs");
  sub->add_option("--sass-listing", o->sass_listing,
                  "use this `nvdisasm -c -gi` listing of the kernel's cubin instead of running ptxas and nvdisasm");
  sub->callback([o, &ctx] { ctx.exit_code = run_fix(*o, ctx); });
}

}  // namespace warpscope::cli
