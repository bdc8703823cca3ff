// main.cc: the warpscope command line. Everything else is in the libraries.
#include <iostream>

#include "cli/command.h"
#include "cli/progress_bar.h"

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  warpscope::cli::CommandContext ctx{std::cin, std::cout, std::cerr};
  ctx.err_is_terminal = warpscope::cli::stderr_is_terminal();
  return warpscope::cli::run_cli(argc, argv, ctx);
}
