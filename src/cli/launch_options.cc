// launch_options.cc: the shared front half of `warpscope kernel` and `warpscope fix`.
#include "cli/launch_options.h"

#include <CLI/CLI.hpp>

#include "cli/sass_tools.h"
#include "emu/args.h"
#include "emu/program.h"
#include "ptx/parser.h"
#include "sass/sass_listing.h"

namespace warpscope::cli {

void add_launch_options(CLI::App& sub, LaunchOptions& o) {
  sub.add_option("file", o.file, ".ptx, .cu (needs nvcc), or '-' for PTX on standard input")->required();
  sub.add_option("--kernel", o.kernel, "kernel name, plain or mangled (optional when the file has one)");
  sub.add_option("--grid", o.grid, "grid X[,Y[,Z]]")->capture_default_str();
  sub.add_option("--block", o.block, "block X[,Y[,Z]]")->capture_default_str();
  sub.add_option("--dyn-smem", o.dyn_smem, "dynamic shared memory bytes");
  sub.add_option("--cluster", o.cluster, "blocks per cluster X[,Y[,Z]] (sm_90 thread block clusters)");
  sub.add_option("--arg", o.args,
                 "kernel argument, in parameter order: buf:<bytes>, file:<path>, tmap:<buf:|file:>,dtype=..,dims=..,"
                 "strides=..,box=..,swizzle=.. (a CUtensorMap), i32:<v>, u32:<v>, i64:<v>, u64:<v>, f32:<v>, f64:<v>");
  sub.add_option("--blocks", o.blocks, "emulate only these blocks (e.g. 0,3,8-15 or 10%); totals are scaled");
  sub.add_option("--arch", o.arch, "target architecture")->capture_default_str();
  sub.add_option("-j,--jobs", o.jobs, "worker threads (default: one per core)");
  sub.add_flag("-q,--quiet", o.quiet, "no progress bar on standard error (drawn only when it is a terminal)");
  sub.add_flag("--no-sass", o.no_sass, "price the PTX as written, without asking ptxas/nvdisasm what runs");
  sub.add_option("--sass-listing", o.sass_listing,
                 "use this `nvdisasm -c -gi` listing of the kernel's cubin instead of running ptxas and nvdisasm");
}

Expected<emu::Arguments> PreparedLaunch::arguments(emu::GlobalMemory& memory,
                                                   const std::vector<std::string>& specs) const {
  return emu::make_arguments(module, kernel, specs, memory);
}

void PreparedLaunch::stamp(analysis::KernelReport& report) const {
  report.priced_from = from_sass ? "sass" : "ptx";
  report.merged_groups = from_sass ? plan.groups : 0;
  report.sass_note = sass_note;
}

Expected<std::unique_ptr<PreparedLaunch>> prepare_launch(const LaunchOptions& o, std::istream& in) {
  auto p = std::make_unique<PreparedLaunch>();
  auto arch = model::find_arch(o.arch);
  if (!arch) return arch.error();
  p->arch = *arch;
  auto ptx_text = read_ptx(o.file, in);
  if (!ptx_text) return ptx_text.error();
  p->ptx = std::move(*ptx_text);
  auto module = ptx::parse(p->ptx.text, p->ptx.path);
  if (!module) return module.error();
  p->module = std::move(*module);
  std::string name = o.kernel;
  if (name.empty()) {  // one kernel in the file: take it
    std::vector<std::string> entries;
    for (const auto& f : p->module.functions)
      if (f.is_entry) entries.push_back(f.name);
    if (entries.size() != 1) {
      std::string list;
      for (const auto& e : entries) list += (list.empty() ? "" : ", ") + e;
      return make_error("--kernel is required: " + p->ptx.path + " has kernels " + list);
    }
    name = entries[0];
  }
  auto kernel = emu::find_kernel(p->module, name);
  if (!kernel) return kernel.error();
  p->kernel = *kernel;
  p->kernel_name = p->module.functions[static_cast<std::size_t>(*kernel)].name;
  auto grid = parse_dim3(o.grid, "--grid");
  if (!grid) return grid.error();
  auto block = parse_dim3(o.block, "--block");
  if (!block) return block.error();
  if (block->count() > 1024) return make_error("--block: at most 1024 threads per block");
  p->launch = emu::LaunchConfig{*grid, *block, o.dyn_smem, {}};
  if (!o.cluster.empty()) {
    auto cluster = parse_dim3(o.cluster, "--cluster");
    if (!cluster) return cluster.error();
    p->launch.cluster = *cluster;
  }
  p->blocks_total = grid->count();
  {  // check the arguments once, before any run
    emu::GlobalMemory memory;
    auto args = p->arguments(memory, o.args);
    if (!args) return args.error();
  }
  p->run_options.workers = o.jobs;
  auto selection = parse_block_selection(o.blocks, grid->count());
  if (!selection) return selection.error();
  p->run_options.blocks = std::move(*selection);
  // Price the machine code that runs when ptxas and nvdisasm can show it.
  if (o.no_sass) {
    p->sass_note = "--no-sass";
  } else if (o.sass_listing.empty() && !analysis::has_merge_candidates(p->module)) {
    p->sass_note = "no accesses ptxas could merge into vector instructions";  // nvdisasm skipped
  } else {
    auto listing = o.sass_listing.empty() ? disassemble_ptx(p->ptx.text, o.arch) : read_text_file(o.sass_listing);
    auto functions = listing ? sass::parse_sass_listing(*listing)
                             : Expected<std::vector<sass::SassFunction>>(listing.error());
    if (functions) {
      p->plan = analysis::plan_fusions(p->module, *functions);
      p->from_sass = true;
    } else {
      p->sass_note = functions.error().message.substr(0, functions.error().message.find('\n'));
    }
  }
  return p;
}

}  // namespace warpscope::cli
