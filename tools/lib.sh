# Shared by tools/setup, tools/build, tools/test and tools/demo. Source it; don't run it.
OHPROF_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OHPROF_CACHE=${OHPROF_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ohprof}
OHPROF_BUILD_DIR=${OHPROF_BUILD_DIR:-$OHPROF_ROOT/build}

# Debian packages the build and the tests need.
OHPROF_APT_PACKAGES=(build-essential cmake git ccache zlib1g-dev libcli11-dev nlohmann-json3-dev python3-dev python3-venv
                     libspdlog-dev libfmt-dev libgtest-dev libgmock-dev libbenchmark-dev libisal-dev)
# Wanted, not needed: headless Chromium renders the sweep's page in its test; cmark-gfm (GitHub's
# Markdown renderer) renders the --export-markdown files in theirs (each test skipped without it); isal's
# igzip is the decompression limit tools/bench-analyze sets beside ohprof analyze.
OHPROF_APT_OPTIONAL=(chromium fonts-dejavu-core cmark-gfm graphviz isal)

ohprof_python() {
  # The interpreter the venv is made from: python3 with its headers (for the measuring extension and
  # for Inductor's C++ compiles).
  command -v python3
}

# The venv lives outside the clone, keyed by the pinned requirements and the base interpreter, so a
# second checkout or CI on the same machine reuses it. OHPROF_VENV names a venv of the user's instead
# (tools/setup checks it and never creates, changes or deletes it).
ohprof_venv_dir() {
  if [ -n "${OHPROF_VENV:-}" ]; then echo "$OHPROF_VENV"; return; fi
  local base key
  base=$(ohprof_python)
  key=$( { cat "$OHPROF_ROOT/tools/requirements.txt"; "$base" -c 'import sys; print(sys.version)'; } \
         | sha256sum | cut -c1-12)
  echo "$OHPROF_CACHE/venv-$key"
}

ohprof_log() { printf '[ohprof] %s\n' "$*" >&2; }
