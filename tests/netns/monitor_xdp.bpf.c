// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * Test-only XDP program for tests/netns/monitor.t: it makes XDP redirect
 * errors on purpose, so that the test can check that `bpfwd monitor`
 * counts them with the right device and errno.  Configured through the
 * array bpfwd_t_cfg (bpftool map update id ID ...):
 *   [0] the ifindex to bpf_redirect() every frame to
 *   [1] 0: redirect, 1: XDP_ABORTED (an xdp_exception)
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u32);
} bpfwd_t_cfg SEC(".maps");

SEC("xdp")
int mon_t_xdp(struct xdp_md *ctx)
{
	__u32 k_to = 0, k_mode = 1, *to, *mode;

	to = bpf_map_lookup_elem(&bpfwd_t_cfg, &k_to);
	mode = bpf_map_lookup_elem(&bpfwd_t_cfg, &k_mode);
	if (!to || !mode || !*to)
		return XDP_PASS;
	if (*mode == 1)
		return XDP_ABORTED;
	return bpf_redirect(*to, 0);
}

char _license[] SEC("license") = "GPL";
