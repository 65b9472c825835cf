#include "ohprof/analysis/diff.hpp"
#include "ohprof/analysis/path_stats.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "ohprof/analysis/cold_start.hpp"
#include "ohprof/base/stats.hpp"
#include "ohprof/model/explanation.hpp"

namespace ohprof {

DiffRng::DiffRng(std::uint64_t seed) : m_engine(seed) {}

double DiffRng::uniform() {
  // the top 53 bits: every double in [0, 1) that is a multiple of 2^-53, equally likely
  return static_cast<double>(m_engine() >> 11) * 0x1.0p-53;
}

double DiffRng::normal() {
  if (m_spare_normal) {
    const double spare = *m_spare_normal;
    m_spare_normal.reset();
    return spare;
  }
  double u = 0, v = 0, s = 0;
  do {
    u = 2 * uniform() - 1;
    v = 2 * uniform() - 1;
    s = u * u + v * v;
  } while (s >= 1 || s == 0);
  const double factor = std::sqrt(-2 * std::log(s) / s);
  m_spare_normal = v * factor;
  return u * factor;
}

double DiffRng::gamma(double shape) {
  if (shape < 1) {
    // Gamma(a) = Gamma(a + 1) * U^(1/a)
    const double u = 1 - uniform();  // (0, 1]
    return gamma(shape + 1) * std::pow(u, 1 / shape);
  }
  const double d = shape - 1.0 / 3;
  const double c = 1 / std::sqrt(9 * d);
  for (;;) {
    double x = 0, v = 0;
    do {
      x = normal();
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const double u = 1 - uniform();  // (0, 1]
    if (u < 1 - 0.0331 * x * x * x * x) return d * v;
    if (std::log(u) < 0.5 * x * x + d * (1 - v + std::log(v))) return d * v;
  }
}

double DiffRng::beta(double a, double b) {
  const double x = gamma(a);
  const double y = gamma(b);
  return x / (x + y);
}

namespace {

// The index of the order statistic at uniform position u (floor(n u), kept inside the sample).
std::size_t index_at(double u, std::size_t n) {
  const auto i = static_cast<std::size_t>(std::floor(u * static_cast<double>(n)));
  return std::min(i, n - 1);
}


}  // namespace

double resampled_median(std::span<const double> sorted, DiffRng& rng) {
  const std::size_t n = sorted.size();
  if (n == 1) return sorted[0];
  const auto nd = static_cast<double>(n);
  if (n % 2 == 1) {
    const double k = (nd + 1) / 2;  // the middle order statistic (1-based)
    return sorted[index_at(rng.beta(k, nd + 1 - k), n)];
  }
  const double k = nd / 2;  // the lower of the two middle order statistics
  const double lower = rng.beta(k, nd + 1 - k);
  // the smallest of the n - k uniforms above `lower`: lower + (1 - lower) * Beta(1, n - k)
  const double min_of_rest = 1 - std::pow(1 - rng.uniform(), 1 / (nd - k));
  const double upper = lower + (1 - lower) * min_of_rest;
  return (sorted[index_at(lower, n)] + sorted[index_at(upper, n)]) / 2;
}

RatioInterval bootstrap_ratio(const std::vector<MedianTerm>& terms, int resamples, double alpha, std::uint64_t seed) {
  RatioInterval out;
  out.ratio = 1;
  for (const MedianTerm& term : terms) {
    const double m = quantile(term.sorted, 0.5);  // the median of docs/metrics.md
    out.ratio *= term.power > 0 ? m : 1 / m;
  }
  DiffRng rng(seed);
  std::vector<double> ratios;
  ratios.reserve(static_cast<std::size_t>(std::max(resamples, 1)));
  for (int r = 0; r < resamples; ++r) {
    double ratio = 1;
    for (const MedianTerm& term : terms) {
      const double m = resampled_median(term.sorted, rng);
      ratio *= term.power > 0 ? m : 1 / m;
    }
    ratios.push_back(ratio);
  }
  out.low = quantile(ratios, alpha / 2);
  out.high = quantile(ratios, 1 - alpha / 2);
  return out;
}

Judgement judge_ratio(double ratio, double low, double high, double threshold) {
  return judge_change(ratio, low > 1, high < 1, threshold);
}

Judgement judge_change(double ratio, bool up, bool down, double threshold) {
  const double change = ratio - 1;
  // "beyond the threshold": a change that equals it up to rounding (1.1 - 1 is 0.1 + 9e-17) is not
  const double beyond = threshold + 1e-12;
  if (up && change > beyond) return {DiffVerdict::slower, DiffReason::above_threshold};
  if (down && -change > beyond) return {DiffVerdict::faster, DiffReason::above_threshold};
  if (up || down) return {DiffVerdict::no_change, DiffReason::below_threshold};
  return {DiffVerdict::no_change, DiffReason::not_significant};
}

DeploymentDiff diff_throughput(const std::string& path, const std::vector<DigestThroughput>& base,
                               const std::vector<DigestThroughput>& new_report, double threshold) {
  DeploymentDiff d;
  d.path = path;
  d.measure = DeployMeasure::throughput;
  if (base.empty() || new_report.empty()) {
    const DigestThroughput& top = base.empty() ? new_report.back() : base.back();
    d.threads = top.threads;
    (base.empty() ? d.new_value : d.base_value) = top.calls_per_s;
    (base.empty() ? d.new_count : d.base_count) = top.rounds;
    d.reason = base.empty() ? DiffReason::only_in_new : DiffReason::only_in_base;
    return d;
  }
  // The most callers both reports measured.
  const DigestThroughput* b = nullptr;
  const DigestThroughput* n = nullptr;
  for (const DigestThroughput& x : base) {
    for (const DigestThroughput& y : new_report) {
      if (x.threads == y.threads && (b == nullptr || x.threads > b->threads)) {
        b = &x;
        n = &y;
      }
    }
  }
  if (b == nullptr) {
    d.reason = DiffReason::callers_differ;
    return d;
  }
  d.threads = b->threads;
  d.base_value = b->calls_per_s;
  d.new_value = n->calls_per_s;
  d.base_count = b->rounds;
  d.new_count = n->rounds;
  if (!(b->calls_per_s > 0) || !(n->calls_per_s > 0)) return d;  // no_samples
  d.ratio = n->calls_per_s / b->calls_per_s;
  // The difference of the two rates with the error of a difference (docs/metrics.md, "Significance");
  // fewer calls is the worse direction, so the rule sees the rate's loss as a time ratio would: 2 − ratio.
  const Estimate change{n->calls_per_s - b->calls_per_s, std::hypot(b->calls_per_s_se, n->calls_per_s_se)};
  const bool moved = significant(change);
  const Judgement j = judge_change(2 - *d.ratio, moved && change.value_ns < 0, moved && change.value_ns > 0, threshold);
  d.verdict = j.verdict;
  d.reason = j.reason;
  return d;
}

namespace {

// A cache state's figure in both reports, judged by the cold start's rank rule (docs/diff.md, "Deployment
// figures"): each side's median of `values` (null: the state is not in that report; empty: no process
// finished, or none read the figure).
DeploymentDiff diff_ranked(const std::string& path, DeployMeasure measure, CompileCache cache,
                           const std::vector<std::int64_t>* b, const std::vector<std::int64_t>* n, double threshold) {
  DeploymentDiff d;
  d.path = path;
  d.measure = measure;
  d.cache = cache;
  const auto median = [](const std::vector<std::int64_t>& values) {
    return quantile(std::vector<double>(values.begin(), values.end()), 0.5);
  };
  if (b != nullptr && !b->empty()) {
    d.base_value = median(*b);
    d.base_count = b->size();
  }
  if (n != nullptr && !n->empty()) {
    d.new_value = median(*n);
    d.new_count = n->size();
  }
  if (b == nullptr || n == nullptr) {
    d.reason = b == nullptr ? DiffReason::only_in_new : DiffReason::only_in_base;
    return d;
  }
  if (!d.base_value || !d.new_value || !(*d.base_value > 0)) return d;  // no_samples
  d.ratio = *d.new_value / *d.base_value;
  // The rank rule (docs/metrics.md, "Cold start"), new against base; with fewer than
  // kColdStartOrderCombinations possible orders nothing is a finding, overlapping ranges included.
  if (start_orders(d.base_count, d.new_count) < kColdStartOrderCombinations - 1e-9) {
    d.reason = DiffReason::too_few_samples;
    return d;
  }
  const std::optional<ColdStartOrder> order = rank_order(*n, *b);
  const Judgement j = judge_change(*d.ratio, order == ColdStartOrder::slower, order == ColdStartOrder::faster, threshold);
  d.verdict = j.verdict;
  d.reason = j.reason;
  if (measure == DeployMeasure::fresh_peak && d.verdict == DiffVerdict::slower) d.verdict = DiffVerdict::larger;
  if (measure == DeployMeasure::fresh_peak && d.verdict == DiffVerdict::faster) d.verdict = DiffVerdict::smaller;
  return d;
}

}  // namespace

DeploymentDiff diff_start(const std::string& path, CompileCache cache, const DigestStart* b, const DigestStart* n,
                          double threshold) {
  return diff_ranked(path, DeployMeasure::start, cache, b ? &b->totals_ns : nullptr, n ? &n->totals_ns : nullptr,
                     threshold);
}

DeploymentDiff diff_fresh_peak(const std::string& path, CompileCache cache, const DigestStart* b, const DigestStart* n,
                               double threshold) {
  return diff_ranked(path, DeployMeasure::fresh_peak, cache, b ? &b->peaks_bytes : nullptr,
                     n ? &n->peaks_bytes : nullptr, threshold);
}

namespace {

// compare: the deployment figures of a path of both reports, throughput then each cache state (in the
// enum's order) that either report measured: its start, then its fresh peak.
void add_deployment(DiffResult& result, const DigestPath& b, const DigestPath& n, double threshold) {
  if (!b.throughput.empty() || !n.throughput.empty()) {
    DeploymentDiff d = diff_throughput(b.name, b.throughput, n.throughput, threshold);
    // The callers call the same loaded path: outputs that differ or uncompiled code are theirs too (pooled
    // samples are the timing pass's alone).
    const auto calls_flawed = [](const DigestPath& p) { return p.flaw && *p.flaw != DigestFlaw::samples_pooled; };
    if ((calls_flawed(b) || calls_flawed(n)) && d.verdict != DiffVerdict::unknown) {
      d.verdict = DiffVerdict::unknown;
      d.reason = DiffReason::flawed;
      d.ratio.reset();  // as a flawed path's: nothing is read from it
    }
    result.deployment.push_back(std::move(d));
  }
  const auto state = [](const DigestPath& p, CompileCache cache) -> const DigestStart* {
    for (const DigestStart& s : p.starts) {
      if (s.cache == cache) return &s;
    }
    return nullptr;
  };
  for (CompileCache cache : {CompileCache::none, CompileCache::cold, CompileCache::warm, CompileCache::artifacts}) {
    const DigestStart* bs = state(b, cache);
    const DigestStart* ns = state(n, cache);
    if (bs == nullptr && ns == nullptr) continue;
    result.deployment.push_back(diff_start(b.name, cache, bs, ns, threshold));
    // the peak where either report read one (reports before 2026-12-07 have none)
    const auto read_peaks = [](const DigestStart* s) { return s != nullptr && !s->peaks_bytes.empty(); };
    if (read_peaks(bs) || read_peaks(ns)) result.deployment.push_back(diff_fresh_peak(b.name, cache, bs, ns, threshold));
  }
}

std::string joined(const std::vector<std::string>& items) {
  return items.empty() ? std::string("none") : fmt::format("{}", fmt::join(items, "; "));
}

bool has_path(const ReportDigest& digest, const std::string& name) {
  return std::any_of(digest.paths.begin(), digest.paths.end(), [&](const DigestPath& p) { return p.name == name; });
}

// The key paths are matched on: the point (sweeps) and the name.
using PathKey = std::pair<std::int64_t, std::string>;
PathKey key_of(const DigestPath& path) { return {path.point.value_or(0), path.name}; }

std::string key_text(const DigestPath& path) {
  return path.point ? fmt::format("{} at {}", path.name, *path.point) : path.name;
}

std::vector<double> sorted_samples(const DigestPath& path) {
  std::vector<double> v(path.samples_ns.begin(), path.samples_ns.end());
  std::sort(v.begin(), v.end());
  return v;
}

// The median of the samples (`sorted`: the path's samples, sorted), or the report's own without samples.
std::optional<double> median_of(const DigestPath& path, const std::vector<double>& sorted) {
  if (!sorted.empty()) return quantile(sorted, 0.5);
  return path.median_ns;
}
std::optional<double> median_of(const DigestPath& path) { return median_of(path, sorted_samples(path)); }

std::vector<ComponentChange> split_changes(const SplitTotals& b, const SplitTotals& n) {
  const auto per = [](std::int64_t total, std::int64_t iterations) {
    return static_cast<double>(total) / static_cast<double>(iterations);
  };
  // Busy holds only the kernels that record themselves; host_bound and framework hold the others too.
  // Where ops without a launch call leave the queue open, host-bound and each host state are at most, device-wait at least.
  const auto bound = [](const SplitTotals& s, std::int64_t SplitTotals::*field) {
    if (field == &SplitTotals::busy_ns) return busy_bound(s.kernels_unrecorded);
    if (field == &SplitTotals::device_wait_ns) return s.queue_unknown ? Bound::at_least : Bound::exact;
    if (field == &SplitTotals::host_bound_ns || field == &SplitTotals::framework_ns) {
      return host_time_bound(s.kernels_unrecorded || s.queue_unknown);
    }
    if (field == &SplitTotals::blocking_ns || field == &SplitTotals::launch_ns || field == &SplitTotals::other_api_ns ||
        field == &SplitTotals::harness_ns) {
      return host_time_bound(s.queue_unknown);
    }
    return Bound::exact;
  };
  const auto row = [&](const char* component, std::int64_t SplitTotals::*field) {
    return ComponentChange{component, per(b.*field, b.iterations), per(n.*field, n.iterations), bound(b, field),
                           bound(n, field)};
  };
  std::vector<ComponentChange> changes;
  for (const SplitComponent& component : kSplitComponents) changes.push_back(row(component.name, component.field));
  return changes;
}

// A seed per path, so that adding a path does not move the others' intervals: the user's seed mixed
// with an FNV-1a hash of the path's key.
std::uint64_t path_seed(std::uint64_t seed, const DigestPath& path) {
  std::uint64_t h = 1469598103934665603ULL;
  const std::string key = key_text(path);
  for (const char c : key) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ULL;
  }
  return seed ^ h;
}

const DigestPath* find_at(const ReportDigest& digest, const std::string& name, std::optional<std::int64_t> point) {
  for (const DigestPath& p : digest.paths) {
    if (p.name == name && p.point == point) return &p;
  }
  return nullptr;
}

PathDiff diff_path(const DigestPath& b, const DigestPath& n, const ReportDigest& base, const ReportDigest& new_report,
                   const DiffConfig& config) {
  PathDiff d;
  d.name = b.name;
  d.point = b.point;
  d.base_count = b.samples_ns.size();
  d.new_count = n.samples_ns.size();
  // each sample set sorted once: its median, the checks and the bootstrap use it
  const std::vector<double> b_sorted = sorted_samples(b);
  const std::vector<double> n_sorted = sorted_samples(n);
  d.base_median_ns = median_of(b, b_sorted);
  d.new_median_ns = median_of(n, n_sorted);
  // Figures that are not the path's (outputs that differ, uncompiled code, samples pooled across a compile):
  // nothing is judged from them, however many there are, nor is their split compared.
  if (b.flaw || n.flaw) {
    d.base_flaw = b.flaw;
    d.new_flaw = n.flaw;
    d.reason = DiffReason::flawed;
    return d;
  }
  if (b.split && n.split && b.split->iterations > 0 && n.split->iterations > 0) d.split = split_changes(*b.split, *n.split);

  std::vector<std::pair<const DigestPath*, std::vector<double>>> base_terms;
  std::vector<std::pair<const DigestPath*, std::vector<double>>> new_terms;
  base_terms.emplace_back(&b, b_sorted);
  new_terms.emplace_back(&n, n_sorted);
  if (!config.relative_to.empty()) {
    if (b.name == config.relative_to) {
      d.reason = DiffReason::reference_path;
      return d;
    }
    const DigestPath* br = find_at(base, config.relative_to, b.point);
    const DigestPath* nr = find_at(new_report, config.relative_to, n.point);
    if (br == nullptr || nr == nullptr || br->samples_ns.empty() || nr->samples_ns.empty()) {
      d.reason = DiffReason::reference_missing;
      return d;
    }
    // the ratio divides by the reference's median: figures that are not the reference's (its row says which)
    // would move every path's ratio, so none is judged against them
    if (br->flaw || nr->flaw) {
      d.reason = DiffReason::reference_flawed;
      return d;
    }
    base_terms.emplace_back(br, sorted_samples(*br));
    new_terms.emplace_back(nr, sorted_samples(*nr));
  }
  for (const auto* side : {&base_terms, &new_terms}) {
    for (const auto& [p, sorted] : *side) {
      if (p->samples_ns.size() < kMinDiffSamples) {
        d.reason = p->samples_ns.empty() ? DiffReason::no_samples : DiffReason::too_few_samples;
        return d;
      }
      // wall times are positive (the reader refuses others): a ratio of them is finite
      if (quantile(sorted, 0.5) <= 0) {
        d.reason = DiffReason::no_samples;
        return d;
      }
    }
  }
  // new / base; with a reference: (new / new_ref) / (base / base_ref)
  std::vector<MedianTerm> terms{{new_terms[0].second, 1}, {base_terms[0].second, -1}};
  if (base_terms.size() > 1) {
    terms.push_back({new_terms[1].second, -1});
    terms.push_back({base_terms[1].second, 1});
  }
  const RatioInterval interval = bootstrap_ratio(terms, config.resamples, config.alpha, path_seed(config.seed, b));
  d.ratio = interval.ratio;
  d.low = interval.low;
  d.high = interval.high;
  const Judgement j = judge_ratio(interval.ratio, interval.low, interval.high, config.threshold);
  d.verdict = j.verdict;
  d.reason = j.reason;
  return d;
}

// A path of one report only: its row (unknown, only_in_base / only_in_new) and its warning.
void add_unmatched(DiffResult& result, const DigestPath& path, bool in_base) {
  PathDiff d;
  d.name = path.name;
  d.point = path.point;
  (in_base ? d.base_count : d.new_count) = path.samples_ns.size();
  (in_base ? d.base_median_ns : d.new_median_ns) = median_of(path);
  d.reason = in_base ? DiffReason::only_in_base : DiffReason::only_in_new;
  result.paths.push_back(d);
  result.warnings.push_back({WarningCode::diff_path_unmatched,
                             fmt::format("{} is in the {} report only; it is not diffed", key_text(path),
                                         in_base ? "base" : "new")});
}

void warn_if_differs(DiffResult& result, const char* field, const std::string& base, const std::string& new_value) {
  if (base == new_value) return;
  result.warnings.push_back({WarningCode::diff_context_differs,
                             fmt::format("the reports differ in {}: '{}' in the base, '{}' in the new report", field,
                                         base, new_value)});
}

}  // namespace

std::vector<Incomparability> incomparabilities(const ReportDigest& base, const ReportDigest& new_report,
                                               const DiffConfig& config) {
  std::vector<Incomparability> out;
  const auto check = [&](const char* field, const std::string& b, const std::string& n) {
    if (b != n) out.push_back({field, b, n});
  };
  check("kind", to_string(base.kind), to_string(new_report.kind));
  check("schema_version", std::to_string(base.schema_version), std::to_string(new_report.schema_version));
  check("model", base.model, new_report.model);
  check("inputs", joined(base.inputs), joined(new_report.inputs));
  check("axis", base.axis, new_report.axis);
  check("device", fmt::format("{} {}", to_string(base.device_type), base.device_name),
        fmt::format("{} {}", to_string(new_report.device_type), new_report.device_name));
  if (!config.relative_to.empty()) {
    const bool in_base = has_path(base, config.relative_to);
    const bool in_new = has_path(new_report, config.relative_to);
    const auto presence = [&](bool present) { return (present ? "path " : "no path ") + config.relative_to; };
    if (!in_base || !in_new) out.push_back({"relative_to", presence(in_base), presence(in_new)});
  }
  return out;
}

DiffResult diff_reports(const ReportDigest& base, const ReportDigest& new_report, const DiffConfig& config) {
  DiffResult result;
  result.base_file = base.file;
  result.new_file = new_report.file;
  result.kind = base.kind;
  result.config = config;
  result.incomparable = incomparabilities(base, new_report, config);
  if (!result.incomparable.empty() && !config.force) return result;  // nothing is diffed
  if (config.force) {
    for (const Incomparability& i : result.incomparable) {
      result.warnings.push_back({WarningCode::diff_incomparable_forced,
                                 fmt::format("--force: the reports differ in {} ('{}' in the base, '{}' in the new "
                                             "report); diffed anyway",
                                             i.field, i.base, i.new_value)});
    }
  }
  warn_if_differs(result, "ohprof_version", base.ohprof_version, new_report.ohprof_version);
  warn_if_differs(result, "torch_version", base.torch_version, new_report.torch_version);
  warn_if_differs(result, "cuda_version", base.cuda_version, new_report.cuda_version);
  warn_if_differs(result, "hostname", base.hostname, new_report.hostname);
  warn_if_differs(result, "cpu_threads", std::to_string(base.cpu_threads), std::to_string(new_report.cpu_threads));
  warn_if_differs(result, "compile_source", base.compile_source, new_report.compile_source);
  // the same shapes with other values: comparable (timing rarely depends on them), but said
  if (!base.inputs_values.empty() && !new_report.inputs_values.empty()) {  // analyze has none
    warn_if_differs(result, "inputs' values", base.inputs_values, new_report.inputs_values);
  }
  for (const ReportDigest* d : {&base, &new_report}) {
    std::vector<PathShare> shares;
    for (const DigestPath& path : d->paths) shares.push_back({key_text(path), path.run_queue});
    if (const std::string busy = busy_paths_text(shares); !busy.empty()) {
      result.warnings.push_back({WarningCode::cores_busy,
                                 fmt::format("{}: the measuring thread waited for a CPU for part of these paths' timed wall time: {} "
                                             "(docs/metrics.md, \"Waiting for a core\"): a change in those paths "
                                             "may be the machine's load as well as the code's",
                                             d->file, busy)});
    }
    for (const std::string& note : d->notes) {
      result.warnings.push_back({WarningCode::diff_report_incomplete, fmt::format("{}: {}", d->file, note)});
    }
    if (!d->unknown_values.empty()) {
      result.warnings.push_back({WarningCode::report_values_unknown,
                                 fmt::format("{}: this ohprof does not know {} (a later ohprof's?); read as their "
                                             "defaults, which diff does not use",
                                             d->file, d->unknown_values)});
    }
  }

  // analyze names its one path after the trace file: two traces' paths match whatever their names
  const bool match_single = base.kind == DigestKind::analyze && new_report.kind == DigestKind::analyze &&
                            base.paths.size() == 1 && new_report.paths.size() == 1;
  std::map<PathKey, const DigestPath*> new_by_key;
  for (const DigestPath& p : new_report.paths) new_by_key.emplace(key_of(p), &p);
  std::map<PathKey, bool> matched;
  for (const DigestPath& b : base.paths) {
    const DigestPath* n = match_single ? &new_report.paths[0] : nullptr;
    if (n != nullptr && n->name != b.name) {
      result.warnings.push_back({WarningCode::diff_context_differs,
                                 fmt::format("the traces' paths are named '{}' in the base and '{}' in the new report; "
                                             "matched as the one path of each, shown as '{}'",
                                             b.name, n->name, b.name)});
    }
    if (n == nullptr) {
      const auto it = new_by_key.find(key_of(b));
      if (it != new_by_key.end()) n = it->second;
    }
    if (n == nullptr) {
      add_unmatched(result, b, /*in_base=*/true);
      continue;
    }
    matched[key_of(*n)] = true;
    result.paths.push_back(diff_path(b, *n, base, new_report, config));
    if (base.kind == DigestKind::compare) add_deployment(result, b, *n, config.threshold);
  }
  for (const DigestPath& n : new_report.paths) {
    if (matched.count(key_of(n)) == 0) add_unmatched(result, n, /*in_base=*/false);
  }
  return result;
}

}  // namespace ohprof
