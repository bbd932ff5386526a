// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * Generator core: builds the UDP/IPv4 or UDP/IPv6 template with valid
 * checksums, loads gen.o's gen_xmit with the device, the flows, the
 * checksum sum and the template's headers (written back into every
 * frame) as load-time constants, and runs it in live-frames mode
 * in batches of 64.  Frames are only ever sent out of the device the
 * caller names, in the caller's network namespace.
 */
#include <errno.h>
#include <stddef.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/udp.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "livegen.h"
#include "netdev.h"
#include "util.h"
#include "gen.skel.h"

#ifndef BPF_F_TEST_XDP_LIVE_FRAMES
#define BPF_F_TEST_XDP_LIVE_FRAMES (1U << 1)
#endif

#define FRAME_MAX 1518

struct livegen {
	struct livegen_cfg cfg;
	struct gen *skel;
	int prog_fd;
	uint32_t len;
	uint8_t pad[2];		/* the IP header (frame + 14) 4-byte aligned */
	uint8_t frame[FRAME_MAX];
};
_Static_assert(offsetof(struct livegen, frame) % 4 == 2, "IP header alignment");

uint32_t livegen_frame_len(const struct livegen_cfg *cfg)
{
	return cfg->size - 4;
}

/* Ones' complement sum of @len bytes read as 16-bit words in memory
 * order (the BPF side adds the port the same way).
 */
static uint32_t sum16(const void *p, size_t len, uint32_t sum)
{
	const uint8_t *b = p;
	uint16_t w;

	for (; len > 1; len -= 2, b += 2) {
		memcpy(&w, b, 2);
		sum += w;
	}
	if (len) {
		w = 0;
		memcpy(&w, b, 1);
		sum += w;
	}
	return sum;
}

static uint32_t fold32(uint32_t sum)
{
	sum = (sum & 0xffff) + (sum >> 16);
	return (sum & 0xffff) + (sum >> 16);
}

static uint16_t csum(uint32_t sum)
{
	uint16_t c = ~fold32(sum);

	return c;
}

/* What gen_xmit needs to rewrite a frame: offsets (from the frame's
 * start) and ones' complement sums (unfolded) of what the checksums
 * cover except the fields it writes.
 */
struct frame_sums {
	uint32_t sport_off, csum_off;
	uint32_t base;		/* UDP: all but the port, the dst word */
	uint32_t dst_off;	/* the destination address's last 32 bits */
	uint32_t dst_word;	/* ... as they stand in the template */
	uint32_t ip_csum_off;	/* IPv4 header checksum, 0 for IPv6 */
	uint32_t ip_base;	/* IPv4 header but checksum and dst word */
};

/* Builds the frame and its sums. */
static void build_frame(struct livegen *g, struct frame_sums *fs)
{
	const struct livegen_cfg *c = &g->cfg;
	uint8_t *f = g->frame;
	struct ethhdr *eth = (struct ethhdr *)f;
	struct udphdr *udp;
	uint32_t l3, ulen, sum;
	uint16_t proto_len[2];
	uint8_t *dst;

	memset(f, 0, sizeof(g->frame));
	/* a recognisable payload for anyone capturing it */
	memset(f, 0xa5, g->len);
	memcpy(eth->h_dest, c->dmac, 6);
	memcpy(eth->h_source, c->smac, 6);
	if (!c->ipv6) {
		struct iphdr *ip = (struct iphdr *)(f + ETH_HLEN);

		eth->h_proto = htons(ETH_P_IP);
		l3 = sizeof(*ip);
		memset(ip, 0, sizeof(*ip));
		ip->version = 4;
		ip->ihl = 5;
		ip->tot_len = htons(g->len - ETH_HLEN);
		ip->frag_off = htons(0x4000);	/* DF */
		ip->ttl = 64;
		ip->protocol = IPPROTO_UDP;
		memcpy(&ip->saddr, &c->src, 4);
		memcpy(&ip->daddr, &c->dst, 4);
		dst = (uint8_t *)&ip->daddr;
		fs->ip_csum_off = (uint8_t *)&ip->check - f;
		fs->ip_base = sum16(ip, sizeof(*ip), 0) - sum16(dst, 4, 0);
		ip->check = csum(sum16(ip, sizeof(*ip), 0));
		ulen = g->len - ETH_HLEN - l3;
		sum = sum16(&ip->saddr, 4, 0);
	} else {
		struct ipv6hdr *ip6 = (struct ipv6hdr *)(f + ETH_HLEN);

		eth->h_proto = htons(ETH_P_IPV6);
		l3 = sizeof(*ip6);
		memset(ip6, 0, sizeof(*ip6));
		ip6->version = 6;
		ulen = g->len - ETH_HLEN - l3;
		ip6->payload_len = htons(ulen);
		ip6->nexthdr = IPPROTO_UDP;
		ip6->hop_limit = 64;
		memcpy(&ip6->saddr, &c->src, 16);
		memcpy(&ip6->daddr, &c->dst, 16);
		dst = (uint8_t *)&ip6->daddr + 12;
		fs->ip_csum_off = 0;
		sum = sum16(&ip6->saddr, 28, 0);
	}
	/* pseudo header: protocol and UDP length (IPv6: as 32-bit words,
	 * the same sum)
	 */
	proto_len[0] = htons(IPPROTO_UDP);
	proto_len[1] = htons(ulen);
	sum = sum16(proto_len, 4, sum);
	udp = (struct udphdr *)(f + ETH_HLEN + l3);
	udp->source = 0;
	udp->dest = htons(LIVEGEN_DPORT);
	udp->len = htons(ulen);
	udp->check = 0;
	sum = fold32(sum16(udp, ulen, sum));
	fs->base = sum;
	fs->sport_off = (uint8_t *)&udp->source - f;
	fs->csum_off = (uint8_t *)&udp->check - f;
	fs->dst_off = dst - f;
	memcpy(&fs->dst_word, dst, 4);
	/* flow 0 in the template itself */
	udp->source = htons(LIVEGEN_SPORT);
	udp->check = csum(sum + sum16(dst, 4, udp->source));
	if (!udp->check)
		udp->check = 0xffff;
}

static bool mac_zero(const uint8_t *m)
{
	static const uint8_t z[6];

	return !memcmp(m, z, 6);
}

/* Why a device cannot take XDP frames, and what to do about it. */
static void explain(struct livegen *g, const struct link_info *li)
{
	char name[IF_NAMESIZE], peer[80] = "its peer";

	if (strcmp(li->kind, "veth")) {
		p_err("%s: the device cannot transmit XDP frames (its driver has no ndo_xdp_xmit, or it is not ready)",
		      g->cfg.dev);
		return;
	}
	if (li->link && !li->link_other_ns && if_indextoname(li->link, name))
		snprintf(peer, sizeof(peer), "its peer %s", name);
	else if (li->link)
		snprintf(peer, sizeof(peer), "its peer (ifindex %u in another namespace)",
			 li->link);
	p_err("%s: veth cannot take XDP frames: %s has neither NAPI nor an XDP program; turn NAPI on there with `ethtool -K PEER gro on` (or attach an XDP program to it) and bring both ends up",
	      g->cfg.dev, peer);
}

static int check_device(struct livegen *g, struct link_info *li)
{
	uint64_t feat = 0;
	int err;

	err = netdev_link(g->cfg.ifindex, li);
	if (err) {
		p_err("%s: %s", g->cfg.dev, strerror(-err));
		return err;
	}
	if (!li->up) {
		p_err("%s: device is down (ip link set %s up)", g->cfg.dev,
		      g->cfg.dev);
		return -ENETDOWN;
	}
	if (li->mtu + ETH_HLEN + 4 < g->cfg.size) {
		p_err("%s: size %u is larger than the device's MTU %u allows (%u)",
		      g->cfg.dev, g->cfg.size, li->mtu, li->mtu + ETH_HLEN + 4);
		return -EMSGSIZE;
	}
	err = netdev_xdp_features(g->cfg.ifindex, &feat);
	if (err == -EOPNOTSUPP) {
		pr_info("%s: kernel does not report XDP features, checking after sending",
			g->cfg.dev);
		return 0;
	}
	if (err) {
		pr_info("%s: XDP features: %s", g->cfg.dev, strerror(-err));
		return 0;
	}
	if (!(feat & BPFWD_XDP_ACT_NDO_XMIT)) {
		explain(g, li);
		return -EOPNOTSUPP;
	}
	return 0;
}

static int fill_defaults(struct livegen *g, const struct link_info *li)
{
	struct livegen_cfg *c = &g->cfg;
	int fam = c->ipv6 ? AF_INET6 : AF_INET;

	if (!c->have_smac)
		memcpy(c->smac, li->mac, 6);
	if (!c->have_src && netdev_addr(c->ifindex, fam, &c->src)) {
		if (c->ipv6)
			inet_pton(AF_INET6, "2001:db8::1", &c->src);
		else
			inet_pton(AF_INET, "192.0.2.1", &c->src);
	}
	if (!c->have_dst) {
		if (c->ipv6)
			inet_pton(AF_INET6, "2001:db8::2", &c->dst);
		else
			inet_pton(AF_INET, "192.0.2.2", &c->dst);
	}
	if (!c->have_dmac && netdev_neigh_mac(c->ifindex, fam, &c->dst, c->dmac)) {
		char a[INET6_ADDRSTRLEN];

		inet_ntop(fam, &c->dst, a, sizeof(a));
		p_err("%s: no neighbour entry for %s: give dst MAC (dst 02:00:00:00:00:02/%s)",
		      c->dev, a, a);
		return -ENOENT;
	}
	if (mac_zero(c->dmac)) {
		p_err("%s: destination MAC is all zero", c->dev);
		return -EINVAL;
	}
	return 0;
}

int livegen_open(struct livegen_cfg *cfg, struct livegen **gp)
{
	struct frame_sums fs = { 0 };
	struct link_info li;
	uint32_t min;
	struct livegen *g;
	int err;

	min = ETH_HLEN + (cfg->ipv6 ? 40 : 20) + 8 + 4;
	if (min < 64)
		min = 64;
	if (cfg->size < min || cfg->size > FRAME_MAX) {
		p_err("size %u: %s frames are %u-%u bytes (with FCS)", cfg->size,
		      cfg->ipv6 ? "UDP/IPv6" : "UDP/IPv4", min, FRAME_MAX);
		return -EINVAL;
	}
	g = calloc(1, sizeof(*g));
	if (!g)
		return -ENOMEM;
	g->cfg = *cfg;
	g->len = livegen_frame_len(cfg);
	err = check_device(g, &li);
	if (!err)
		err = fill_defaults(g, &li);
	if (err)
		goto fail;
	*cfg = g->cfg;
	build_frame(g, &fs);

	g->skel = gen__open();
	if (!g->skel) {
		err = -errno;
		p_err("open gen.o: %s", strerror(-err));
		goto fail;
	}
	g->skel->rodata->gen_ifindex = cfg->ifindex;
	g->skel->rodata->gen_flows = cfg->flows;
	g->skel->rodata->gen_sport = LIVEGEN_SPORT;
	g->skel->rodata->gen_sport_off = fs.sport_off;
	g->skel->rodata->gen_csum_off = fs.csum_off;
	g->skel->rodata->gen_csum_base = fs.base;
	g->skel->rodata->gen_dsts = cfg->dsts > 1 ? cfg->dsts : 1;
	g->skel->rodata->gen_dst_lo = ntohl(fs.dst_word);
	g->skel->rodata->gen_dst_step = cfg->dst_step ? cfg->dst_step : 1;
	g->skel->rodata->gen_dst_off = fs.dst_off;
	g->skel->rodata->gen_dst_word = fs.dst_word;
	g->skel->rodata->gen_ip_csum_off = fs.ip_csum_off;
	g->skel->rodata->gen_ip_base = fs.ip_base;
	/* written back into every frame: Ethernet + IPv4 (34 bytes) or
	 * IPv6 (54) headers, in 8-byte words
	 */
	g->skel->rodata->gen_hdr_words = cfg->ipv6 ? 7 : 5;
	g->skel->rodata->gen_stations = cfg->stations;
	g->skel->rodata->gen_dmac_lo = (uint32_t)cfg->dmac[2] << 24 |
				       cfg->dmac[3] << 16 | cfg->dmac[4] << 8 |
				       cfg->dmac[5];
	memcpy((void *)g->skel->rodata->gen_hdr, g->frame,
	       sizeof(g->skel->rodata->gen_hdr));
	err = gen__load(g->skel);
	if (err) {
		p_err("load gen.o: %s (bpfwd -vv shows the verifier log)",
		      strerror(-err));
		goto fail;
	}
	g->prog_fd = bpf_program__fd(g->skel->progs.gen_xmit);
	*gp = g;
	return 0;
fail:
	livegen_close(g);
	return err;
}

int livegen_run(struct livegen *g, uint64_t frames,
		const volatile sig_atomic_t *stop)
{
	LIBBPF_OPTS(bpf_test_run_opts, o,
		    .data_in = g->frame,
		    .data_size_in = g->len,
		    .flags = BPF_F_TEST_XDP_LIVE_FRAMES,
		    .batch_size = LIVEGEN_BATCH);
	uint64_t left;
	int err;

	for (;;) {
		/* a signal that came between two calls stops it here */
		if (stop && *stop)
			return -EINTR;
		left = frames ? frames - livegen_frames(g) : LIVEGEN_CALL;
		if (!left)
			return 0;
		o.repeat = left > LIVEGEN_CALL ? LIVEGEN_CALL : left;
		err = bpf_prog_test_run_opts(g->prog_fd, &o);
		if (err)
			return err;
	}
}

uint64_t livegen_frames(struct livegen *g)
{
	return g->skel->bss->gen_seq;
}

int livegen_dev_counters(struct livegen *g, uint64_t *tx, uint64_t *drop)
{
	struct link_info li;
	int err = netdev_link(g->cfg.ifindex, &li);

	if (err)
		return err;
	*tx = li.tx_packets;
	*drop = li.tx_dropped;
	return 0;
}

void livegen_explain_drops(struct livegen *g)
{
	struct link_info li;

	if (netdev_link(g->cfg.ifindex, &li))
		memset(&li, 0, sizeof(li));
	explain(g, &li);
}

void livegen_close(struct livegen *g)
{
	if (!g)
		return;
	gen__destroy(g->skel);
	free(g);
}
