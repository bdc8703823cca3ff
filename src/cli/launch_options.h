// launch_options.h: the command-line options `warpscope kernel` and `warpscope fix` share,
// bound to the library's launch request (driver/launch.h).
//
//   FILE --kernel NAME --grid X[,Y[,Z]] --block X[,Y[,Z]] [--dyn-smem BYTES] [--arg SPEC]...
//   [--blocks SELECTION] [--arch sm_90] [-j N] [--no-sass] [--sass-listing FILE] [-q]
#pragma once

#include <istream>

#include "driver/launch.h"
#include "support/expected.h"

namespace CLI {
class App;
}

namespace warpscope::cli {

struct LaunchOptions {
  driver::LaunchRequest request;
  bool quiet = false;  // no progress bar
};

// Registers the options above on a subcommand.
void add_launch_options(CLI::App& sub, LaunchOptions& o);

// The request as given, with standard input read when FILE is '-' (PTX).
Expected<std::unique_ptr<driver::PreparedLaunch>> prepare_launch(const LaunchOptions& o, std::istream& in);

}  // namespace warpscope::cli
