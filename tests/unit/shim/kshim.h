/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space stand-in for the few kernel headers readbal.h includes, so that
 * tests/unit builds dm-readbal/readbal-policy.c and policy-*.c unchanged.
 * Only what those files use, plus hooks the tests set:
 *   shim_cpu		the CPU this_cpu_*() and get_cpu_ptr() act on
 *			(SHIM_NR_CPUS of them; one per thread)
 *   shim_current	what `current` points to (pid)
 *   shim_disk_wait_ns	rb_leg_disk_read_wait_ns() by leg index
 *   shim_now_ns	what ktime_get_ns() returns (the simulator's clock)
 *   shim_fail_alloc_in	n > 0: the n-th allocation from now returns NULL
 *   shim_live_allocs	allocations not yet freed (leak check)
 */
#ifndef KSHIM_H
#define KSHIM_H

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

/* linux/types.h */
typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
typedef int64_t s64;
typedef u64 sector_t;
#define U32_MAX		UINT32_MAX
#define U64_MAX		UINT64_MAX
#define __percpu

/* linux/compiler.h */
#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#define READ_ONCE(x)	(*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, val) \
	do { *(volatile __typeof__(x) *)&(x) = (val); } while (0)

/* linux/cache.h: x86's line */
#define SMP_CACHE_BYTES	64
#define ____cacheline_aligned_in_smp __attribute__((aligned(SMP_CACHE_BYTES)))

/* linux/kernel.h */
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define BIT(nr)		(1UL << (nr))

static inline unsigned long __ffs(unsigned long word)
{
	return __builtin_ctzl(word);
}

/* The kernel's kstrtouint(): optional '+', digits, one optional '\n'. */
static inline int kstrtouint(const char *s, unsigned int base,
			     unsigned int *res)
{
	unsigned long long v = 0;
	unsigned int d, n = 0;

	if (base < 2 || base > 16)
		return -EINVAL;
	if (*s == '+')
		s++;
	for (;; s++, n++) {
		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if ((*s | 0x20) >= 'a' && (*s | 0x20) <= 'f')
			d = (*s | 0x20) - 'a' + 10;
		else
			break;
		if (d >= base)
			break;
		if (v > (ULLONG_MAX - d) / base)
			return -ERANGE;
		v = v * base + d;
	}
	if (!n)
		return -EINVAL;
	if (*s == '\n')
		s++;
	if (*s)
		return -EINVAL;
	if (v > UINT_MAX)
		return -ERANGE;
	*res = v;
	return 0;
}

static inline __attribute__((format(printf, 3, 4)))
int scnprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list args;
	int i;

	va_start(args, fmt);
	i = vsnprintf(buf, size, fmt, args);
	va_end(args);
	if (i < 0)
		return 0;
	if ((size_t)i < size)
		return i;
	return size ? (int)size - 1 : 0;
}

/* linux/math64.h */
static inline u64 div_u64_rem(u64 dividend, u32 divisor, u32 *remainder)
{
	*remainder = dividend % divisor;
	return dividend / divisor;
}

static inline u64 div_u64(u64 dividend, u32 divisor)
{
	return dividend / divisor;
}

/* linux/atomic.h: GCC builtins; signed atomics wrap, as in the kernel. */
typedef struct { int counter; } atomic_t;
typedef struct { s64 counter; } atomic64_t;

#define shim_load(v) \
	__atomic_load_n(&(v)->counter, __ATOMIC_RELAXED)
#define shim_store(v, i) \
	__atomic_store_n(&(v)->counter, i, __ATOMIC_RELAXED)
#define atomic_read(v)		shim_load(v)
#define atomic_set(v, i)	shim_store(v, i)
#define atomic64_read(v)	shim_load(v)
#define atomic64_set(v, i)	shim_store(v, i)
#define atomic_inc(v)		((void)__atomic_add_fetch(&(v)->counter, 1, \
						 __ATOMIC_SEQ_CST))
#define atomic_dec(v)		((void)__atomic_sub_fetch(&(v)->counter, 1, \
						 __ATOMIC_SEQ_CST))

static inline s64 atomic64_fetch_add(s64 i, atomic64_t *v)
{
	return __atomic_fetch_add(&v->counter, i, __ATOMIC_SEQ_CST);
}

/* linux/slab.h */
#define GFP_KERNEL	0
extern int shim_fail_alloc_in;
extern int shim_live_allocs;

static inline void *shim_alloc(size_t size)
{
	void *p;

	if (shim_fail_alloc_in > 0 && --shim_fail_alloc_in == 0)
		return NULL;
	p = calloc(1, size);
	if (p)
		__atomic_add_fetch(&shim_live_allocs, 1, __ATOMIC_RELAXED);
	return p;
}

static inline void shim_free(const void *p)
{
	if (p)
		__atomic_sub_fetch(&shim_live_allocs, 1, __ATOMIC_RELAXED);
	free((void *)p);
}

#define kzalloc(size, gfp)	shim_alloc(size)
#define kfree(p)		shim_free(p)

/*
 * linux/percpu.h: SHIM_NR_CPUS copies; shim_cpu says which one is "this",
 * per thread, so threads of a test can be CPUs of their own.
 */
#define SHIM_NR_CPUS	4
extern __thread unsigned int shim_cpu;

#define alloc_percpu(type) \
	((type *)shim_alloc(SHIM_NR_CPUS * sizeof(type)))
#define free_percpu(p)		shim_free(p)
#define per_cpu_ptr(p, cpu)	((p) + (cpu))
#define this_cpu_ptr(p)		per_cpu_ptr(p, shim_cpu)
#define this_cpu_read(pcp)	(*this_cpu_ptr(&(pcp)))
#define this_cpu_write(pcp, val) (*this_cpu_ptr(&(pcp)) = (val))
/* no preemption to disable: a "CPU" is what shim_cpu says */
#define get_cpu_ptr(p)		this_cpu_ptr(p)
#define put_cpu_ptr(p)		((void)(p))
#define for_each_possible_cpu(cpu) \
	for ((cpu) = 0; (cpu) < SHIM_NR_CPUS; (cpu)++)

/* linux/sched.h */
struct task_struct {
	pid_t pid;
};
extern struct task_struct shim_current;
#define current	(&shim_current)

/* linux/ktime.h: time stands still unless a test or the simulator moves it */
extern u64 shim_now_ns;

static inline u64 ktime_get_ns(void)
{
	return shim_now_ns;
}

/* the target core's rb_leg_disk_read_wait_ns(), by leg index */
#define SHIM_MAX_LEGS	64
extern u64 shim_disk_wait_ns[SHIM_MAX_LEGS];

#endif
