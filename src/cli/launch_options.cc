// launch_options.cc: the shared front half of `warpscope kernel` and `warpscope fix`.
#include "cli/launch_options.h"

#include <CLI/CLI.hpp>

#include <sstream>

namespace warpscope::cli {

void add_launch_options(CLI::App& sub, LaunchOptions& o) {
  driver::LaunchRequest& r = o.request;
  sub.add_option("file", r.file, ".ptx, .cu (needs nvcc), or '-' for PTX on standard input")->required();
  sub.add_option("--kernel", r.kernel, "kernel name, plain or mangled (optional when the file has one)");
  sub.add_option("--grid", r.grid, "grid X[,Y[,Z]]")->capture_default_str();
  sub.add_option("--block", r.block, "block X[,Y[,Z]]")->capture_default_str();
  sub.add_option("--dyn-smem", r.dyn_smem, "dynamic shared memory bytes");
  sub.add_option("--cluster", r.cluster, "blocks per cluster X[,Y[,Z]] (sm_90 thread block clusters)");
  sub.add_option("--arg", r.args,
                 "kernel argument, in parameter order: buf:<bytes>, file:<path>, tmap:<buf:|file:>,dtype=..,dims=..,"
                 "strides=..,box=..,swizzle=.. (a CUtensorMap), i32:<v>, u32:<v>, i64:<v>, u64:<v>, f32:<v>, f64:<v>");
  sub.add_option("--blocks", r.blocks, "emulate only these blocks (e.g. 0,3,8-15 or 10%); totals are scaled");
  sub.add_option("--arch", r.arch, "target architecture")->capture_default_str();
  sub.add_option("-j,--jobs", r.jobs, "worker threads (default: one per core)");
  sub.add_flag("-q,--quiet", o.quiet, "no progress bar on standard error (drawn only when it is a terminal)");
  sub.add_flag("--no-sass", r.no_sass, "price the PTX as written, without asking ptxas/nvdisasm what runs");
  sub.add_option("--sass-listing", r.sass_listing,
                 "use this `nvdisasm -c -gi` listing of the kernel's cubin instead of running ptxas and nvdisasm");
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
