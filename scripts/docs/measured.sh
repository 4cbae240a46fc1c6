#!/usr/bin/env bash
# Writes a measurements page of docs/ from the output of make targets, so that no figure in docs/ is
# typed by hand: a header naming the commit, the date, the CPU and the toolchain, then one section per
# target with what it printed. Usage: measured.sh OUT.md TITLE TARGET[=FILE]...
# TARGET=FILE includes the file the target wrote instead of what it printed. Output that begins with a
# Markdown table or heading is included as Markdown, any other as a code block. The page is replaced
# only when every target succeeded.
set -euo pipefail
cd "$(dirname "$0")/../.."
out="$1" title="$2"
shift 2
commit="$(git rev-parse --short HEAD)"
git diff --quiet HEAD -- Sources Package.swift scripts Benchmarks || commit="$commit with uncommitted changes"
cpu="$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1), $(nproc) cores"
partial="$(dirname "$out")/.$(basename "$out").partial"
trap 'rm -f "$partial"' EXIT
{
  echo "# $title"
  echo
  echo "Written by \`make $(basename "$out" .md)\` at commit $commit on $(date -u +%Y-%m-%d) ($cpu;"
  echo "$(swift --version 2>/dev/null | head -1)). Every figure below is that run's output; rerun the"
  echo "target to refresh it."
  for section in "$@"; do
    target="${section%%=*}"
    echo
    echo "## \`make $target\`"
    echo
    if [ "$target" = "$section" ]; then
      output="$(make --no-print-directory -s "$target")"
    else
      make --no-print-directory -s "$target" >&2
      output="$(cat "${section#*=}")"
    fi
    case "$output" in
      '|'* | '#'*) echo "$output" ;;
      *) printf '```text\n%s\n```\n' "$output" ;;
    esac
  done
} > "$partial"
mv "$partial" "$out"
