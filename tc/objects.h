/* SPDX-License-Identifier: GPL-2.0-only */
/* Copyright (c) 2026 The bpfwd authors
 *
 * Entry points of the objects (one file each) and the shared main.
 */
#ifndef __BPFWD_OBJECTS_H
#define __BPFWD_OBJECTS_H

int bpfwd_main(int argc, char **argv);	/* argv[0] is the program */

int do_port(int argc, char **argv);
int do_route(int argc, char **argv);
int do_stats(int argc, char **argv);
int do_probe(int argc, char **argv);
int do_gen(int argc, char **argv);
int do_bench(int argc, char **argv);
int do_monitor(int argc, char **argv);
int do_bridge(int argc, char **argv);
int do_daemon(int argc, char **argv);
int do_apply(int argc, char **argv);

int port_help(int argc, char **argv);
int route_help(int argc, char **argv);
int stats_help(int argc, char **argv);
int probe_help(int argc, char **argv);
int gen_help(int argc, char **argv);
int bench_help(int argc, char **argv);
int monitor_help(int argc, char **argv);
int bridge_help(int argc, char **argv);
int daemon_help(int argc, char **argv);
int apply_help(int argc, char **argv);

#endif /* __BPFWD_OBJECTS_H */
