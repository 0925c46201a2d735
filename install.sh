#!/bin/sh
# Install mcp-contract from the project's releases: pick the archive for this machine,
# download it, verify its SHA-256 against the release's SHA256SUMS, install the binary.
#
#   curl -fsSL https://github.com/mcp-contract/mcp-contract/releases/latest/download/install.sh | sh
#   curl -fsSL …/install.sh | sh -s -- --version 0.1.0 --prefix /usr/local
#
# Options:
#   --version X     install release X (default: the latest release)
#   --prefix DIR    install to DIR/bin/mcp-contract (default: ~/.local, so ~/.local/bin)
#   --target NAME   take this archive instead of the detected one: linux-x64, linux-x64-baseline,
#                   linux-x64-musl, linux-arm64, linux-arm64-musl, darwin-x64, darwin-arm64, windows-x64
#   --dry-run       print the version, target and URL it would install, and stop
#   -h, --help      print this help
#
# Environment: MCP_CONTRACT_VERSION and MCP_CONTRACT_PREFIX (the same as --version, --prefix);
# MCP_CONTRACT_BASE_URL, the download base, for a mirror: the layout is
# BASE/vVERSION/ARCHIVE and BASE/vVERSION/SHA256SUMS (GitHub's), and the latest version is
# read from BASE/../latest/download/VERSION.
#
# It refuses to install anything it could not verify: without a SHA-256 tool (sha256sum,
# shasum or openssl), without a checksum line for the archive, or on a mismatch.
set -eu

DEFAULT_BASE_URL="https://github.com/mcp-contract/mcp-contract/releases/download"

say() { printf '%s\n' "$*"; }
warn() { printf 'mcp-contract install: warning: %s\n' "$*" >&2; }
die() {
  printf 'mcp-contract install: error: %s\n' "$*" >&2
  exit 1
}
usage() {
  cat <<'EOF'
usage: install.sh [--version X] [--prefix DIR] [--target NAME]

Install mcp-contract: download the release archive for this machine, verify its SHA-256
against the release's SHA256SUMS, and install the binary to PREFIX/bin.

  --version X     install release X (default: the latest release; or MCP_CONTRACT_VERSION)
  --prefix DIR    install to DIR/bin/mcp-contract (default: ~/.local; or MCP_CONTRACT_PREFIX)
  --target NAME   take this archive instead of the detected one: linux-x64, linux-x64-baseline,
                  linux-x64-musl, linux-arm64, linux-arm64-musl, darwin-x64, darwin-arm64,
                  windows-x64, windows-x64-baseline
  --dry-run       print the version, target and URL it would install, and stop
  -h, --help      print this help

MCP_CONTRACT_BASE_URL overrides the download base (BASE/vVERSION/ARCHIVE, BASE/vVERSION/SHA256SUMS).
EOF
}

version=${MCP_CONTRACT_VERSION:-}
prefix=${MCP_CONTRACT_PREFIX:-}
target=
dry_run=
while [ $# -gt 0 ]; do
  case $1 in
    --version) [ $# -ge 2 ] || die "--version needs a value, e.g. --version 0.1.0"; version=$2; shift 2 ;;
    --version=*) version=${1#*=}; shift ;;
    --prefix) [ $# -ge 2 ] || die "--prefix needs a directory"; prefix=$2; shift 2 ;;
    --prefix=*) prefix=${1#*=}; shift ;;
    --target) [ $# -ge 2 ] || die "--target needs a name, e.g. --target linux-x64-musl"; target=$2; shift 2 ;;
    --target=*) target=${1#*=}; shift ;;
    --dry-run) dry_run=1; shift ;;
    -h | --help) usage; exit 0 ;;
    *) printf 'mcp-contract install: error: unknown option %s (see --help)\n' "$1" >&2; exit 2 ;;
  esac
done

base=${MCP_CONTRACT_BASE_URL:-$DEFAULT_BASE_URL}
base=${base%/}
[ -n "$prefix" ] || prefix=${HOME:?set HOME or give --prefix DIR}/.local

# --- what to download --------------------------------------------------------------------

has() { command -v "$1" >/dev/null 2>&1; }

is_musl() {
  for loader in /lib/ld-musl-*.so.1 /usr/lib/ld-musl-*.so.1; do
    [ -e "$loader" ] && return 0
  done
  has ldd && ldd --version 2>&1 | grep -qi musl
}

has_avx2() {
  [ -r /proc/cpuinfo ] || return 0
  grep -qw avx2 /proc/cpuinfo
}

detect_target() {
  os=$(uname -s)
  arch=$(uname -m)
  case $os in
    Linux) os=linux ;;
    Darwin) os=darwin ;;
    MINGW* | MSYS* | CYGWIN* | Windows_NT) os=windows ;;
    *) die "no mcp-contract build for $os; the releases have Linux, macOS and Windows archives" ;;
  esac
  case $arch in
    x86_64 | amd64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) die "no mcp-contract build for the $arch architecture (only x64 and arm64)" ;;
  esac
  # A shell under Rosetta reports x86_64 on an Apple silicon Mac: take the native build.
  if [ "$os" = darwin ] && [ "$arch" = x64 ] && [ "$(sysctl -n sysctl.proc_translated 2>/dev/null || echo 0)" = 1 ]; then
    arch=arm64
  fi
  if [ "$os" = windows ] && [ "$arch" = arm64 ]; then
    arch=x64 # Windows on Arm runs the x64 build
  fi
  target=$os-$arch
  if [ "$os" = linux ] && is_musl; then
    target=$target-musl
  fi
  if [ "$target" = linux-x64 ] && ! has_avx2; then
    say "this CPU has no AVX2: taking the linux-x64-baseline build"
    target=linux-x64-baseline
  elif [ "$target" = linux-x64-musl ] && ! has_avx2; then
    warn "this CPU has no AVX2, and there is no baseline build for musl: the binary may not run"
  fi
}

# Bun-built binaries for musl link libstdc++ and libgcc_s, which Alpine does not install by default.
check_musl_libraries() {
  missing=
  for lib in libstdc++.so.6 libgcc_s.so.1; do
    found=
    for dir in /lib /usr/lib /usr/local/lib /lib64 /usr/lib64 /lib/*-linux-* /usr/lib/*-linux-*; do
      if [ -e "$dir/$lib" ]; then found=1; break; fi
    done
    [ -n "$found" ] || missing="$missing $lib"
  done
  if [ -n "$missing" ]; then
    warn "the musl build needs libstdc++ and libgcc, and this system lacks:$missing"
    warn "install them first (Alpine: apk add libstdc++ libgcc), or mcp-contract will not start"
  fi
}

if [ -z "$target" ]; then
  detect_target
fi
case $target in
  linux-x64 | linux-x64-baseline | linux-x64-musl | linux-arm64 | linux-arm64-musl | darwin-x64 | darwin-arm64) ext=tar.gz exe=mcp-contract ;;
  windows-x64 | windows-x64-baseline) ext=zip exe=mcp-contract.exe ;;
  *) die "unknown --target $target (see --help for the list)" ;;
esac
case $target in *-musl) check_musl_libraries ;; esac

# --- how to download and verify -------------------------------------------------------

if has curl; then
  fetch() { curl -fsSL --retry 3 -o "$2" "$1"; }
elif has wget; then
  fetch() { wget -q -O "$2" "$1"; }
else
  die "neither curl nor wget is installed; install one of them and run this again"
fi

if has sha256sum; then
  sha256_of() { sha256sum "$1" | cut -d ' ' -f 1; }
elif has shasum; then
  sha256_of() { shasum -a 256 "$1" | cut -d ' ' -f 1; }
elif has openssl; then
  sha256_of() { openssl dgst -sha256 -r "$1" | cut -d ' ' -f 1; }
else
  die "cannot verify the download: no SHA-256 tool (sha256sum, shasum or openssl) is installed. Install one (e.g. coreutils or openssl) and run this again; nothing was installed."
fi

tmp=$(mktemp -d 2>/dev/null || mktemp -d -t mcp-contract)
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT
trap 'cleanup; exit 130' INT
trap 'cleanup; exit 143' TERM

if [ -z "$version" ]; then
  case $base in
    */download) latest_url=${base%/download}/latest/download/VERSION ;;
    *) latest_url=$base/latest/VERSION ;;
  esac
  fetch "$latest_url" "$tmp/VERSION" || die "cannot find the latest version at $latest_url; give one with --version X"
  version=$(tr -d ' \r\n' <"$tmp/VERSION")
fi
version=${version#v}
case $version in
  '' | *[!0-9A-Za-z.+-]*) die "not a version: '$version' (expected e.g. 0.1.0)" ;;
esac

stem=mcp-contract-$version-$target
archive=$stem.$ext
url=$base/v$version/$archive
sums_url=$base/v$version/SHA256SUMS

if [ -n "$dry_run" ]; then
  say "version: $version"
  say "target: $target"
  say "url: $url"
  say "prefix: $prefix"
  exit 0
fi

say "downloading mcp-contract $version for $target"
fetch "$url" "$tmp/$archive" || die "download failed: $url (is $version a released version? does it have a $target build?)"
fetch "$sums_url" "$tmp/SHA256SUMS" || die "cannot download $sums_url, so $archive cannot be verified; nothing was installed"

expected=$(awk -v f="$archive" '$2 == f || $2 == "*" f { print $1; exit }' "$tmp/SHA256SUMS" | tr 'A-F' 'a-f')
case $expected in
  '') die "SHA256SUMS of $version has no checksum for $archive, so it cannot be verified; nothing was installed" ;;
  *[!0-9a-f]*) die "SHA256SUMS of $version has a malformed checksum for $archive; nothing was installed" ;;
esac
[ ${#expected} -eq 64 ] || die "SHA256SUMS of $version has a malformed checksum for $archive; nothing was installed"
actual=$(sha256_of "$tmp/$archive" | tr 'A-F' 'a-f')
if [ "$actual" != "$expected" ]; then
  die "checksum mismatch for $archive: expected $expected, got $actual. The download is corrupt or was tampered with; nothing was installed."
fi
say "verified SHA-256 $actual"

case $ext in
  tar.gz) tar -xzf "$tmp/$archive" -C "$tmp" || die "cannot unpack $archive" ;;
  zip)
    has unzip || die "unzip is needed to unpack $archive"
    unzip -q "$tmp/$archive" -d "$tmp" || die "cannot unpack $archive"
    ;;
esac
[ -f "$tmp/$stem/$exe" ] || die "$archive does not contain $stem/$exe"

# --- install ---------------------------------------------------------------------------

bindir=$prefix/bin
mkdir -p "$bindir" || die "cannot create $bindir (try another --prefix)"
bindir=$(cd "$bindir" && pwd)
dest=$bindir/$exe
# Copy beside the destination, then rename: a running or half-written binary is never replaced in place.
cp "$tmp/$stem/$exe" "$bindir/.$exe.tmp.$$" || die "cannot write to $bindir (try another --prefix)"
chmod 755 "$bindir/.$exe.tmp.$$"
if [ "$target" = darwin-x64 ] || [ "$target" = darwin-arm64 ]; then
  xattr -d com.apple.quarantine "$bindir/.$exe.tmp.$$" 2>/dev/null || true
fi
mv -f "$bindir/.$exe.tmp.$$" "$dest" || { rm -f "$bindir/.$exe.tmp.$$"; die "cannot install $dest"; }

if installed=$("$dest" --version 2>&1); then
  say "installed mcp-contract $installed to $dest"
else
  case $target in
    *-musl) die "installed $dest, but it does not start: $installed. It needs libstdc++ and libgcc (Alpine: apk add libstdc++ libgcc)" ;;
    *) die "installed $dest, but it does not start: $installed" ;;
  esac
fi

case ":${PATH:-}:" in
  *":$bindir:"*) ;;
  *)
    say ""
    say "$bindir is not on your PATH. Add it, e.g. in ~/.profile, ~/.bashrc or ~/.zshrc:"
    say "  export PATH=\"$bindir:\$PATH\""
    say "or for fish: fish_add_path $bindir"
    ;;
esac
say "shell completions: mcp-contract completions --help"
