// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * Keyword tables: the parser and the usage lines made from one table
 * (see params.h).
 */
#include <string.h>

#include "params.h"
#include "util.h"

static void *dst_of(const struct kw *k, void *cfg)
{
	return (char *)cfg + k->off;
}

static int find_idx(const struct kw *tab, const char *word)
{
	int i;

	for (i = 0; tab[i].name; i++)
		if (is_word(word, tab[i].name))
			return i;
	return -1;
}

static int parse_enum(const struct kw *k, const char *arg, uint32_t *out)
{
	uint32_t i;

	for (i = 0; i < k->nwords; i++) {
		if (k->words[i] && is_word(arg, k->words[i])) {
			*out = i;
			return 0;
		}
	}
	return usage_err("unknown %s \"%s\"", k->what ? k->what : k->name, arg);
}

static int take_value(const struct kw *k, const char *arg, void *cfg)
{
	void *dst = dst_of(k, cfg);

	switch (k->type) {
	case KW_T_U32:
		return arg_u32(k->name, arg, dst, k->min, k->max);
	case KW_T_DEV:	/* checked where it is resolved */
	case KW_T_STR:
		*(const char **)dst = arg;
		return 0;
	case KW_T_ENUM:
		return parse_enum(k, arg, dst);
	case KW_T_FN:
		return k->parse(k, arg, dst);
	case KW_T_FLAG:
		break;
	}
	return 0;
}

int kw_parse_some(const struct kw *tab, int *argc, char ***argv, void *cfg,
		  kw_seen_t *seen)
{
	kw_seen_t got = seen ? *seen : 0;
	int i, err;

	while (*argc > 0) {
		const char *word = **argv;
		const struct kw *k;

		i = find_idx(tab, word);
		if (i < 0)
			break;
		k = &tab[i];
		if (k->type != KW_T_FLAG && *argc < 2)
			return usage_err("\"%s\" needs a value", word);
		if ((got & (1ULL << i)) && !(k->flags & KW_MULTI)) {
			if (k->type == KW_T_FLAG)
				return usage_err("duplicate \"%s\"", word);
			return usage_err("duplicate \"%s\": \"%s\" is the second value",
					 word, (*argv)[1]);
		}
		got |= 1ULL << i;
		if (k->type == KW_T_FLAG) {
			*(bool *)dst_of(k, cfg) = true;
		} else {
			(*argc)--;
			(*argv)++;
			err = take_value(k, **argv, cfg);
			if (err)
				return err;
		}
		(*argc)--;
		(*argv)++;
	}
	if (seen)
		*seen = got;
	return 0;
}

int kw_parse(const struct kw *tab, int argc, char **argv, void *cfg,
	     kw_seen_t *seen)
{
	kw_seen_t got = 0;
	int i, err;

	err = kw_parse_some(tab, &argc, &argv, cfg, &got);
	if (err)
		return err;
	if (argc > 0)
		return usage_err("unknown argument \"%s\"", *argv);
	for (i = 0; tab[i].name; i++) {
		if ((tab[i].flags & KW_REQUIRED) && !(got & (1ULL << i))) {
			if (tab[i].meta)
				return usage_err("missing \"%s %s\"",
						 tab[i].name, tab[i].meta);
			return usage_err("missing \"%s\"", tab[i].name);
		}
	}
	if (seen)
		*seen = got;
	return 0;
}

const struct kw *kw_find(const struct kw *tab, const char *name)
{
	int i = find_idx(tab, name);

	return i < 0 ? NULL : &tab[i];
}

bool kw_has(const struct kw *tab, kw_seen_t seen, const char *name)
{
	int i = find_idx(tab, name);

	return i >= 0 && (seen & (1ULL << i));
}

const char *kw_any(const struct kw *tab, kw_seen_t seen,
		   const char *const *names)
{
	for (; *names; names++)
		if (kw_has(tab, seen, *names))
			return *names;
	return NULL;
}

/* Appends @s to the line being folded at 78 columns. */
static void put_word(FILE *f, const char *s, int *col, int indent)
{
	int len = strlen(s);

	if (*col > indent && *col + 1 + len > 78) {
		fprintf(f, "\n%*s", indent, "");
		*col = indent;
	} else if (*col > indent) {
		fputc(' ', f);
		(*col)++;
	}
	fputs(s, f);
	*col += len;
}

void kw_usage(FILE *f, const struct kw *tab, int indent)
{
	kw_usage_tail(f, tab, indent, NULL);
}

void kw_usage_tail(FILE *f, const struct kw *tab, int indent,
		   const char *tail)
{
	char buf[128];
	int i, col = indent;

	for (i = 0; tab[i].name; i++) {
		const struct kw *k = &tab[i];
		bool req = k->flags & KW_REQUIRED;

		if (k->flags & KW_HIDDEN)
			continue;
		snprintf(buf, sizeof(buf), "%s%s%s%s%s", req ? "" : "[ ",
			 k->name, k->meta ? " " : "", k->meta ? k->meta : "",
			 req ? "" : " ]");
		put_word(f, buf, &col, indent);
	}
	if (tail)
		put_word(f, tail, &col, indent);
	fputc('\n', f);
}

static bool meta_before(const struct kw *tab, int i)
{
	int j;

	for (j = 0; j < i; j++)
		if (tab[j].type == KW_T_ENUM && tab[j].meta &&
		    !strcmp(tab[j].meta, tab[i].meta))
			return true;
	return false;
}

void kw_usage_enums(FILE *f, const struct kw *tab, int indent)
{
	int i;
	uint32_t w;

	for (i = 0; tab[i].name; i++) {
		const struct kw *k = &tab[i];
		const char *sep = "";

		if (k->type != KW_T_ENUM || !k->meta || (k->flags & KW_HIDDEN) ||
		    meta_before(tab, i))
			continue;
		fprintf(f, "%*s%s := {", indent, "", k->meta);
		for (w = 0; w < k->nwords; w++) {
			if (!k->words[w])
				continue;
			fprintf(f, "%s %s", sep, k->words[w]);
			sep = " |";
		}
		fprintf(f, " }\n");
	}
}

void kw_help(FILE *f, const struct kw *tab)
{
	char buf[64];
	int i;

	for (i = 0; tab[i].name; i++) {
		if (tab[i].flags & KW_HIDDEN || !tab[i].help)
			continue;
		snprintf(buf, sizeof(buf), "%s%s%s", tab[i].name,
			 tab[i].meta ? " " : "", tab[i].meta ? tab[i].meta : "");
		fprintf(f, "  %-22s %s\n", buf, tab[i].help);
	}
}
