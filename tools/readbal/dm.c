// SPDX-License-Identifier: GPL-2.0
/* readbal(8): libdevmapper calls. */
#include <errno.h>
#include <libdevmapper.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dm.h"
#include "util.h"

static char rbdm_errbuf[512];
static int rbdm_errno;
static int rbdm_udev;

/*
 * libdevmapper's messages: the first error of a task is kept for ours
 * (which name the fix); they are shown with -v, everything with -vv.
 */
static void rbdm_log(int level, const char *file, int line, int dm_errno,
		     const char *f, ...) __attribute__((format(printf, 5, 6)));

static void rbdm_log(int level, const char *file, int line, int dm_errno,
		     const char *f, ...)
{
	char msg[512];
	va_list ap;

	(void)file;
	(void)line;
	(void)dm_errno;
	level &= 7;
	va_start(ap, f);
	vsnprintf(msg, sizeof(msg), f, ap);
	va_end(ap);
	/* the first error is the cause, the rest its consequences */
	if (level <= 3 && !rbdm_errbuf[0] && strcmp(msg, "<backtrace>"))
		rb_scpy(rbdm_errbuf, sizeof(rbdm_errbuf), msg);
	if ((level <= 4 && rb_verbose >= 1) || rb_verbose >= 2)
		fprintf(stderr, "libdevmapper: %s\n", msg);
}

void rbdm_init(void)
{
	dm_log_with_errno_init(rbdm_log);
	rbdm_udev = !getenv("DM_DISABLE_UDEV") &&
		    !access("/run/udev/control", F_OK);
	dm_udev_set_sync_support(rbdm_udev);
	if (!rbdm_udev)
		dm_udev_set_checking(0);
	rb_debug("udev synchronisation %s", rbdm_udev ? "on" : "off");
}

int rbdm_udev_sync(void)
{
	return rbdm_udev;
}

const char *rbdm_last_error(void)
{
	return rbdm_errbuf;
}

int rbdm_last_errno(void)
{
	return rbdm_errno;
}

static struct dm_task *rbdm_task(int type, const char *name)
{
	struct dm_task *dmt;

	rbdm_errbuf[0] = '\0';
	rbdm_errno = 0;
	dmt = dm_task_create(type);
	if (!dmt)
		return NULL;
	if (name && !dm_task_set_name(dmt, name)) {
		dm_task_destroy(dmt);
		return NULL;
	}
	return dmt;
}

static int rbdm_run(struct dm_task *dmt)
{
	int r = dm_task_run(dmt);

	if (!r)
		rbdm_errno = dm_task_get_errno(dmt);
	return r ? 0 : -1;
}

/* Run a task that makes a uevent (create, resume, remove). */
static int rbdm_run_uevent(struct dm_task *dmt)
{
	uint32_t cookie = 0;
	int r;

	if (!rbdm_udev) {
		r = rbdm_run(dmt);
		dm_task_update_nodes();
		return r;
	}
	if (!dm_task_set_cookie(dmt, &cookie, 0))
		return -1;
	r = rbdm_run(dmt);
	if (!dm_udev_wait(cookie))
		rb_warn("waiting for udev failed (cookie %u)", cookie);
	return r;
}

int rbdm_get_info(const char *name, struct rbdm_info *info)
{
	struct dm_task *dmt = rbdm_task(DM_DEVICE_INFO, name);
	struct dm_info i;
	int r = -1;

	memset(info, 0, sizeof(*info));
	if (!dmt)
		return -1;
	if (!rbdm_run(dmt) && dm_task_get_info(dmt, &i)) {
		info->exists = i.exists;
		info->major = i.major;
		info->minor = i.minor;
		info->open_count = i.open_count;
		info->suspended = i.suspended;
		info->live_table = i.live_table;
		info->inactive_table = i.inactive_table;
		info->target_count = i.target_count;
		r = 0;
	}
	dm_task_destroy(dmt);
	return r;
}

int rbdm_get_target(const char *name, int table, struct rbdm_target *t)
{
	struct dm_task *dmt;
	char *type = NULL, *params = NULL;
	uint64_t start, length;
	void *next = NULL;
	int r = -1;

	memset(t, 0, sizeof(*t));
	dmt = rbdm_task(table ? DM_DEVICE_TABLE : DM_DEVICE_STATUS, name);
	if (!dmt)
		return -1;
	if (rbdm_run(dmt))
		goto out;
	do {
		next = dm_get_next_target(dmt, next, &start, &length, &type,
					  &params);
		if (!type)
			break;
		if (!t->count++) {
			t->start = start;
			t->length = length;
			rb_scpy(t->type, sizeof(t->type), type);
			t->params = strdup(params ? params : "");
			if (!t->params)
				goto out;
		}
	} while (next);
	r = 0;
out:
	dm_task_destroy(dmt);
	return r;
}

void rbdm_target_free(struct rbdm_target *t)
{
	free(t->params);
	t->params = NULL;
}

static int rbdm_load(int type, const char *name, uint64_t length,
		     const char *ttype, const char *params)
{
	struct dm_task *dmt = rbdm_task(type, name);
	int r = -1;

	if (!dmt)
		return -1;
	if (!dm_task_add_target(dmt, 0, length, ttype, params))
		goto out;
	r = type == DM_DEVICE_CREATE ? rbdm_run_uevent(dmt) : rbdm_run(dmt);
out:
	dm_task_destroy(dmt);
	return r;
}

int rbdm_create(const char *name, uint64_t length, const char *type,
		const char *params)
{
	struct rbdm_info info;
	char err[sizeof(rbdm_errbuf)];
	int e;

	if (!rbdm_load(DM_DEVICE_CREATE, name, length, type, params))
		return 0;
	/* libdevmapper reverts; make sure, keeping the first error */
	rb_scpy(err, sizeof(err), rbdm_errbuf);
	e = rbdm_errno;
	if (!rbdm_get_info(name, &info) && info.exists) {
		rb_debug("%s still exists after a failed create: removing it",
			 name);
		if (rbdm_remove(name))
			rb_err("%s: could not remove the half-created device: "
			       "run 'dmsetup remove %s'", name, name);
	}
	rb_scpy(rbdm_errbuf, sizeof(rbdm_errbuf), err);
	rbdm_errno = e;
	return -1;
}

int rbdm_reload(const char *name, uint64_t length, const char *type,
		const char *params)
{
	return rbdm_load(DM_DEVICE_RELOAD, name, length, type, params);
}

static int rbdm_simple(int type, const char *name, int uevent, int retry)
{
	struct dm_task *dmt = rbdm_task(type, name);
	int r;

	if (!dmt)
		return -1;
	if (retry)
		dm_task_retry_remove(dmt);
	r = uevent ? rbdm_run_uevent(dmt) : rbdm_run(dmt);
	dm_task_destroy(dmt);
	return r;
}

int rbdm_resume(const char *name)
{
	return rbdm_simple(DM_DEVICE_RESUME, name, 1, 0);
}

int rbdm_clear(const char *name)
{
	return rbdm_simple(DM_DEVICE_CLEAR, name, 0, 0);
}

int rbdm_remove(const char *name)
{
	return rbdm_simple(DM_DEVICE_REMOVE, name, 1, 1);
}

int rbdm_message(const char *name, const char *msg, char *resp,
		 size_t resplen)
{
	struct dm_task *dmt = rbdm_task(DM_DEVICE_TARGET_MSG, name);
	const char *answer;
	int r = -1;

	if (resplen)
		resp[0] = '\0';
	if (!dmt)
		return -1;
	if (!dm_task_set_sector(dmt, 0) || !dm_task_set_message(dmt, msg))
		goto out;
	r = rbdm_run(dmt);
	if (!r && resplen && (answer = dm_task_get_message_response(dmt)))
		rb_scpy(resp, resplen, answer);
out:
	dm_task_destroy(dmt);
	return r;
}

int rbdm_list(char ***names, unsigned int *n)
{
	struct dm_task *dmt = rbdm_task(DM_DEVICE_LIST, NULL);
	struct dm_names *nm;
	unsigned int next = 0, cap = 0;
	char **v = NULL, **nv;
	int r = -1;

	*names = NULL;
	*n = 0;
	if (!dmt)
		return -1;
	if (rbdm_run(dmt) || !(nm = dm_task_get_names(dmt)))
		goto out;
	if (nm->dev) {
		do {
			nm = (struct dm_names *)((char *)nm + next);
			if (*n == cap) {
				cap = cap ? 2 * cap : 16;
				nv = realloc(v, cap * sizeof(*v));
				if (!nv)
					goto fail;
				v = nv;
			}
			v[*n] = strdup(nm->name);
			if (!v[*n])
				goto fail;
			(*n)++;
			next = nm->next;
		} while (next);
	}
	*names = v;
	r = 0;
	goto out;
fail:
	rbdm_list_free(v, *n);
	*n = 0;
out:
	dm_task_destroy(dmt);
	return r;
}

void rbdm_list_free(char **names, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

int rbdm_target_version(const char *type, char *ver, size_t len)
{
	struct dm_task *dmt = rbdm_task(DM_DEVICE_LIST_VERSIONS, NULL);
	struct dm_versions *v, *last;
	int found = 0;

	if (!dmt)
		return 0;
	if (!rbdm_run(dmt) && (v = dm_task_get_versions(dmt))) {
		do {
			last = v;
			if (!strcmp(v->name, type)) {
				snprintf(ver, len, "%u.%u.%u", v->version[0],
					 v->version[1], v->version[2]);
				found = 1;
				break;
			}
			v = (struct dm_versions *)((char *)v + v->next);
		} while (last != v);
	}
	dm_task_destroy(dmt);
	return found;
}
