// command.h: what every subcommand gets, and the table of subcommands.
//
// A subcommand is a row (name, adder); its adder registers options on the CLI11 app and a
// callback that does the work and leaves its exit status in the context. Streams come in
// through the context so tests can run commands without a process.
#pragma once

#include <iosfwd>

namespace CLI {
class App;
}

namespace warpscope {
struct Error;
}

namespace warpscope::cli {

// Exit statuses, documented in docs/ci.md ("Exit statuses").
inline constexpr int kExitOk = 0;
inline constexpr int kExitError = 1;       // bad input file, analysis error
inline constexpr int kExitBadInput = 2;    // usage error, or some input lines were malformed
inline constexpr int kExitGateFailed = 3;     // `kernel --fail-on`: a condition held
inline constexpr int kExitDisagreement = 4;  // `calibrate`: the model disagreed with the GPU

struct CommandContext {
  std::istream& in;
  std::ostream& out;
  std::ostream& err;
  int exit_code = kExitOk;
  bool err_is_terminal = false;  // `err` is a terminal: progress bars may be drawn on it
};

// Prints "warpscope: error: ..." and returns the exit status the error calls for:
// kExitBadInput for a usage error (a bad option value), kExitError otherwise.
int report_error(CommandContext& ctx, const Error& e);

struct Command {
  const char* name;
  void (*add)(CLI::App& app, CommandContext& ctx);
};

// Registers every subcommand on `app`.
void add_commands(CLI::App& app, CommandContext& ctx);

// Runs the whole CLI on argv: parse, dispatch, report. Returns the exit status.
int run_cli(int argc, const char* const* argv, CommandContext& ctx);

}  // namespace warpscope::cli
