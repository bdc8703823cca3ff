// progress_bar.h: the emulation's progress on standard error, for `kernel` and `fix` when
// standard error is a terminal (and --quiet is not given). The emulator only calls a hook
// (emu::RunOptions::progress); drawing is done here.
//
//   [##############--------------------------]  22528/65536 blocks   34%  9.1k blocks/s  ETA 0:04
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>

namespace warpscope::cli {

// "0:07", "12:34", "1:02:03" (rounded to whole seconds).
std::string format_duration(double seconds);

// One line at most `width` columns wide, after `seconds` of emulation; the bar takes what the
// figures leave (10 to 50 columns); counts are padded so the bar keeps its width. Rate and ETA read "-" and "--:--" until a block is done.
std::string progress_line(std::uint64_t done, std::uint64_t total, double seconds, int width = 80);

// Redraws the line in place ("\r", then erase to the end of the line), at most every
// `interval` seconds and only once the run has lasted `delay` seconds, so short runs print
// nothing; finish() erases it.
class ProgressBar {
 public:
  ProgressBar(std::ostream& out, bool enabled, int width = 80, double delay = 0.5, double interval = 0.1);
  ~ProgressBar() { finish(); }
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

  // For emu::RunOptions::progress; empty when disabled. Calls must not overlap (the emulator's
  // promise).
  std::function<void(std::uint64_t, std::uint64_t)> hook();
  void update(std::uint64_t done, std::uint64_t total);
  void finish();
  // Erases the line and starts timing a new run (rate and ETA from now).
  void restart();

 private:
  using Clock = std::chrono::steady_clock;
  std::ostream& out_;
  bool enabled_;
  int width_;
  double delay_, interval_;
  Clock::time_point start_ = Clock::now();
  double last_draw_ = -1;
  bool drawn_ = false;
};

// Columns of the terminal on standard error (80 when unknown), and whether it is one.
int terminal_columns();
bool stderr_is_terminal();

}  // namespace warpscope::cli
