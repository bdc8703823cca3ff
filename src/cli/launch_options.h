// launch_options.h: what `warpscope kernel` and `warpscope fix` share: the launch options,
// and turning them into a parsed module, a kernel, launch dimensions, checked arguments and
// the SASS-derived pricing plan.
//
//   FILE --kernel NAME --grid X[,Y[,Z]] --block X[,Y[,Z]] [--dyn-smem BYTES] [--arg SPEC]...
//   [--blocks SELECTION] [--arch sm_90] [-j N] [--no-sass] [--sass-listing FILE]
#pragma once

#include <cstdint>
#include <istream>
#include <memory>
#include <string>
#include <vector>

#include "analysis/fusion_plan.h"
#include "analysis/kernel_report.h"
#include "cli/kernel_input.h"
#include "emu/args.h"
#include "emu/launch.h"
#include "model/arch.h"
#include "ptx/ir.h"
#include "support/expected.h"

namespace CLI {
class App;
}

namespace warpscope::cli {

struct LaunchOptions {
  std::string file;
  std::string kernel;
  std::string grid = "1";
  std::string block = "32";
  std::uint32_t dyn_smem = 0;
  std::string cluster;  // --cluster X[,Y[,Z]]: blocks per cluster
  std::vector<std::string> args;
  std::string blocks;
  std::string arch = "sm_90";
  bool no_sass = false;
  std::string sass_listing;
  int jobs = 0;
  bool quiet = false;  // no progress bar
};

// Registers the options above on a subcommand.
void add_launch_options(CLI::App& sub, LaunchOptions& o);

// Everything a run needs. Held by pointer: the plan points into the module.
struct PreparedLaunch {
  const model::Arch* arch = nullptr;
  PtxText ptx;
  ptx::Module module;
  int kernel = -1;
  std::string kernel_name;  // as in the module (mangled when it is)
  emu::LaunchConfig launch;
  std::uint64_t blocks_total = 0;
  emu::RunOptions run_options;
  analysis::FusionPlan plan;
  bool from_sass = false;  // plan came from ptxas + nvdisasm (or a given listing)
  std::string sass_note;   // why not, when not

  const analysis::FusionPlan* plan_or_null() const { return from_sass ? &plan : nullptr; }
  // Fresh buffers and argument values for one run (a kernel may overwrite its inputs).
  Expected<emu::Arguments> arguments(emu::GlobalMemory& memory, const std::vector<std::string>& specs) const;
  // Records how the report was priced.
  void stamp(analysis::KernelReport& report) const;
};

// Reads and checks everything (the arguments once, against the kernel's parameters).
Expected<std::unique_ptr<PreparedLaunch>> prepare_launch(const LaunchOptions& o, std::istream& in);

}  // namespace warpscope::cli
