// commands.cc: the subcommand table and the one place that turns argv into a run.
#include <CLI/CLI.hpp>

#include <array>
#include <ostream>

#include "cli/access_command.h"
#include "cli/calibrate_command.h"
#include "cli/check_command.h"
#include "cli/command.h"
#include "cli/fix_command.h"
#include "cli/kernel_command.h"
#include "cli/pattern_command.h"
#include "cli/profile_command.h"
#include "cli/version.h"
#include "support/expected.h"

namespace warpscope::cli {

namespace {
constexpr std::array kCommands{
    Command{"access", add_access_command},
    Command{"pattern", add_pattern_command},
    Command{"kernel", add_kernel_command},
    Command{"calibrate", add_calibrate_command},
    Command{"fix", add_fix_command},
    Command{"check", add_check_command},
    Command{"profile", add_profile_command},
};
}  // namespace

int report_error(CommandContext& ctx, const Error& e) {
  ctx.err << "warpscope: " << e.render() << "\n";
  return e.usage() ? kExitBadInput : kExitError;
}

void add_commands(CLI::App& app, CommandContext& ctx) {
  for (const Command& c : kCommands) c.add(app, ctx);
}

int run_cli(int argc, const char* const* argv, CommandContext& ctx) {
  CLI::App app{"warpscope: what your CUDA kernels' memory accesses cost, without a GPU"};
  app.set_version_flag("-V,--version", std::string("warpscope ") + version() + " (commit " + build_commit() + ")",
                       "print the version and the commit it was built from, and exit");
  app.require_subcommand(1);
  add_commands(app, ctx);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int status = app.exit(e, ctx.out, ctx.err);
    return status == 0 ? kExitOk : kExitBadInput;
  }
  return ctx.exit_code;
}

}  // namespace warpscope::cli
