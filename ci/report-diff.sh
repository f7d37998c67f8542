#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Whether two transcripts hold the same report: their bodies (what follows
# `# ---`) line for line, with every number masked, so that two runs of one
# program, or of one program built two ways, compare by what they print and
# not by what they measured. Masked are addresses (0x...), numbers, the
# padding between columns (it widens with a number's digits), and a
# program's own verdicts (`verdict: holds` or `does not hold`, and the
# `within noise` column's best/yes/no at the end of a Day 10 table row),
# which are measurements too. Prints the masked diff, or one line saying the
# reports are the same; exits 0 when they are, 1 when they are not.
#
# Usage: ci/report-diff.sh <transcript> <transcript>
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: ci/report-diff.sh <transcript> <transcript>" >&2; exit 2; }
masked() {
  sed -n '/^# ---$/,$p' "$1" | tail -n +2 |
    sed -E -e 's/0x[0-9a-fA-F]+/A/g' -e 's/[-+]?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?/N/g' -e 's/ +/ /g' \
      -e 's/(verdict[^:]*): (holds|does not hold)/\1: V/' -e 's/(N%) (best|yes|no)$/\1 V/'
}
echo "a: $1"
echo "b: $2"
if diff <(masked "$1") <(masked "$2"); then
  echo "same report, numbers masked: $(masked "$1" | wc -l) lines"
else
  echo "the reports differ (lines above, numbers masked)"
  exit 1
fi
