#!/usr/bin/env bash
# The platform layer (CONTRACT §14, README "Platforms"): every C library call of a module is
# made in that module's `Platform/` folder, where `#if canImport(Darwin)` / `canImport(Glibc)` /
# `canImport(Musl)` branches follow each platform's declarations. Outside `Platform/`:
#   - no `import Glibc|Darwin|Musl` (Sources), no unguarded one (Tests);
#   - no module-qualified `Glibc.x` / `Darwin.x` / `Musl.x` (Sources and Tests): such a name
#     does not exist on the other platform;
#   - no call of a libc function from the list below (Sources; Foundation re-exports libc, so
#     the compiler would not notice). Calls through a wrapper (`LibC.read`, `Posix.write`) and
#     a file's own functions of the same name (`func write(`, `case read(`) are fine.
# Tests are the project's own programs, run on Linux and macOS; they may call libc through
# Foundation (the same names on both) but not name one platform's module.
# `exit(3)` is not listed: Foundation exports it alike everywhere.
set -euo pipefail
cd "$(dirname "$0")/../.."

python3 - <<'PY'
import os, re, sys

LIBC = """
read write close open openat pread pwrite lseek fstat lstat stat ftruncate fsync unlink chmod fchmod umask
mkdir rmdir mkdtemp realpath access dup dup2 fcntl ioctl isatty tcgetpgrp getpgrp getpgid pipe pipe2
poll select socket socketpair bind listen accept connect shutdown setsockopt getsockopt getsockname
getpeername recv recvfrom sendto sendmsg recvmsg getaddrinfo freeaddrinfo inet_pton inet_ntop htons ntohs
kill signal sigaction raise pause sigemptyset sigfillset sigaddset sigdelset sigprocmask pthread_sigmask
waitpid wait posix_spawn posix_spawnp fork vfork execv execve execvp
posix_spawn_file_actions_init posix_spawn_file_actions_destroy posix_spawn_file_actions_adddup2
posix_spawn_file_actions_addclose posix_spawn_file_actions_addinherit_np posix_spawn_file_actions_addchdir_np
posix_spawnattr_init posix_spawnattr_destroy posix_spawnattr_setflags posix_spawnattr_setsigmask
posix_spawnattr_setsigdefault dlopen dlsym dlerror
pthread_self pthread_create pthread_join pthread_setname_np pthread_set_qos_class_self_np
pthread_mutex_init pthread_mutex_lock pthread_mutex_trylock pthread_mutex_unlock pthread_mutex_destroy
os_unfair_lock_lock os_unfair_lock_trylock os_unfair_lock_unlock os_unfair_lock_assert_owner
getpid getppid getuid geteuid getpriority setpriority getrlimit setrlimit sysconf
clock_gettime gettimeofday nanosleep usleep sleep sched_yield atexit _exit abort
getenv setenv unsetenv strerror strdup strlen strcmp strncmp memchr memcmp memcpy memmove memset
malloc calloc realloc free fflush fwrite fputs fprintf fopen fclose fileno getrandom arc4random_buf
log2 exp2
""".split()
call = re.compile(r'(?<![\w.$])(' + '|'.join(map(re.escape, sorted(set(LIBC), key=len, reverse=True))) + r')\s*\(')
qualified = re.compile(r'(?<![\w.])(Glibc|Darwin|Musl)\.\w+')
libc_import = re.compile(r'^\s*(@[\w]+\s+)*import\s+(Glibc|Darwin|Musl)\b')
string_literal = re.compile(r'#"(?:[^"\\]|\\.)*"#|"(?:[^"\\]|\\.)*"')

def in_platform(path):
    return '/Platform/' in path

def code_lines(text):
    """Each line without comments and string literals (multi-line strings dropped whole)."""
    out, in_block, in_multi = [], False, False
    for line in text.split('\n'):
        if in_multi:
            if '"""' in line: in_multi = False
            out.append(''); continue
        if line.strip().startswith('"""') or line.rstrip().endswith('"""') and line.count('"""') == 1:
            in_multi = line.count('"""') == 1
            out.append(''); continue
        if in_block:
            if '*/' in line: line = line.split('*/', 1)[1]; in_block = False
            else: out.append(''); continue
        line = string_literal.sub('""', line)
        if '/*' in line and '*/' not in line: line, in_block = line.split('/*', 1)[0], True
        out.append(line.split('//', 1)[0])
    return out

# Functions each module declares itself (a method `pause(_:)` in an extension elsewhere in the
# module is not libc's `pause()`).
module_functions = {}
for directory, _, files in os.walk('Sources'):
    module = directory.split(os.sep)[1] if directory.count(os.sep) else ''
    for name in files:
        if name.endswith('.swift') and not in_platform(os.path.join(directory, name)):
            text = open(os.path.join(directory, name), encoding='utf-8').read()
            module_functions.setdefault(module, set()).update(re.findall(r'\bfunc\s+`?(\w+)`?\s*[<(]', text))

failures = []
for root in ('Sources', 'Tests'):
    for directory, _, files in os.walk(root):
        for name in sorted(files):
            if not name.endswith('.swift'): continue
            path = os.path.join(directory, name)
            if in_platform(path): continue
            text = open(path, encoding='utf-8').read()
            lines = code_lines(text)
            own = set(module_functions.get(path.split(os.sep)[1], ())) if root == 'Sources' else set()
            own |= set(re.findall(r'\b(?:func|case)\s+`?(\w+)`?\s*[<(]', text))
            own |= set(re.findall(r'\b(?:let|var)\s+(\w+)\s*[:=]', text))
            own |= set(re.findall(r'[(,]\s*(\w+)\s*:\s*@escaping', text))
            guard_depth = 0
            for number, line in enumerate(lines, 1):
                stripped = line.strip()
                if stripped.startswith('#if'): guard_depth += 1
                elif stripped.startswith('#endif'): guard_depth = max(0, guard_depth - 1)
                where = f'{path}:{number}'
                if libc_import.match(line):
                    if root == 'Sources':
                        failures.append(f'{where}: imports a C library module outside Platform/: {stripped}')
                    elif guard_depth == 0:
                        failures.append(f'{where}: unguarded C library import (use #if canImport): {stripped}')
                for m in qualified.finditer(line):
                    failures.append(f'{where}: module-qualified {m.group(0)} names one platform\'s module: {stripped}')
                if root != 'Sources': continue
                for m in call.finditer(line):
                    name = m.group(1)
                    if name in own: continue
                    if re.search(r'\b(func|case|init)\s*$', line[:m.start()]): continue
                    failures.append(f'{where}: calls {name}() outside Platform/ (use the module\'s platform layer): {stripped}')

for failure in failures: print('platform-layer: ' + failure)
if failures:
    print(f'platform-layer: {len(failures)} problem(s); see README "Platforms"')
    sys.exit(1)
print('platform-layer: every C library call and import is in a Platform/ folder')
PY
