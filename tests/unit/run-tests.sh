#!/bin/sh
# Run each cmocka test binary given, show its output, then sum cmocka's
# "[  PASSED  ] N test(s)." and "[  FAILED  ] N test(s)" lines into one line:
#   unit: N passed, N failed
# A binary that exits non-zero without a FAILED line (a crash) counts as one
# failure.  Exit status: 0 only if nothing failed.
passed=0
failed=0
for t in "$@"; do
	echo "== ${t##*/}"
	out=$(CMOCKA_MESSAGE_OUTPUT=stdout "$t" 2>&1)
	rc=$?
	printf '%s\n' "$out"
	p=$(printf '%s\n' "$out" |
		sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | tail -n 1)
	f=$(printf '%s\n' "$out" |
		sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | tail -n 1)
	if [ "$rc" -ne 0 ] && [ -z "$f" ]; then
		echo "$t: exit status $rc without a cmocka summary"
		f=1
	fi
	passed=$((passed + ${p:-0}))
	failed=$((failed + ${f:-0}))
done
echo "unit: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
