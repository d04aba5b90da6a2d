#!/usr/bin/env bash
# setup.sh of a Gradescope autograder, written by `mancala export gradescope` (@@GRADER@@, course
# @@COURSE@@). Gradescope runs it once, as root, in /autograder/source (where the zip is unpacked)
# when it builds the autograder's image (Ubuntu). It installs only what is missing:
#   - Node.js 20.11 or newer: when there is none, the latest 20.x from nodejs.org, its checksum
#     checked against the release's SHASUMS256.txt, into /usr/local;
#   - the Ubuntu packages the course's submissions need (apt-get), and bubblewrap for the sandbox
#     (without it, grading uses the weak sandbox and every result says so).
# The grader and every package it runs are in mancala/: grading needs no package registry.
# AUTOGRADER_SETUP_NO_INSTALL=1: install nothing; say what is missing, and fail if the grading
# needs it (what the tests run). AUTOGRADER_ROOT: where /autograder is (default: this folder's parent).
set -euo pipefail
cd "$(dirname "$0")"
say() { printf 'setup.sh: %s\n' "$*"; }

required=() # packages of missing commands the grading needs
optional=() # packages of missing commands it can do without
need() { command -v "$1" >/dev/null 2>&1 || required+=("$2"); }
want() { command -v "$1" >/dev/null 2>&1 || optional+=("$2"); }
node_ok() {
  command -v node >/dev/null 2>&1 &&
    node -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 20 || (a === 20 && b >= 11) ? 0 : 1)'
}

# What this course's submissions need (courses.ts), and the sandbox's tools.
@@NEEDS@@

machine="$(uname -m)"
if [ "$machine" != "@@MACHINE@@" ]; then
  say "this autograder was exported with the grader's native parts (esbuild) for @@MACHINE@@; this machine is $machine: export it again on a @@MACHINE@@ Linux machine" >&2
  exit 1
fi

install_node=0
if ! node_ok; then
  install_node=1
  command -v curl >/dev/null 2>&1 || required+=(curl)
  command -v xz >/dev/null 2>&1 || required+=(xz-utils)
  [ -e /etc/ssl/certs/ca-certificates.crt ] || required+=(ca-certificates)
fi
# Each package once (several commands come from one).
mapfile -t required < <(printf '%s\n' "${required[@]}" | awk 'NF && !seen[$0]++')
mapfile -t optional < <(printf '%s\n' "${optional[@]}" | awk 'NF && !seen[$0]++')

if [ "${AUTOGRADER_SETUP_NO_INSTALL:-}" = 1 ]; then
  [ "$install_node" = 1 ] && say "missing: Node.js 20.11 or newer"
  [ ${#required[@]} -gt 0 ] && say "missing (needed): ${required[*]}"
  [ ${#optional[@]} -gt 0 ] && say "missing (optional): ${optional[*]}"
  if [ "$install_node" = 1 ] || [ ${#required[@]} -gt 0 ]; then
    say "AUTOGRADER_SETUP_NO_INSTALL=1: installing nothing" >&2
    exit 1
  fi
  [ ${#optional[@]} -eq 0 ] && say "nothing to install: Node $(node --version) and every command the course needs are present"
else
  if [ ${#required[@]} -gt 0 ] || [ ${#optional[@]} -gt 0 ]; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update
  fi
  if [ ${#required[@]} -gt 0 ]; then
    say "installing ${required[*]}"
    apt-get install -y --no-install-recommends "${required[@]}"
  fi
  if [ ${#optional[@]} -gt 0 ]; then
    say "installing ${optional[*]} (optional)"
    apt-get install -y --no-install-recommends "${optional[@]}" || say "could not install ${optional[*]}: grading goes on without it (see the results' output)"
  fi
  if [ "$install_node" = 1 ]; then
    case "$machine" in
      x86_64) arch=x64 ;;
      aarch64) arch=arm64 ;;
      *) say "no Node.js build for $machine" >&2; exit 1 ;;
    esac
    base=https://nodejs.org/dist/latest-v20.x
    work="$(mktemp -d)"
    curl -fsSL "$base/SHASUMS256.txt" -o "$work/SHASUMS256.txt"
    file="$(grep -oE "node-v20\.[0-9]+\.[0-9]+-linux-$arch\.tar\.xz" "$work/SHASUMS256.txt" | head -n 1)"
    say "installing Node.js from $base/$file"
    curl -fsSL "$base/$file" -o "$work/$file"
    (cd "$work" && grep " $file\$" SHASUMS256.txt | sha256sum -c -)
    tar -xJf "$work/$file" -C /usr/local --strip-components=1 --no-same-owner
    rm -rf "$work"
    hash -r
  fi
  if [ "$install_node" = 0 ] && [ ${#required[@]} -eq 0 ] && [ ${#optional[@]} -eq 0 ]; then
    say "nothing to install: Node $(node --version) and every command the course needs are present"
  fi
fi

chmod 755 run_autograder
# The grader checks itself: its configuration, the suites' answers, what the sandbox can do here.
node mancala/bin/mancala.js gradescope-run --self-check --root "${AUTOGRADER_ROOT:-$(dirname "$PWD")}"
