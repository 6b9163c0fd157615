#!/usr/bin/env bash
# Makes sure the tools deploy-tests checks with are installed (run by deploy-tests' build before its tests):
#   kubectl with kustomize 5 (renders deploy/k8s), and Compose (`docker compose` or Debian's docker-compose,
#   validates docker-compose.yml). Missing ones are installed from Debian's packages when running as root;
#   otherwise the script says what to install. unshare (util-linux) runs the image test's container.
set -euo pipefail

need=()
if ! command -v kubectl >/dev/null 2>&1 || ! kubectl version --client 2>/dev/null | grep -q 'Kustomize Version: v5'; then
  need+=(kubectl)
fi
if ! { command -v docker >/dev/null 2>&1 && docker compose version >/dev/null 2>&1; } &&
  ! command -v docker-compose >/dev/null 2>&1; then
  need+=(docker-compose)
fi
command -v unshare >/dev/null 2>&1 || need+=(util-linux)
((${#need[@]} == 0)) && exit 0

if [[ "$(id -u)" != 0 ]]; then
  echo "deploy-tools: missing ${need[*]}; install them (e.g. sudo apt-get install -y ${need[*]})" >&2
  exit 1
fi
echo "deploy-tools: installing ${need[*]} from the Debian packages"
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -q "${need[@]}" >/dev/null 2>&1 || { apt-get update -q >/dev/null && apt-get install -y -q "${need[@]}" >/dev/null; }
if [[ " ${need[*]} " == *" kubectl "* ]] && ! kubectl version --client 2>/dev/null | grep -q 'Kustomize Version: v5'; then
  echo "deploy-tools: the kubectl installed has no kustomize 5 ($(kubectl version --client 2>&1 | head -2 | tr '\n' ' '))" >&2
  exit 1
fi
