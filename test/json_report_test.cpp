#include "ohprof/json_report.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace ohprof {
namespace {

Report sample_report() {
  Report report;
  report.context = make_base_context({"ohprof", "run", "--aoti", "m.pt2"});
  report.context.device = DeviceDescription{"cpu", -1, "Test CPU"};
  report.config.warmup = 1;
  report.config.runs = 3;
  report.config.inputs = {"[4, 16]:float32"};
  PathResult path;
  path.name = "aoti";
  path.artifact = "m.pt2";
  path.load_ns = 42;
  path.warmup_ns = {500};
  path.wall_ns = {100, 300, 200};
  path.wall = summarize_ns(path.wall_ns);
  path.stop_reason = "runs reached";
  path.split_unavailable_reason = "no collector";
  report.paths.push_back(path);
  return report;
}

TEST(ReportToJson, HasSchemaContextAndSamples) {
  const nlohmann::json json = report_to_json(sample_report());
  EXPECT_EQ(json["schema_version"], kReportSchemaVersion);
  EXPECT_EQ(json["kind"], "run");
  for (const char* key : {"ohprof_version", "git_sha", "torch_version", "cuda_version", "cupti_version",
                          "device", "argv", "date", "hostname"}) {
    EXPECT_TRUE(json["context"].contains(key)) << key;
  }
  EXPECT_EQ(json["context"]["argv"][2], "--aoti");
  EXPECT_EQ(json["context"]["device"]["name"], "Test CPU");
  const auto& path = json["paths"][0];
  EXPECT_EQ(path["samples_ns"], (std::vector<std::int64_t>{100, 300, 200}));
  EXPECT_EQ(path["wall_ns"]["median"], 200.0);
  EXPECT_EQ(path["wall_ns"]["count"], 3);
  EXPECT_EQ(path["load_ns"], 42);
  EXPECT_EQ(path["split"]["available"], false);
  EXPECT_EQ(path["split"]["reason"], "no collector");
  EXPECT_EQ(json["config"]["inputs"][0], "[4, 16]:float32");
}

TEST(ReportToJson, DateIsIso8601Utc) {
  const nlohmann::json json = report_to_json(sample_report());
  const std::string date = json["context"]["date"];
  ASSERT_EQ(date.size(), 20u);
  EXPECT_EQ(date[4], '-');
  EXPECT_EQ(date[10], 'T');
  EXPECT_EQ(date.back(), 'Z');
}

}  // namespace
}  // namespace ohprof
