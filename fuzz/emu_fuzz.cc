// emu_fuzz.cc: libFuzzer target for the parser plus the emulator. Every entry of a
// module that parses is linked and run on two small blocks (pointer parameters get a
// 256-byte buffer, others zero) under a small step budget. Any outcome is fine except a
// crash, a hang or a sanitizer report.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include "emu/launch.h"
#include "emu/program.h"
#include "ptx/parser.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace warpscope;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto module = ptx::parse(text, "fuzz.ptx");
  if (!module) return 0;
  for (std::size_t i = 0; i < module->functions.size(); ++i) {
    if (!module->functions[i].is_entry) continue;
    emu::GlobalMemory memory;
    auto program = emu::link(*module, static_cast<int>(i), memory);
    if (!program) continue;
    std::vector<emu::KernelArg> args;
    for (const auto& p : program->params) {
      emu::KernelArg a;
      a.bytes.assign(p.size, 0);
      if (p.size == 8) {
        std::uint64_t b = memory.allocate(256, "b");
        std::memcpy(a.bytes.data(), &b, 8);
      }
      args.push_back(a);
    }
    emu::RunOptions options;
    options.workers = 1;
    options.step_budget = 2000;
    auto report = emu::run(*module, module->functions[i].name, {{2, 1, 1}, {40, 1, 1}, 64}, args, memory, options);
    (void)report;
  }
  return 0;
}
