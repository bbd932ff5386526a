// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * bpfwd bench rows of what operators feel: TCP throughput (iperf3 from
 * gen to the sink) and round-trip times (ping from gen to the sink,
 * with gen idle or sending as in the pps rows), through a pps row set
 * up both ways (its .of): the bridge forwards both ways by itself, a
 * bpfwd port row gets a second port OUT -> IN.  For the replies gen's
 * device gets NAPI (GRO on, as the dut's and the sink's have), and the
 * sink a neighbour entry for gen.
 *
 * The idle rtt rows (gen not sending) run with the kernel's default
 * NAPI on the dut's ingress, not threaded: a NAPI then runs in softirq
 * on the CPU that scheduled it, as on an operator's box.  With the pps
 * rows' setting (threaded, its kthread pinned to the dut's CPU) a frame
 * that an XDP redirect or a veth with an XDP program puts on the
 * ingress ring waits for a cross-CPU wakeup of that kthread, and the
 * reply's socket wakes ping back across: a cost of the bench's setting
 * that only the XDP rows pay (the skb rows' frames go through netif_rx
 * on gen's CPU), measured at 47-85 us against 5-8 us at the median
 * and 4-11 ms against 19-28 us at p99.  Every idle rtt row runs so,
 * the bridge's too; the -load rows keep the pps rows' setting, which
 * gen's rate needs.
 *
 * The sink's counter drops every frame, so these rows swap it: TCP rows
 * run with no XDP program at the sink (one without frags support would
 * take GSO off its peer, the dut's OUT, and slow the bridge down), rtt
 * rows with cnt_xdp_gen, which drops and counts only gen's UDP frames.
 *
 * The XDP checksum trap: on veth an XDP redirect of the sender's
 * CHECKSUM_PARTIAL frames (tx checksum offload, on by default) hands
 * the receiver frames whose TCP checksum is unfinished, and it drops
 * them: TCP through hook xdp moves nothing.  A tcp row on the XDP path
 * is skipped with that reason and the fix while gen's device offloads
 * (bpfwd port add refuses such a port unless told fix-offload, which
 * bench's XDP rows are); its csum_off twin applies the fix (ethtool -K
 * DEV tx off at gen and at the sink, for its ACKs) and is measured.
 * The other TCP rows turn the offload back on: fix-offload leaves it
 * off after an XDP row.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>

#include "bench.h"
#include "lib/netdev.h"
#include "lib/nsrun.h"
#include "lib/util.h"

#define SINK_IP		"192.0.2.2"
#define RTT_INTERVAL	"0.002"		/* s between probes */
#define RTT_PER_S	500		/* probes per second of duration */
#define RTT_MAX		5000		/* probes at most (10 s) */
#define RTT_LINE	80		/* bytes of ping's output per probe */

/* Whether @dev in namespace @ns offloads its tx checksums (ETHTOOL_GTXCSUM). */
static bool tx_csum_on(struct bench *b, int ns, const char *dev)
{
	struct ethtool_value ev = { .cmd = ETHTOOL_GTXCSUM };
	struct ifreq ifr = { 0 };
	bool on = false;
	int fd;

	if (ns_enter(b->ns[ns]))
		return false;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", dev);
	ifr.ifr_data = (void *)&ev;
	if (fd >= 0 && !ioctl(fd, SIOCETHTOOL, &ifr))
		on = ev.data;
	if (fd >= 0)
		close(fd);
	ns_leave();
	return on;
}

static bool have_cmd(struct bench *b, char *const argv[])
{
	char out[256];

	return bench_capture(b, -1, argv, true, out, sizeof(out)) != 127;
}

static bool xdp_path(const struct method *m)
{
	return m->of->limit == LIMIT_XDP;
}

const char *need_two_way(struct bench *b, const struct method *m)
{
	if (!b->own_ns)
		return "needs the bench's own namespaces (no dev)";
	if (!b->count_xdp)
		return "needs count xdp (the default): the tc counter consumes every frame at the sink";
	if (m->kind == KIND_TCP &&
	    !have_cmd(b, (char *[]){ "iperf3", "--version", NULL }))
		return "iperf3 is not installed (Debian package iperf3)";
	if (m->kind != KIND_TCP &&
	    (!have_cmd(b, (char *[]){ "ping", "-V", NULL }) ||
	     !have_cmd(b, (char *[]){ "taskset", "-V", NULL })))
		return "ping or taskset is not installed (Debian packages iputils-ping, util-linux)";
	if (m->kind == KIND_TCP && xdp_path(m) && !m->csum_off &&
	    tx_csum_on(b, NS_GEN, b->gen_dev)) {
		return method_reason(m, "cannot carry TCP as configured: an XDP redirect on veth hands the sink the sender's CHECKSUM_PARTIAL frames with unfinished checksums and it drops them (bpfwd port add ... hook xdp refuses such a port); fix: ethtool -K %s tx-checksumming off (and the sink's, for its ACKs), or fix-offload: row %s-csum-off",
				     b->gen_dev, m->name);
	}
	return NULL;
}

/* The sink's neighbour entry for gen, once. */
static int sink_neigh(struct bench *b)
{
	struct link_info li;
	char mac[18];
	int err, idx;

	if (b->two_way)
		return 0;
	ns_enter(b->ns[NS_GEN]);
	idx = if_nametoindex(b->gen_dev);
	err = idx ? netdev_link(idx, &li) : -ENODEV;
	ns_leave();
	if (err) {
		snprintf(b->err, sizeof(b->err), "%s: %s", b->gen_dev,
			 strerror(-err));
		return err;
	}
	snprintf(mac, sizeof(mac), "%02x:%02x:%02x:%02x:%02x:%02x", li.mac[0],
		 li.mac[1], li.mac[2], li.mac[3], li.mac[4], li.mac[5]);
	if (RUN(b, NS_SINK, "ip", "neigh", "replace", "192.0.2.1", "lladdr", mac,
		"dev", b->sink_dev, "nud", "permanent"))
		return -EIO;
	b->two_way = true;
	return 0;
}

/* A hard-coded row (redirect-fixed, xdp-fixed) loads b->dut_prog on IN
 * with OUT built in: its twin the other way is a second copy.
 */
static bool fixed_row(const struct method *m)
{
	return m->setup == fixed_setup || m->setup == xdp_fixed_setup;
}

/* A port row's port the other way: OUT -> IN (bench_port() adds IN),
 * or a fixed row's program on OUT, sending to IN.
 */
static int reverse_port(struct bench *b, const struct method *of, bool add)
{
	struct benchsink *prog = b->dut_prog;
	char tmp[IF_NAMESIZE];
	int err = 0;

	if (!of->port.hook && !fixed_row(of))	/* the bridge: both ways */
		return 0;
	memcpy(tmp, b->in_dev, IF_NAMESIZE);
	memcpy(b->in_dev, b->out_dev, IF_NAMESIZE);
	memcpy(b->out_dev, tmp, IF_NAMESIZE);
	if (fixed_row(of))
		b->dut_prog = b->dut_prog_rev;
	if (add)
		err = of->port.hook ? port_setup(b, of) : of->setup(b, of);
	else if (of->port.hook)
		port_teardown(b, of);
	else if (b->dut_prog)
		of->teardown(b, of);
	if (fixed_row(of)) {
		b->dut_prog_rev = b->dut_prog;
		b->dut_prog = prog;
	}
	memcpy(b->out_dev, b->in_dev, IF_NAMESIZE);
	memcpy(b->in_dev, tmp, IF_NAMESIZE);
	return err;
}

/* tx checksum offload at gen and at the sink: off for a csum_off row,
 * else on (as a veth starts): an XDP row's fix-offload turns it off on
 * its port's peer and leaves it so, which would slow the TCP rows
 * after it down (no TSO).
 */
static int tx_csum_set(struct bench *b, bool on)
{
	char *v = on ? "on" : "off";

	if (RUN(b, NS_GEN, "ethtool", "-K", b->gen_dev, "tx", v) ||
	    RUN(b, NS_SINK, "ethtool", "-K", b->sink_dev, "tx", v))
		return -EIO;
	return 0;
}

int two_way_setup(struct bench *b, const struct method *m)
{
	int err = sink_neigh(b);

	if (!err && m->kind == KIND_TCP)
		err = tx_csum_set(b, !m->csum_off);
	if (err)
		return err;
	if (RUN(b, NS_GEN, "ethtool", "-K", b->gen_dev, "gro", "on"))
		return -EIO;
	if (m->kind == KIND_RTT && napi_thread_set(b, false))
		return -EIO;
	err = sink_counter_swap(b, m->kind == KIND_TCP ? SINK_NONE : SINK_GEN);
	if (!err)
		err = m->of->setup(b, m->of);
	if (!err)
		err = reverse_port(b, m->of, true);
	return err;
}

void two_way_teardown(struct bench *b, const struct method *m)
{
	char err[ERRLEN];

	memcpy(err, b->err, sizeof(err));
	reverse_port(b, m->of, false);
	m->of->teardown(b, m->of);
	sink_counter_swap(b, SINK_BACK);
	RUN(b, NS_GEN, "ethtool", "-K", b->gen_dev, "gro", "off");
	if (m->kind == KIND_RTT && napi_thread_set(b, true))
		pr_warn("bench: %s", b->err);
	if (m->csum_off)
		tx_csum_set(b, true);
	memcpy(b->err, err, sizeof(err));
}

/* The number after "@key": in @s, at or after @from, or NAN. */
static double json_num(const char *s, const char *from, const char *key)
{
	char k[64];
	const char *p = strstr(s, from);

	snprintf(k, sizeof(k), "\"%s\":", key);
	p = p ? strstr(p, k) : NULL;
	return p ? strtod(p + strlen(k), NULL) : NAN;
}

/* iperf3's "error" of a failed run, into b->err. */
static void iperf_error(struct bench *b, const char *out, int ret)
{
	const char *p = strstr(out, "\"error\":");
	char msg[160] = "";
	size_t n;

	if (p && (p = strchr(p + 8, '"'))) {
		n = strcspn(p + 1, "\"");
		snprintf(msg, sizeof(msg), "%.*s", (int)(n < 159 ? n : 159), p + 1);
	}
	snprintf(b->err, sizeof(b->err), "iperf3 %s (exit %d)",
		 msg[0] ? msg : "failed", ret);
}

int measure_tcp(struct bench *b, struct sample *s)
{
	static char out[1 << 17];
	char t[16], limit[16], gcpu[16], scpu[16];
	char *srv[] = { "iperf3", "-s", "-1", "-A", scpu, NULL };
	char *cli[] = { "timeout", limit, "iperf3", "-c", SINK_IP, "-t", t,
			"-J", "--connect-timeout", "3000", "-A", gcpu, NULL };
	pid_t pid;
	int ret;

	snprintf(t, sizeof(t), "%u", b->duration);
	snprintf(limit, sizeof(limit), "%u", b->duration + 15);
	snprintf(gcpu, sizeof(gcpu), "%d", b->gen_cpu >= 0 ? b->gen_cpu : 0);
	snprintf(scpu, sizeof(scpu), "%d", b->sink_cpu >= 0 ? b->sink_cpu : 0);
	pid = bench_spawn(b, NS_SINK, srv, -1);
	if (pid < 0)
		return pid;
	usleep(300000);
	ret = bench_capture(b, NS_GEN, cli, false, out, sizeof(out));
	bench_reap(pid, SIGTERM);
	if (stop_signal)
		return -EINTR;
	s->mpps = json_num(out, "\"sum_received\"", "bits_per_second") / 1e9;
	s->retrans = json_num(out, "\"sum_sent\"", "retransmits");
	s->dut_ns = NAN;
	if (ret || isnan(s->mpps) || s->mpps <= 0) {
		iperf_error(b, out, ret);
		return -EIO;
	}
	s->done = true;
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* ping's "time=X ms" lines into @s: min, median, p99 in us, loss. */
static int rtt_parse(struct bench *b, const char *out, int probes,
		     struct sample *s)
{
	static double v[RTT_MAX];
	const char *p = out;
	int n = 0;

	while (n < (int)ARRAY_SIZE(v) && (p = strstr(p, "time="))) {
		v[n++] = strtod(p + 5, NULL) * 1e3;
		p += 5;
	}
	if (!n) {
		snprintf(b->err, sizeof(b->err), "no reply to %d pings", probes);
		return -EIO;
	}
	qsort(v, n, sizeof(*v), cmp_double);
	s->rtt_min = v[0];
	s->mpps = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	s->rtt_p99 = v[(int)ceil(n * 0.99) - 1];
	s->loss_pct = 100.0 * (probes - n) / probes;
	return 0;
}

/* ping gen -> sink, RTT_PER_S probes a second for b->duration (RTT_MAX
 * at most), with gen sending meanwhile when @load (its delivered rate
 * in s->load_mpps).  ping runs on gen's CPU, at gen's nice (taskset):
 * on the dut's CPU its wakeups next to the NAPI thread cut the skb
 * rows' forwarding to a tenth or nothing, and at SCHED_FIFO on gen's
 * CPU they cut gen's rate to a third.  The price: under load a probe
 * may wait for gen's time slice, which shows in the p99 (about 4 ms).
 */
int measure_rtt(struct bench *b, struct sample *s, bool load)
{
	static char out[RTT_MAX * RTT_LINE];
	int probes = RTT_PER_S * b->duration, err, ret, result_fd = -1;
	char cpu[16], count[16];
	char *argv[] = { "taskset", "-c", cpu, "ping", "-n", "-i", RTT_INTERVAL,
			 "-c", count, "-W", "1", SINK_IP, NULL };
	double res[2] = { 0, 0 }, t0 = 0;
	uint64_t c0 = 0;
	pid_t pid = 0;

	if (probes > RTT_MAX)
		probes = RTT_MAX;
	snprintf(cpu, sizeof(cpu), "%d", b->gen_cpu >= 0 ? b->gen_cpu : 0);
	snprintf(count, sizeof(count), "%d", probes);
	if (load) {
		err = gen_start(b, &pid, &result_fd);
		if (err)
			return err;
		napi_pin(b);
		usleep(300000);
		c0 = count_read(b->count_fd);
		t0 = now();
	}
	ret = bench_capture(b, NS_GEN, argv, false, out, sizeof(out));
	if (load) {
		s->load_mpps = (count_read(b->count_fd) - c0) / (now() - t0) / 1e6;
		gen_stop(pid, result_fd, res);
		s->gen_mpps = res[1] > 0 ? res[0] / res[1] / 1e6 : 0;
	}
	if (stop_signal)
		return -EINTR;
	s->dut_ns = NAN;
	if (ret < 0) {
		snprintf(b->err, sizeof(b->err), "ping: %s", strerror(-ret));
		return ret;
	}
	err = rtt_parse(b, out, probes, s);
	if (!err)
		s->done = true;
	return err;
}
