#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run the kernel's own checkpatch.pl --strict over kernel/patches. The
# series carries no Signed-off-by (the person who sends it upstream adds
# theirs), so that one error is expected and filtered out; anything else
# fails.

set -euo pipefail
. "$(dirname "$0")/common.sh"

src=$(ls -d "$VMTEST_CACHE"/src/linux-source-6.12-* 2>/dev/null | head -1)
[ -n "$src" ] || die "no unpacked source yet: run make -C kernel kernel first"
rc=0
for p in $(grep -v '^[[:space:]]*\(#\|$\)' "$KDIR/patches/series"); do
	out=$("$src/scripts/checkpatch.pl" --strict --no-signoff -q --no-tree \
	      "$KDIR/patches/$p" 2>/dev/null) || true
	if [ -n "$out" ]; then
		printf '%s\n%s\n' "$p:" "$out"
		rc=1
	else
		echo "$p: clean (but for the Signed-off-by)"
	fi
done
exit $rc
