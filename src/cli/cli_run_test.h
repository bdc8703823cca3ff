// cli_run_test.h: the CLI run in-process for the command tests (status, stdout, stderr).
#pragma once

#include <sstream>
#include <string>
#include <vector>

#include "cli/command.h"

namespace warpscope::cli::test {

struct CliRun {
  int status;
  std::string out, err;
};

// `warpscope WORDS...` with `input` on standard input.
inline CliRun run(const std::vector<std::string>& words, const std::string& input = "") {
  std::vector<const char*> args{"warpscope"};
  for (const std::string& w : words) args.push_back(w.c_str());
  std::istringstream in(input);
  std::ostringstream out, err;
  CommandContext ctx{in, out, err};
  const int status = run_cli(static_cast<int>(args.size()), args.data(), ctx);
  return {status, out.str(), err.str()};
}

}  // namespace warpscope::cli::test
