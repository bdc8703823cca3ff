// memory.h: the global memory model and the address windows of the generic space.
//
// Generic 64-bit addresses, as a kernel sees them after cvta:
//
//   0x0000_7e00_0000_0000 + off   shared memory of the running block (off < 4 GiB); its
//                                 reserved 1 KiB at off = kReservedSharedOffset
//                                 (special_registers.h)
//   0x0000_7f00_0000_0000 + off   local memory of the running thread
//   0x0000_7d00_0000_0000 + off   the kernel's parameters (cvta.param: a __grid_constant__
//                                 CUtensorMap's address), read-only
//   0x0000_7c00_0000_0000 + 16 f  the address of function f (function_address)
//   anything else                 global memory: buffers at cudaMalloc-like addresses
//
// Global buffers start 256-byte aligned (as cudaMalloc's) with unmapped gaps between
// them, so an access past one buffer's end is reported rather than landing in the next.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "support/expected.h"

namespace warpscope::emu {

inline constexpr std::uint64_t kSharedWindow = 0x00007e0000000000ull;
inline constexpr std::uint64_t kLocalWindow = 0x00007f0000000000ull;
inline constexpr std::uint64_t kWindowSize = 0x0000000100000000ull;
inline constexpr std::uint64_t kFirstBuffer = 0x0000000700000000ull;
// Where the block's reserved shared memory sits in its shared window: far past any
// kernel's own (at most 227 KiB), a multiple of 128 bytes (banks as on the H200), and below
// 2^24, where .shared::cluster addresses name other blocks (shared_address.h).
inline constexpr std::uint32_t kReservedSharedOffset = 0x00fff000u;

// Function addresses (a table of function pointers, mov.u64 %rd, f): distinct, nonzero,
// in no buffer; calling through one is not emulated.
inline constexpr std::uint64_t kFunctionWindow = 0x00007c0000000000ull;
inline std::uint64_t function_address(int function) { return kFunctionWindow + 16 * static_cast<std::uint64_t>(function); }

inline bool in_shared_window(std::uint64_t a) { return a - kSharedWindow < kWindowSize; }
inline bool in_local_window(std::uint64_t a) { return a - kLocalWindow < kWindowSize; }
inline constexpr std::uint64_t kParamWindow = 0x00007d0000000000ull;
inline bool in_param_window(std::uint64_t a) { return a - kParamWindow < kWindowSize; }

// Buffer bytes come from calloc: the zeroed pages of a large buffer cost no memory until
// the kernel touches them.
struct FreeBytes {
  void operator()(std::uint8_t* p) const { std::free(p); }
};

struct Buffer {
  std::string name;  // "arg0", "counter" (a .global variable), ...
  std::uint64_t base = 0;
  std::uint64_t size = 0;
  int index = 0;  // position in GlobalMemory::buffers()
  std::unique_ptr<std::uint8_t[], FreeBytes> bytes;
};

// Buffers the caller allocates before a run; the emulator reads and writes their bytes
// from several threads (atomics use std::atomic_ref). Allocation is not thread-safe:
// allocate before run().
class GlobalMemory {
 public:
  // The most bytes the buffers of one launch may hold in all: the emulator keeps them in
  // host memory. --arg specs are checked against it before anything is allocated.
  static constexpr std::uint64_t kMaxTotalBytes = std::uint64_t{16} << 30;  // 16 GiB

  // A zeroed buffer; returns its device address. The caller keeps within kMaxTotalBytes
  // (try_allocate checks).
  std::uint64_t allocate(std::uint64_t size, std::string name);
  // The same, or an error when the buffers would pass kMaxTotalBytes or the host has no
  // memory for it.
  Expected<std::uint64_t> try_allocate(std::uint64_t size, std::string name);
  // Bytes held by every buffer so far.
  std::uint64_t total_bytes() const { return total_; }
  // A buffer holding `data`.
  std::uint64_t allocate(std::span<const std::uint8_t> data, std::string name);

  // The buffer holding [address, address + size), or nullptr.
  const Buffer* find(std::uint64_t address, std::uint64_t size) const;
  // The buffer whose range is nearest below `address` (for messages), or nullptr.
  const Buffer* nearest(std::uint64_t address) const;
  // Host view of a buffer's bytes by its base address (empty if unknown).
  std::span<std::uint8_t> bytes(std::uint64_t base);
  std::span<const std::uint8_t> bytes(std::uint64_t base) const;

  const std::vector<std::unique_ptr<Buffer>>& buffers() const { return buffers_; }

  // Addresses of module variables (.global/.const) allocated for a module, by key.
  std::uint64_t* symbol_slot(const void* key);

 private:
  std::vector<std::unique_ptr<Buffer>> buffers_;  // sorted by base (allocation order)
  std::uint64_t next_ = kFirstBuffer;
  std::uint64_t total_ = 0;
  std::vector<std::pair<const void*, std::uint64_t>> symbols_;
};

}  // namespace warpscope::emu
