// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * bpfwd bench's measuring: gen in a child of its own, pinned to gen's
 * CPU in the gen namespace, and one window per row and round, counted
 * by the row's counter, with the CPU others and the dut took.  Rows are
 * interleaved: each round starts one row further down the list.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/wait.h>
#include <bpf/bpf.h>

#include "bench.h"
#include "lib/livegen.h"
#include "lib/ports.h"
#include "lib/util.h"
#include "benchsink.skel.h"

#define WARMUP_S	0.3

uint64_t count_read(int fd)
{
	int n = nr_cpus(), i;
	uint64_t v[n > 0 ? n : 1], sum = 0;
	uint32_t key = 0;

	if (bpf_map_lookup_elem(fd, &key, v))
		return 0;
	for (i = 0; i < n; i++)
		sum += v[i];
	return sum;
}

/* The generator: in the gen namespace, on gen's CPU, until SIGTERM.
 * Writes "ready" (one byte) to @ready_fd, then frames and seconds to
 * @result_fd at the end.  ^C is the parent's to handle.
 */
static int gen_child(struct bench *b, int ready_fd, int result_fd)
{
	struct livegen_cfg cfg = {
		.size = b->size, .flows = b->flows ? b->flows : LIVEGEN_FLOWS_DEF,
		.have_dmac = true, .have_src = true, .have_dst = true,
	};
	struct signals_saved sigs;
	struct livegen *g;
	double t0, res[2];
	cpu_set_t set;
	int idx, err;

	opts.json = false;
	signals_catch(&sigs, false);
	signal(SIGINT, SIG_IGN);
	if (b->gen_cpu >= 0) {
		CPU_ZERO(&set);
		CPU_SET(b->gen_cpu, &set);
		sched_setaffinity(0, sizeof(set), &set);
	}
	memcpy(cfg.dmac, b->sink_mac, 6);
	inet_pton(AF_INET, "192.0.2.1", &cfg.src);
	inet_pton(AF_INET, "192.0.2.2", &cfg.dst);
	if (b->topo->gen)
		b->topo->gen(b, &cfg);
	idx = if_nametoindex(b->gen_dev);
	if (!idx) {
		fprintf(stderr, "gen %s: no such device\n", b->gen_dev);
		return 1;
	}
	cfg.ifindex = idx;
	cfg.dev = b->gen_dev;
	if (livegen_open(&cfg, &g))
		return 1;
	if (write(ready_fd, "r", 1) != 1)
		return 1;
	t0 = now();
	err = livegen_run(g, 0, &stop_signal);
	if (err && err != -EINTR) {
		fprintf(stderr, "gen %s: live frames: %s\n", b->gen_dev,
			strerror(-err));
		return 1;
	}
	res[0] = livegen_frames(g);
	res[1] = now() - t0;
	livegen_close(g);
	return write(result_fd, res, sizeof(res)) == sizeof(res) ? 0 : 1;
}

/* Starts gen in a child; 0 once it is sending, with its pid and the
 * pipe its result comes on.
 */
int gen_start(struct bench *b, pid_t *pid, int *result_fd)
{
	int ready[2], result[2], status, err;
	char ch;

	if (pipe2(ready, O_CLOEXEC))
		return -errno;
	if (pipe2(result, O_CLOEXEC)) {
		close(ready[0]);
		close(ready[1]);
		return -errno;
	}
	fflush(stdout);
	fflush(stderr);
	*pid = fork();
	if (*pid < 0) {
		err = -errno;
		close(ready[0]);
		close(ready[1]);
		close(result[0]);
		close(result[1]);
		return err;
	}
	if (!*pid) {
		close(ready[0]);
		close(result[0]);
		if (setns(b->ns[NS_GEN], CLONE_NEWNET))
			_exit(126);
		_exit(gen_child(b, ready[1], result[1]));
	}
	close(ready[1]);
	close(result[1]);
	*result_fd = result[0];
	if (read(ready[0], &ch, 1) != 1) {
		snprintf(b->err, sizeof(b->err), "gen did not start (see above)");
		waitpid(*pid, &status, 0);
		close(ready[0]);
		close(result[0]);
		return -EIO;
	}
	close(ready[0]);
	return 0;
}

/* Stops gen; its frames and seconds in @res (0 when it said nothing). */
void gen_stop(pid_t pid, int result_fd, double res[2])
{
	int status;

	kill(pid, SIGTERM);
	if (read(result_fd, res, 2 * sizeof(*res)) != 2 * sizeof(*res))
		res[0] = res[1] = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	close(result_fd);
}

/* The runs the kernel counted of the bench's own programs (the
 * sink's counter, the dut's program of a limit row): they grow only
 * while BPF statistics are on (kernel.bpf_stats_enabled, or another
 * process holding a BPF_ENABLE_STATS fd, which that sysctl does not
 * show).  Then every program run reads the clock twice, which on this
 * VM's kvm clock added about 200 ns to an XDP row's frame (two programs
 * a frame: the dut's and the sink's counter).
 */
static uint64_t stats_runs(struct bench *b)
{
	struct benchsink *objs[] = { b->sink_cnt, b->dut_prog };
	struct bpf_prog_info info;
	struct bpf_program *p;
	uint32_t len;
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(objs); i++) {
		if (!objs[i])
			continue;
		bpf_object__for_each_program(p, objs[i]->obj) {
			memset(&info, 0, sizeof(info));
			len = sizeof(info);
			if (bpf_program__fd(p) >= 0 &&
			    !bpf_obj_get_info_by_fd(bpf_program__fd(p), &info, &len))
				n += info.run_cnt;
		}
	}
	return n;
}

/* What one window saw, from its start and its end. */
struct window {
	uint64_t c0, c1;		/* the row's counter */
	uint64_t r0, r1;		/* stats_runs() */
	int64_t d0, d1;			/* dut_cpu_ns() */
	double t0, t1;
	struct ticks tk0, tk1;		/* others_ticks() */
};

/* The measured window: b->duration seconds of the row's counter (on a
 * terminal, the rate so far twice a second, overwritten by progress()).
 */
static void window(struct bench *b, pid_t gen, struct window *w)
{
	int fd = b->count_fd, ticks;

	w->c0 = count_read(fd);
	w->r0 = stats_runs(b);
	w->d0 = dut_cpu_ns(b, gen);
	others_ticks(b, gen, &w->tk0);
	w->t0 = now();
	for (ticks = 1; !stop_signal && now() - w->t0 < b->duration; ticks++) {
		usleep(20000);
		if (b->live && !(ticks % 25))
			fprintf(stderr, "\rbench: round %u/%u %-19s %6.3f Mpps so far ",
				b->cur_round + 1, b->rounds, b->cur_name,
				(count_read(fd) - w->c0) / (now() - w->t0) / 1e6);
	}
	if (b->live)
		fputs("\r\033[K", stderr);
	w->c1 = count_read(fd);
	w->r1 = stats_runs(b);
	w->d1 = dut_cpu_ns(b, gen);
	others_ticks(b, gen, &w->tk1);
	w->t1 = now();
}

static int measure(struct bench *b, struct sample *s)
{
	static struct window w;
	double res[2] = { 0, 0 }, secs;
	uint64_t n;
	int err, result_fd = -1;
	pid_t pid = 0;

	err = gen_start(b, &pid, &result_fd);
	if (err)
		return err;
	napi_pin(b);
	usleep(WARMUP_S * 1e6);
	window(b, pid, &w);
	gen_stop(pid, result_fd, res);
	if (stop_signal)
		return -EINTR;
	n = w.c1 - w.c0;
	secs = w.t1 - w.t0;
	s->mpps = n / secs / 1e6;
	s->gen_mpps = res[1] > 0 ? res[0] / res[1] / 1e6 : 0;
	s->others = ticks_between(&w.tk0, &w.tk1) * 100.0 /
		    sysconf(_SC_CLK_TCK) / secs;
	/* BPF statistics on in the window: its CPU time is not the row's */
	s->bpf_stats = w.r1 > w.r0;
	s->noisy = (b->noise_pct && s->others > b->noise_pct) || s->bpf_stats;
	s->dut_ns = w.d0 >= 0 && w.d1 >= w.d0 && n ?
		    (double)(w.d1 - w.d0) / n : NAN;
	s->done = true;
	if (!n) {
		snprintf(b->err, sizeof(b->err), "nothing was counted in %u s",
			 b->duration);
		return -EIO;
	}
	return 0;
}

static int run_row(struct bench *b, struct row *r, uint32_t round)
{
	const struct method *m = r->m;
	int err;

	b->err[0] = '\0';
	b->cur_round = round;
	b->cur_name = m->name;
	b->nkth = 0;
	b->count_fd = sink_counter_fd(b);
	b->flows = m->flows;
	err = m->setup(b, m);
	if (!err && m->kind == KIND_TCP)
		err = measure_tcp(b, &r->s[round]);
	else if (!err && m->kind != KIND_PPS)
		err = measure_rtt(b, &r->s[round], m->kind == KIND_RTT_LOAD);
	else if (!err)
		err = measure(b, &r->s[round]);
	if (err && err != -EINTR && !r->failed[0])
		snprintf(r->failed, sizeof(r->failed), "%s",
			 b->err[0] ? b->err : strerror(-err));
	m->teardown(b, m);
	return err == -EINTR ? err : 0;
}

/* A tcp or rtt row's line of progress. */
static void progress_other(struct bench *b, struct row *r, struct sample *s,
			   struct sample *q)
{
	if (r->m->kind == KIND_TCP)
		fprintf(stderr, " %6.2f Gbit/s, %.0f retransmits", s->mpps,
			s->retrans);
	else
		fprintf(stderr, " rtt min %.0f median %.0f p99 %.0f us, %.1f%% lost",
			s->rtt_min, s->mpps, s->rtt_p99, s->loss_pct);
	if (r->m->kind == KIND_RTT_LOAD)
		fprintf(stderr, ", %.2f Mpps forwarded (gen %.2f)", s->load_mpps,
			s->gen_mpps);
	if (q && q != s && q->done && q->mpps > 0)
		fprintf(stderr, "  %.2fx %s", s->mpps / q->mpps, r->m->ref->name);
	fputc('\n', stderr);
}

static void progress(struct bench *b, uint32_t round, struct row *r,
		     struct sample *s)
{
	struct row *bridge = row_ref(b, r);

	if (r->skipped)
		return;
	if (r->failed[0] && !s->done) {
		fprintf(stderr, "bench: round %u/%u %-19s failed: %s\n", round + 1,
			b->rounds, r->m->name, r->failed);
		return;
	}
	fprintf(stderr, "bench: round %u/%u %-19s", round + 1, b->rounds,
		r->m->name);
	if (r->m->kind != KIND_PPS) {
		progress_other(b, r, s, bridge ? &bridge->s[round] : NULL);
		return;
	}
	fprintf(stderr, " %6.3f Mpps", s->mpps);
	if (bridge && bridge != r && !method_base(r->m)->loop &&
	    bridge->s[round].done)
		fprintf(stderr, "  %.2fx %s", s->mpps / bridge->s[round].mpps,
			b->topo->ref_short);
	fprintf(stderr, "  (gen %.2f Mpps, others %.0f%% CPU%s%s)\n", s->gen_mpps,
		s->others, s->noisy ? ", noisy" : "",
		s->bpf_stats ? ": BPF stats on" : "");
}

/* Why row @r cannot run here, or NULL. */
static const char *row_skip(struct bench *b, const struct row *r)
{
	const struct method *m = r->m, *off = m->off;
	const char *why = m->skip ? m->skip(b, m) : NULL;

	if (why || !off)
		return why;
	/* a monitor row cannot run where its off row cannot */
	if (off->skip && (why = off->skip(b, off)))
		return why;
	/* the XDP counter drops the skbs of the skb paths: every one a
	 * kfree_skb, which the monitor's tc signal probes; a healthy
	 * network delivers them (count tc consumes them)
	 */
	if (b->count_xdp && off->limit == LIMIT_TC)
		return "an skb path's monitor cost needs a sink that consumes, not drops: run it with count tc";
	return NULL;
}

int bench_run(struct bench *b)
{
	uint32_t k;
	int i, j;

	for (i = 0; i < b->nrows; i++)
		b->rows[i].skipped = row_skip(b, &b->rows[i]);
	for (k = 0; k < b->rounds && !stop_signal; k++) {
		/* interleave: each round starts one row further, the bridge
		 * included
		 */
		for (j = 0; j < b->nrows && !stop_signal; j++) {
			struct row *r = &b->rows[(j + k) % b->nrows];

			if (r->skipped)
				continue;
			if (run_row(b, r, k) == -EINTR)
				break;
			progress(b, k, r, &r->s[k]);
		}
	}
	return stop_signal ? -EINTR : 0;
}
