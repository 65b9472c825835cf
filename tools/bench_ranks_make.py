"""The trace maker of tools/bench-ranks (run it through that script).

Writes OUT_DIR/rank-<r>.json.gz for r = 0 .. N-1 that are not there yet: rank r is a copy of
SOURCE[r % len(SOURCES)] with distributedInfo.rank set to r, everything else kept (the same keys in the
same order, re-serialised by json.dumps with its default separators, so the file still opens with
`"distributedInfo": {..., "rank": r, ...}` on its one line, which is where HTA 0.5 reads the rank:
hta/common/trace_file.py takes the first match of the regex `"rank":\\s+(\\d+)` in the file, not the
file name). gzip level 6 (gzip's own default), mtime 0, so a file's bytes depend on its inputs alone.
Each file is written to a temporary name and renamed, so an interrupted run leaves no half file.

Usage: python3 tools/bench_ranks_make.py OUT_DIR N SOURCE.json[.gz] ...
"""

import gzip
import json
import os
import re
import sys


def load(path):
    with open(path, "rb") as fh:
        raw = fh.read()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    return json.loads(raw)


def main(argv):
    if len(argv) < 3 or not argv[1].isdigit() or int(argv[1]) < 1:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    out_dir, n, sources = argv[0], int(argv[1]), argv[2:]
    os.makedirs(out_dir, exist_ok=True)
    todo = [r for r in range(n) if not os.path.exists(os.path.join(out_dir, f"rank-{r}.json.gz"))]
    if not todo:
        return 0
    traces = [load(s) for s in sources]
    rank_re = re.compile(r'"rank":\s+(\d+)')  # HTA 0.5's own (hta/common/trace_file.py)
    for r in todo:
        trace = traces[r % len(traces)]
        info = trace.get("distributedInfo")
        if not isinstance(info, dict):
            print(f"bench_ranks_make: {sources[r % len(traces)]} has no distributedInfo", file=sys.stderr)
            return 1
        info["rank"] = r
        text = json.dumps(trace)
        first = rank_re.search(text)
        if not first or int(first.group(1)) != r:
            print(f"bench_ranks_make: HTA would not read rank {r} from the copy of "
                  f"{sources[r % len(traces)]} (distributedInfo is not the first \"rank\" in it)",
                  file=sys.stderr)
            return 1
        path = os.path.join(out_dir, f"rank-{r}.json.gz")
        tmp = path + ".tmp"
        with open(tmp, "wb") as fh:
            fh.write(gzip.compress(text.encode("utf-8"), compresslevel=6, mtime=0))
        os.replace(tmp, path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
