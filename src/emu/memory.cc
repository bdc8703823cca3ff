// memory.cc: global buffers at cudaMalloc-like addresses.
#include "emu/memory.h"

#include <algorithm>
#include <cstring>
#include <new>

namespace warpscope::emu {

std::uint64_t GlobalMemory::allocate(std::uint64_t size, std::string name) {
  auto allocated = try_allocate(size, std::move(name));
  if (!allocated) throw std::bad_alloc();  // callers that cannot fail keep within the budget
  return *allocated;
}

Expected<std::uint64_t> GlobalMemory::try_allocate(std::uint64_t size, std::string name) {
  if (size > kMaxTotalBytes || total_ + size > kMaxTotalBytes)
    return make_usage_error("buffers of " + std::to_string(total_ + size) + " bytes in all; warpscope holds them in " +
                            "host memory and allows at most " + std::to_string(kMaxTotalBytes) + " (16 GiB)");
  auto* bytes = static_cast<std::uint8_t*>(std::calloc(size == 0 ? 1 : size, 1));  // zeroed
  if (bytes == nullptr)
    return make_error("cannot hold a buffer of " + std::to_string(size) + " bytes ('" + name + "'): out of host memory");
  auto b = std::make_unique<Buffer>();
  b->name = std::move(name);
  b->base = next_;
  b->size = size;
  b->index = static_cast<int>(buffers_.size());
  b->bytes.reset(bytes);
  total_ += size;
  // Next buffer: past this one, 2 MiB aligned, leaving at least 64 KiB unmapped.
  next_ = (b->base + size + 65536 + (2u << 20) - 1) & ~std::uint64_t((2u << 20) - 1);
  std::uint64_t base = b->base;
  buffers_.push_back(std::move(b));
  return base;
}

std::uint64_t GlobalMemory::allocate(std::span<const std::uint8_t> data, std::string name) {
  std::uint64_t base = allocate(data.size(), std::move(name));
  if (!data.empty()) std::memcpy(buffers_.back()->bytes.get(), data.data(), data.size());
  return base;
}

const Buffer* GlobalMemory::find(std::uint64_t address, std::uint64_t size) const {
  auto it = std::upper_bound(buffers_.begin(), buffers_.end(), address,
                             [](std::uint64_t a, const std::unique_ptr<Buffer>& b) { return a < b->base; });
  if (it == buffers_.begin()) return nullptr;
  const Buffer* b = (it - 1)->get();
  if (address - b->base + size <= b->size) return b;
  return nullptr;
}

const Buffer* GlobalMemory::nearest(std::uint64_t address) const {
  auto it = std::upper_bound(buffers_.begin(), buffers_.end(), address,
                             [](std::uint64_t a, const std::unique_ptr<Buffer>& b) { return a < b->base; });
  if (it == buffers_.begin()) return buffers_.empty() ? nullptr : buffers_.front().get();
  return (it - 1)->get();
}

std::span<std::uint8_t> GlobalMemory::bytes(std::uint64_t base) {
  for (auto& b : buffers_)
    if (b->base == base) return {b->bytes.get(), b->size};
  return {};
}

std::span<const std::uint8_t> GlobalMemory::bytes(std::uint64_t base) const {
  for (const auto& b : buffers_)
    if (b->base == base) return {b->bytes.get(), b->size};
  return {};
}

std::uint64_t* GlobalMemory::symbol_slot(const void* key) {
  for (auto& [k, v] : symbols_)
    if (k == key) return &v;
  symbols_.emplace_back(key, 0);
  return &symbols_.back().second;
}

}  // namespace warpscope::emu
