// main.cc: the warpscope command line. Everything else is in the libraries.
#include <iostream>

#include "cli/command.h"

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  warpscope::cli::CommandContext ctx{std::cin, std::cout, std::cerr};
  return warpscope::cli::run_cli(argc, argv, ctx);
}
