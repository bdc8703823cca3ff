// launch_options.cc: the shared front half of `warpscope kernel` and `warpscope fix`.
#include "cli/launch_options.h"

#include <CLI/CLI.hpp>

#include <sstream>

#include "driver/process.h"
#include "emu/arg_spec.h"

namespace warpscope::cli {

std::string launch_help_footer() {
  std::string s =
      "--arg SPEC, one per kernel parameter, in order (<size> and <count>: an integer with an optional K, M, G or T\n"
      "suffix, powers of 1024: 256K = 262144 bytes):\n"
      "  i8 u8 i16 u16 i32 u32 i64 u64 f16 bf16 f32 f64 bool:<value>\n"
      "                                          a scalar (s8..s64 = i8..i64; integers decimal or 0x..;\n"
      "                                          bool true/false/1/0)\n";
  for (const emu::ArgKindRow& k : emu::arg_kinds()) {
    if (k.summary == std::string("a scalar")) continue;
    const std::string syntax = k.syntax;
    s += "  " + syntax + std::string(syntax.size() < 40 ? 40 - syntax.size() : 1, ' ') + k.summary + "\n";
  }
  s += "  rand: integers in [lo, hi], floats in [lo, hi) (default: the type's range, [0, 1)); the same bytes as\n"
       "  tools/ptxlaunch. Buffers of one launch hold at most 16 GiB in all. Example:\n"
       "    --arg rand:1M:u8:7 --arg fill:1K:i32:0 --arg i32:1048576 --arg struct:i32:4,f32:0.5,buf:1K\n"
       "Exit status: 0 done, 1 the input could not be analysed or the kernel failed in the emulator (an\n"
       "out-of-bounds access, ...), 2 usage error (a bad --grid, --block, --arg, a missing --kernel), 3 (kernel)\n"
       "a --fail-on condition held.";
  return s;
}

void add_launch_options(CLI::App& sub, LaunchOptions& o) {
  driver::LaunchRequest& r = o.request;
  sub.add_option("file", r.file, ".ptx, .cu or .cuh (needs nvcc), or '-' for PTX on standard input (with --lang cu: CUDA)")
      ->required();
  sub.add_option("--kernel", r.kernel, "kernel name, plain or mangled (optional when the file has one)");
  sub.add_option("--grid", r.grid, "grid X[,Y[,Z]]")->capture_default_str();
  sub.add_option("--block", r.block, "block X[,Y[,Z]]")->capture_default_str();
  sub.add_option("--dyn-smem", r.dyn_smem, "dynamic shared memory bytes (extern __shared__ arrays)");
  sub.add_option("--cluster", r.cluster, "blocks per cluster X[,Y[,Z]] (sm_90 thread block clusters)");
  sub.add_flag("--cooperative", r.cooperative,
               "a cooperative launch (cudaLaunchCooperativeKernel): every block resident at once, so blocks may "
               "wait on each other; implied when the kernel uses cooperative_groups::this_grid()");
  sub.add_option("--arg", r.args, "kernel argument, one per parameter in order: SPEC (the kinds are listed below)")
      ->type_name("SPEC");
  sub.add_option("--lang", r.lang, "what FILE holds when its name does not say: ptx or cu (CUDA source, compiled by nvcc)")
      ->check(CLI::IsMember({"ptx", "cu"}));
  sub.add_option("--nvcc-arg", r.nvcc_args,
                 "an extra nvcc argument for CUDA source (repeatable): --nvcc-arg=-Iinclude --nvcc-arg=-DN=256 "
                 "--nvcc-arg=-std=c++20 (a value starting with '-' needs the '=')")
      ->type_name("ARG")
      ->allow_extra_args(false);
  sub.add_flag("-v,--verbose", o.verbose, "also give the PTX line of each diagnostic");
  sub.add_option("--blocks", r.blocks, "emulate only these blocks (e.g. 0,3,8-15 or 10%); totals are scaled");
  sub.add_option("--arch", r.arch, "target architecture")->capture_default_str();
  sub.add_option("-j,--jobs", r.jobs, "worker threads (default: one per core)");
  sub.add_flag("-q,--quiet", o.quiet, "no progress bar on standard error (drawn only when it is a terminal)");
  sub.add_flag("--no-sass", r.no_sass, "price the PTX as written, without asking ptxas/nvdisasm what runs");
  sub.add_option("--sass-listing", r.sass_listing,
                 "use this `nvdisasm -c -gi` listing of the kernel's cubin instead of running ptxas and nvdisasm");
  sub.footer(launch_help_footer());
}

std::string fix_command_line(const LaunchOptions& o) {
  const driver::LaunchRequest& r = o.request;
  std::vector<std::string> words{"warpscope", "fix", r.file == "<stdin>" ? "-" : r.file};
  auto add = [&](const std::string& option, const std::string& value) {
    words.push_back(option);
    words.push_back(value);
  };
  if (!r.kernel.empty()) add("--kernel", r.kernel);
  add("--grid", r.grid);
  add("--block", r.block);
  if (r.dyn_smem != 0) add("--dyn-smem", std::to_string(r.dyn_smem));
  for (const std::string& a : r.args) add("--arg", a);
  if (!r.lang.empty()) add("--lang", r.lang);
  for (const std::string& a : r.nvcc_args) words.push_back("--nvcc-arg=" + a);
  if (!r.blocks.empty()) add("--blocks", r.blocks);
  if (r.arch != "sm_90") add("--arch", r.arch);
  if (r.no_sass) words.push_back("--no-sass");
  if (!r.sass_listing.empty()) add("--sass-listing", r.sass_listing);
  std::string line;
  for (const std::string& w : words) line += (line.empty() ? "" : " ") + driver::shell_quote(w);
  if (r.file == "<stdin>") line += "  < (the same standard input)";
  return line;
}

Expected<std::unique_ptr<driver::PreparedLaunch>> prepare_launch(const LaunchOptions& o, std::istream& in) {
  driver::LaunchRequest r = o.request;
  if (r.file == "-" && !r.text) {
    std::ostringstream s;
    s << in.rdbuf();
    r.text = s.str();
    r.file = "<stdin>";
  }
  return driver::prepare_launch(r);
}

}  // namespace warpscope::cli
