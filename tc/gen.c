// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * bpfwd gen: sends UDP frames out of a device as fast as XDP live frames
 * allow, for a count or a duration, and says what the device really
 * took.  The benchmark's generator, usable alone to load a box:
 *
 *   bpfwd -n gen gen dev g0 count 1000000 size 64 flows 8 cpu 0
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

#include "bpfwd.h"
#include "lib/json.h"
#include "lib/livegen.h"
#include "lib/util.h"

int gen_help(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("Usage: bpfwd gen dev DEV [ count N | duration S ] [ size BYTES ]\n"
	       "                [ flows N ] [ src ADDR ] [ dst ADDR ] [ ipv6 ] [ cpu C ]\n"
	       "where  ADDR := { MAC | IP | MAC/IP }\n");
	return BPFWD_EXIT_OK;
}

static volatile sig_atomic_t gen_stop;

static void on_signal(int sig)
{
	gen_stop = sig;
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

/* "MAC", "IP" or "MAC/IP" */
static int parse_endpoint(const char *word, const char *s, bool *have_mac,
			  uint8_t mac[6], bool *have_ip, struct in6_addr *ip,
			  bool *v6)
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
	if (inet_pton(AF_INET, ipstr, ip) == 1) {
		if (*v6)
			return usage_err("%s \"%s\": an IPv4 address with ipv6", word, s);
	} else if (inet_pton(AF_INET6, ipstr, ip) == 1) {
		*v6 = true;
	} else {
		return usage_err("%s \"%s\": not a MAC, an IP address or MAC/IP",
				 word, s);
	}
	*have_ip = true;
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

int do_gen(int argc, char **argv)
{
	struct livegen_cfg cfg = {
		.size = LIVEGEN_SIZE_DEF,
		.flows = LIVEGEN_FLOWS_DEF,
	};
	uint32_t count = 0, duration = 0, cpu = UINT32_MAX;
	uint64_t sent = 0, tx0, drop0, tx1, drop1;
	struct sigaction sa = { .sa_handler = on_signal }, old_int, old_term,
			 old_alrm;
	struct rate_arg rate = { 0 };
	pthread_t rate_thread;
	double t0, t1, secs, mpps;
	struct livegen *g = NULL;
	const char *dev = NULL;
	bool size_given = false;
	int idx, err, ret = BPFWD_EXIT_FAIL;

	opts.cmd = "gen";
	if (argc > 0 && is_word(*argv, "help"))
		return gen_help(0, NULL);
	for (; argc > 0; argc--, argv++) {
		const char *w = *argv;

		if (is_word(w, "ipv6")) {
			if ((cfg.have_src || cfg.have_dst) && !cfg.ipv6)
				return usage_err("ipv6 after an IPv4 address");
			cfg.ipv6 = true;
			continue;
		}
		if (argc < 2) {
			if (is_word(w, "dev") || is_word(w, "count") ||
			    is_word(w, "duration") || is_word(w, "size") ||
			    is_word(w, "flows") || is_word(w, "src") ||
			    is_word(w, "dst") || is_word(w, "cpu"))
				return usage_err("\"%s\" needs a value", w);
			return usage_err("unknown argument \"%s\"", w);
		}
		if (is_word(w, "dev")) {
			dev = argv[1];
		} else if (is_word(w, "count")) {
			if (parse_u32(argv[1], &count, 1, UINT32_MAX))
				return usage_err("count \"%s\": a number of frames from 1",
						 argv[1]);
		} else if (is_word(w, "duration")) {
			if (parse_u32(argv[1], &duration, 1, 86400))
				return usage_err("duration \"%s\": whole seconds, 1-86400",
						 argv[1]);
		} else if (is_word(w, "size")) {
			if (parse_u32(argv[1], &cfg.size, 1, 65535))
				return usage_err("size \"%s\": bytes on the wire, 64-1518",
						 argv[1]);
			size_given = true;
		} else if (is_word(w, "flows")) {
			if (parse_u32(argv[1], &cfg.flows, 1, 16384))
				return usage_err("flows \"%s\": a number of source ports, 1-16384",
						 argv[1]);
		} else if (is_word(w, "cpu")) {
			if (parse_u32(argv[1], &cpu, 0, CPU_SETSIZE - 1))
				return usage_err("cpu \"%s\": a CPU number", argv[1]);
		} else if (is_word(w, "src")) {
			err = parse_endpoint("src", argv[1], &cfg.have_smac, cfg.smac,
					     &cfg.have_src, &cfg.src, &cfg.ipv6);
			if (err)
				return err;
		} else if (is_word(w, "dst")) {
			err = parse_endpoint("dst", argv[1], &cfg.have_dmac, cfg.dmac,
					     &cfg.have_dst, &cfg.dst, &cfg.ipv6);
			if (err)
				return err;
		} else {
			return usage_err("unknown argument \"%s\"", w);
		}
		argc--;
		argv++;
	}
	if (!dev)
		return usage_err("dev DEV is required");
	if (count && duration)
		return usage_err("count and duration exclude each other");
	if (!count && !duration)
		duration = 10;
	if (cfg.ipv6 && !size_given)
		cfg.size = 66;	/* the smallest UDP/IPv6 frame */
	if (geteuid()) {
		p_err("must be run as root (needs CAP_BPF, CAP_NET_ADMIN)");
		return BPFWD_EXIT_FAIL;
	}
	idx = ifindex_of(dev, NULL);
	if (idx < 0)
		return BPFWD_EXIT_FAIL;
	cfg.ifindex = idx;
	cfg.dev = dev;
	if (cpu != UINT32_MAX) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set)) {
			p_err("cpu %u: %s", cpu, strerror(errno));
			return BPFWD_EXIT_FAIL;
		}
	}
	if (livegen_open(&cfg, &g))
		return BPFWD_EXIT_FAIL;
	if (livegen_dev_counters(g, &tx0, &drop0)) {
		p_err("%s: cannot read its counters", dev);
		goto out;
	}

	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	sigaction(SIGALRM, &sa, &old_alrm);
	gen_stop = 0;
	/* one long BPF_PROG_RUN; a thread prints the rate, a signal (the
	 * alarm for a duration, ^C) ends it
	 */
	rate.g = g;
	rate.dev = dev;
	rate.on = !opts.json;
	if (rate.on && pthread_create(&rate_thread, NULL, rate_fn, &rate))
		rate.on = false;
	t0 = now();
	if (duration)
		alarm(duration);
	err = livegen_run(g, count, &gen_stop);
	alarm(0);
	t1 = now();
	sent = livegen_frames(g);
	if (rate.on) {
		rate.stop = true;
		pthread_join(rate_thread, NULL);
	}
	if (err && err != -EINTR) {
		p_err("%s: BPF_PROG_RUN live frames: %s", dev, strerror(-err));
		goto restore;
	}
	secs = t1 - t0;
	if (livegen_dev_counters(g, &tx1, &drop1)) {
		p_err("%s: cannot read its counters", dev);
		goto restore;
	}
	if (sent && drop1 - drop0 >= sent && tx1 == tx0) {
		livegen_explain_drops(g);
		goto restore;
	}
	mpps = secs > 0 ? sent / secs / 1e6 : 0;
	json_begin();
	open_json_object(NULL);
	print_string(PRINT_ANY, "dev", "gen %s:", dev);
	print_u64(PRINT_ANY, "frames", " %llu frames", sent);
	print_u64(PRINT_ANY, "sent", ", %llu taken by the device",
		  sent > drop1 - drop0 ? sent - (drop1 - drop0) : 0);
	print_u64(PRINT_ANY, "dropped", ", %llu dropped by it,", drop1 - drop0);
	print_double(PRINT_ANY, "seconds", " in %.3f s,", secs);
	print_double(PRINT_ANY, "mpps", " %.3f Mpps", mpps);
	print_double(PRINT_ANY, "gbps", " %.3f Gbit/s", mpps * cfg.size * 8 / 1e3);
	print_nl();
	print_u64(PRINT_ANY, "size", "  size %llu", cfg.size);
	print_u64(PRINT_ANY, "flows", " flows %llu", cfg.flows);
	print_string(PRINT_ANY, "proto", " %s", cfg.ipv6 ? "udp6" : "udp");
	print_addr("src", " src %s", cfg.smac, &cfg.src, cfg.ipv6);
	print_addr("dst", " dst %s", cfg.dmac, &cfg.dst, cfg.ipv6);
	print_bool(PRINT_JSON, "interrupted", NULL, gen_stop == SIGINT ||
		   gen_stop == SIGTERM);
	print_nl();
	close_json_object();
	json_end();
	ret = BPFWD_EXIT_OK;
restore:
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGALRM, &old_alrm, NULL);
out:
	livegen_close(g);
	return ret;
}
