// profile_launches.h: which launch a kernel ncu profiled was, so warpscope can predict it.
//
// A launch is the launches.txt syntax that `warpscope kernel` and tools/ptxlaunch share:
//   [NAME] FILE.ptx --kernel K --grid X[,Y[,Z]] --block X[,Y[,Z]] [--dyn-smem B] [--arg SPEC]...
// They come from the profiled program's own arguments (`-- ptxlaunch FILE.ptx --kernel ...`),
// from --launch 'FILE.ptx --kernel ...', and from a --launches file. A profiled kernel takes
// the one launch whose kernel name, grid, block and dynamic shared memory agree with ncu's
// (or, in an imported directory, the launch named like the export's file).
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/launch_options.h"
#include "profile/ncu_report.h"
#include "support/expected.h"

namespace warpscope::cli {

struct LaunchSpec {
  std::string name;                 // the launches.txt NAME; empty for the others
  std::vector<std::string> words;   // FILE --kernel ... as written
  std::string origin;               // "examples/launches.txt:12", "--launch", "the program's arguments"
  int rank = 2;                     // when several fit: the program's arguments (0), then --launch (1), then a file (2)
  std::string text() const;         // "[NAME: ]FILE --kernel ..." for the report
};

// FILE --kernel K ... -> the options `warpscope kernel` takes (ptxlaunch's own options
// --repeat, --seed, --device, --dry-run are skipped; --arg specs are one grammar for both).
Expected<LaunchOptions> launch_options_from_words(const std::vector<std::string>& words);

// The launches of a launches.txt file. Relative paths (the PTX, file: arguments) that do not
// exist from here are taken from the file's folder, then its parent (launches.txt lives in
// examples/, its paths are relative to the repository root).
Expected<std::vector<LaunchSpec>> read_launches_file(const std::string& path);

// The program's arguments as a launch when they name a .ptx (the ptxlaunch convention).
std::optional<LaunchSpec> launch_from_program(const std::vector<std::string>& program);

// Splits a --launch value at whitespace.
LaunchSpec launch_from_text(const std::string& text);

// The launch for one profiled kernel, prepared; or why there is none.
struct LaunchMatch {
  const LaunchSpec* spec = nullptr;
  LaunchOptions options;
  std::unique_ptr<driver::PreparedLaunch> prepared;
  std::string why_not;  // when spec is null
};

class LaunchMatcher {
 public:
  LaunchMatcher(std::vector<LaunchSpec> specs, LaunchOptions common) : specs_(std::move(specs)), common_(std::move(common)) {}
  // `hint`: a launch name to prefer (an imported export's file name), may be empty.
  LaunchMatch match(const profile::MeasuredKernel& kernel, const std::string& hint, std::istream& in);
  bool empty() const { return specs_.empty(); }

 private:
  std::vector<LaunchSpec> specs_;
  LaunchOptions common_;  // --blocks, --no-sass, --sass-listing, -j, --arch for every launch
};

}  // namespace warpscope::cli
