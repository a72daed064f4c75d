#!/usr/bin/env bash
# Runs `npm test` with two CPU-bound processes beside it (stress-ng --cpu 2), to show that no test
# depends on the machine being idle: every wait in the suite is on an event, or a poll with a
# generous deadline, and the one limit on speed (the fuzz harness) counts CPU time, not wall time.
# CI runs it once (see .ci/run); locally: scripts/test-under-load.sh [jest args...].
#
# Prints the wall time, the load average before and after, and the CPU time the suite used (its
# own and its children's), then exits with npm test's status.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v stress-ng >/dev/null 2>&1; then
  echo "test-under-load: stress-ng is not installed (apt-get install stress-ng)" >&2
  exit 2
fi

stress-ng --cpu 2 --quiet &
stress=$!
trap 'kill "$stress" 2>/dev/null || true; wait "$stress" 2>/dev/null || true' EXIT

echo "test-under-load: stress-ng --cpu 2 running (pid $stress); load before: $(cut -d' ' -f1-3 /proc/loadavg)"
started=$(date +%s)
status=0
# bash's `times` after the run gives the CPU time of this shell's children (npm, jest, its workers
# and every process they waited for), which, unlike wall time, the stressors do not inflate much.
npm test -- "$@" || status=$?
elapsed=$(( $(date +%s) - started ))
echo "test-under-load: npm test exited $status after ${elapsed} s of wall time beside stress-ng --cpu 2; load after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "test-under-load: CPU time (user system) of this shell, then of its children (npm test):"
times
exit "$status"
