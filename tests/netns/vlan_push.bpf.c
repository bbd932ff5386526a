// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * Test-only tc program for tests/netns/route_tagged.t: tags every IPv4
 * and IPv6 packet with VLAN 5 through bpf_skb_vlan_push(), which keeps
 * the tag in the skb (as a sender with tx-vlan-offload does), so that a
 * veth carries it to its peer out of the frame.  Needs no 8021q.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

SEC("tc")
int vlan_push5(struct __sk_buff *skb)
{
	if (skb->protocol == bpf_htons(ETH_P_IP) ||
	    skb->protocol == bpf_htons(ETH_P_IPV6))
		bpf_skb_vlan_push(skb, bpf_htons(ETH_P_8021Q), 5);
	return TC_ACT_OK;
}

char _license[] SEC("license") = "GPL";
