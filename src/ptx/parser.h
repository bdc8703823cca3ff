// parser.h: PTX text -> ptx::Module.
//
//   auto module = ptx::parse(text, "transpose.ptx");
//   if (!module) return module.error();   // "transpose.ptx:12:5: error: expected ';' ..."
//
// Accepts PTX as nvcc 12.x/13.x and Triton emit: .version/.target/.address_size, .entry
// and .func with params and return values, .reg ranges (%r<100>), .shared (static and
// extern dynamic), .local, .const, .global with initializers, predicates, labels,
// .loc/.file with inlined_at, .pragma, comments; .section blocks (DWARF) are skipped.
// An opcode or modifier it does not know is kept as Opcode::Unsupported with its text,
// so a program fails only if it reaches one.
#pragma once

#include <string>
#include <string_view>

#include "ptx/ir.h"
#include "ptx/source_names.h"
#include "support/expected.h"

namespace warpscope::ptx {

Expected<Module> parse(std::string_view source, std::string path);

// Reads a file and parses it; the error names the file when it cannot be read. Kernel
// parameters get their .cu names (source_names.h) from the sources source_reader finds
// for the PTX file's directory.
Expected<Module> parse_file(const std::string& path);

// Reads the files .file directives name: as given, then relative to `directory`, then by
// base name there.
SourceReader source_reader(const std::string& directory);

}  // namespace warpscope::ptx
