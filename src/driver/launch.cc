// launch.cc: a launch request made ready to run (see launch.h).
#include "driver/launch.h"

#include "driver/toolchain.h"
#include "emu/args.h"
#include "emu/program.h"
#include "ptx/parser.h"
#include "sass/sass_listing.h"
#include "support/kernel_name.h"

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

Expected<std::vector<std::string>> resolve_plain_numbers(const ptx::Module& module, int kernel,
                                                         const std::vector<std::string>& specs) {
  const ptx::Function& f = module.functions[static_cast<std::size_t>(kernel)];
  std::vector<std::string> out = specs;
  for (std::size_t i = 0; i < out.size() && i < f.params.size(); ++i) {
    if (out[i].rfind("num:", 0) != 0) continue;
    const std::string value = out[i].substr(4);
    const ptx::Variable& p = module.variables[static_cast<std::size_t>(f.params[i])];
    const bool integral = value.find_first_of(".eEnN") == std::string::npos || value.rfind("0x", 0) == 0;
    if (ptx::is_float(p.type) && (p.size == 4 || p.size == 8)) {
      out[i] = (p.size == 4 ? "f32:" : "f64:") + value;
    } else if ((p.size == 4 || p.size == 8) && integral) {
      // Too large for the signed type: the unsigned one (emu/args.cc checks the range).
      const bool negative = !value.empty() && value[0] == '-';
      const std::string digits = negative ? value.substr(1) : value;
      const std::string max_signed = p.size == 4 ? "2147483647" : "9223372036854775807";
      const bool over = !negative && digits.rfind("0x", 0) != 0 &&
                        (digits.size() > max_signed.size() || (digits.size() == max_signed.size() && digits > max_signed));
      out[i] = std::string(over ? "u" : "i") + (p.size == 4 ? "32:" : "64:") + value;
    } else {
      return make_error("argument " + std::to_string(i + 1) + " '" + value + "': parameter '" +
                        emu::param_name(module, kernel, i) + "' is " + std::string(ptx::type_name(p.type)) +
                        ", which a plain number cannot fill; kernel '" + kernel_short_name(f.name) + "' takes " +
                        emu::describe_params(module, kernel));
    }
  }
  return out;
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
  // Messages name parameters as the kernel's .cu does, when it can be read.
  ptx::name_parameters_from_sources(p->module, ptx::source_reader(p->ptx.source_dir));
  bool any_entry = false;
  for (const auto& f : p->module.functions) any_entry = any_entry || (f.is_entry && !f.is_declaration);
  if (!any_entry)
    return make_error("no .entry in " + p->ptx.path + ": the PTX defines no kernel (only device functions or data)");
  // Any spelling of the name; none takes the file's only kernel (else the error lists them).
  auto kernel = emu::find_kernel(p->module, o.kernel);
  if (!kernel) return as_usage(kernel.error());
  p->kernel = *kernel;
  p->kernel_name = p->module.functions[static_cast<std::size_t>(*kernel)].name;
  auto grid = parse_dim3(o.grid, "--grid");
  if (!grid) return grid.error();
  auto block = parse_dim3(o.block, "--block");
  if (!block) return block.error();
  if (block->count() > 1024) return make_usage_error("--block: at most 1024 threads per block");
  p->launch = emu::LaunchConfig{*grid, *block, o.dyn_smem};
  p->launch.cooperative = o.cooperative;
  if (!o.cluster.empty()) {
    auto cluster = parse_dim3(o.cluster, "--cluster");
    if (!cluster) return as_usage(cluster.error());
    p->launch.cluster = *cluster;
  }
  p->blocks_total = grid->count();
  auto resolved = resolve_plain_numbers(p->module, p->kernel, p->request.args);
  if (!resolved) return as_usage(resolved.error());
  p->request.args = std::move(*resolved);
  // Check the arguments once, before any run (allocating nothing: a buffer may be large).
  if (auto checked = emu::check_arguments(p->module, p->kernel, p->request.args); !checked) return checked.error();
  p->run_options.workers = o.jobs;
  auto selection = parse_block_selection(o.blocks, grid->count());
  if (!selection) return selection.error();
  p->run_options.blocks = std::move(*selection);
  // Price the machine code that runs when ptxas and nvdisasm can show it.
  if (o.no_sass) {
    p->sass_note = "--no-sass";
  } else {  // also without merge candidates: the listing says which lines ncu shows each access at
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
