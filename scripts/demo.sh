#!/usr/bin/env bash
# The main job, from a bare Debian 12 machine: install/build what is missing (cached),
# build spvgen, then emit a kernel, validate it, print it, and run it on a Vulkan device
# when there is one (lavapipe, Mesa's CPU driver, counts), checking it against the CPU.
# Extra arguments go to `spvgen demo` (try --help).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh default
exec build/tools/spvgen demo "$@"
