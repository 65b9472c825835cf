"""Reading a JSON report back (--export-json, or this API's): plain JSON or gzip, as the file's first bytes
say, in UTF-8 whatever the locale (ohprof writes UTF-8). Used by ohprof.load and the sweep's page."""
import gzip
import json
import zlib

# What a file that is not a JSON report raises from read(): not JSON, not UTF-8, a cut or bad gzip.
NOT_JSON = (ValueError, EOFError, zlib.error, gzip.BadGzipFile)


def read(path):
    """The JSON value in the file `path`. Raises OSError for a file that cannot be read, one of NOT_JSON for
    one that is not JSON."""
    with open(path, "rb") as f:
        packed = f.read(2) == b"\x1f\x8b"
    with (gzip.open(path, "rt", encoding="utf-8") if packed else open(path, encoding="utf-8")) as f:
        return json.load(f)
