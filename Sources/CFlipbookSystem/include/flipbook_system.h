#ifndef FLIPBOOK_SYSTEM_H
#define FLIPBOOK_SYSTEM_H
/// Process plumbing the Swift side cannot express with posix_spawn (Linux).
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Starts `path` with `argv` and `envp`, its stdin from `stdin_fd` and stdout and stderr to
/// `out_fd`, as a child that dies with its parent: the child sets PR_SET_PDEATHSIG (SIGKILL)
/// before exec, and exits at once if the parent is already gone. Returns the child's pid, or
/// -1 with `*err` set to the errno of the failed fork or exec (reported through a close-on-exec
/// pipe, so an exec failure is seen by the caller as posix_spawn would report it).
pid_t fbk_spawn_tied(const char *path, char *const argv[], char *const envp[], int stdin_fd, int out_fd, int *err);

#ifdef __cplusplus
}
#endif
#endif
