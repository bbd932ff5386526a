/* SPDX-License-Identifier: GPL-2.0-only */
/* Copyright (c) 2026 The bpfwd authors
 *
 * Running things in other network namespaces from one process, the way
 * the benchmark drives its gen / dut / sink namespaces: by setns() on
 * /run/netns fds (never a /sys remount of the caller), in a child for
 * commands (their stderr captured for the report) or in place for
 * netlink and BPF calls.  Also the namespace-aware sysfs write needed
 * for threaded NAPI and the pinning of a NAPI kthread.
 */
#ifndef __BPFWD_NSRUN_H
#define __BPFWD_NSRUN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Opens /run/netns/@name (or the caller's namespace for NULL). */
int ns_open(const char *name);
/* Enters @fd in place; ns_leave() returns to the namespace bpfwd started
 * in (opened on first use).
 */
int ns_enter(int fd);
int ns_leave(void);

/* Runs @fn(@arg) in a child in namespace @fd; the child's stderr goes to
 * @err (NUL-terminated, last line kept short) and its exit status is the
 * return value (-errno if it could not run).
 */
int ns_call(int fd, int (*fn)(void *), void *arg, char *err, size_t errlen);
/* Runs the command @argv (NULL-terminated, from $PATH) in @fd. */
int ns_exec(int fd, char *const argv[], char *err, size_t errlen);

/* Writes @val to /sys/class/net/@dev/@attr of namespace @fd, through a
 * sysfs mounted in a private mount namespace of a child.
 */
int ns_sysfs_write(int fd, const char *dev, const char *attr,
		   const char *val);

/* Pids of kernel threads whose name starts with @prefix (at most @max). */
int kthreads_find(const char *prefix, pid_t *pids, int max);

#endif /* __BPFWD_NSRUN_H */
