// input.h: what an analysis reads: PTX from a file or from text, or a .cu compiled by nvcc;
// launch dimensions; the block selection for sampling.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "emu/events.h"
#include "support/expected.h"

namespace warpscope::driver {

struct PtxText {
  std::string path;  // the name used in messages: the .ptx, "<stdin>", or the .cu
  std::string text;
  std::string source_dir;  // where .file paths are looked up
};

// What a kernel file holds: by its name (.cu and .cuh are CUDA source, anything else PTX),
// or as --lang says ("ptx", "cu").
struct SourceOptions {
  std::string lang;                    // "", "ptx" or "cu"
  std::vector<std::string> nvcc_args;  // extra nvcc arguments for CUDA source (-I, -D, -std=...)
};

// The kernel's text: read from `file` (PTX as is, CUDA source through `nvcc -arch=sm_90
// -lineinfo -ptx`), or, when `text` is given, that text itself (`file` then only names it in
// messages: "<stdin>", "kernel.cu"). CUDA source given as PTX (standard input without
// --lang cu) is an error that says so.
Expected<PtxText> read_ptx(const std::string& file, const std::optional<std::string>& text = std::nullopt,
                           const SourceOptions& options = {});

// True when the text looks like CUDA C++ rather than PTX (no .version/.target directive, and
// __global__, #include or a kernel launch in it).
bool looks_like_cuda_source(const std::string& text);

// "X[,Y[,Z]]" -> Dim3; every part a positive integer.
Expected<emu::Dim3> parse_dim3(const std::string& text, const std::string& what);

// The blocks to emulate, as linear ids, from a selection:
//   "all" (or empty)   every block
//   "25%" or "0.25"    that fraction, evenly spaced (at least one)
//   "0,4,7-9"          those ids (ranges inclusive)
Expected<std::vector<std::uint64_t>> parse_block_selection(const std::string& text, std::uint64_t total);

// A whole text file.
Expected<std::string> read_text_file(const std::string& path);

// Writes (replaces) a whole text file.
Status write_text_file(const std::string& path, const std::string& text);

// The lines of a source file named by a .file directive, looked up as written and in `dir`;
// empty when unreadable.
std::vector<std::string> read_source_lines(const std::string& path, const std::string& dir);

}  // namespace warpscope::driver
