// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * Namespace plumbing for the benchmark: setns() in place or in a child,
 * commands with captured stderr, sysfs writes seen from the right
 * namespace and kthread lookups.  Children exit with _exit() so that
 * nothing of the parent (atexit, stdio buffers) runs twice.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/wait.h>

#include "nsrun.h"

static int home_fd = -1;

int ns_open(const char *name)
{
	char path[256];
	int fd;

	if (name)
		snprintf(path, sizeof(path), "/run/netns/%s", name);
	else
		snprintf(path, sizeof(path), "/proc/self/ns/net");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

int ns_enter(int fd)
{
	if (home_fd < 0) {
		home_fd = ns_open(NULL);
		if (home_fd < 0)
			return home_fd;
	}
	return setns(fd, CLONE_NEWNET) ? -errno : 0;
}

int ns_leave(void)
{
	if (home_fd < 0)
		return 0;
	return setns(home_fd, CLONE_NEWNET) ? -errno : 0;
}

/* Keeps the last non-empty line of what the child said. */
static void last_line(char *buf, size_t len)
{
	char *end = buf + strlen(buf), *start;

	while (end > buf && (end[-1] == '\n' || end[-1] == ' '))
		*--end = '\0';
	start = strrchr(buf, '\n');
	if (start)
		memmove(buf, start + 1, strlen(start + 1) + 1);
	(void)len;
}

int ns_call(int fd, int (*fn)(void *), void *arg, char *err, size_t errlen)
{
	int pfd[2], status;
	size_t got = 0;
	ssize_t n;
	pid_t pid;

	if (err && errlen)
		err[0] = '\0';
	if (pipe2(pfd, O_CLOEXEC))
		return -errno;
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		close(pfd[0]);
		close(pfd[1]);
		return -errno;
	}
	if (!pid) {
		/* the parent handles ^C and tears down */
		signal(SIGINT, SIG_IGN);
		close(pfd[0]);
		dup2(pfd[1], STDERR_FILENO);
		if (fd >= 0 && setns(fd, CLONE_NEWNET)) {
			fprintf(stderr, "setns: %s\n", strerror(errno));
			_exit(126);
		}
		_exit(fn(arg) & 0xff);
	}
	close(pfd[1]);
	while (err && got + 1 < errlen &&
	       (n = read(pfd[0], err + got, errlen - got - 1)) > 0)
		got += n;
	if (err && errlen) {
		err[got] = '\0';
		last_line(err, errlen);
	}
	close(pfd[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

static int exec_fn(void *arg)
{
	char *const *argv = arg;
	int null = open("/dev/null", O_WRONLY);

	if (null >= 0)
		dup2(null, STDOUT_FILENO);
	execvp(argv[0], argv);
	fprintf(stderr, "%s: %s\n", argv[0], strerror(errno));
	return 127;
}

int ns_exec(int fd, char *const argv[], char *err, size_t errlen)
{
	return ns_call(fd, exec_fn, (void *)argv, err, errlen);
}

struct sysfs_arg {
	const char *dev, *attr, *val;
};

static int sysfs_fn(void *arg)
{
	struct sysfs_arg *a = arg;
	char path[256];
	FILE *f;

	/* sysfs shows the namespace of whoever mounts it */
	if (unshare(CLONE_NEWNS) ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	    mount("sysfs", "/sys", "sysfs", 0, NULL)) {
		fprintf(stderr, "sysfs in a private mount namespace: %s\n",
			strerror(errno));
		return 1;
	}
	snprintf(path, sizeof(path), "/sys/class/net/%s/%s", a->dev, a->attr);
	f = fopen(path, "w");
	if (!f || fputs(a->val, f) < 0 || fclose(f)) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return 1;
	}
	return 0;
}

int ns_sysfs_write(int fd, const char *dev, const char *attr, const char *val)
{
	struct sysfs_arg a = { dev, attr, val };

	return ns_call(fd, sysfs_fn, &a, NULL, 0);
}

int kthreads_find(const char *prefix, pid_t *pids, int max)
{
	size_t plen = strlen(prefix);
	struct dirent *de;
	int n = 0;
	DIR *d;

	d = opendir("/proc");
	if (!d)
		return -errno;
	while ((de = readdir(d)) && n < max) {
		char path[300], comm[64] = "";
		FILE *f;

		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f) && !strncmp(comm, prefix, plen))
			pids[n++] = atoi(de->d_name);
		fclose(f);
	}
	closedir(d);
	return n;
}
