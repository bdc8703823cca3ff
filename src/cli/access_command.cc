// access_command.cc: the JSON-lines loop of `warpscope access`.
#include "cli/access_command.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <istream>
#include <memory>
#include <ostream>
#include <string>

#include "cli/command.h"
#include "jsonio/access_json.h"
#include "model/access_cost.h"

namespace warpscope::cli {

namespace {

struct AccessOptions {
  bool jsonl = false;
  std::string arch = "sm_90";
};

std::string lanes_list(std::uint32_t lanes) {
  std::string s;
  for (int lane = 0; lane < model::kWarpSize; ++lane)
    if ((lanes >> lane) & 1u) s += (s.empty() ? "" : " ") + std::to_string(lane);
  return s;
}

std::string describe(const model::WarpAccess& a, const model::AccessCost& c) {
  std::string s = fmt::format("{} width {} mask {:#010x}: ", model::op_name(a.op), a.width, a.mask);
  if (c.shared) {
    const auto& x = *c.shared;
    s += fmt::format("{} wavefronts (ideal {}), {} bank conflicts", x.wavefronts, x.ideal_wavefronts, x.bank_conflicts());
    if (x.worst_degree > 1)
      s += fmt::format("; worst: bank {} {}-way, lanes {}", x.worst_bank, x.worst_degree, lanes_list(x.colliding_lanes));
  } else if (c.global) {
    const auto& g = *c.global;
    s += fmt::format("{} request(s), {} sectors (ideal {}), {} lines, efficiency {:.0f}%", g.requests, g.sectors,
                     g.ideal_sectors, g.lines, 100.0 * g.efficiency());
    if (g.cause != model::Coalescing::Coalesced) s += fmt::format(", cause: {}", model::coalescing_name(g.cause));
  }
  return s;
}

int run_access(const AccessOptions& options, CommandContext& ctx) {
  auto arch = model::find_arch(options.arch);
  if (!arch) {
    ctx.err << "warpscope: " << arch.error().render() << "\n";
    return kExitBadInput;
  }
  int status = kExitOk;
  std::string line;
  for (int line_no = 1; std::getline(ctx.in, line); ++line_no) {
    auto access = line.find_first_not_of(" \t\r") == std::string::npos
                      ? Expected<model::WarpAccess>(make_error("empty line"))
                      : jsonio::parse_access(line);
    if (!access) {
      status = kExitBadInput;
      if (options.jsonl)
        ctx.out << nlohmann::json{{"line", line_no}, {"error", access.error().message}}.dump() << "\n";
      else
        ctx.err << "<stdin>:" << line_no << ": error: " << access.error().message << "\n";
      continue;
    }
    const model::AccessCost cost = model::price_valid(**arch, *access);
    if (options.jsonl) {
      nlohmann::json out = jsonio::cost_to_json(*access, cost);
      out["line"] = line_no;
      ctx.out << out.dump() << "\n";
    } else {
      ctx.out << line_no << ": " << describe(*access, cost) << "\n";
    }
  }
  return status;
}

}  // namespace

void add_access_command(CLI::App& app, CommandContext& ctx) {
  auto options = std::make_shared<AccessOptions>();
  CLI::App* sub = app.add_subcommand("access", "Price warp memory instructions read as JSON lines on standard input");
  sub->add_flag("--jsonl", options->jsonl, "write one JSON object per input line (the machine interface)");
  sub->add_option("--arch", options->arch, "target architecture")->capture_default_str();
  sub->callback([options, &ctx] { ctx.exit_code = run_access(*options, ctx); });
}

}  // namespace warpscope::cli
