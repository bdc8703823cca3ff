// check_command.h: `warpscope check LAUNCHES [--fail-on ...] [--baseline FILE] [--json] [--sarif FILE]`.
#pragma once

namespace CLI {
class App;
}

namespace warpscope::cli {

struct CommandContext;
void add_check_command(CLI::App& app, CommandContext& ctx);

}  // namespace warpscope::cli
