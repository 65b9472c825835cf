// compare --cold-start: each path from a fresh process to its first correct result (docs/metrics.md,
// "Cold start").
#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "ohprof/model/path_kind.hpp"
#include "ohprof/analysis/cold_start.hpp"
#include "ohprof/base/clock.hpp"
#include "ohprof/base/console.hpp"
#include "ohprof/base/format.hpp"
#include "ohprof/base/interrupt.hpp"
#include "ohprof/harness/child_process.hpp"
#include "ohprof/model/code_dump.hpp"
#include "ohprof/output/report_output.hpp"
#include "session_steps.hpp"

namespace ohprof {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// One (path, cache state) whose processes the rounds run.
struct ColdTarget {
  std::size_t path = 0;   // index into report.paths
  std::size_t state = 0;  // index into its cold_start->states
  std::string name;       // the path's name
  CompileCache cache = CompileCache::none;
};

// What one process gave: its sample, or why it gave none.
struct ProcessOutcome {
  std::optional<ColdStartSample> sample;
  std::string error;
  bool artifacts_saved = false;
  std::string artifacts_note;
  bool interrupted = false;
};

ProcessOutcome read_outcome(const ChildExit& exit, const std::string& result_path, const std::string& log_path) {
  ProcessOutcome outcome;
  if (exit.interrupted) {
    outcome.interrupted = true;
    outcome.error = "interrupted";
    return outcome;
  }
  if (exit.timed_out) {
    outcome.error = fmt::format("the process ran longer than {:.0f} s and was stopped", kColdStartProcessLimitS);
    return outcome;
  }
  std::ifstream in(result_path);
  const json result = in.is_open() ? json::parse(in, nullptr, /*allow_exceptions=*/false) : json();
  if (result.is_discarded() || !result.is_object()) {
    const std::string line = last_line_of(log_path);
    outcome.error = fmt::format("the process exited with status {} and wrote no result{}", exit.exit_code,
                                line.empty() ? std::string() : ": " + line);
    return outcome;
  }
  if (!result.value("ok", false)) {
    outcome.error = result.value("error", std::string("the process failed without saying why"));
    return outcome;
  }
  try {
    const json& t = result.at("times");
    ColdStartTimes times{exit.spawn_ns,
                         t.at("main").get<std::int64_t>(),
                         t.at("torch").get<std::int64_t>(),
                         t.at("tool").get<std::int64_t>(),
                         t.at("loaded").get<std::int64_t>(),
                         t.at("first").get<std::int64_t>(),
                         t.at("compile").get<std::int64_t>(),
                         t.value("hook", std::int64_t{0})};
    PhaseResult phases = cold_start_phases(times);
    if (!phases.sample) {
      outcome.error = phases.error;
      return outcome;
    }
    ColdStartSample sample = *phases.sample;
    sample.pid = result.value("pid", exit.pid);
    const json& check = result.at("check");
    sample.output_matches = check.at("passed").get<bool>();
    if (check.contains("max_abs_diff") && check["max_abs_diff"].is_number()) {
      sample.max_abs_diff = check["max_abs_diff"].get<double>();
    }
    sample.output_detail = check.value("detail", std::string());
    if (const auto memory = result.find("memory"); memory != result.end() && memory->is_object()) {
      const auto bytes = [&](const char* key) -> std::optional<std::int64_t> {
        const auto it = memory->find(key);
        if (it == memory->end() || !it->is_number_integer() || it->get<std::int64_t>() < 0) return std::nullopt;
        return it->get<std::int64_t>();
      };
      sample.rss_bytes = bytes("rss_bytes");
      sample.peak_rss_bytes = bytes("peak_rss_bytes");
    }
    outcome.sample = sample;
    outcome.artifacts_saved = result.value("artifacts_saved", false);
    outcome.artifacts_note = result.value("artifacts_note", std::string());
  } catch (const json::exception& e) {
    outcome.error = fmt::format("the process's result is not readable ({})", e.what());
  }
  return outcome;
}

// Starts one process of `path` with `cache` (a compare path name and a ColdStartSetup CACHE word) and
// reads what it measured.
ProcessOutcome run_process(const ColdStartSetup& setup, const std::string& path, const std::string& cache,
                           const fs::path& cache_dir, const fs::path& artifacts_file, const fs::path& work,
                           int serial) {
  const std::string stem = fmt::format("{:03d}-{}-{}", serial, dump_folder_name(path), cache);
  const fs::path result = work / (stem + ".result.json");
  const fs::path log = work / (stem + ".log");
  std::error_code ignored;
  fs::create_directories(cache_dir, ignored);
  ChildLaunch launch;
  launch.argv = setup.command;
  for (const std::string& arg : {path, cache, cache_dir.string(), artifacts_file.string(), result.string()}) {
    launch.argv.push_back(arg);
  }
  launch.env = {{"TORCHINDUCTOR_CACHE_DIR", cache_dir.string()}, {"TRITON_CACHE_DIR", (cache_dir / "triton").string()}};
  launch.log_path = log.string();
  launch.time_limit_s = kColdStartProcessLimitS;
  auto exit = run_child(launch, monotonic_now_ns);
  if (!exit.ok()) {
    ProcessOutcome failed;
    failed.error = exit.error().message;
    return failed;
  }
  ProcessOutcome outcome = read_outcome(*exit, result.string(), log.string());
  fs::remove(result, ignored);
  fs::remove(log, ignored);
  return outcome;
}

// The Inductor cache folder states a path starts with (docs/metrics.md, "Cold start"): torch.compile's
// compile reads and fills it; aoti_load_package runs Inductor's Python, whose CPU vector-ISA probe (a few
// C++ compiles on the first use) is cached there too; the C++ loader and eager read nothing there.
std::vector<CompileCache> cache_states(const std::string& path) {
  const std::optional<PathKind> kind = parse_path_kind(path);
  if (kind && path_kind_info(*kind).compiled) return {CompileCache::cold, CompileCache::warm, CompileCache::artifacts};
  if (kind == PathKind::aoti_python) return {CompileCache::cold, CompileCache::warm};
  return {CompileCache::none};
}

// Whether a state that starts from a filled cache (warm, artifacts) is still to be measured: the fill is for it.
bool needs_fill(const PathColdStart& cold) {
  return std::any_of(cold.states.begin(), cold.states.end(), [](const ColdStartState& s) {
    return (s.cache == CompileCache::warm || s.cache == CompileCache::artifacts) && s.unavailable.empty();
  });
}

}  // namespace

bool starts_from_module(const std::string& path) {
  const std::optional<PathKind> kind = parse_path_kind(path);
  return kind != PathKind::aoti && kind != PathKind::aoti_python;
}

bool cold_start_needs_module(const Report& report) {
  return std::any_of(report.paths.begin(), report.paths.end(),
                     [](const PathResult& p) { return p.role == PathRole::path && starts_from_module(p.name); });
}

void measure_cold_start(Report& report, const ColdStartSetup& setup, int processes, const std::string& work_dir) {
  if (processes < 1) return;
  const fs::path work(work_dir);
  std::vector<ColdTarget> targets;
  for (std::size_t i = 0; i < report.paths.size(); ++i) {
    PathResult& path = report.paths[i];
    if (path.role != PathRole::path) continue;
    PathColdStart cold;
    cold.processes = processes;
    for (CompileCache cache : cache_states(path.name)) {
      ColdStartState state;
      state.cache = cache;
      if (cache == CompileCache::artifacts) state.unavailable = setup.artifacts_unavailable;
      if (!setup.module_unavailable.empty() && starts_from_module(path.name)) state.unavailable = setup.module_unavailable;
      cold.states.push_back(state);
    }
    for (std::size_t s = 0; s < cold.states.size(); ++s) {
      if (cold.states[s].unavailable.empty()) targets.push_back(ColdTarget{i, s, path.name, cold.states[s].cache});
    }
    path.cold_start = std::move(cold);
  }
  console::progress(fmt::format("measuring cold starts: {} fresh process(es) per path and cache state", processes));
  int serial = 0;
  bool interrupted = false;
  const auto state_of = [&](const ColdTarget& t) -> ColdStartState& { return report.paths[t.path].cold_start->states[t.state]; };
  const auto warm_dir = [&](std::size_t path) { return work / fmt::format("p{}-warm-cache", path); };
  const auto artifacts_file = [&](std::size_t path) { return work / fmt::format("p{}.artifacts", path); };

  // A path's warm cache folder and portable artifacts: one cold process fills both, not kept.
  for (std::size_t i = 0; i < report.paths.size() && !interrupted; ++i) {
    if (!report.paths[i].cold_start || !needs_fill(*report.paths[i].cold_start)) continue;
    console::progress(fmt::format("cold start: filling {}'s Inductor cache", report.paths[i].name));
    ProcessOutcome filled =
        run_process(setup, report.paths[i].name, "fill", warm_dir(i), artifacts_file(i), work, serial++);
    interrupted = filled.interrupted;
    for (ColdStartState& state : report.paths[i].cold_start->states) {
      if (state.cache == CompileCache::cold || !state.unavailable.empty()) continue;
      if (!filled.sample) {
        state.unavailable = "the process that fills the cache failed: " + filled.error;
      } else if (state.cache == CompileCache::artifacts && !filled.artifacts_saved) {
        state.unavailable = filled.artifacts_note.empty() ? std::string("no cache artifacts were saved") : filled.artifacts_note;
      }
    }
  }
  std::erase_if(targets, [&](const ColdTarget& t) { return !state_of(t).unavailable.empty(); });

  for (int round = 0; round < processes && !interrupted; ++round) {
    for (std::size_t k = 0; k < targets.size() && !interrupted; ++k) {
      const ColdTarget& target = targets[(k + static_cast<std::size_t>(round)) % targets.size()];
      ColdStartState& state = state_of(target);
      if (!state.failed.empty()) continue;  // one failure is enough to say why; the others go on
      const fs::path fresh = work / fmt::format("p{}-{}-{}", target.path, to_string(target.cache), round);
      const fs::path cache_dir = target.cache == CompileCache::warm ? warm_dir(target.path) : fresh;
      ProcessOutcome outcome = run_process(setup, target.name, to_string(target.cache), cache_dir,
                                           artifacts_file(target.path), work, serial++);
      if (target.cache != CompileCache::warm) {
        std::error_code ignored;
        fs::remove_all(fresh, ignored);
      }
      if (outcome.interrupted) {
        interrupted = true;
        break;
      }
      if (!outcome.sample) {
        state.failed = outcome.error;
        continue;
      }
      outcome.sample->round = round;
      state.samples.push_back(*outcome.sample);
    }
  }

  for (PathResult& path : report.paths) {
    if (!path.cold_start) continue;
    summarize_path_cold_start(*path.cold_start);
    for (const ColdStartState& state : path.cold_start->states) {
      const std::string which = state.cache == CompileCache::none ? path.name
                                                                   : fmt::format("{} ({} cache)", path.name, to_string(state.cache));
      if (!state.failed.empty()) {
        add_warning(report, Warning{WarningCode::cold_start_incomplete,
                                    fmt::format("--cold-start: a fresh process of {} failed: {}", which, state.failed)});
      } else if (!state.unavailable.empty()) {
        add_warning(report, Warning{WarningCode::cold_start_incomplete,
                                    fmt::format("--cold-start: {} was not measured: {}", which, state.unavailable)});
      }
      const auto differs = std::find_if(state.samples.begin(), state.samples.end(),
                                        [](const ColdStartSample& s) { return !s.output_matches; });
      if (differs != state.samples.end()) {
        add_warning(report, Warning{WarningCode::cold_start_outputs_differ,
                                    fmt::format("--cold-start: the first output of a fresh process of {} differs from "
                                                "the reference{}",
                                                which, differs->output_detail.empty() ? "" : " (" + differs->output_detail + ")")});
      }
    }
  }
  report.interrupted = report.interrupted || interrupted;
}

std::string make_cold_start_dir() {
  std::error_code error;
  fs::path base = fs::temp_directory_path(error);
  if (error) base = "/tmp";
  std::string pattern = (base / "ohprof-cold-start-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) return "";
  return pattern;
}

}  // namespace ohprof
