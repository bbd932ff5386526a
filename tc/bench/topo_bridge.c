// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * bpfwd bench topology bridge [ ports N ] [ stations M ]: the dut is a
 * Linux bridge (BENCH_BR) of N ports, gen's (in_dev) and N-1 sink
 * ports: the cross-connect's out_dev -- sink_dev, and tp.out[i] --
 * tp.sink[i] more veth pairs into the sink namespace, each sink end with
 * NAPI (GRO on) and the sink's counter (the same program and map: one
 * count over all of them).  bridge-nf-call-* are off in the dut, as in
 * the cross-connect's bridge row.
 *
 * The M stations are static fdb entries, station i (MAC STATION_MAC + i)
 * on sink port i % (N-1), and gen's MAC is static on gen's port: every
 * station is known before the first window, so the bridge forwards each
 * frame to one port and never floods, and the fast path's source check
 * finds gen on its port.  gen sends to the stations round robin.  The
 * bridge stays up for all the rows; a row only adds its fast path.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/if_link.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bench.h"
#include "lib/livegen.h"
#include "lib/netdev.h"
#include "lib/nl.h"
#include "lib/nsrun.h"
#include "lib/util.h"
#include "benchsink.skel.h"

/* 02:62:00:10:00:00, the first station; the others count up */
static const uint8_t STATION_MAC[6] = { 0x02, 0x62, 0x00, 0x10, 0x00, 0x00 };

static void mac_fmt(const uint8_t *m, char *buf)
{
	snprintf(buf, 18, "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2],
		 m[3], m[4], m[5]);
}

/* The MAC of @dev in namespace @ns into @mac. */
int topo_mac_of(struct bench *b, int ns, const char *dev, uint8_t *mac)
{
	struct link_info li;
	int err, idx;

	err = ns_enter(b->ns[ns]);
	if (err)
		return err;
	idx = if_nametoindex(dev);
	err = idx ? netdev_link(idx, &li) : -ENODEV;
	ns_leave();
	if (err) {
		snprintf(b->err, sizeof(b->err), "%s: %s", dev, strerror(-err));
		return err;
	}
	memcpy(mac, li.mac, 6);
	return 0;
}

/* The sink port @i (0: the cross-connect's) and its sink end. */
static char *port_of(struct bench *b, int i, bool sink)
{
	if (!i)
		return sink ? b->sink_dev : b->out_dev;
	return sink ? b->tp.sink[i - 1] : b->tp.out[i - 1];
}

/* Sink ports 1..N-2: one-queue veth pairs, up, NAPI at the sink end,
 * VLAN tags in the frame (as topo_links() sets the first one).
 */
static int sink_ports(struct bench *b)
{
	int i;

	b->tp.nsinks = b->tp.ports - 2;
	for (i = 0; i < b->tp.nsinks; i++) {
		/* bwo-TAG, bws-TAG: bwo1-TAG, bws1-TAG, ... */
		snprintf(b->tp.out[i], IF_NAMESIZE, "bwo%x%s", i + 1,
			 b->out_dev + 3);
		snprintf(b->tp.sink[i], IF_NAMESIZE, "bws%x%s", i + 1,
			 b->sink_dev + 3);
		if (RUN(b, NS_DUT, "ip", "link", "add", b->tp.out[i],
			"numtxqueues", "1", "numrxqueues", "1", "type", "veth",
			"peer", b->tp.sink[i], "numtxqueues", "1", "numrxqueues",
			"1", "netns", b->ns_name[NS_SINK]) ||
		    RUN(b, NS_DUT, "ip", "link", "set", b->tp.out[i], "up") ||
		    RUN(b, NS_SINK, "ip", "link", "set", b->tp.sink[i], "up") ||
		    RUN(b, NS_SINK, "ethtool", "-K", b->tp.sink[i], "gro", "on",
			"txvlan", "off", "tx-vlan-stag-hw-insert", "off"))
			return -EIO;
	}
	return 0;
}

/* The bridge of gen's port and the sink ports, up, br_netfilter off. */
static int bridge_up(struct bench *b)
{
	int i;

	if (!access("/proc/sys/net/bridge", F_OK) &&
	    RUN(b, NS_DUT, "sysctl", "-qw", "net.bridge.bridge-nf-call-iptables=0",
		"net.bridge.bridge-nf-call-ip6tables=0",
		"net.bridge.bridge-nf-call-arptables=0"))
		return -EIO;
	if (RUN(b, NS_DUT, "ip", "link", "add", "name", BENCH_BR, "type", "bridge") ||
	    RUN(b, NS_DUT, "ip", "link", "set", b->in_dev, "master", BENCH_BR))
		return -EIO;
	for (i = 0; i <= b->tp.nsinks; i++)
		if (RUN(b, NS_DUT, "ip", "link", "set", port_of(b, i, false),
			"master", BENCH_BR))
			return -EIO;
	return RUN(b, NS_DUT, "ip", "link", "set", BENCH_BR, "up");
}

int topo_batch(struct bench *b, const char *tool,
	       void (*fill)(struct bench *b, FILE *f))
{
	char path[] = "/tmp/bpfwd-bench-batch-XXXXXX";
	int fd, err;
	FILE *f;

	fd = mkstemp(path);
	if (fd < 0 || !(f = fdopen(fd, "w"))) {
		snprintf(b->err, sizeof(b->err), "%s batch file: %s", tool,
			 strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(path);
		}
		return -EIO;
	}
	fill(b, f);
	err = fclose(f) ? -errno : 0;
	if (!err)
		err = RUN(b, NS_DUT, (char *)tool, "-batch", path);
	unlink(path);
	return err;
}

/* gen's MAC on gen's port, the stations on the sink ports, all static */
static void stations_fill(struct bench *b, FILE *f)
{
	uint32_t base = STATION_MAC[2] << 24 | STATION_MAC[3] << 16 |
			STATION_MAC[4] << 8 | STATION_MAC[5], i, lo;
	char mac[18];
	uint8_t m[6];

	mac_fmt(b->tp.gen_mac, mac);
	fprintf(f, "fdb replace %s dev %s master static\n", mac, b->in_dev);
	memcpy(m, STATION_MAC, 6);
	for (i = 0; i < b->tp.stations; i++) {
		lo = base + i;
		m[2] = lo >> 24;
		m[3] = lo >> 16;
		m[4] = lo >> 8;
		m[5] = lo;
		mac_fmt(m, mac);
		fprintf(f, "fdb replace %s dev %s master static\n", mac,
			port_of(b, i % (b->tp.ports - 1), false));
	}
}

static int stations_add(struct bench *b)
{
	double t0 = now();
	int err = topo_batch(b, "bridge", stations_fill);

	if (!err)
		fprintf(stderr, "bench: %u stations in %s's fdb over %u sink ports (%.1f s)\n",
			b->tp.stations, BENCH_BR, b->tp.ports - 1, now() - t0);
	return err;
}

int topo_bridge_build(struct bench *b)
{
	int err = sink_ports(b);

	if (!err)
		err = topo_mac_of(b, NS_GEN, b->gen_dev, b->tp.gen_mac);
	/* gen's live frames carry full checksums: nothing to offload,
	 * and an XDP fast path takes no partial ones
	 */
	if (!err)
		err = RUN(b, NS_GEN, "ethtool", "-K", b->gen_dev, "tx", "off");
	/* gen's port is a port like the others: hook xdp wants NAPI at
	 * the other end of each
	 */
	if (!err)
		err = RUN(b, NS_GEN, "ethtool", "-K", b->gen_dev, "gro", "on");
	if (!err)
		err = bridge_up(b);
	if (!err)
		err = stations_add(b);
	return err;
}

/* The sink's counter on every sink port: the program cli.c attached to
 * sink_dev, its map shared.
 */
int topo_bridge_counted(struct bench *b)
{
	struct bpf_program *p = b->count_xdp ? b->sink_cnt->progs.cnt_xdp_drop :
					       b->sink_cnt->progs.cnt_tc_consume;
	int i, idx, err = ns_enter(b->ns[NS_SINK]);
	bool created;

	if (err)
		return err;
	for (i = 0; !err && i < b->tp.nsinks; i++) {
		idx = if_nametoindex(b->tp.sink[i]);
		if (!idx)
			err = -ENODEV;
		else if (b->count_xdp)
			err = bpf_xdp_attach(idx, bpf_program__fd(p),
					     XDP_FLAGS_DRV_MODE, NULL);
		else if (!(err = nl_clsact_add(idx, &created)))
			err = nl_bpf_filter_set(idx, false, 1, bpf_program__fd(p),
						bpf_program__name(p), false);
		if (err)
			snprintf(b->err, sizeof(b->err), "the sink's counter on %s: %s",
				 b->tp.sink[i], strerror(-err));
	}
	ns_leave();
	return err;
}

void topo_bridge_gen(struct bench *b, struct livegen_cfg *c)
{
	memcpy(c->dmac, STATION_MAC, 6);
	c->stations = b->tp.stations;
}
