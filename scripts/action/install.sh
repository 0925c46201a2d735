#!/usr/bin/env bash
# The GitHub Action's install step: put a checksum-verified mcp-contract on PATH, from the
# runner's tool cache when this version was installed before. The version comes from
# INPUT_VERSION (empty: the release of this action's ref, read from its package.json;
# "latest": the newest release). The download and its verification are install.sh's.
set -euo pipefail

action_path=${GITHUB_ACTION_PATH:?this script runs as a step of the mcp-contract action}
version=${INPUT_VERSION:-}
if [[ -z $version ]]; then
  version=$(sed -n 's/^  "version": "\([^"]*\)",\{0,1\}$/\1/p' "$action_path/package.json" | head -n 1)
  [[ -n $version ]] || { echo "::error::cannot read this action's version from $action_path/package.json; set the version input" >&2; exit 1; }
fi
if [[ $version == latest ]]; then
  # install.sh knows where the latest version is announced (and MCP_CONTRACT_BASE_URL).
  version=$(sh "$action_path/install.sh" --dry-run | sed -n 's/^version: //p')
fi
version=${version#v}
if [[ -z $version || $version == *[!0-9A-Za-z.+-]* ]]; then
  echo "::error::not a version: '$version' (expected e.g. 0.1.0)" >&2
  exit 1
fi

case ${RUNNER_ARCH:-X64} in
  ARM64) arch=arm64 ;;
  *) arch=x64 ;;
esac
exe=mcp-contract
[[ ${RUNNER_OS:-} == Windows ]] && exe=mcp-contract.exe
cache=${RUNNER_TOOL_CACHE:-${RUNNER_TEMP:-/tmp}}
dir=$cache/mcp-contract/$version/$arch

# The tool-cache convention: DIR holds the tool, DIR.complete marks a finished install.
if [[ -f $dir.complete && -x $dir/bin/$exe ]]; then
  echo "mcp-contract $version from the tool cache ($dir)"
else
  rm -rf "$dir" "$dir.complete"
  sh "$action_path/install.sh" --version "$version" --prefix "$dir"
  touch "$dir.complete"
fi

echo "$dir/bin" >>"${GITHUB_PATH:-/dev/null}"
{
  echo "version=$version"
  echo "path=$dir/bin/$exe"
} >>"${GITHUB_OUTPUT:-/dev/null}"
