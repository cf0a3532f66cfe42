#!/usr/bin/env bash
# Collect the commits between two refs and group them by the changelog section they most
# likely belong to (Keep a Changelog sections, guessed from Conventional Commit prefixes).
#
# usage: collect_commits.sh [FROM] [TO]
#   FROM  defaults to the latest tag reachable from TO (the whole history when there is none)
#   TO    defaults to HEAD
#
# Output is Markdown on stdout. Merge commits are skipped. Breaking changes (a "!" after the
# type, or a "BREAKING CHANGE:" / "BREAKING-CHANGE:" footer) are marked.
set -euo pipefail

if ! git rev-parse --git-dir >/dev/null 2>&1; then
  echo "collect_commits.sh: not inside a git repository" >&2
  exit 2
fi

to="${2:-HEAD}"
from="${1:-}"
if [[ -z "$from" ]]; then
  from="$(git describe --tags --abbrev=0 "$to" 2>/dev/null || true)"
fi
for ref in "$to" ${from:+"$from"}; do
  if ! git rev-parse --verify --quiet "$ref^{commit}" >/dev/null; then
    echo "collect_commits.sh: unknown ref: $ref" >&2
    exit 2
  fi
done

if [[ -n "$from" ]]; then
  range="$from..$to"
else
  range="$to"
fi

sections=(Added Changed Deprecated Removed Fixed Security Internal Unsorted)
declare -A lines=()
for s in "${sections[@]}"; do lines[$s]=""; done
total=0
breaking=0

# Records end with ASCII RS (0x1e); fields are separated by ASCII US (0x1f).
while IFS= read -r -d $'\x1e' record; do
  record="${record#$'\n'}"
  [[ -z "$record" ]] && continue
  hash="${record%%$'\x1f'*}"
  rest="${record#*$'\x1f'}"
  subject="${rest%%$'\x1f'*}"
  body="${rest#*$'\x1f'}"

  type="" scope="" bang="" text="$subject"
  if [[ "$subject" =~ ^([A-Za-z]+)(\(([^\)]*)\))?(!)?:[[:space:]]*(.*)$ ]]; then
    type="${BASH_REMATCH[1],,}"
    scope="${BASH_REMATCH[3]}"
    bang="${BASH_REMATCH[4]}"
    text="${BASH_REMATCH[5]}"
  fi

  case "$type" in
    feat|feature)                    section=Added ;;
    fix|bugfix|hotfix)               section=Fixed ;;
    perf|refactor|revert)            section=Changed ;;
    deprecate|deprecated)            section=Deprecated ;;
    remove|removed)                  section=Removed ;;
    security|sec)                    section=Security ;;
    docs|doc|test|tests|ci|build|chore|style) section=Internal ;;
    *)                               section=Unsorted ;;
  esac
  # A fix that mentions a CVE or a vulnerability is most likely a security entry.
  if [[ "$section" == Fixed && "$subject $body" =~ (CVE-[0-9]{4}-[0-9]+|[Vv]ulnerab) ]]; then
    section=Security
  fi

  mark=""
  if [[ -n "$bang" ]] || grep -qE '^BREAKING[ -]CHANGE:' <<<"$body"; then
    mark="**Breaking:** "
    breaking=$((breaking + 1))
  fi

  entry="- ${mark}${text}"
  [[ -n "$scope" ]] && entry+=" [${scope}]"
  entry+=" (${hash})"
  lines[$section]+="${entry}"$'\n'
  total=$((total + 1))
done < <(git log --no-merges --format='%h%x1f%s%x1f%b%x1e' "$range")

echo "# Commits in ${range}"
echo
echo "${total} commit(s), ${breaking} marked breaking."
for s in "${sections[@]}"; do
  if [[ -n "${lines[$s]}" ]]; then
    echo
    echo "## $s"
    echo
    printf '%s' "${lines[$s]}"
  fi
done
