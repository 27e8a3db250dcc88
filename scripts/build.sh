#!/usr/bin/env bash
# Configures and builds spvgen with a CMake preset. Usage: scripts/build.sh [preset
# [target]] (default: "default", every target).
#
# Dependencies: a machine that already has them (a Vulkan SDK, or a distribution with
# SPIRV-Tools >= 2025.1 and SPIRV-Headers / Vulkan-Headers >= 1.4.309 and volk) uses its
# own; otherwise scripts/deps.sh installs and builds them once into its cache (the path
# on a fresh Debian 12). SPVGEN_DEPS_DIR=<prefix> skips the system check and uses that
# prefix.
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-default}
target=${2:-}
configured=0
if [ -z "${SPVGEN_DEPS_DIR:-}" ] && command -v cmake >/dev/null 2>&1 && command -v ninja >/dev/null 2>&1; then
  # A quick configure that fails unless the system has everything (cmake/deps.cmake).
  if cmake --preset "$preset" -DSPVGEN_DEPS_DIR= -DSPVGEN_SYSTEM_DEPS=ON >/dev/null 2>&1; then
    echo "[build] using the system's SPIRV-Tools, SPIRV-Headers, Vulkan-Headers and volk" >&2
    configured=1
  fi
fi
if [ $configured = 0 ]; then
  deps=${SPVGEN_DEPS_DIR:-$(bash scripts/deps.sh | tail -n 1)}
  cmake --preset "$preset" -DSPVGEN_DEPS_DIR="$deps" -DSPVGEN_SYSTEM_DEPS=OFF >/dev/null
fi
cmake --build --preset "$preset" -j "$(nproc)" ${target:+--target "$target"}
