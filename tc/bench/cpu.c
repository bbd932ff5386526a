// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * bpfwd bench's CPU accounting: how much CPU the rest of the machine
 * took during a window (noise), and how much CPU time the dut's own
 * threads spent (its cost per packet, whatever else runs).
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"

/* CPU time (clock ticks) of every task but ours, per pid: the bench
 * itself, gen and the NAPI kthreads are left out, everything else
 * running on the machine is noise.  (PSI's cpu "some" would count the
 * two NAPI threads sharing the dut's CPU as pressure.)
 */
static bool is_ours(struct bench *b, pid_t gen, pid_t pid)
{
	bool ours = pid == getpid() || pid == gen;
	int i;

	for (i = 0; i < b->nnapi; i++)
		ours |= pid == b->napi[i];
	for (i = 0; i < b->nkth; i++)
		ours |= pid == b->kth[i];
	return ours || (b->loop && pid == b->ksoftirqd);
}

/* utime + stime of /proc/@pid/stat, in ticks, or false. */
static bool task_ticks(const char *pid, uint64_t *t)
{
	unsigned long long ut, st;
	char path[300], buf[1024], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%s/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	/* after "(comm)": state is field 3, utime 14, stime 15 */
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu",
			 &ut, &st) != 2)
		return false;
	*t = ut + st;
	return true;
}

void others_ticks(struct bench *b, pid_t gen, struct ticks *tk)
{
	struct dirent *de;
	DIR *d = opendir("/proc");

	tk->n = 0;
	if (!d)
		return;
	while ((de = readdir(d)) && tk->n < MAX_TASKS) {
		pid_t pid;

		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		pid = atoi(de->d_name);
		if (is_ours(b, gen, pid) || !task_ticks(de->d_name, &tk->t[tk->n]))
			continue;
		tk->pid[tk->n++] = pid;
	}
	closedir(d);
}

/* Ticks used between two snapshots (tasks that started in between count
 * whole, tasks that ended are lost: a lower bound).
 */
uint64_t ticks_between(const struct ticks *a, const struct ticks *z)
{
	uint64_t sum = 0;
	int i, j = 0;

	/* both in /proc order (ascending pids) */
	for (i = 0; i < z->n; i++) {
		while (j < a->n && a->pid[j] < z->pid[i])
			j++;
		if (j < a->n && a->pid[j] == z->pid[i])
			sum += z->t[i] > a->t[j] ? z->t[i] - a->t[j] : 0;
		else
			sum += z->t[i];
	}
	return sum;
}

/* Run time (ns) of task @pid so far, or -1. */
static int64_t task_runtime_ns(pid_t pid)
{
	char path[64], buf[128];
	unsigned long long ns;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/schedstat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return sscanf(buf, "%llu", &ns) == 1 ? (int64_t)ns : -1;
}

static int64_t runtime_sum(const pid_t *pids, int n)
{
	int64_t sum = 0, t;
	int i;

	for (i = 0; i < n; i++) {
		t = task_runtime_ns(pids[i]);
		if (t < 0)
			return -1;
		sum += t;
	}
	return sum;
}

/* CPU time (ns) the dut's own threads have run: the NAPI kthread of its
 * ingress, where all of a row's forwarding work runs with threaded
 * NAPI, and a cpumap row's kthreads.  A thread's run time does not grow
 * while another task has the CPU, so per packet it is the dut's cost
 * whatever else the machine does: the measure for costs of a few
 * percent, which the rates of a shared 2-CPU box cannot resolve.  With
 * the sink inline (the default) its work runs in that thread too.  In
 * an xdp-loop row the "dut" is gen's CPU: gen itself (@gen) and that
 * CPU's ksoftirqd, where the drops run.  -1 without threaded NAPI.
 */
int64_t dut_cpu_ns(struct bench *b, pid_t gen)
{
	pid_t loop[2] = { gen, b->ksoftirqd };
	int64_t napi, kth;

	if (b->loop)
		return runtime_sum(loop, b->ksoftirqd ? 2 : 1);
	if (!b->napi_threaded || !b->ndut_napi)
		return -1;
	napi = runtime_sum(b->napi, b->ndut_napi);
	kth = runtime_sum(b->kth, b->nkth);
	return napi < 0 || kth < 0 ? -1 : napi + kth;
}

double loadavg1(void)
{
	double l = 0;
	FILE *f = fopen("/proc/loadavg", "r");

	if (f) {
		if (fscanf(f, "%lf", &l) != 1)
			l = 0;
		fclose(f);
	}
	return l;
}
