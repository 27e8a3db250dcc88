#!/usr/bin/env bash
# Configures and builds spvgen with a CMake preset after making sure the dependencies
# are there (scripts/deps.sh). Usage: scripts/build.sh [preset]   (default: "default")
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-default}
deps=$(bash scripts/deps.sh | tail -n 1)
cmake --preset "$preset" -DSPVGEN_DEPS_DIR="$deps" >/dev/null
cmake --build --preset "$preset" -j "$(nproc)"
