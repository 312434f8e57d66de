#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
static long counter = 0;
long malloc_count(void) { return counter; }
void *malloc(size_t n) { static void *(*real)(size_t); if (!real) real = dlsym(RTLD_NEXT, "malloc"); __atomic_add_fetch(&counter, 1, __ATOMIC_RELAXED); return real(n); }
int posix_memalign(void **p, size_t a, size_t n) { static int (*real)(void **, size_t, size_t); if (!real) real = dlsym(RTLD_NEXT, "posix_memalign"); __atomic_add_fetch(&counter, 1, __ATOMIC_RELAXED); return real(p, a, n); }
