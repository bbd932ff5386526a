/* SPDX-License-Identifier: GPL-2.0-only */
/* Copyright (c) 2026 The bpfwd authors
 *
 * bpfwd bench, shared between its files:
 *
 *   methods.c   the rows: the one table that names every method
 *   m_kernel.c  rows the kernel forwards alone (bridge, mirred)
 *   m_port.c    rows bpfwd port sets up (tc, tcx, act, xdp, cpumap)
 *   m_prog.c    rows of bench's own programs (benchsink.o: the fixed
 *               redirects, the limits, xdp-loop) and the sink's counter
 *   m_mon.c     rows with bpfwd monitor running
 *   m_tcp.c     TCP rows (iperf3) and latency rows (ping) through a
 *               row set up both ways
 *   m_scale.c   scale rows: dummy entries in the ports table
 *   m_peer.c    peer rows: xdp-tools' xdp-bench and xdp-forward
 *   m_bridge.c  bridge topology rows: bpfwd bridge with bpfwd daemon
 *   m_route.c   router topology rows: bpfwd route, xdp-forward
 *   topo.c      the namespaces and devices gen -- dut -- sink
 *   topo_bridge.c  topology bridge: N ports, M stations in the fdb
 *   topo_router.c  topology router: two subnets, R routes
 *   cpu.c       CPU accounting: others' ticks, the dut's run time
 *   measure.c   the generator child and one measured window per row
 *   rounds.c    medians and spreads over the rounds
 *   report.c    text, JSON and save
 *   plot.c      the plots, one per table
 *   cli.c       the command line and the command
 *
 * How it measures is in cli.c's head comment.
 */
#ifndef __BPFWD_BENCH_H
#define __BPFWD_BENCH_H

#include <net/if.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "lib/mon_probes.h"

#define MAX_METHODS	64
#define MAX_ROUNDS	100
#define ERRLEN		512

/* Where the pieces are.  Namespace mode: ns[] are ours, removed at the
 * end; device mode: all the caller's namespace.
 */
enum { NS_GEN, NS_DUT, NS_SINK, NS_N };

/* What a row measures: frames per second (pps rows), TCP throughput
 * (iperf3), or round-trip times (ping) with gen idle or sending.
 */
enum bench_kind { KIND_PPS, KIND_TCP, KIND_RTT, KIND_RTT_LOAD, KIND_N };
extern const char *const bench_kind_names[];

struct sample {
	/* delivered Mpps (or dropped, for drop rows); tcp rows: Gbit/s
	 * received; rtt rows: the median round trip in us
	 */
	double mpps;
	double retrans;		/* tcp rows: retransmitted segments */
	double rtt_min, rtt_p99, loss_pct;	/* rtt rows */
	double load_mpps;	/* rtt-load rows: Mpps gen's frames reached the sink */
	double gen_mpps;	/* offered by gen over the whole run */
	double others;		/* CPU others used in the window, % of one */
	double dut_ns;		/* the dut's CPU time per packet, or NAN */
	bool noisy;
	bool bpf_stats;		/* BPF statistics were on in the window */
	bool done;
};

struct bench;
struct benchsink;
struct livegen_cfg;

/* The topologies (topology keyword): the cross-connect gen -- dut --
 * sink (topo.c, the default), and topo_bridge.c's and topo_router.c's
 * built on it.  Each row belongs to one (method.topo).
 */
enum bench_topo { TOPO_CROSS, TOPO_BRIDGE, TOPO_ROUTER, TOPO_N };
struct topology {
	const char *name;
	const char *ref;	/* the row every row is compared with */
	const char *ref_short;	/* its column: "x bridge" */
	/* after topo_build(), after the sink's counter, gen's frames */
	int (*build)(struct bench *b);
	int (*counted)(struct bench *b);
	void (*gen)(struct bench *b, struct livegen_cfg *c);
};
extern const struct topology bench_topos[TOPO_N];

/* Which monitor a row runs while it is measured. */
enum bench_mon { MON_OFF, MON_ERRORS, MON_ALL, MON_NOBULK };
extern const char *const bench_mon_names[];

/* The limit row a row is compared with. */
enum bench_limit { LIMIT_NONE, LIMIT_TC, LIMIT_XDP };
extern const char *const bench_limit_names[];

/* What bpfwd port a port row adds: port add dev IN to OUT [ mode M ]
 * hook H [ cpus C ] [ then T ], C picked at setup (cpumap).
 */
struct port_spec {
	const char *mode;
	const char *hook;
	bool cpumap;
	const char *then;
};

/* One row: see methods.c. */
struct method {
	const char *name;
	const char *desc;
	const char *(*skip)(struct bench *b, const struct method *m);
	int (*setup)(struct bench *b, const struct method *m);
	void (*teardown)(struct bench *b, const struct method *m);
	struct port_spec port;		/* port rows */
	enum bench_limit limit;
	bool br_nf;			/* bridge rows: bridge-nf-call-* on */
	bool loop;			/* xdp-loop: no dut, all on gen's CPU */
	enum bench_mon mon;		/* monitor rows: which monitor */
	const struct method *off;	/* monitor rows: the row without it */
	enum bench_topo topo;		/* the topology it runs in */
	const char *hook;		/* bridge and route rows: bpfwd's hook */
	enum bench_kind kind;
	/* tcp and rtt rows: the pps row they set up (both ways), and the
	 * row of their kind they are compared with (the bridge's)
	 */
	const struct method *of;
	const struct method *ref;
	bool csum_off;		/* tcp rows: tx checksum offload off at gen and sink */
	uint32_t entries;	/* scale rows: entries in the ports table */
	uint32_t flows;		/* scale rows: gen's flows (0: the default) */
	const char *peer;	/* peer rows: the command (xdp-bench ...) */
	/* peer rows: the command that takes IN OUT off again, for a peer
	 * that loads and exits (xdp-forward unload); NULL: it runs until
	 * SIGINT
	 */
	const char *peer_unload;
	bool peer_router;	/* peer rows, cross: make the dut route to the sink */
};

struct row {
	const struct method *m;
	const char *skipped;	/* reason */
	char failed[ERRLEN];	/* setup or measurement failed: reason */
	struct sample s[MAX_ROUNDS];
};

struct bench {
	bool own_ns;
	char ns_name[NS_N][64];
	int ns[NS_N];
	char gen_dev[IF_NAMESIZE], in_dev[IF_NAMESIZE];
	char out_dev[IF_NAMESIZE], sink_dev[IF_NAMESIZE];
	uint8_t sink_mac[6];
	uint32_t rounds, duration, size, noise_pct;
	int gen_cpu, dut_cpu, sink_cpu;
	bool count_xdp;		/* count at the sink with XDP, not tc */
	bool sink_thread;	/* the sink's NAPI in a kthread of its own */
	bool live;		/* stderr is a terminal: rate while measuring */
	uint32_t cur_round;
	const char *cur_name;
	const char *plot;
	const char *save;	/* the JSON document also goes there */
	struct benchsink *sink_cnt;	/* counter on the sink port */
	struct benchsink *dut_prog;	/* program a method loaded on the dut */
	struct benchsink *dut_prog_rev;	/* its twin OUT -> IN (tcp, rtt rows) */
	struct benchsink *sink_gen;	/* an rtt row's sink counter */
	int count_fd;		/* counter map this row reads */
	bool napi_threaded;
	pid_t napi[16];		/* NAPI kthreads working for us */
	int nnapi;
	int ndut_napi;		/* napi[0..ndut_napi): the dut's ingress */
	pid_t kth[8];		/* a cpumap row's kthreads (the dut's too) */
	int nkth;
	char br_nf[3];		/* the dut's bridge-nf-call-* before a bridge row */
	bool loop;		/* an xdp-loop row: all of it on gen's CPU */
	pid_t ksoftirqd;	/* gen CPU's, ours in a loop row */
	char err[ERRLEN];
	struct row rows[MAX_METHODS];
	int nrows;
	uint64_t cookie;	/* dut netns cookie, for leftover pins */
	struct mon mon;		/* a monitor row's monitor, while it runs */
	/* the topology, and what topo_bridge.c and topo_router.c keep */
	const struct topology *topo;
	struct {
		uint32_t ports, stations, routes;
		uint32_t dsts;	/* router: gen's destination addresses */
		int nsinks;	/* sink ports besides out_dev/sink_dev */
		char out[16][IF_NAMESIZE], sink[16][IF_NAMESIZE];
		uint8_t gen_mac[6], dut_mac[6];
		pid_t daemon;	/* bpfwd daemon while a bridge row runs */
		bool fast_on;	/* a row's bridge or route add went in */
	} tp;
	uint32_t flows;		/* gen's flows for the row being measured */
	uint8_t gen_mac[6];
	bool two_way;		/* the sink knows gen's MAC (tcp, rtt rows) */
	pid_t peer_pid;		/* a peer row's forwarder, while it runs */
};

/* methods.c */
extern const struct method *const bench_methods[];
extern const size_t bench_nmethods;
const struct method *method_find(const char *name);
/* A skip reason of row @m, kept for the run (one per row). */
const char *method_reason(const struct method *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The row a row is: itself, or a monitor row's off row. */
const struct method *method_base(const struct method *m);

/* m_kernel.c */
const char *need_br_nf(struct bench *b, const struct method *m);
int bridge_setup(struct bench *b, const struct method *m);
void bridge_teardown(struct bench *b, const struct method *m);
int mirred_setup(struct bench *b, const struct method *m);
void mirred_teardown(struct bench *b, const struct method *m);

/* m_port.c */
const char *need_tcx(struct bench *b, const struct method *m);
const char *need_act_bpf(struct bench *b, const struct method *m);
int port_setup(struct bench *b, const struct method *m);
void port_teardown(struct bench *b, const struct method *m);

/* m_prog.c */
int fixed_setup(struct bench *b, const struct method *m);
int tc_drop_setup(struct bench *b, const struct method *m);
void tc_prog_teardown(struct bench *b, const struct method *m);
int xdp_fixed_setup(struct bench *b, const struct method *m);
int xdp_map_fixed_setup(struct bench *b, const struct method *m);
int xdp_drop_setup(struct bench *b, const struct method *m);
void xdp_prog_teardown(struct bench *b, const struct method *m);
const char *need_loop(struct bench *b, const struct method *m);
int loop_setup(struct bench *b, const struct method *m);
void loop_teardown(struct bench *b, const struct method *m);
/* The sink's counter (count tc or xdp) on the sink port, and its fd. */
int sink_counter_add(struct bench *b);
void sink_counter_del(struct bench *b);
int sink_counter_fd(struct bench *b);
enum sink_swap { SINK_NONE, SINK_GEN, SINK_BACK };
int sink_counter_swap(struct bench *b, enum sink_swap how);

/* m_tcp.c */
const char *need_two_way(struct bench *b, const struct method *m);
int two_way_setup(struct bench *b, const struct method *m);
void two_way_teardown(struct bench *b, const struct method *m);
int measure_tcp(struct bench *b, struct sample *s);
int measure_rtt(struct bench *b, struct sample *s, bool load);

/* m_scale.c */
const char *need_entries(struct bench *b, const struct method *m);
int scale_setup(struct bench *b, const struct method *m);
void scale_teardown(struct bench *b, const struct method *m);

/* m_peer.c */
const char *need_peer(struct bench *b, const struct method *m);
int peer_setup(struct bench *b, const struct method *m);
void peer_teardown(struct bench *b, const struct method *m);

/* m_bridge.c */
int br_fast_setup(struct bench *b, const struct method *m);
void br_fast_teardown(struct bench *b, const struct method *m);

/* m_route.c */
int route_setup(struct bench *b, const struct method *m);
void route_teardown(struct bench *b, const struct method *m);

/* topo_bridge.c, topo_router.c */
#define BENCH_BR	"bwbr0"		/* the bridge topology's bridge */
#define BENCH_SELF	"/proc/self/exe"	/* bpfwd, to run its commands */
#define TOPO_PORTS_MAX	17
#define TOPO_STATIONS_MAX 120000	/* the fast path's fdb holds 131072 */
#define TOPO_ROUTES_MAX	500000
int topo_mac_of(struct bench *b, int ns, const char *dev, uint8_t *mac);
/* @tool (ip, bridge) -batch in the dut of the lines @fill writes */
int topo_batch(struct bench *b, const char *tool,
	       void (*fill)(struct bench *b, FILE *f));
int topo_bridge_build(struct bench *b);
int topo_bridge_counted(struct bench *b);
void topo_bridge_gen(struct bench *b, struct livegen_cfg *c);
int topo_router_build(struct bench *b);
void topo_router_gen(struct bench *b, struct livegen_cfg *c);
/* the reference rows (br-linux, kernel-forward): the topology as it is */
int topo_noop(struct bench *b, const struct method *m);
void topo_noop_down(struct bench *b, const struct method *m);

/* m_mon.c */
const char *need_mon(struct bench *b, const struct method *m);
int mon_setup(struct bench *b, const struct method *m);
void mon_teardown(struct bench *b, const struct method *m);

/* topo.c */
int bench_run_cmd(struct bench *b, int ns, char *const argv[]);
#define RUN(b, ns, ...) \
	bench_run_cmd(b, ns, (char *const[]){ __VA_ARGS__, NULL })
/* Runs @argv in @ns, its stdout (and with @err_too its stderr) into
 * @out (NUL-terminated); returns its exit status, or -errno.
 */
int bench_capture(struct bench *b, int ns, char *const argv[], bool err_too,
		  char *out, size_t outlen);
/* Starts @argv in @ns, stdout and stderr into @out_fd (-1: /dev/null):
 * its pid, or -errno.
 */
pid_t bench_spawn(struct bench *b, int ns, char *const argv[], int out_fd);
/* Stops what bench_spawn() started: @sig, then SIGKILL after 2 s. */
int bench_reap(pid_t pid, int sig);
int topo_build(struct bench *b);
int topo_devices(struct bench *b, char **dev);
void topo_destroy(struct bench *b);
void napi_pin(struct bench *b);
/* Threaded NAPI (on) or the kernel's default (off) where the bench set it. */
int napi_thread_set(struct bench *b, bool on);

/* cpu.c */
#define MAX_TASKS 4096
struct ticks {
	int n;
	pid_t pid[MAX_TASKS];
	uint64_t t[MAX_TASKS];
};
void others_ticks(struct bench *b, pid_t gen, struct ticks *tk);
uint64_t ticks_between(const struct ticks *a, const struct ticks *z);
int64_t dut_cpu_ns(struct bench *b, pid_t gen);
double loadavg1(void);

/* measure.c */
int bench_run(struct bench *b);
uint64_t count_read(int fd);
/* gen in a child, sending until gen_stop(); its frames and seconds */
int gen_start(struct bench *b, pid_t *pid, int *result_fd);
void gen_stop(pid_t pid, int result_fd, double res[2]);

/* rounds.c */
struct stat3 {
	double med, min, max;
	int n;
};

/* What row_vs compares: see rounds.c. */
enum vs { VS_RATIO, VS_NS, VS_GEN, VS_CPU_NS, VS_CPU_COST, VS_CPU_RATIO };

struct stat3 stats_of(double *v, int n);
struct row *row_named(struct bench *b, const char *name);
/* The row @r is compared with: the bridge (pps rows), or the bridge's
 * row of its kind.
 */
struct row *row_ref(struct bench *b, struct row *r);
struct stat3 row_samples(struct bench *b, struct row *r, bool cpu,
			 int *discarded);
struct stat3 row_field(struct bench *b, struct row *r, size_t off);
bool vs_round(struct sample *s, struct sample *q, enum vs what, double *v);
struct stat3 row_vs(struct bench *b, struct row *r, struct row *ref,
		    enum vs what);

/* report.c */
void print_doc(struct bench *b, double load0, double load1);
int save_doc(struct bench *b, double load0, double load1);
int print_list(const struct topology *t);

/* plot.c */
int plot(struct bench *b);

#endif /* __BPFWD_BENCH_H */
