// calibrate_command.h: `warpscope calibrate [--patterns FILE]... [--out DIR] [--measured FILE]`
//
// On a GPU machine: builds calib/probe.cu and measures each pattern file under ncu
// (calib/run_calibration.sh), then reports every pattern where the model disagrees with
// this GPU. With --measured, checks an existing calibration JSONL instead (no GPU needed).
// Exit status 0 when every pattern agrees, 4 when some disagree, 1 on errors.
#pragma once

namespace CLI {
class App;
}

namespace warpscope::cli {

struct CommandContext;

void add_calibrate_command(CLI::App& app, CommandContext& ctx);

}  // namespace warpscope::cli
