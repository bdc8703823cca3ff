// html_writer.h: `warpscope kernel --html FILE` (and `fix --html FILE`): one self-contained
// page (inline CSS, JS and SVG; no external URL) to read a kernel's memory costs by eye.
//
//   +-------------------------------------------+--------------------------------------------+
//   | transpose_tiled.cu                        | transpose_tiled.cu:27: 253952 excess wf    |
//   |  26  excess  excess   deg                 |   ld.shared.f32 (PTX 150) 32 wavefronts,   |
//   |  27  253952       0  32-way  out[...] = ..|   32-way in bank 0 (block (0,0,0) warp 0)  |
//   |  28                                       |   [SVG: 32 banks across, wavefronts down]  |
//   |  (each line shaded by its excess cost;    |   suggested fix (fix --html): Swizzle ...  |
//   |   click one to show its accesses)         |   lane | address | word | bank             |
//   +-------------------------------------------+--------------------------------------------+
//
// The listing is the .cu the PTX's .file names when it was readable (KernelReport::sources),
// else the PTX; report lines outside any readable file are listed on their own.
#pragma once

#include <string>

#include "analysis/kernel_report.h"
#include "analysis/layout_fix.h"
#include "model/arch.h"

namespace warpscope::report {

std::string kernel_html(const analysis::KernelReport& report, const model::Arch& arch);

// The first run's page, with each array's chosen layout shown beside the accesses that touch
// it and the proof run's figures in the header.
std::string fix_html(const analysis::FixReport& report, const model::Arch& arch);

}  // namespace warpscope::report
