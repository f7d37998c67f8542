# SPDX-License-Identifier: MIT
#
# Sourced by ci/provision.sh and ci/lesson.sh: whether this machine's NVIDIA
# driver can run what a CUDA toolkit of a given major version builds.
#
# A CUDA 13 program needs a driver of the 580 series or newer (CUDA's
# minor-version compatibility covers 13.x on any 13 driver, not 13 on a 12
# driver). Without the check, an older driver gets a binary that stops at
# "CUDA driver version is insufficient for CUDA runtime version".

# driver_too_old_for <cuda major>: prints one line and returns 0 when the
# driver nvidia-smi reports is too old; returns 1 when it is new enough, or
# when there is no nvidia-smi to ask (no GPU here: building needs none).
driver_too_old_for() {
  local major=$1 needed driver
  case $major in
  13) needed=580 ;;
  *) return 1 ;;
  esac
  driver=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -n 1) ||
    return 1
  [[ $driver =~ ^([0-9]+)\. ]] || return 1
  ((BASH_REMATCH[1] < needed)) || return 1
  echo "the NVIDIA driver here is $driver, older than the $needed the CUDA $major toolkit's programs need; update the driver to $needed or newer, or install a CUDA 12 toolkit (set CUDA_HOME to it) and the build will use it"
}
