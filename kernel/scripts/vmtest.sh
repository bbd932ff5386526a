#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# vmtest.sh [deb61|deb612|patched|all]...: boot each kernel under QEMU
# (TCG, never KVM: this host's /dev/kvm runs only specially built guests),
# run tests/vm/ inside, stream the guest's TAP to stdout and exit non-zero
# on a failed test, a guest that never finished, or a timeout.
#
#   deb61    Debian bookworm's stock 6.1 image (linux-image-amd64)
#   deb612   Debian's stock 6.12 image (linux-image-6.12-amd64)
#   patched  linux-source-6.12 + kernel/patches, built by build-kernel.sh
#
# What cannot be had here (no QEMU, no package) is a TAP skip with the
# reason, never a pass. Environment: VMTEST_CACHE (cache directory),
# VMTEST_TIMEOUT (seconds per boot, default 900), VMTEST_ONLY (glob of
# tests/vm scripts), VMTEST_HOST_SUITES (host .t files run in the guest,
# "all" or comma-separated, default netns/redirect.t,netns/modes.t,
# netns/bridge_vlan.t: the whole host suite takes over 10 minutes under
# TCG; the VLAN-aware bridge exists only in the guests), VMTEST_MEM (MiB,
# default 1024), JOBS (build jobs).

set -uo pipefail
. "$(dirname "$0")/common.sh"

: "${VMTEST_TIMEOUT:=900}"
: "${VMTEST_ONLY:=[0-9]*.sh}"
: "${VMTEST_MEM:=1024}"
: "${VMTEST_HOST_SUITES:=netns/redirect.t,netns/modes.t,netns/bridge_vlan.t}"

kernels=()
for k in "${@:-all}"; do
	case "$k" in
	all|'')	kernels+=(deb61 deb612 patched) ;;
	deb61|deb612|patched) kernels+=("$k") ;;
	*)	die "unknown kernel '$k' (deb61, deb612, patched, all)" ;;
	esac
done

if ! command -v qemu-system-x86_64 >/dev/null; then
	apt_ensure qemu-system-x86 >/dev/null 2>&1 || true
fi
if ! command -v qemu-system-x86_64 >/dev/null; then
	echo "1..0 # SKIP qemu-system-x86_64 not available and not installable"
	exit 0
fi

pass=0 fail=0 skip=0 ran=0 bad=()
results=$(cache_dir results)

# boot LABEL KERNEL INITRD: run one guest, stream its TAP, tally results.
boot()
{
	local label=$1 kernel=$2 initrd=$3 tap=$results/$1.tap
	local con=$results/$1.console start rc

	log "booting $label under TCG (timeout ${VMTEST_TIMEOUT}s, console: $con)"
	start=$(date +%s)
	timeout --foreground -k 10 "$VMTEST_TIMEOUT" \
		qemu-system-x86_64 -accel tcg -cpu max -smp 2 -m "$VMTEST_MEM" \
		-nodefaults -display none -no-reboot \
		-kernel "$kernel" -initrd "$initrd" \
		-append "console=ttyS0 panic=-1 net.ifnames=0 vmtest.kernel=$label vmtest.only=$VMTEST_ONLY vmtest.suites=$VMTEST_HOST_SUITES" \
		-serial "file:$con" -serial stdio </dev/null |
		sed -u 's/\r$//' | tee "$tap"
	rc=${PIPESTATUS[0]}
	log "$label: guest ran $(( $(date +%s) - start ))s, qemu exit $rc"

	if ! grep -q '^# vmtest-done' "$tap"; then
		if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
			echo "not ok - $label: timed out after ${VMTEST_TIMEOUT}s"
		else
			echo "not ok - $label: guest stopped before the end (qemu exit $rc)"
		fi
		log "last console lines:"
		tail -n 25 "$con" | sed 's/^/#   /' >&2
		fail=$((fail + 1)); bad+=("$label")
		return
	fi
	ran=$((ran + 1))
	# Indented lines are the scripts' own results; a top-level "not ok"
	# without any indented failure is a script that died.
	read -r p f s < <(awk '
		/^    ok / { if ($0 ~ /# *SKIP/) s++; else p++; next }
		/^    not ok / { f++; sf++; next }
		/^# Subtest:/ { sf = 0; next }
		/^ok .*# *SKIP/ { s++; next }
		/^not ok / { if (!sf) f++; next }
		END { print p + 0, f + 0, s + 0 }' "$tap")
	pass=$((pass + p)); fail=$((fail + f)); skip=$((skip + s))
	[ "$f" = 0 ] || bad+=("$label")
}

for k in "${kernels[@]}"; do
	echo "# === kernel $k ==="
	initrd=$results/$k.initrd.gz
	case "$k" in
	deb61|deb612)
		root=$("$KDIR/scripts/get-deb-kernel.sh" "$k")
		rc=$?
		if [ $rc = 77 ]; then
			echo "ok - $k # SKIP Debian image for $k not offered by apt here"
			skip=$((skip + 1)); continue
		elif [ $rc != 0 ]; then
			echo "not ok - $k: fetching the Debian image failed"
			fail=$((fail + 1)); bad+=("$k"); continue
		fi
		image=$(ls "$root"/boot/vmlinuz-* | head -1)
		[ -s "$root/vmlinux" ] && image=$root/vmlinux
		"$KDIR/scripts/mkinitramfs.sh" "$initrd" "$root" || {
			echo "not ok - $k: initramfs"; fail=$((fail + 1)); bad+=("$k"); continue; }
		;;
	patched)
		image=$("$KDIR/scripts/build-kernel.sh")
		rc=$?
		if [ $rc = 77 ]; then
			echo "ok - $k # SKIP linux-source-6.12 not offered by apt here"
			skip=$((skip + 1)); continue
		elif [ $rc != 0 ]; then
			echo "not ok - $k: kernel build failed"
			fail=$((fail + 1)); bad+=("$k"); continue
		fi
		"$KDIR/scripts/mkinitramfs.sh" "$initrd" || {
			echo "not ok - $k: initramfs"; fail=$((fail + 1)); bad+=("$k"); continue; }
		;;
	esac
	boot "$k" "$image" "$initrd"
done

if [ $ran = 0 ] && [ $fail = 0 ]; then
	echo "1..0 # SKIP no kernel could be booted here"
	exit 0
fi
[ ${#bad[@]} = 0 ] || log "failures on: ${bad[*]}"
echo "vmtest: $pass passed, $fail failed, $skip skipped"
[ $fail = 0 ]
