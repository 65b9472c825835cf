#include "ohprof/base/console.hpp"

#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <memory>
#include <string>

namespace ohprof::console {
namespace {

std::shared_ptr<spdlog::logger>& logger() {
  static std::shared_ptr<spdlog::logger> instance;
  return instance;
}

std::string& context() {
  static std::string instance;
  return instance;
}

std::shared_ptr<spdlog::logger>& get_or_start() {
  if (!logger()) start("", false);
  return logger();
}

}  // namespace

void start(std::string_view command, bool quiet) {
  auto sink = std::make_shared<spdlog::sinks::stderr_sink_st>();
  auto instance = std::make_shared<spdlog::logger>(std::string(command), sink);
  instance->set_pattern(command.empty() ? "ohprof: %v" : "ohprof %n: %v");
  instance->set_level(quiet ? spdlog::level::warn : spdlog::level::info);
  instance->flush_on(spdlog::level::info);
  logger() = std::move(instance);
}

void set_context(std::string_view text) { context() = std::string(text); }

void progress(std::string_view message) {
  if (context().empty()) {
    get_or_start()->info("{}", message);
  } else {
    get_or_start()->info("[{}] {}", context(), message);
  }
}

void warning(std::string_view message) { get_or_start()->warn("warning: {}", message); }

}  // namespace ohprof::console
