// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * bpfwd bench topology router [ routes R ] [ dsts N ]: the dut routes
 * between two subnets, gen's 192.0.2.0/24 on in_dev (the dut .254, gen
 * .1) and the sink's 198.51.100.0/24 on out_dev (the dut .254, the sink
 * .2, a permanent neighbour), with forwarding on, rp_filter off and R
 * routes via the sink: the /27s of 10.0.0.0/8 from 10.0.0.0 up (R at
 * most 500000, 2^19 fit), installed by one ip -batch.  gen's frames go to
 * the dut's MAC and to an address inside route R/2 (10.0.0.0 + 32 R/2 +
 * 1): the FIB is as large as R says and the lookup goes through it, not
 * around it.  With dsts N, gen's frames go round robin to N such
 * addresses, one in each of routes R/2 to R/2 + N - 1: consecutive
 * packets no longer share a destination, so the kernel's route hint
 * (ip_route_use_hint(): a packet of a receive batch reuses the route of
 * the previous one to the same address) does not apply, as in a router
 * with many flows.  The routes stay for all the rows; a row only adds its
 * forwarder.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>

#include "bench.h"
#include "lib/livegen.h"
#include "lib/util.h"

#define ROUTES_BASE	0x0a000000	/* 10.0.0.0 */

/* The routes, R lines of one ip -batch. */
static void routes_fill(struct bench *b, FILE *f)
{
	uint32_t i, a;

	for (i = 0; i < b->tp.routes; i++) {
		a = ROUTES_BASE + i * 32;
		fprintf(f, "route add %u.%u.%u.%u/27 via 198.51.100.2 dev %s\n",
			a >> 24, (a >> 16) & 0xff, (a >> 8) & 0xff, a & 0xff,
			b->out_dev);
	}
}

static int routes_add(struct bench *b)
{
	double t0 = now();
	int err = topo_batch(b, "ip", routes_fill);

	if (!err)
		fprintf(stderr, "bench: %u routes in the dut (%.1f s)\n",
			b->tp.routes, now() - t0);
	return err;
}

int topo_router_build(struct bench *b)
{
	char mac[18];
	uint8_t *m = b->sink_mac;

	snprintf(mac, sizeof(mac), "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1],
		 m[2], m[3], m[4], m[5]);
	if (RUN(b, NS_SINK, "ip", "addr", "flush", "dev", b->sink_dev) ||
	    RUN(b, NS_SINK, "ip", "addr", "add", "198.51.100.2/24", "dev",
		b->sink_dev) ||
	    RUN(b, NS_DUT, "ip", "addr", "add", "192.0.2.254/24", "dev",
		b->in_dev) ||
	    RUN(b, NS_DUT, "ip", "addr", "add", "198.51.100.254/24", "dev",
		b->out_dev) ||
	    RUN(b, NS_DUT, "sysctl", "-qw", "net.ipv4.conf.all.forwarding=1",
		"net.ipv4.conf.all.rp_filter=0",
		"net.ipv4.conf.default.rp_filter=0") ||
	    RUN(b, NS_DUT, "ip", "neigh", "replace", "198.51.100.2", "lladdr",
		mac, "dev", b->out_dev, "nud", "permanent") ||
	    /* gen's live frames carry full checksums (see topo_bridge.c) */
	    RUN(b, NS_GEN, "ethtool", "-K", b->gen_dev, "tx", "off") ||
	    topo_mac_of(b, NS_DUT, b->in_dev, b->tp.dut_mac))
		return -EIO;
	return routes_add(b);
}

void topo_router_gen(struct bench *b, struct livegen_cfg *c)
{
	uint32_t dst = htonl(ROUTES_BASE + b->tp.routes / 2 * 32 + 1);

	memcpy(c->dmac, b->tp.dut_mac, 6);
	memset(&c->dst, 0, sizeof(c->dst));
	memcpy(&c->dst, &dst, 4);
	c->dsts = b->tp.dsts;
	c->dst_step = 32;	/* the next /27 */
}

/* The reference rows: the topology as it is. */
int topo_noop(struct bench *b, const struct method *m)
{
	return 0;
}

void topo_noop_down(struct bench *b, const struct method *m)
{
}
