// SPDX-License-Identifier: GPL-2.0
/* readbal(8): helpers the commands share. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "common.h"
#include "dirtylog.h"
#include "dm.h"
#include "kmsg.h"
#include "sysfs.h"
#include "util.h"

int rb_check_name(const char *name)
{
	const char *p;

	if (!*name || strlen(name) >= RB_DM_NAME_MAX) {
		rb_err("'%s': a device name has 1 to %d characters", name,
		       RB_DM_NAME_MAX - 1);
		return RB_EXIT_USAGE;
	}
	if (!strcmp(name, ".") || !strcmp(name, "..")) {
		rb_err("'%s' cannot be a device name", name);
		return RB_EXIT_USAGE;
	}
	for (p = name; *p; p++) {
		if (*p == '/' || *p <= ' ' || *p == 0x7f) {
			rb_err("'%s': a device name has no '/', spaces or "
			       "control characters", name);
			return RB_EXIT_USAGE;
		}
	}
	return RB_EXIT_OK;
}

static int rb_dev_status(struct rb_dev *d)
{
	struct rbdm_target t;
	char err[256];

	if (rbdm_get_target(d->name, 0, &t)) {
		rb_err("%s: cannot read the status: %s", d->name,
		       rbdm_last_error());
		return RB_EXIT_DEVICE;
	}
	if (!t.count) {
		rb_err("%s has no table loaded: it is not an active readbal "
		       "device (dmsetup table %s)", d->name, d->name);
		rbdm_target_free(&t);
		return RB_EXIT_DEVICE;
	}
	if (strcmp(t.type, "readbal") || t.count != 1 || t.start) {
		rb_err("%s is not a readbal device (its table has %d target%s, "
		       "the first '%s'): readbal manages only its own devices",
		       d->name, t.count, t.count == 1 ? "" : "s", t.type);
		rbdm_target_free(&t);
		return RB_EXIT_DEVICE;
	}
	d->length = t.length;
	if (rb_status_parse(t.params, &d->st, err, sizeof(err))) {
		rb_err("%s: cannot parse the status line '%s': %s (is this "
		       "readbal tool older than the module?)", d->name,
		       t.params, err);
		rbdm_target_free(&t);
		return RB_EXIT_DEVICE;
	}
	rbdm_target_free(&t);
	return RB_EXIT_OK;
}

int rb_dev_load(const char *name, struct rb_dev *d)
{
	struct rbdm_info info;
	int r;

	memset(d, 0, sizeof(*d));
	r = rb_check_name(name);
	if (r)
		return r;
	rb_scpy(d->name, sizeof(d->name), name);
	if (rbdm_get_info(name, &info)) {
		rb_err("cannot talk to device-mapper: %s (is the dm-mod module "
		       "loaded, and are you root?)", rbdm_last_error());
		return RB_EXIT_DEVICE;
	}
	if (!info.exists) {
		rb_err("no device %s: 'readbal list' shows the readbal devices",
		       name);
		return RB_EXIT_DEVICE;
	}
	d->major = info.major;
	d->minor = info.minor;
	d->open_count = info.open_count;
	if (rb_sysfs_kname(d->major, d->minor, d->kname, sizeof(d->kname)))
		snprintf(d->kname, sizeof(d->kname), "dm-%u", d->minor);
	return rb_dev_status(d);
}

int rb_dev_refresh(struct rb_dev *d)
{
	return rb_dev_status(d);
}

void rb_dev_node(const struct rb_dev *d, char *buf, size_t len)
{
	struct stat st;

	snprintf(buf, len, "/dev/%s", d->kname);
	if (!stat(buf, &st) && S_ISBLK(st.st_mode) &&
	    st.st_rdev == makedev(d->major, d->minor))
		return;
	snprintf(buf, len, "/dev/mapper/%s", d->name);
}

void rb_dev_leg_info(const struct rb_dev *d, struct rb_leg_info *info)
{
	unsigned int i;

	for (i = 0; i < d->st.nlegs; i++)
		rb_sysfs_leg_info(d->st.legs[i].major, d->st.legs[i].minor,
				  &info[i]);
}

int rb_dev_leg_arg(const struct rb_dev *d, const char *arg)
{
	unsigned int i;
	struct stat st;

	if (!rb_parse_uint(arg, 1000, &i)) {
		if (i < d->st.nlegs)
			return (int)i;
		rb_err("%s has no leg %u: its legs are 0 to %u (readbal status "
		       "%s)", d->name, i, d->st.nlegs - 1, d->name);
		return -1;
	}
	if (stat(arg, &st) || !S_ISBLK(st.st_mode)) {
		rb_err("'%s' is neither a leg number nor a block device", arg);
		return -1;
	}
	for (i = 0; i < d->st.nlegs; i++)
		if (makedev(d->st.legs[i].major, d->st.legs[i].minor) ==
		    st.st_rdev)
			return (int)i;
	rb_err("%s (%u:%u) is not a leg of %s (readbal status %s)", arg,
	       major(st.st_rdev), minor(st.st_rdev), d->name, d->name);
	return -1;
}

/* Fill @c from the module through device @name; -1 if it does not answer. */
static int rb_catalog_from(struct rb_catalog *c, const char *name)
{
	char resp[4096], knobs[4096], msg[128];
	struct rb_words w;
	unsigned int i;

	if (rbdm_message(name, "list_policies", resp, sizeof(resp)) || !*resp)
		return -1;
	if (rb_words_split(resp, &w))
		return -1;
	memset(c, 0, sizeof(*c));
	for (i = 0; i < w.n; i++) {
		snprintf(msg, sizeof(msg), "list_knobs %s", w.w[i]);
		if (rbdm_message(name, msg, knobs, sizeof(knobs)) ||
		    rb_catalog_add(c, w.w[i], knobs)) {
			rb_words_free(&w);
			return -1;
		}
	}
	rb_words_free(&w);
	snprintf(c->source, sizeof(c->source),
		 "as the loaded module lists them, asked through device %.64s",
		 name);
	return 0;
}

void rb_catalog_load(struct rb_catalog *c, const char *device)
{
	struct rbdm_target t;
	char **names;
	unsigned int n, i;

	if (device && !rb_catalog_from(c, device))
		return;
	if (!device && !rbdm_list(&names, &n)) {
		for (i = 0; i < n; i++) {
			int ok = !rbdm_get_target(names[i], 0, &t) &&
				 t.count == 1 && !strcmp(t.type, "readbal");

			if (t.count)
				rbdm_target_free(&t);
			if (ok && !rb_catalog_from(c, names[i])) {
				rbdm_list_free(names, n);
				return;
			}
		}
		rbdm_list_free(names, n);
	}
	rb_catalog_builtin(c);
}

void rb_report_refusal(const char *name, const char *what, const char *hint)
{
	char klog[1024];
	int e = rbdm_last_errno();

	rb_err("%s: the kernel refused %s%s%s", name, what,
	       e ? ": " : "", e ? strerror(e) : "");
	if (rb_kmsg_collect(klog, sizeof(klog)))
		fprintf(stderr, "  kernel log: %s\n", klog);
	else if (rbdm_last_error()[0])
		fprintf(stderr, "  %s (the reason is in the kernel log: dmesg "
			"| grep device-mapper)\n", rbdm_last_error());
	if (hint && *hint)
		fprintf(stderr, "  %s\n", hint);
}

int rb_send(const struct rb_dev *d, const char *msg, char *resp,
	    size_t resplen)
{
	char what[RB_LINE_MAX + 16];

	rb_debug("%s: message '%s'", d->name, msg);
	rb_kmsg_mark();
	if (!rbdm_message(d->name, msg, resp, resplen))
		return RB_EXIT_OK;
	if (rbdm_last_errno() == ENXIO) {
		rb_err("%s disappeared (removed meanwhile?)", d->name);
		return RB_EXIT_DEVICE;
	}
	snprintf(what, sizeof(what), "the message '%s'", msg);
	rb_report_refusal(d->name, what, NULL);
	return RB_EXIT_KERNEL;
}

void rb_print_policy(const struct rb_dev *d)
{
	char pol[RB_LINE_MAX];

	if (rb_policy_describe(&d->st.policy, pol, sizeof(pol)))
		rb_scpy(pol, sizeof(pol), d->st.policy.name);
	printf("%s: policy %s\n", d->name, pol);
}

int rb_module_at_least(unsigned int want_major, unsigned int want_minor)
{
	unsigned int major = 0, minor = 0;
	char ver[32];

	if (!rbdm_target_version("readbal", ver, sizeof(ver)) ||
	    sscanf(ver, "%u.%u", &major, &minor) != 2)
		return 0;
	return major > want_major ||
	       (major == want_major && minor >= want_minor);
}

/* The kernel name of a log_dev as the table gives it: major:minor or a
 * path. */
static void rb_log_kname(const char *dev, char *buf, size_t len)
{
	unsigned int ma, mi;
	struct stat st;

	buf[0] = '\0';
	if (!rb_parse_devnum(dev, &ma, &mi)) {
		if (rb_sysfs_kname(ma, mi, buf, len))
			buf[0] = '\0';
	} else if (!stat(dev, &st) && S_ISBLK(st.st_mode) &&
		   rb_sysfs_kname(major(st.st_rdev), minor(st.st_rdev), buf,
				  len)) {
		buf[0] = '\0';
	}
}

int rb_dev_load_log(struct rb_dev *d)
{
	struct rbdm_target t;
	struct rb_table tab;
	char err[256];
	int r;

	d->has_log = 0;
	if (!rb_module_logs() || rbdm_get_target(d->name, 1, &t))
		return -1;
	r = t.count == 1 && !strcmp(t.type, "readbal") ?
		rb_table_parse(t.params, t.length, &tab, err, sizeof(err)) : -1;
	rbdm_target_free(&t);
	if (r) {
		rb_debug("%s: cannot tell the log from the table", d->name);
		return -1;
	}
	rb_table_log(&tab, &d->log);
	rb_log_kname(d->log.dev, d->log_name, sizeof(d->log_name));
	d->has_log = 1;
	return 0;
}

void rb_print_log(const struct rb_dev *d)
{
	char log[RB_DEV_MAX + 256];

	if (!d->has_log)
		return;
	rb_log_describe(&d->log, d->log_name, log, sizeof(log));
	printf("%s: log %s", d->name, log);
	if (d->st.has_sync)
		printf("; %llu/%llu regions in sync%s",
		       (unsigned long long)d->st.sync_done,
		       (unsigned long long)d->st.sync_total,
		       rb_status_syncing(&d->st) ? ", resyncing" : "");
	putchar('\n');
}
