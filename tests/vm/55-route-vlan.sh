#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# bpfwd route with a VLAN sub-interface as egress, in the guest: the
# Debian kernels have 8021q (mkinitramfs.sh loads it), this project's CI
# host may not, so tests/netns/route_vlan.t runs here on its own (about
# half a minute under TCG), whatever short list of host suites
# 50-host-suites.sh runs; skipped when that list has it already.
source "$(dirname "$0")/../lib.sh"
need_bpfwd

case ",${VMTEST_HOST_SUITES:-all}," in
*,all,* | *,netns/route_vlan.t,*)
	skip_all "50-host-suites.sh runs netns/route_vlan.t" ;;
esac
BPFWD_UNSHARED= bash "$TOP/tests/netns/route_vlan.t"
