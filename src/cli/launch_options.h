// launch_options.h: the command-line options `warpscope kernel` and `warpscope fix` share,
// bound to the library's launch request (driver/launch.h).
//
//   FILE --kernel NAME --grid X[,Y[,Z]] --block X[,Y[,Z]] [--dyn-smem BYTES] [--arg SPEC]...
//   [--lang ptx|cu] [--nvcc-arg ARG]... [--blocks SELECTION] [--arch sm_90] [-j N] [--no-sass]
//   [--sass-listing FILE] [-q] [-v]
#pragma once

#include <istream>
#include <string>

#include "driver/launch.h"
#include "support/expected.h"

namespace CLI {
class App;
}

namespace warpscope::cli {

struct LaunchOptions {
  driver::LaunchRequest request;
  bool quiet = false;    // no progress bar
  bool verbose = false;  // diagnostics also give the PTX line
};

// The --help text after the options: the --arg kinds and the exit statuses.
std::string launch_help_footer();

// `warpscope fix` for the same launch, words quoted for the shell:
//   warpscope fix examples/transpose_tiled.ptx --kernel transpose_tiled_f32 --grid 16,16 --block 32,8 --arg ...
std::string fix_command_line(const LaunchOptions& o);

// Registers the options above on a subcommand.
void add_launch_options(CLI::App& sub, LaunchOptions& o);

// The request as given, with standard input read when FILE is '-' (PTX).
Expected<std::unique_ptr<driver::PreparedLaunch>> prepare_launch(const LaunchOptions& o, std::istream& in);

}  // namespace warpscope::cli
