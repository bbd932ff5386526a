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
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <bpf/bpf.h>

#include "pins.h"
#include "util.h"

#ifndef BPF_FS_MAGIC
#define BPF_FS_MAGIC 0xcafe4a11
#endif
#ifndef SO_NETNS_COOKIE
#define SO_NETNS_COOKIE 71
#endif

const char *bpffs_root(void)
{
	const char *r = getenv("BPFWD_BPFFS");

	return r && *r ? r : "/sys/fs/bpf";
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

int bpffs_ensure(void)
{
	const char *root = bpffs_root();
	struct statfs st;
	int err;

	if (!statfs(root, &st) && st.f_type == BPF_FS_MAGIC)
		return 0;
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

int ns_dir(char *buf, size_t len, bool create)
{
	if ((size_t)snprintf(buf, len, "%s/bpfwd/%" PRIu64, bpffs_root(),
			     netns_cookie()) >= len)
		return -ENAMETOOLONG;
	return create ? mkdir_p(buf, 0700) : 0;
}

int stock_dir(char *buf, size_t len, bool create)
{
	if ((size_t)snprintf(buf, len, "%s/tc/globals", bpffs_root()) >= len)
		return -ENAMETOOLONG;
	return create ? mkdir_p(buf, 0700) : 0;
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
