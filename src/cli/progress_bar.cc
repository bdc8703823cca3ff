// progress_bar.cc: formatting and drawing the emulation's progress line.
#include "cli/progress_bar.h"

#include <fmt/format.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <ostream>

namespace warpscope::cli {

namespace {

// 950, 9.1k, 12k, 3.4M: a rate in at most four characters.
std::string short_count(double v) {
  if (v < 1000) return fmt::format("{:.0f}", v);
  if (v < 10e3) return fmt::format("{:.1f}k", v / 1e3);
  if (v < 1e6) return fmt::format("{:.0f}k", v / 1e3);
  return fmt::format("{:.1f}M", v / 1e6);
}

}  // namespace

std::string format_duration(double seconds) {
  const auto s = static_cast<long long>(std::llround(std::max(0.0, seconds)));
  if (s >= 3600) return fmt::format("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
  return fmt::format("{}:{:02}", s / 60, s % 60);
}

std::string progress_line(std::uint64_t done, std::uint64_t total, double seconds, int width) {
  done = std::min(done, total);
  const double fraction = total == 0 ? 1.0 : static_cast<double>(done) / static_cast<double>(total);
  const bool timed = done > 0 && seconds > 0;
  const double rate = timed ? static_cast<double>(done) / seconds : 0;
  const std::string figures =
      fmt::format("  {:>{}}/{} blocks  {:>3.0f}%  {} blocks/s  ETA {}", done, std::to_string(total).size(), total,
                  std::floor(fraction * 100),
                  timed ? short_count(rate) : "-",
                  timed ? format_duration(static_cast<double>(total - done) / rate) : "--:--");
  const int bar = std::clamp(width - static_cast<int>(figures.size()) - 2, 10, 50);
  const int filled = static_cast<int>(std::floor(fraction * bar));
  std::string line = "[" + std::string(static_cast<std::size_t>(filled), '#') +
                     std::string(static_cast<std::size_t>(bar - filled), '-') + "]" + figures;
  // Never wider than the terminal: a wrapped line would leave a copy behind at every redraw.
  if (width > 0 && line.size() > static_cast<std::size_t>(width)) line.resize(static_cast<std::size_t>(width));
  return line;
}

ProgressBar::ProgressBar(std::ostream& out, bool enabled, int width, double delay, double interval)
    : out_(out), enabled_(enabled), width_(width), delay_(delay), interval_(interval) {}

std::function<void(std::uint64_t, std::uint64_t)> ProgressBar::hook() {
  if (!enabled_) return {};
  return [this](std::uint64_t done, std::uint64_t total) { update(done, total); };
}

void ProgressBar::update(std::uint64_t done, std::uint64_t total) {
  if (!enabled_) return;
  const double now = std::chrono::duration<double>(Clock::now() - start_).count();
  if (now < delay_ || (last_draw_ >= 0 && now - last_draw_ < interval_ && done < total)) return;
  last_draw_ = now;
  out_ << "\r\033[K" << progress_line(done, total, now, width_ - 1) << std::flush;
  drawn_ = true;
}

void ProgressBar::finish() {
  if (drawn_) out_ << "\r\033[K" << std::flush;
  drawn_ = false;
}

void ProgressBar::restart() {
  finish();
  start_ = Clock::now();
  last_draw_ = -1;
}

int terminal_columns() {
  winsize w{};
  if (ioctl(STDERR_FILENO, TIOCGWINSZ, &w) == 0 && w.ws_col > 20) return w.ws_col;
  return 80;
}

bool stderr_is_terminal() { return isatty(STDERR_FILENO) != 0; }

}  // namespace warpscope::cli
