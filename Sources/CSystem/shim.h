#ifndef TABLEFMT_CSYSTEM_SHIM_H
#define TABLEFMT_CSYSTEM_SHIM_H

// What the engine needs of the system that Swift's Glibc and Darwin modules do not give: where a
// new thread starts (Linux's CPU affinity, a GNU extension those modules are built without).

#include <pthread.h>

/// Words of a CPU set: 1,024 CPUs, as glibc's `cpu_set_t`.
#define TABLEFMT_CPU_WORDS 16

#if defined(__linux__)
// As glibc declares them under _GNU_SOURCE (a set is `cpu_set_t`: TABLEFMT_CPU_WORDS words).
extern int sched_getaffinity(int pid, unsigned long size, unsigned long *set);
extern int sched_setaffinity(int pid, unsigned long size, const unsigned long *set);
extern int sched_getcpu(void);
extern int pthread_attr_setaffinity_np(pthread_attr_t *attributes, unsigned long size, const unsigned long *set);

/// Has a thread made with `attributes` start on the CPUs this process may use but the one the
/// calling thread runs on, so that it runs at once beside it rather than wait for the scheduler to
/// move it. Saves the CPUs the process may use in `allowed` (TABLEFMT_CPU_WORDS words), for the new
/// thread to take back (`tablefmt_allow`). Returns 0, changing nothing, when there is no other CPU.
static inline int tablefmt_start_elsewhere(pthread_attr_t *attributes, unsigned long *allowed) {
    const unsigned long size = TABLEFMT_CPU_WORDS * sizeof(unsigned long);
    const int bits = (int)(8 * sizeof(unsigned long));
    if (sched_getaffinity(0, size, allowed) != 0) return 0;
    int cpu = sched_getcpu();
    if (cpu < 0 || cpu >= TABLEFMT_CPU_WORDS * bits) return 0;
    unsigned long others[TABLEFMT_CPU_WORDS];
    unsigned long any = 0;
    for (int i = 0; i < TABLEFMT_CPU_WORDS; i++) {
        others[i] = allowed[i];
        if (i == cpu / bits) others[i] &= ~(1UL << (cpu % bits));
        any |= others[i];
    }
    if (any == 0) return 0;
    return pthread_attr_setaffinity_np(attributes, size, others) == 0;
}

/// Lets the calling thread run on the CPUs `tablefmt_start_elsewhere` saved.
static inline void tablefmt_allow(const unsigned long *allowed) {
    (void)sched_setaffinity(0, TABLEFMT_CPU_WORDS * sizeof(unsigned long), allowed);
}

/// The CPUs the calling thread may run on, in `set` (TABLEFMT_CPU_WORDS words); 0 when unknown.
static inline int tablefmt_cpus(unsigned long *set) {
    return sched_getaffinity(0, TABLEFMT_CPU_WORDS * sizeof(unsigned long), set) == 0;
}
#else
static inline int tablefmt_start_elsewhere(pthread_attr_t *attributes, unsigned long *allowed) {
    (void)attributes;
    (void)allowed;
    return 0;
}
static inline void tablefmt_allow(const unsigned long *allowed) { (void)allowed; }
static inline int tablefmt_cpus(unsigned long *set) {
    (void)set;
    return 0;
}
#endif

#endif
