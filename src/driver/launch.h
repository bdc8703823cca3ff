// launch.h: one kernel launch made ready to run: the request (what the user asked for, as
// data: the CLI's options and the Python binding's arguments both fill it), and the
// prepared launch (parsed module, kernel, dimensions, checked arguments, SASS-derived
// pricing plan).
//
//   LaunchRequest{.file = "k.ptx", .kernel = "transpose", .grid = "16,16", .block = "32,8",
//                 .args = {"buf:1048576", "buf:1048576", "i32:512"}}
//   -> prepare_launch(request) -> PreparedLaunch -> analyze_kernel (analyze.h)
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analysis/fusion_plan.h"
#include "analysis/kernel_report.h"
#include "driver/input.h"
#include "emu/args.h"
#include "emu/launch.h"
#include "model/arch.h"
#include "ptx/ir.h"
#include "support/expected.h"

namespace warpscope::driver {

struct LaunchRequest {
  std::string file;                 // .ptx or .cu path; with `text`, only its name and kind
  std::optional<std::string> text;  // the PTX (or CUDA source) itself, instead of reading `file`
  std::string lang;                 // "", "ptx" or "cu": what `file` (or `text`) holds; "": by its name
  std::vector<std::string> nvcc_args;  // extra nvcc arguments for CUDA source
  std::string kernel;               // plain or mangled; may be empty when the module has one
  std::string grid = "1";           // X[,Y[,Z]]
  std::string block = "32";
  std::uint32_t dyn_smem = 0;
  std::string cluster;              // --cluster X[,Y[,Z]]: blocks per cluster; empty: none
  bool cooperative = false;         // --cooperative (emu::LaunchConfig::cooperative)
  std::vector<std::string> args;    // --arg specs, in parameter order (emu/args.h), or
                                    // num:<v>: a number of the parameter's own type (below)
  std::string blocks;               // block selection (input.h), empty: all
  std::string arch = "sm_90";
  bool no_sass = false;             // price the PTX as written
  std::string sass_listing;         // a listing file to use instead of running ptxas + nvdisasm
  std::optional<std::string> sass_text;  // or the listing's text itself
  int jobs = 0;                     // worker threads, 0: one per core
};

// Everything a run needs. Held by pointer: the plan points into the module.
struct PreparedLaunch {
  LaunchRequest request;
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
  Expected<emu::Arguments> arguments(emu::GlobalMemory& memory) const;
  // Records how the report was priced, and the parameter names it shows buffers by.
  void stamp(analysis::KernelReport& report) const;
  // The kernel's parameter names by position, for messages: buffer argument 1 is shown as
  // "in+0x1f40" when entry 1 is "in", as "arg1+0x1f40" when it is empty. The one place the
  // names come from (the .cu's, when it is at hand: the front end fills this in).
  std::vector<std::string> parameter_names() const;
  // The lines of a source file the PTX's .file names (empty when unreadable).
  std::vector<std::string> source_lines(const std::string& path) const;
};

// The specs with each `num:<v>` replaced by the kind its parameter takes: f32:/f64: for a
// float parameter, i32:/i64: for an integer one (u32:/u64: when v does not fit the signed
// type). The Python binding passes plain ints and floats this way.
Expected<std::vector<std::string>> resolve_plain_numbers(const ptx::Module& module, int kernel,
                                                         const std::vector<std::string>& specs);

// Reads and checks everything (the arguments once, against the kernel's parameters).
Expected<std::unique_ptr<PreparedLaunch>> prepare_launch(const LaunchRequest& request);

}  // namespace warpscope::driver
