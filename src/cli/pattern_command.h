// pattern_command.h: `warpscope pattern FILE [--json] [--arch sm_90]`, the human interface.
//
//   $ warpscope pattern patterns/bank_strides.ws
//   patterns/bank_strides.ws:4: load s[lane*2]
//     ...lane -> address -> bank table, bank loads, bank diagram (src/pattern/text_writer.h)
#pragma once

namespace CLI {
class App;
}

namespace warpscope::cli {

struct CommandContext;

void add_pattern_command(CLI::App& app, CommandContext& ctx);

}  // namespace warpscope::cli
