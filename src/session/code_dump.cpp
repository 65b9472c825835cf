// --dump-code DIR (docs/code-dump.md): each path's generated code and graph, its kernels joined to their
// places in that code and to what they cost, and DIR/index.html over all of them. After measuring only.
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include "ohprof/model/path_kind.hpp"
#include "ohprof/analysis/code_sites.hpp"
#include "ohprof/base/atomic_file.hpp"
#include "ohprof/base/console.hpp"
#include "ohprof/output/html_report.hpp"
#include "ohprof/output/json_report.hpp"
#include "ohprof/output/report_output.hpp"
#include "session_steps.hpp"

namespace ohprof {
namespace {

namespace fs = std::filesystem;

std::optional<std::string> read_text_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// One path's folder: the package's code, the Python side's pieces, kernels.json.
Result<PathCodeDump> dump_path(Report& report, const PathResult& path, const PathDumpSource& source,
                               ModelSession* python, const fs::path& dir, const Runtime& runtime) {
  PathCodeDump out;
  out.path = path.name;
  out.folder = dump_folder_name(path.name);
  const fs::path folder = dir / out.folder;
  std::error_code error;
  // The folder is the dump's: one an earlier dump left (it holds kernels.json) is emptied, so that no
  // stale file (an old trace, a picture graphviz could not draw now) is taken for this dump's; anything
  // else in the way is refused.
  if (fs::exists(folder / "kernels.json", error)) {
    fs::remove_all(folder, error);
    if (error) {
      return make_error(ExitCode::output_error, fmt::format("cannot empty the earlier dump '{}': {}; the report was written",
                                                            folder.string(), error.message()));
    }
  } else if (fs::exists(folder, error) && !(fs::is_directory(folder, error) && fs::is_empty(folder, error))) {
    return make_error(ExitCode::output_error,
                      fmt::format("--dump-code: '{}' exists and is no earlier dump of ohprof's; give an empty or new "
                                  "folder; the report was written",
                                  folder.string()));
  }
  error.clear();
  fs::create_directories(source.package.empty() ? folder : folder / "code", error);
  if (error) {
    return make_error(ExitCode::output_error, fmt::format("cannot create --dump-code folder '{}': {}; the report was written",
                                                          folder.string(), error.message()));
  }
  const auto note = [&](const std::string& text) {
    add_warning(report, Warning{WarningCode::code_dump_incomplete, fmt::format("--dump-code, {}: {}", path.name, text)});
    out.notes.push_back(text);
  };
  std::vector<SourceFile> code;  // the generated code, named as in the path's folder
  if (!source.package.empty()) {
    if (!runtime.read_package_sources) {
      note("this build cannot read AOTI packages (no LibTorch): no generated code");
    } else if (auto sources = runtime.read_package_sources(source.package); !sources.ok()) {
      note(sources.error().message);
    } else {
      for (SourceFile& file : *sources) {
        const std::string name = "code/" + file.name;
        OHPROF_RETURN_IF_ERROR(write_file_atomically((folder / name).string(), file.text));
        out.files.push_back(name);
        if (name.ends_with(".cpp") || name.ends_with(".py")) code.push_back(SourceFile{name, std::move(file.text)});
      }
    }
  }
  if (source.python && python != nullptr) {
    // A piece the Python side could not make is a note; a file it could not write ends the dump (exit 8).
    std::optional<Error> write_error;
    const auto take = [&](Result<CodeDumpPiece> piece) {
      if (!piece.ok()) {
        if (piece.error().code == ExitCode::output_error) {
          write_error = piece.error();
        } else {
          note(piece.error().message);
        }
        return;
      }
      if (!piece->graph_label.empty()) out.graph_label = piece->graph_label;
      out.files.insert(out.files.end(), piece->files.begin(), piece->files.end());
      for (const std::string& text : piece->notes) note(text);
      for (const std::string& name : piece->code_files) {
        if (auto text = read_text_file(folder / name)) {
          code.push_back(SourceFile{name, std::move(*text)});
        } else {
          note(fmt::format("{} was listed but cannot be read", name));
        }
      }
    };
    console::progress(fmt::format("dumping {}'s graph and code", path.name));
    take(python->dump_code(path.name, folder.string()));
    const std::optional<PathKind> kind = parse_path_kind(path.name);
    if (!write_error && kind && path_kind_info(*kind).compiled) {
      console::progress(fmt::format("tracing a re-compile of {} for tlparse (not measured)", path.name));
      take(python->trace_compile(path.name, folder.string()));
    }
    if (write_error) return write_error->with_context("--dump-code");
  }
  out.costs_known = path.breakdown.has_value();
  if (!out.costs_known) {
    note("no split (" + (path.split_unavailable_reason.empty() ? std::string("not measured") : path.split_unavailable_reason) +
         "): the kernels' costs are not known; kernels.json lists the code's kernels only");
  }
  out.listing = list_kernels(code, path.breakdown ? *path.breakdown : PathBreakdown{});
  out.listing.call_sequence = path.first_iteration_ops;
  if (Status written = write_file_atomically((folder / "kernels.json").string(), dump_report(kernel_listing_to_json(path, out.listing)));
      !written.ok()) {
    return written.error();
  }
  out.files.push_back("kernels.json");
  std::sort(out.files.begin(), out.files.end());
  out.files.erase(std::unique(out.files.begin(), out.files.end()), out.files.end());
  return out;
}

}  // namespace

Status check_dump_dir(const std::string& dir) {
  std::error_code error;
  // DIR, or where it does not exist yet the nearest existing folder above it, must be a folder.
  fs::path at(dir);
  while (!at.empty() && !fs::exists(at, error)) at = at.parent_path();
  if (at.empty() || fs::is_directory(at, error)) return ok_status();
  return make_error(ExitCode::output_error,
                    fmt::format("--dump-code '{}': '{}' is a file, not a folder; give a folder to dump into", dir,
                                at.string()));
}

Status dump_code(Report& report, const std::vector<PathDumpSource>& sources, ModelSession* python,
                 const std::string& dir, const Runtime& runtime) {
  CodeDump dump;
  dump.dir = dir;
  std::vector<PathCodeDump> paths;
  Status status = ok_status();
  for (const PathDumpSource& source : sources) {
    auto path = dump_path(report, report.paths.at(source.path), source, python, dir, runtime);
    if (!path.ok()) {
      status = path.error();
      break;
    }
    for (const std::string& file : path->files) dump.files.push_back(path->folder + "/" + file);
    for (const std::string& text : path->notes) dump.notes.push_back(path->path + ": " + text);
    paths.push_back(std::move(*path));
  }
  if (status.ok()) {
    const std::string index = (fs::path(dir) / "index.html").string();
    status = write_file_atomically(index, format_code_index(report, paths, join_kernel_listings(paths)));
    if (status.ok()) {
      dump.files.push_back("index.html");
      console::progress(fmt::format("dumped the code of {} path(s) to {} (open index.html)", paths.size(), dir));
    }
  }
  report.code_dump = std::move(dump);
  return status;
}

}  // namespace ohprof
