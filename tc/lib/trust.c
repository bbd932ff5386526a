// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * Paths from the environment that root may use (see trust.h): every
 * prefix of the path is checked with lstat(), and a symlink met on the
 * way is checked itself and then through the path it resolves to.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "trust.h"
#include "util.h"

#define MAX_LINKS 8	/* symlinks followed within one path */

static bool others_write(const struct stat *st)
{
	return st->st_mode & (S_IWGRP | S_IWOTH);
}

/* One existing component: root's (or ours); if others may write it, a
 * sticky directory only.  A symlink's own mode means nothing.
 */
static bool entry_ok(const char *p, const struct stat *st, char *why,
		     size_t len)
{
	if (st->st_uid && st->st_uid != geteuid()) {
		snprintf(why, len, "%s is owned by uid %u", p,
			 (unsigned int)st->st_uid);
		return false;
	}
	if (S_ISLNK(st->st_mode) || !others_write(st) ||
	    (S_ISDIR(st->st_mode) && (st->st_mode & S_ISVTX)))
		return true;
	snprintf(why, len, "%s is writable by %s", p,
		 st->st_mode & S_IWOTH ? "every user" : "its group");
	return false;
}

static bool walk(const char *path, int links, char *why, size_t len);

/* A symlink at @p (already found root's): what it resolves to must be
 * trusted too.  Fills @st with the target's stat.
 */
static bool link_ok(const char *p, int links, struct stat *st, char *why,
		    size_t len)
{
	char real[PATH_MAX];

	if (links >= MAX_LINKS) {
		snprintf(why, len, "%s: too many symlinks", p);
		return false;
	}
	if (!realpath(p, real) || stat(real, st)) {
		snprintf(why, len, "%s: %s", p, strerror(errno));
		return false;
	}
	return walk(real, links + 1, why, len);
}

/* Checks "/", "/a", "/a/b", ... of the absolute @path. */
static bool walk(const char *path, int links, char *why, size_t len)
{
	struct stat st, parent;
	char buf[PATH_MAX];
	size_t i, n = strlen(path);
	char c;

	if (n >= sizeof(buf)) {
		snprintf(why, len, "path too long");
		return false;
	}
	memcpy(buf, path, n + 1);
	if (lstat("/", &parent) || !entry_ok("/", &parent, why, len))
		return false;
	for (i = 1; i <= n; i++) {
		if ((buf[i] != '/' && buf[i]) || buf[i - 1] == '/')
			continue;
		c = buf[i];
		buf[i] = '\0';
		if (lstat(buf, &st)) {
			if (errno != ENOENT) {
				snprintf(why, len, "%s: %s", buf,
					 strerror(errno));
				return false;
			}
			if (!others_write(&parent))
				return true;	/* only root can make it */
			snprintf(why, len, "%s does not exist, and other users can create it",
				 buf);
			return false;
		}
		if (!entry_ok(buf, &st, why, len))
			return false;
		if (S_ISLNK(st.st_mode) && !link_ok(buf, links, &st, why, len))
			return false;
		parent = st;
		buf[i] = c;
	}
	return true;
}

bool path_trusted(const char *path, char *why, size_t len)
{
	char abs[PATH_MAX], cwd[PATH_MAX];

	if (path[0] == '/')
		return walk(path, 0, why, len);
	if (!getcwd(cwd, sizeof(cwd)) ||
	    (size_t)snprintf(abs, sizeof(abs), "%s/%s", cwd, path) >=
	    sizeof(abs)) {
		snprintf(why, len, "%s: cannot make it absolute", path);
		return false;
	}
	return walk(abs, 0, why, len);
}

const char *env_path(const char *name)
{
	const char *v = getenv(name);
	char why[PATH_MAX + 64];

	if (!v || !*v)
		return NULL;
	if (path_trusted(v, why, sizeof(why)))
		return v;
	pr_warn("%s=%s ignored: %s (root uses only paths that no other user can change)",
		name, v, why);
	return NULL;
}
