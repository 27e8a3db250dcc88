# scripts/gpu-env.sh — sourced by the GPU scripts (gpu-gemm.sh, gpu-gemm-bda.sh,
# gpu-mlp.sh): the GPU machine's Vulkan setup in one place. The NVIDIA machine has the
# driver but no Vulkan loader; scripts/gpu-check --build fetches the loader and glvnd
# packages into .gl/ here, and the run unpacks them there (docs/gpu.md).
#
#   gpu_env_vulkan NAME   on the NVIDIA machine (/usr/local/nvidia): unpack .gl/*.deb,
#                         ldconfig, point the loader at the NVIDIA ICD; elsewhere nothing.
#                         Returns 1, with a message naming NAME on stderr, when .gl/ has no
#                         packages or one does not unpack.
gpu_env_vulkan() {
  local name=$1 f n=0
  [ -d /usr/local/nvidia ] || return 0
  for f in .gl/*.deb; do
    [ -e "$f" ] || continue
    dpkg -x "$f" / || { echo "$name: dpkg -x $f failed" >&2; return 1; }
    n=$((n + 1))
  done
  [ $n -gt 0 ] || { echo "$name: .gl/ has no Vulkan loader packages (scripts/gpu-check --build here, carry .gl)" >&2; return 1; }
  ldconfig
  export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
}
