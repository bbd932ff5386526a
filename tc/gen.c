// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * bpfwd gen: sends UDP frames out of a device as fast as XDP live frames
 * allow, for a count or a duration, and says what the device really
 * took.  The benchmark's generator, usable alone to load a box:
 *
 *   bpfwd -n gen gen dev g0 count 1000000 size 64 flows 8 cpu 0
 *
 * dsts N spreads the frames over N destination addresses (a router's
 * many destinations: the kernel's route hint, which reuses the route of
 * the previous packet to the same address, no longer applies).
 *
 * A live rate goes to stderr once a second; the summary (and with -j one
 * JSON object) to stdout.  Frames the device dropped are counted from its
 * tx_dropped counter, and a device that took none is explained.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/ether.h>

#include "objects.h"
#include "lib/json.h"
#include "lib/livegen.h"
#include "lib/params.h"
#include "lib/util.h"

struct gen_args {
	const char *dev;
	uint32_t count, duration, size, flows, dsts, cpu;
	const char *src, *dst;
	bool ipv6;
};

/* size: what the generator builds (livegen_open()), with the FCS:
 * UDP/IPv4 64-1518 bytes, UDP/IPv6 66-1518 (its headers need 66)
 */
#define GEN_SIZE_MIN	64
#define GEN_SIZE_MIN6	66
#define GEN_SIZE_MAX	1518
#define GEN_DSTS_MAX	(1U << 24)

static const struct kw gen_kws[] = {
	KW_DEV("dev", struct gen_args, dev, "DEV", KW_REQUIRED,
	       "the device frames leave by"),
	KW_U32("count", struct gen_args, count, 1, UINT32_MAX, "N", 0,
	       "send exactly N frames"),
	KW_U32("duration", struct gen_args, duration, 1, 86400, "S", 0,
	       "send for S seconds (default 10)"),
	KW_U32("size", struct gen_args, size, GEN_SIZE_MIN, GEN_SIZE_MAX, "BYTES", 0,
	       "frame size on the wire, with FCS (default 64, IPv6 66)"),
	KW_U32("flows", struct gen_args, flows, 1, 16384, "N", 0,
	       "source ports, round robin from 49152 (default 8)"),
	KW_U32("dsts", struct gen_args, dsts, 1, GEN_DSTS_MAX, "N", 0,
	       "destination addresses, round robin from dst's up (default 1)"),
	KW_STR("src", struct gen_args, src, "ADDR", 0, "source MAC, IP or both"),
	KW_STR("dst", struct gen_args, dst, "ADDR", 0,
	       "destination MAC, IP or both"),
	KW_FLAG("ipv6", struct gen_args, ipv6, 0, "UDP over IPv6"),
	KW_U32("cpu", struct gen_args, cpu, 0, CPU_SETSIZE - 1, "C", 0,
	       "run on CPU C"),
	KW_END
};

#define USAGE	"Usage: bpfwd gen "

int gen_help(int argc, char **argv)
{
	printf(USAGE);
	kw_usage(stdout, gen_kws, strlen(USAGE));
	printf("where  ADDR := { MAC | IP | MAC/IP }\n");
	return BPFWD_EXIT_OK;
}

struct rate_arg {
	struct livegen *g;
	const char *dev;
	bool on;
	volatile bool stop;
};

/* The live rate, once a second on stderr, while BPF_PROG_RUN runs. */
static void *rate_fn(void *arg)
{
	struct rate_arg *r = arg;
	uint64_t last = 0, cur;
	double tl = now(), t;
	int ticks = 0;

	while (!r->stop) {
		usleep(50000);
		if (++ticks < 20)
			continue;
		ticks = 0;
		cur = livegen_frames(r->g);
		t = now();
		fprintf(stderr, "gen %s: %.3f Mpps, %llu frames\n", r->dev,
			(cur - last) / (t - tl) / 1e6, (unsigned long long)cur);
		last = cur;
		tl = t;
	}
	return NULL;
}

static bool parse_mac(const char *s, uint8_t mac[6])
{
	unsigned int b[6];
	char end;
	int i;

	if (sscanf(s, "%2x:%2x:%2x:%2x:%2x:%2x%c", &b[0], &b[1], &b[2], &b[3],
		   &b[4], &b[5], &end) != 6)
		return false;
	for (i = 0; i < 6; i++)
		mac[i] = b[i];
	return true;
}

/* "MAC", "IP" or "MAC/IP" of @word (src, dst); the IP's family, if
 * any, in *@fam.
 */
static int parse_endpoint(const char *word, const char *s, bool *have_mac,
			  uint8_t mac[6], bool *have_ip, struct in6_addr *ip,
			  int *fam)
{
	char buf[128], *slash;
	const char *ipstr = NULL;

	snprintf(buf, sizeof(buf), "%s", s);
	slash = strchr(buf, '/');
	if (slash) {
		*slash = '\0';
		if (!parse_mac(buf, mac))
			return usage_err("%s \"%s\": MAC/IP expected, \"%s\" is not a MAC address",
					 word, s, buf);
		*have_mac = true;
		ipstr = slash + 1;
	} else if (parse_mac(buf, mac)) {
		*have_mac = true;
		return 0;
	} else {
		ipstr = buf;
	}
	memset(ip, 0, sizeof(*ip));
	if (inet_pton(AF_INET, ipstr, ip) == 1)
		*fam = AF_INET;
	else if (inet_pton(AF_INET6, ipstr, ip) == 1)
		*fam = AF_INET6;
	else
		return usage_err("%s \"%s\": not a MAC, an IP address or MAC/IP",
				 word, s);
	*have_ip = true;
	return 0;
}

/* The command line into @a and @cfg: UDP over IPv6 with ipv6 or an IPv6
 * address, and then no IPv4 address.
 */
static int gen_args(int argc, char **argv, struct gen_args *a,
		    struct livegen_cfg *cfg)
{
	int err, sfam = 0, dfam = 0;
	kw_seen_t seen;

	err = kw_parse(gen_kws, argc, argv, a, &seen);
	if (err)
		return err;
	if (a->count && a->duration)
		return usage_err("count and duration exclude each other");
	if (!a->count && !a->duration)
		a->duration = 10;
	if (a->src)
		err = parse_endpoint("src", a->src, &cfg->have_smac, cfg->smac,
				     &cfg->have_src, &cfg->src, &sfam);
	if (!err && a->dst)
		err = parse_endpoint("dst", a->dst, &cfg->have_dmac, cfg->dmac,
				     &cfg->have_dst, &cfg->dst, &dfam);
	if (err)
		return err;
	cfg->ipv6 = a->ipv6 || sfam == AF_INET6 || dfam == AF_INET6;
	if (cfg->ipv6 && (sfam == AF_INET || dfam == AF_INET))
		return usage_err("%s \"%s\": an IPv4 address with IPv6",
				 sfam == AF_INET ? "src" : "dst",
				 sfam == AF_INET ? a->src : a->dst);
	cfg->size = a->size;
	if (cfg->ipv6 && !kw_has(gen_kws, seen, "size"))
		cfg->size = GEN_SIZE_MIN6;
	if (cfg->ipv6 && cfg->size < GEN_SIZE_MIN6)
		return usage_err("size \"%u\": UDP/IPv6 frames are %u-%u bytes",
				 cfg->size, GEN_SIZE_MIN6, GEN_SIZE_MAX);
	cfg->flows = a->flows;
	cfg->dsts = a->dsts;
	return 0;
}

static void print_addr(const char *key, const char *fmt, const uint8_t *mac,
		       const struct in6_addr *ip, bool v6)
{
	char m[18], a[INET6_ADDRSTRLEN], both[80];

	snprintf(m, sizeof(m), "%02x:%02x:%02x:%02x:%02x:%02x", mac[0], mac[1],
		 mac[2], mac[3], mac[4], mac[5]);
	inet_ntop(v6 ? AF_INET6 : AF_INET, ip, a, sizeof(a));
	snprintf(both, sizeof(both), "%s/%s", m, a);
	print_string(PRINT_ANY, key, fmt, both);
}

static void print_summary(const struct livegen_cfg *cfg, uint64_t sent,
			  uint64_t dropped, double secs, bool interrupted)
{
	double mpps = secs > 0 ? sent / secs / 1e6 : 0;

	json_begin();
	open_json_object(NULL);
	print_string(PRINT_ANY, "dev", "gen %s:", cfg->dev);
	print_u64(PRINT_ANY, "frames", " %llu frames", sent);
	print_u64(PRINT_ANY, "sent", ", %llu taken by the device",
		  sent > dropped ? sent - dropped : 0);
	print_u64(PRINT_ANY, "dropped", ", %llu dropped by it,", dropped);
	print_double(PRINT_ANY, "seconds", " in %.3f s,", secs);
	print_double(PRINT_ANY, "mpps", " %.3f Mpps", mpps);
	print_double(PRINT_ANY, "gbps", " %.3f Gbit/s", mpps * cfg->size * 8 / 1e3);
	print_nl();
	print_u64(PRINT_ANY, "size", "  size %llu", cfg->size);
	print_u64(PRINT_ANY, "flows", " flows %llu", cfg->flows);
	print_u64(PRINT_ANY, "dsts", " dsts %llu", cfg->dsts);
	print_string(PRINT_ANY, "proto", " %s", cfg->ipv6 ? "udp6" : "udp");
	print_addr("src", " src %s", cfg->smac, &cfg->src, cfg->ipv6);
	print_addr("dst", " dst %s", cfg->dmac, &cfg->dst, cfg->ipv6);
	print_bool(PRINT_JSON, "interrupted", NULL, interrupted);
	print_nl();
	close_json_object();
	json_end();
}

static int pin_cpu(uint32_t cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		p_err("cpu %u: %s", cpu, strerror(errno));
		return -errno;
	}
	return 0;
}

/* One long BPF_PROG_RUN; a thread prints the rate, a signal (the alarm
 * for a duration, ^C) ends it.  The seconds it ran in *@secs.
 */
static int send_frames(struct livegen *g, const char *dev,
		       const struct gen_args *a, double *secs)
{
	struct rate_arg rate = { .g = g, .dev = dev, .on = !opts.json };
	pthread_t rate_thread;
	double t0;
	int err;

	if (rate.on && pthread_create(&rate_thread, NULL, rate_fn, &rate))
		rate.on = false;
	t0 = now();
	if (a->duration)
		alarm(a->duration);
	err = livegen_run(g, a->count, &stop_signal);
	alarm(0);
	*secs = now() - t0;
	if (rate.on) {
		rate.stop = true;
		pthread_join(rate_thread, NULL);
	}
	if (err && err != -EINTR) {
		p_err("%s: BPF_PROG_RUN live frames: %s", dev, strerror(-err));
		return err;
	}
	return 0;
}

/* Sends and reports, the signals caught. */
static int gen_run(struct livegen *g, const struct livegen_cfg *cfg,
		   const struct gen_args *a)
{
	uint64_t sent, tx0, drop0, tx1, drop1;
	double secs;

	if (livegen_dev_counters(g, &tx0, &drop0)) {
		p_err("%s: cannot read its counters", cfg->dev);
		return BPFWD_EXIT_FAIL;
	}
	if (send_frames(g, cfg->dev, a, &secs))
		return BPFWD_EXIT_FAIL;
	sent = livegen_frames(g);
	if (livegen_dev_counters(g, &tx1, &drop1)) {
		p_err("%s: cannot read its counters", cfg->dev);
		return BPFWD_EXIT_FAIL;
	}
	if (sent && drop1 - drop0 >= sent && tx1 == tx0) {
		livegen_explain_drops(g);
		return BPFWD_EXIT_FAIL;
	}
	print_summary(cfg, sent, drop1 - drop0, secs,
		      stop_signal == SIGINT || stop_signal == SIGTERM);
	return BPFWD_EXIT_OK;
}

int do_gen(int argc, char **argv)
{
	struct gen_args a = {
		.size = LIVEGEN_SIZE_DEF, .flows = LIVEGEN_FLOWS_DEF, .dsts = 1,
		.cpu = UINT32_MAX,
	};
	struct livegen_cfg cfg = { 0 };
	struct signals_saved sigs;
	struct livegen *g = NULL;
	int idx, err, ret;

	opts.cmd = "gen";
	if (argc > 0 && is_word(*argv, "help"))
		return gen_help(0, NULL);
	err = gen_args(argc, argv, &a, &cfg);
	if (err)
		return err;
	if (need_root())
		return BPFWD_EXIT_FAIL;
	idx = ifindex_of(a.dev, NULL);
	if (idx < 0)
		return BPFWD_EXIT_FAIL;
	cfg.ifindex = idx;
	cfg.dev = a.dev;
	if (a.cpu != UINT32_MAX && pin_cpu(a.cpu))
		return BPFWD_EXIT_FAIL;
	if (livegen_open(&cfg, &g))
		return BPFWD_EXIT_FAIL;
	signals_catch(&sigs, true);
	ret = gen_run(g, &cfg, &a);
	signals_restore(&sigs);
	livegen_close(g);
	return ret;
}
