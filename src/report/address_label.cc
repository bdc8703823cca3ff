// address_label.cc: global addresses as buffer + offset (see address_label.h).
#include "report/address_label.h"

#include <fmt/format.h>

#include <cctype>

namespace warpscope::report {

std::string buffer_display_name(const analysis::KernelReport& r, const std::string& buffer) {
  // "arg<i>" or "arg<i>.<field>", as emu::buffer_name makes them.
  if (buffer.rfind("arg", 0) != 0 || buffer.size() < 4 || !std::isdigit(static_cast<unsigned char>(buffer[3])))
    return buffer;
  std::size_t end = 3, index = 0;
  while (end < buffer.size() && std::isdigit(static_cast<unsigned char>(buffer[end])) && index < 100000)
    index = index * 10 + static_cast<std::size_t>(buffer[end++] - '0');
  if (end != buffer.size() && buffer[end] != '.') return buffer;
  if (index >= r.parameter_names.size() || r.parameter_names[index].empty()) return buffer;
  return r.parameter_names[index] + buffer.substr(end);
}

std::string address_label(const analysis::KernelReport& r, std::uint64_t address) {
  for (const emu::Region& region : r.regions)
    if (region.space == model::Space::Global && address >= region.base && address - region.base < region.size)
      return fmt::format("{}+0x{:x}", buffer_display_name(r, region.name), address - region.base);
  return fmt::format("0x{:x}", address);
}

}  // namespace warpscope::report
