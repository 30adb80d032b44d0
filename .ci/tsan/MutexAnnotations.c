// Makes Swift's `Synchronization.Mutex` visible to ThreadSanitizer on Linux.
//
// Mutex's fast paths (an atomic compare-exchange on its futex word) are inlined into the
// caller, so TSan sees them. Its slow paths — `_MutexHandle._lockSlow`, `_tryLockSlow` and
// `_unlockSlow`, taken whenever two threads contend — live in the uninstrumented
// libswiftSynchronization.so and hand the lock over through the kernel (FUTEX_LOCK_PI), so
// TSan misses that hand-over and reports every access the lock protects as a race.
//
// Preloaded (LD_PRELOAD) by .ci/checks/45-tsan.sh, this library interposes those three
// functions with the same algorithm (the standard library's LinuxImpl.swift: spin, then
// FUTEX_LOCK_PI / FUTEX_TRYLOCK_PI / FUTEX_UNLOCK_PI on the word holding the owner's tid) and
// tells TSan about the hand-over: `__tsan_acquire` on the word once the lock is taken,
// `__tsan_release` before it is given back. The TSan entry points are weak, so in a process
// without TSan (a shell the tests start, the swift driver) nothing changes.
//
// Swift passes the borrowed `_MutexHandle` (address-only: it holds an Atomic) by address in
// the swiftself register (clang: swift_context), and the thread id as the first argument.

#include <errno.h>
#include <linux/futex.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

__attribute__((weak)) void __tsan_acquire(void *addr);
__attribute__((weak)) void __tsan_release(void *addr);

#define SWIFTCC __attribute__((swiftcall))
#define SWIFT_SELF __attribute__((swift_context))  // clang's name for the swiftself register

static void acquired(uint32_t *word) {
  if (__tsan_acquire) __tsan_acquire(word);
}

static void releasing(uint32_t *word) {
  if (__tsan_release) __tsan_release(word);
}

static long futex(uint32_t *word, int op) { return syscall(SYS_futex, word, op, 0, NULL, NULL, 0); }

SWIFTCC void lockSlow(uint32_t selfId, SWIFT_SELF uint32_t *word)
    __asm__("$s15Synchronization12_MutexHandleV9_lockSlowyys6UInt32VF");
SWIFTCC void lockSlow(uint32_t selfId, SWIFT_SELF uint32_t *word) {
  for (int tries = 1000; tries > 0; tries--) {
    uint32_t expected = 0;
    if (__atomic_load_n(word, __ATOMIC_RELAXED) == 0 &&
        __atomic_compare_exchange_n(word, &expected, selfId, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
      acquired(word);
      return;
    }
    __builtin_ia32_pause();
  }
  for (;;) {
    if (futex(word, FUTEX_LOCK_PI_PRIVATE) == 0) {
      acquired(word);
      return;
    }
    if (errno == EINTR || errno == EAGAIN) continue;
    abort();  // EDEADLK (recursive lock) and the rest: the standard library traps too
  }
}

SWIFTCC _Bool tryLockSlow(SWIFT_SELF uint32_t *word) __asm__("$s15Synchronization12_MutexHandleV12_tryLockSlowSbyF");
SWIFTCC _Bool tryLockSlow(SWIFT_SELF uint32_t *word) {
  if (futex(word, FUTEX_TRYLOCK_PI_PRIVATE) == 0) {
    acquired(word);
    return 1;
  }
  if (errno == EDEADLK) abort();
  return 0;
}

SWIFTCC void unlockSlow(SWIFT_SELF uint32_t *word) __asm__("$s15Synchronization12_MutexHandleV11_unlockSlowyyF");
SWIFTCC void unlockSlow(SWIFT_SELF uint32_t *word) {
  releasing(word);
  for (;;) {
    if (futex(word, FUTEX_UNLOCK_PI_PRIVATE) == 0) return;
    if (errno == EINTR) continue;
    abort();  // EPERM (not the owner) and the rest: the standard library traps too
  }
}
