// SPDX-License-Identifier: GPL-2.0
/* readbal(8): messages and small parsers.  No libdevmapper here. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

int rb_verbose;

static void rb_vmsg(const char *prefix, const char *fmt, va_list ap)
{
	fprintf(stderr, "readbal: %s", prefix);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void rb_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	rb_vmsg("", fmt, ap);
	va_end(ap);
}

void rb_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	rb_vmsg("warning: ", fmt, ap);
	va_end(ap);
}

void rb_note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	rb_vmsg("", fmt, ap);
	va_end(ap);
}

void rb_debug(const char *fmt, ...)
{
	va_list ap;

	if (!rb_verbose)
		return;
	va_start(ap, fmt);
	rb_vmsg("debug: ", fmt, ap);
	va_end(ap);
}

int rb_scpy(char *dst, size_t size, const char *src)
{
	size_t n = strlen(src);

	if (!size)
		return -1;
	if (n >= size) {
		memcpy(dst, src, size - 1);
		dst[size - 1] = '\0';
		return -1;
	}
	memcpy(dst, src, n + 1);
	return 0;
}

int rb_sfmt(char *dst, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(dst, size, fmt, ap);
	va_end(ap);
	return n < 0 || (size_t)n >= size ? -1 : 0;
}

int rb_parse_u64(const char *s, uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (!s || !isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

int rb_parse_uint(const char *s, unsigned int max, unsigned int *out)
{
	uint64_t v;

	if (rb_parse_u64(s, &v) || v > max)
		return -1;
	*out = (unsigned int)v;
	return 0;
}

int rb_parse_seconds(const char *s, double *out)
{
	const char *p = s;
	char *end;
	double v;

	if (!isdigit((unsigned char)*p))
		return -1;
	while (isdigit((unsigned char)*p))
		p++;
	if (*p == '.') {
		p++;
		if (!isdigit((unsigned char)*p))
			return -1;
		while (isdigit((unsigned char)*p))
			p++;
	}
	if (*p)
		return -1;
	v = strtod(s, &end);
	if (*end || !(v > 0) || v > 86400)
		return -1;
	*out = v;
	return 0;
}

void rb_human_bytes(uint64_t bytes, char *buf, size_t len)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	unsigned int u = 0;
	double v = (double)bytes;

	while (v >= 1024 && u + 1 < sizeof(unit) / sizeof(unit[0])) {
		v /= 1024;
		u++;
	}
	if (u == 0)
		snprintf(buf, len, "%llu B", (unsigned long long)bytes);
	else if (v == (double)(uint64_t)v)
		snprintf(buf, len, "%.0f %s", v, unit[u]);
	else
		snprintf(buf, len, "%.1f %s", v, unit[u]);
}

int rb_words_split(const char *s, struct rb_words *out)
{
	size_t len = strlen(s);
	unsigned int cap = 0, n = 0;
	char *p, **w = NULL;

	out->buf = malloc(len + 1);
	if (!out->buf)
		return -1;
	memcpy(out->buf, s, len + 1);
	for (p = out->buf; *p;) {
		while (*p && isspace((unsigned char)*p))
			*p++ = '\0';
		if (!*p)
			break;
		if (n == cap) {
			char **nw;

			cap = cap ? cap * 2 : 32;
			nw = realloc(w, cap * sizeof(*w));
			if (!nw) {
				free(w);
				free(out->buf);
				return -1;
			}
			w = nw;
		}
		w[n++] = p;
		while (*p && !isspace((unsigned char)*p))
			p++;
	}
	out->w = w;
	out->n = n;
	return 0;
}

void rb_words_free(struct rb_words *w)
{
	free(w->w);
	free(w->buf);
	w->w = NULL;
	w->buf = NULL;
	w->n = 0;
}
