// address_label.cc: global addresses as buffer + offset (see address_label.h).
#include "report/address_label.h"

#include <fmt/format.h>


namespace warpscope::report {

std::string buffer_display_name(const analysis::KernelReport& r, const std::string& buffer) {
  return r.buffer_display_name(buffer);
}

std::string address_label(const analysis::KernelReport& r, std::uint64_t address) {
  for (const emu::Region& region : r.regions)
    if (region.space == model::Space::Global && address >= region.base && address - region.base < region.size)
      return fmt::format("{}+0x{:x}", buffer_display_name(r, region.name), address - region.base);
  return fmt::format("0x{:x}", address);
}

}  // namespace warpscope::report
