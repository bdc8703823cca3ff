// launch.cc: a launch request made ready to run (see launch.h).
#include "driver/launch.h"

#include "driver/toolchain.h"
#include "emu/args.h"
#include "emu/program.h"
#include "ptx/parser.h"
#include "sass/sass_listing.h"

namespace warpscope::driver {

Expected<emu::Arguments> PreparedLaunch::arguments(emu::GlobalMemory& memory) const {
  return emu::make_arguments(module, kernel, request.args, memory);
}

std::vector<std::string> PreparedLaunch::source_lines(const std::string& path) const {
  return read_source_lines(path, ptx.source_dir);
}

std::vector<std::string> PreparedLaunch::parameter_names() const {
  // PTX names parameters <kernel>_param_<i>, which says nothing the position does not; the
  // .cu's names are for the front end to supply here.
  return std::vector<std::string>(module.functions[static_cast<std::size_t>(kernel)].params.size());
}

void PreparedLaunch::stamp(analysis::KernelReport& report) const {
  report.parameter_names = parameter_names();
  report.priced_from = from_sass ? "sass" : "ptx";
  report.merged_groups = from_sass ? plan.groups : 0;
  report.sass_note = sass_note;
}

Expected<std::unique_ptr<PreparedLaunch>> prepare_launch(const LaunchRequest& o) {
  auto p = std::make_unique<PreparedLaunch>();
  p->request = o;
  auto arch = model::find_arch(o.arch);
  if (!arch) return as_usage(arch.error());
  p->arch = *arch;
  auto ptx_text = read_ptx(o.file, o.text, SourceOptions{o.lang, o.nvcc_args});
  if (!ptx_text) return ptx_text.error();
  p->ptx = std::move(*ptx_text);
  auto module = ptx::parse(p->ptx.text, p->ptx.path);
  if (!module) return module.error();
  p->module = std::move(*module);
  std::vector<std::string> entries;
  for (const auto& f : p->module.functions)
    if (f.is_entry && !f.is_declaration) entries.push_back(f.name);
  if (entries.empty())
    return make_error("no .entry in " + p->ptx.path + ": the PTX defines no kernel (only device functions or data)");
  std::string name = o.kernel;
  if (name.empty()) {  // one kernel in the file: take it
    if (entries.size() != 1) {
      std::string list;
      for (const auto& e : entries) list += (list.empty() ? "" : ", ") + e;
      return make_usage_error("--kernel is required: " + p->ptx.path + " has kernels " + list);
    }
    name = entries[0];
  }
  auto kernel = emu::find_kernel(p->module, name);
  if (!kernel) return as_usage(kernel.error());
  p->kernel = *kernel;
  p->kernel_name = p->module.functions[static_cast<std::size_t>(*kernel)].name;
  auto grid = parse_dim3(o.grid, "--grid");
  if (!grid) return grid.error();
  auto block = parse_dim3(o.block, "--block");
  if (!block) return block.error();
  if (block->count() > 1024) return make_usage_error("--block: at most 1024 threads per block");
  p->launch = emu::LaunchConfig{*grid, *block, o.dyn_smem};
  p->blocks_total = grid->count();
  // Check the arguments once, before any run (allocating nothing: a buffer may be large).
  if (auto checked = emu::check_arguments(p->module, p->kernel, o.args); !checked) return checked.error();
  p->run_options.workers = o.jobs;
  auto selection = parse_block_selection(o.blocks, grid->count());
  if (!selection) return selection.error();
  p->run_options.blocks = std::move(*selection);
  // Price the machine code that runs when ptxas and nvdisasm can show it.
  if (o.no_sass) {
    p->sass_note = "--no-sass";
  } else if (o.sass_listing.empty() && !o.sass_text && !analysis::has_merge_candidates(p->module)) {
    p->sass_note = "no accesses ptxas could merge into vector instructions";  // nvdisasm skipped
  } else {
    auto listing = o.sass_text               ? Expected<std::string>(*o.sass_text)
                   : o.sass_listing.empty() ? disassemble_ptx(p->ptx.text, o.arch)
                                            : read_text_file(o.sass_listing);
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

}  // namespace warpscope::driver
