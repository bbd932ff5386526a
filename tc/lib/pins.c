// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * bpffs root and pin directories (see pins.h for the layout).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <bpf/bpf.h>

#include "pins.h"
#include "trust.h"
#include "util.h"

#ifndef BPF_FS_MAGIC
#define BPF_FS_MAGIC 0xcafe4a11
#endif
#ifndef SO_NETNS_COOKIE
#define SO_NETNS_COOKIE 71
#endif

const char *bpffs_root(void)
{
	static const char *root;

	if (!root)
		root = env_path("BPFWD_BPFFS");
	if (!root)
		root = "/sys/fs/bpf";
	return root;
}

int mkdir_p(const char *path, mode_t mode)
{
	char tmp[PATH_MAX];
	char *p;

	if (snprintf(tmp, sizeof(tmp), "%s", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	for (p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, mode) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(tmp, mode) && errno != EEXIST)
		return -errno;
	return 0;
}

/* Whether this process runs in a mount namespace of its own: `ip netns
 * exec` and `tc -n` make one and mount a fresh /sys there.  Compared
 * with init's, or where that is hidden (containers) with the parent's:
 * ip netns exec runs the command in its own process, tc -n runs the
 * plugin in tc.  False when it cannot tell.
 */
static bool private_mounts(void)
{
	pid_t pids[] = { 1, getppid() };
	struct stat self, other;
	char path[64];
	size_t i;

	if (stat("/proc/self/ns/mnt", &self))
		return false;
	for (i = 0; i < ARRAY_SIZE(pids); i++) {
		snprintf(path, sizeof(path), "/proc/%d/ns/mnt", (int)pids[i]);
		if (!stat(path, &other))
			return self.st_ino != other.st_ino ||
			       self.st_dev != other.st_dev;
	}
	return false;
}

int bpffs_ensure(void)
{
	static bool refused;
	const char *root = bpffs_root();
	struct statfs st;
	int err;

	if (!statfs(root, &st) && st.f_type == BPF_FS_MAGIC)
		return 0;
	/* a bpffs mounted here would go with the namespace, pins and all,
	 * when the command ends: the ports would vanish, with exit 0
	 */
	if (private_mounts()) {
		if (!refused)
			p_err("%s: no bpffs in this mount namespace (ip netns exec and tc -n mount a fresh /sys): pins made here would be lost when the command ends; use bpfwd -n NETNS (setns keeps the host's bpffs), or mount one on %s first",
			      root, root);
		refused = true;	/* said once per process */
		return -EPERM;
	}
	err = mkdir_p(root, 0700);
	if (err) {
		p_err("bpffs %s: %s", root, strerror(-err));
		return err;
	}
	if (mount("bpf", root, "bpf", 0, "mode=0700")) {
		err = -errno;
		p_err("mount bpffs on %s: %s", root, strerror(errno));
		return err;
	}
	pr_info("mounted bpffs on %s", root);
	return 0;
}

uint64_t netns_cookie(void)
{
	uint64_t cookie = 0;
	socklen_t len = sizeof(cookie);
	struct stat st;
	int fd;

	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd >= 0) {
		if (getsockopt(fd, SOL_SOCKET, SO_NETNS_COOKIE, &cookie, &len))
			cookie = 0;
		close(fd);
	}
	/* Kernels before 5.14: the namespace inode, unique while it lives */
	if (!cookie && !stat("/proc/self/ns/net", &st))
		cookie = (1ULL << 63) | st.st_ino;
	return cookie;
}

/* A pin directory bpfwd uses is one root made: a directory, not a
 * symlink, owned by root, that nobody else can write.  On a bpffs
 * mounted without mode= (1777) any user can create entries at its top;
 * one who made bpfwd/<cookie>/ could remove bpfwd's links and maps.
 */
static int dir_check(int fd, const char *path)
{
	struct stat st;
	int err;

	if (fstat(fd, &st)) {
		err = -errno;
		p_err("pin directory %s: %s", path, strerror(-err));
		return err;
	}
	if (st.st_uid == geteuid() && !(st.st_mode & (S_IWGRP | S_IWOTH)))
		return 0;
	p_err("%s: a pin directory bpfwd did not make (owner uid %u, mode %04o; bpfwd makes root's, 0700): another user can change what is in it; remove it (rm -r %s) and mount the bpffs with mode=0700",
	      path, (unsigned int)st.st_uid, st.st_mode & 07777, path);
	return -EPERM;
}

/* Opens the directory @name in @dirfd (@path for messages), first making
 * it with @create, never through a symlink.  Returns the fd, -ENOENT
 * (no message) or another -errno.
 */
static int subdir_open(int dirfd, const char *name, const char *path,
		       bool create)
{
	int fd, err;

	if (create && mkdirat(dirfd, name, 0700) && errno != EEXIST) {
		err = -errno;
		p_err("pin directory %s: %s", path, strerror(errno));
		return err;
	}
	fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		    O_CLOEXEC);
	if (fd >= 0) {
		err = dir_check(fd, path);
		if (err)
			close(fd);
		return err ? err : fd;
	}
	err = -errno;
	if (err == -ELOOP || err == -ENOTDIR) {
		p_err("%s: a symlink or not a directory where bpfwd keeps its pins: bpfwd uses only directories it made; remove it (rm %s)",
		      path, path);
		return -EPERM;
	}
	if (err != -ENOENT)
		p_err("pin directory %s: %s", path, strerror(-err));
	return err;
}

/* <root>/@a/@b in @buf: checks the two directories that exist (and with
 * @create makes the missing ones).  Without @create a missing one is
 * not an error: the path is there for lookups that find nothing.
 */
static int pin_dir(char *buf, size_t len, const char *a, const char *b,
		   bool create)
{
	int fd, sub, err;
	size_t cut;

	if ((size_t)snprintf(buf, len, "%s/%s/%s", bpffs_root(), a, b) >= len) {
		p_err("pin directory %s/%s/%s: path too long", bpffs_root(),
		      a, b);
		return -ENAMETOOLONG;
	}
	fd = open(bpffs_root(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		if (!create)
			return 0;
		err = -errno;
		p_err("bpffs %s: %s", bpffs_root(), strerror(-err));
		return err;
	}
	/* <root>/a first: cut the path there for its messages */
	cut = strlen(buf) - strlen(b) - 1;
	buf[cut] = '\0';
	sub = subdir_open(fd, a, buf, create);
	buf[cut] = '/';
	close(fd);
	if (sub < 0)
		return sub == -ENOENT && !create ? 0 : sub;
	fd = subdir_open(sub, b, buf, create);
	close(sub);
	if (fd < 0)
		return fd == -ENOENT && !create ? 0 : fd;
	close(fd);
	return 0;
}

int ns_dir(char *buf, size_t len, bool create)
{
	char cookie[24];

	snprintf(cookie, sizeof(cookie), "%" PRIu64, netns_cookie());
	return pin_dir(buf, len, "bpfwd", cookie, create);
}

int stock_dir(char *buf, size_t len, bool create)
{
	return pin_dir(buf, len, "tc", "globals", create);
}

/* Locks held until the process ends (tc -b and bpfwd -b run several
 * commands in one process: their changes stay serialised too).
 */
static struct {
	dev_t dev;
	ino_t ino;
	int fd;
} held[64];
static int nheld;

/* Drops the locks of directories removed since (table_gc): a batch that
 * adds and deletes the last port again and again makes a new one each
 * time.
 */
static void held_prune(void)
{
	struct stat st;
	int i = 0;

	while (i < nheld) {
		if (fstat(held[i].fd, &st) || st.st_nlink) {
			i++;
			continue;
		}
		close(held[i].fd);
		held[i] = held[--nheld];
	}
}

int pin_dir_lock(const char *dir)
{
	struct stat a, b;
	int i, fd, err;

	held_prune();
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	err = fstat(fd, &a) ? -errno : 0;
	for (i = 0; !err && i < nheld; i++) {
		if (held[i].dev == a.st_dev && held[i].ino == a.st_ino) {
			close(fd);
			return 0;
		}
	}
	if (!err && nheld == (int)ARRAY_SIZE(held))
		err = -EMFILE;
	if (!err && flock(fd, LOCK_EX))
		err = -errno;
	/* the holder removed it (table_gc) while this process waited */
	if (!err && (lstat(dir, &b) || b.st_dev != a.st_dev ||
		     b.st_ino != a.st_ino))
		err = -ESTALE;
	if (err) {
		close(fd);
		return err;
	}
	held[nheld].dev = a.st_dev;
	held[nheld].ino = a.st_ino;
	held[nheld++].fd = fd;
	return 0;
}

void pin_dir_unlock_all(void)
{
	while (nheld > 0)
		close(held[--nheld].fd);
}

int pin_check_map(const char *path, enum bpf_map_type type, uint32_t key,
		  uint32_t value, uint32_t max, bool *exists, bool warn)
{
	struct bpf_map_info info = { 0 };
	uint32_t ilen = sizeof(info);
	int fd, err;

	*exists = false;
	fd = bpf_obj_get(path);
	if (fd < 0) {
		err = -errno;
		if (err == -ENOENT)
			return 0;
		p_err("pinned map %s: %s", path, strerror(-err));
		return err;
	}
	*exists = true;
	err = bpf_obj_get_info_by_fd(fd, &info, &ilen);
	close(fd);
	if (err) {
		err = -errno;
		p_err("pinned map %s: %s", path, strerror(-err));
		return err;
	}
	if (info.type != type || info.key_size != key ||
	    info.value_size != value || info.max_entries != max) {
		if (warn) {
			pr_warn("pinned map %s has the layout of an older bpfwd: left out (remove it once no program uses it: rm %s)",
				path, path);
			return -EEXIST;
		}
		p_err("pinned map %s has another layout (type %u key %u value %u entries %u, this bpfwd wants %u/%u/%u/%u): it was made by an older bpfwd; detach the programs that use it and remove it (rm %s)",
		      path, info.type, info.key_size, info.value_size,
		      info.max_entries, type, key, value, max, path);
		return -EEXIST;
	}
	return 0;
}
