// SPDX-License-Identifier: GPL-2.0
/* readbal(8): render status and list as text or JSON; pure. */
#include <inttypes.h>
#include <string.h>

#include "dirtylog.h"
#include "util.h"
#include "view.h"

void rb_json_string(FILE *f, const char *s)
{
	const unsigned char *p;

	fputc('"', f);
	for (p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"':
			fputs("\\\"", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		default:
			if (*p < 0x20 || *p == 0x7f)
				fprintf(f, "\\u%04x", *p);
			else
				fputc(*p, f);
		}
	}
	fputc('"', f);
}

static void rb_json_opt_string(FILE *f, const char *s)
{
	if (s && *s)
		rb_json_string(f, s);
	else
		fputs("null", f);
}

static const char *rb_state_word(char state)
{
	switch (state) {
	case 'A':
		return "alive";
	case 'a':
		return "resync";
	case 'D':
		return "failed";
	default:
		return NULL;
	}
}

static double rb_pct(uint64_t part, uint64_t total)
{
	return total ? 100.0 * (double)part / (double)total : 0.0;
}

/* Per-leg numbers over the watch interval. */
struct rb_delta {
	uint64_t reads;
	uint64_t sectors;
	uint64_t avg_us;
};

static void rb_leg_delta(const struct rb_view *v, unsigned int i,
			 struct rb_delta *d)
{
	const struct rb_leg_status *now = &v->st->legs[i];
	const struct rb_leg_status *was = NULL;
	uint64_t t_now, t_was;

	if (v->prev && i < v->prev->nlegs &&
	    !strcmp(v->prev->legs[i].dev, now->dev) &&
	    v->prev->legs[i].reads <= now->reads &&
	    v->prev->legs[i].read_sectors <= now->read_sectors)
		was = &v->prev->legs[i];
	if (!was) {
		/* first sample, reset_stats or a new table: since the reset */
		d->reads = now->reads;
		d->sectors = now->read_sectors;
		d->avg_us = now->avg_read_us;
		return;
	}
	d->reads = now->reads - was->reads;
	d->sectors = now->read_sectors - was->read_sectors;
	t_now = now->avg_read_us * now->reads;
	t_was = was->avg_read_us * was->reads;
	d->avg_us = d->reads && t_now >= t_was ? (t_now - t_was) / d->reads : 0;
}

static const char *rb_leg_display(const struct rb_view *v, unsigned int i)
{
	const struct rb_leg_info *in = v->info ? &v->info[i] : NULL;

	if (in && in->dm_name[0])
		return in->dm_name;
	if (in && in->name[0])
		return in->name;
	return v->st->legs[i].dev;
}

static void rb_view_header(FILE *f, const struct rb_view *v)
{
	char size[32], pol[RB_NAME_MAX * (2 * RB_MAX_KNOBS + 1) + 64];

	rb_human_bytes(v->sectors * 512, size, sizeof(size));
	fprintf(f, "%s", v->name);
	if (v->kname && *v->kname)
		fprintf(f, " (%s)", v->kname);
	fprintf(f, ": readbal, %u legs, %u alive", v->st->nlegs,
		rb_status_alive(v->st));
	if (rb_status_in_sync(v->st) != rb_status_alive(v->st))
		fprintf(f, " (%u in sync)", rb_status_in_sync(v->st));
	fprintf(f, ", %s (%" PRIu64 " sectors)", size, v->sectors);
	if (v->interval > 0)
		fprintf(f, ", last %.1f s", v->interval);
	fputc('\n', f);
	if (rb_policy_describe(&v->st->policy, pol, sizeof(pol)))
		rb_scpy(pol, sizeof(pol), v->st->policy.name);
	fprintf(f, "policy: %s\n", pol);
	if (v->log) {
		rb_log_describe(v->log, v->log_name, pol, sizeof(pol));
		fprintf(f, "log: %s\n", pol);
	}
	if (v->st->has_sync) {
		fprintf(f, "resync: %" PRIu64 "/%" PRIu64 " regions in sync "
			"(%.1f%%)%s", v->st->sync_done, v->st->sync_total,
			rb_pct(v->st->sync_done, v->st->sync_total),
			rb_status_syncing(v->st) ? ", resyncing" : "");
		if (v->st->has_max_read_errors)
			fprintf(f, "; max_read_errors %u",
				v->st->max_read_errors);
		fputc('\n', f);
	}
}

void rb_view_text(FILE *f, const struct rb_view *v)
{
	const struct rb_status *st = v->st;
	uint64_t total = 0;
	struct rb_delta d[RB_PARSE_MAX_LEGS];
	unsigned int i;
	int errors = 0;

	for (i = 0; i < st->nlegs; i++) {
		rb_leg_delta(v, i, &d[i]);
		total += d[i].reads;
		errors |= st->legs[i].has_errors;
	}
	rb_view_header(f, v);
	if (v->interval > 0)
		fprintf(f, "%3s  %-16s %-16s %-3s  %-6s %8s %9s %8s %6s %8s",
			"leg", "device", "model", "rot", "state", "inflight",
			"reads/s", "MiB/s", "share", "avg_us");
	else
		fprintf(f, "%3s  %-16s %-16s %-3s  %-6s %8s %12s %6s %8s",
			"leg", "device", "model", "rot", "state", "inflight",
			"reads", "share", "avg_us");
	fputs(errors ? "  errors r/c/u/w\n" : "\n", f);
	for (i = 0; i < st->nlegs; i++) {
		const struct rb_leg_status *l = &st->legs[i];
		const struct rb_leg_info *in = v->info ? &v->info[i] : NULL;
		const char *state = rb_state_word(l->state);
		char sbuf[8], share[16];

		if (!state) {
			snprintf(sbuf, sizeof(sbuf), "%c", l->state);
			state = sbuf;
		}
		snprintf(share, sizeof(share), "%.1f%%",
			 rb_pct(d[i].reads, total));
		fprintf(f, "%3u  %-16.16s %-16.16s %-3s  %-6s %8" PRId64, i,
			rb_leg_display(v, i),
			in && in->model[0] ? in->model : "-",
			!in || in->rotational < 0 ? "?" :
			in->rotational ? "yes" : "no", state, l->inflight);
		if (v->interval > 0)
			fprintf(f, " %9.1f %8.2f %6s %8" PRIu64,
				(double)d[i].reads / v->interval,
				(double)d[i].sectors * 512 / 1048576.0 /
				v->interval, share, d[i].avg_us);
		else
			fprintf(f, " %12" PRIu64 " %6s %8" PRIu64,
				l->reads, share, l->avg_read_us);
		if (l->has_errors)
			fprintf(f, "  %" PRIu64 "/%" PRIu64 "/%" PRIu64 "/%" PRIu64,
				l->read_errors, l->corrected, l->uncorrected,
				l->write_errors);
		else if (errors)
			fputs("  -", f);
		fputc('\n', f);
	}
}

/* "log": {type, dev, name, region_size, flag} or null. */
static void rb_log_json(FILE *f, const struct rb_view *v)
{
	const struct rb_log_spec *l = v->log;
	static const char *const flag[] = {
		[RB_LOG_SYNC_DEFAULT] = "null",
		[RB_LOG_SYNC_SYNC] = "\"sync\"",
		[RB_LOG_SYNC_NOSYNC] = "\"nosync\"",
	};

	if (!l) {
		fputs(",\"log\":null", f);
		return;
	}
	fprintf(f, ",\"log\":{\"type\":\"%s\",\"dev\":",
		l->dev[0] ? "disk" : "core");
	rb_json_opt_string(f, l->dev);
	fputs(",\"name\":", f);
	rb_json_opt_string(f, l->dev[0] ? v->log_name : NULL);
	fprintf(f, ",\"region_size\":%u,\"flag\":%s}",
		l->region_size ? l->region_size : RB_REGION_SIZE_DEFAULT,
		flag[l->sync]);
}

void rb_view_json(FILE *f, const struct rb_view *v)
{
	const struct rb_status *st = v->st;
	struct rb_delta d[RB_PARSE_MAX_LEGS];
	uint64_t total = 0, itotal = 0;
	unsigned int i;

	for (i = 0; i < st->nlegs; i++) {
		rb_leg_delta(v, i, &d[i]);
		itotal += d[i].reads;
		total += st->legs[i].reads;
	}
	fputs("{\"name\":", f);
	rb_json_string(f, v->name);
	fputs(",\"device\":", f);
	rb_json_opt_string(f, v->kname);
	fprintf(f, ",\"sectors\":%" PRIu64 ",\"legs_alive\":%u"
		",\"legs_in_sync\":%u", v->sectors, rb_status_alive(st),
		rb_status_in_sync(st));
	if (st->has_sync)
		fprintf(f, ",\"sync\":{\"in_sync\":%" PRIu64 ",\"regions\":%"
			PRIu64 ",\"pct\":%.1f,\"resyncing\":%s}", st->sync_done,
			st->sync_total, rb_pct(st->sync_done, st->sync_total),
			rb_status_syncing(st) ? "true" : "false");
	else
		fputs(",\"sync\":null", f);
	if (st->has_max_read_errors)
		fprintf(f, ",\"max_read_errors\":%u", st->max_read_errors);
	else
		fputs(",\"max_read_errors\":null", f);
	rb_log_json(f, v);
	if (v->interval > 0)
		fprintf(f, ",\"time\":%lld,\"interval_s\":%.3f", v->time,
			v->interval);
	fputs(",\"policy\":{\"name\":", f);
	rb_json_string(f, st->policy.name);
	fputs(",\"knobs\":{", f);
	for (i = 0; i < st->policy.nknobs; i++) {
		if (i)
			fputc(',', f);
		rb_json_string(f, st->policy.knobs[i].name);
		fputc(':', f);
		rb_json_string(f, st->policy.knobs[i].value);
	}
	fprintf(f, "}},\"total_reads\":%" PRIu64 ",\"legs\":[", total);
	for (i = 0; i < st->nlegs; i++) {
		const struct rb_leg_status *l = &st->legs[i];
		const struct rb_leg_info *in = v->info ? &v->info[i] : NULL;
		const char *state = rb_state_word(l->state);
		char sbuf[2] = { l->state, '\0' };

		fprintf(f, "%s{\"leg\":%u,\"dev\":", i ? "," : "", i);
		rb_json_string(f, l->dev);
		fputs(",\"name\":", f);
		rb_json_opt_string(f, in ? in->name : NULL);
		fputs(",\"dm_name\":", f);
		rb_json_opt_string(f, in ? in->dm_name : NULL);
		fputs(",\"model\":", f);
		rb_json_opt_string(f, in ? in->model : NULL);
		fprintf(f, ",\"rotational\":%s,\"state\":",
			!in || in->rotational < 0 ? "null" :
			in->rotational ? "true" : "false");
		rb_json_string(f, state ? state : sbuf);
		fprintf(f, ",\"inflight\":%" PRId64 ",\"reads\":%" PRIu64
			",\"read_sectors\":%" PRIu64 ",\"share_pct\":%.1f"
			",\"avg_read_us\":%" PRIu64 ",\"head\":%" PRIu64,
			l->inflight, l->reads, l->read_sectors,
			rb_pct(l->reads, total), l->avg_read_us, l->head);
		if (l->has_errors)
			fprintf(f, ",\"errors\":{\"read\":%" PRIu64
				",\"corrected\":%" PRIu64 ",\"uncorrected\":%"
				PRIu64 ",\"write\":%" PRIu64 "}", l->read_errors,
				l->corrected, l->uncorrected, l->write_errors);
		else
			fputs(",\"errors\":null", f);
		if (v->interval > 0)
			fprintf(f, ",\"interval\":{\"reads\":%" PRIu64
				",\"reads_per_s\":%.1f,\"read_mib_per_s\":%.2f"
				",\"share_pct\":%.1f,\"avg_read_us\":%" PRIu64 "}",
				d[i].reads, (double)d[i].reads / v->interval,
				(double)d[i].sectors * 512 / 1048576.0 /
				v->interval, rb_pct(d[i].reads, itotal),
				d[i].avg_us);
		fputc('}', f);
	}
	fputs("]}\n", f);
}

void rb_list_text(FILE *f, const struct rb_list_entry *e, unsigned int n)
{
	char size[32];
	unsigned int i;

	if (!n) {
		fputs("no readbal devices\n", f);
		return;
	}
	fprintf(f, "%-20s %-8s %10s %4s  %-16s %s\n", "NAME", "DEVICE", "SIZE",
		"LEGS", "STATE", "POLICY");
	for (i = 0; i < n; i++) {
		rb_human_bytes(e[i].sectors * 512, size, sizeof(size));
		if (!e[i].ok) {
			fprintf(f, "%-20s %-8s %10s %4s  %-16s %s\n", e[i].name,
				e[i].kname[0] ? e[i].kname : "-", size, "?",
				"?", "(status unreadable)");
			continue;
		}
		fprintf(f, "%-20s %-8s %10s %4u  %-16s %s\n", e[i].name,
			e[i].kname[0] ? e[i].kname : "-", size, e[i].nlegs,
			e[i].states, e[i].policy);
	}
}

void rb_list_json(FILE *f, const struct rb_list_entry *e, unsigned int n)
{
	unsigned int i;

	fputc('[', f);
	for (i = 0; i < n; i++) {
		fputs(i ? ",{\"name\":" : "{\"name\":", f);
		rb_json_string(f, e[i].name);
		fputs(",\"device\":", f);
		rb_json_opt_string(f, e[i].kname);
		fprintf(f, ",\"sectors\":%" PRIu64, e[i].sectors);
		if (e[i].ok) {
			fprintf(f, ",\"legs\":%u,\"states\":", e[i].nlegs);
			rb_json_string(f, e[i].states);
			fputs(",\"policy\":", f);
			rb_json_string(f, e[i].policy);
		} else {
			fputs(",\"legs\":null,\"states\":null,\"policy\":null", f);
		}
		fputc('}', f);
	}
	fputs("]\n", f);
}
