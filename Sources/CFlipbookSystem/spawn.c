/*
 * spawn.c -- fork + exec of a child that dies with its parent (PR_SET_PDEATHSIG), for the
 * video sinks' ffmpeg: a parent killed by SIGKILL must not leave ffmpeg running.
 * Between fork and exec the child calls only async-signal-safe functions.
 */
#define _GNU_SOURCE
#include "flipbook_system.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

pid_t fbk_spawn_tied(const char *path, char *const argv[], char *const envp[], int stdin_fd, int out_fd, int *err) {
    int report[2];
    *err = 0;
    if (pipe2(report, O_CLOEXEC) != 0) { *err = errno; return -1; }
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        *err = errno;
        close(report[0]); close(report[1]);
        return -1;
    }
    if (pid == 0) {
#ifdef __linux__
        prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
        if (getppid() != parent) _exit(127);   /* the parent died before the prctl */
        if (dup2(stdin_fd, 0) < 0 || dup2(out_fd, 1) < 0 || dup2(out_fd, 2) < 0) {
            int e = errno; (void)!write(report[1], &e, sizeof e); _exit(127);
        }
        execve(path, argv, envp);
        int e = errno;
        (void)!write(report[1], &e, sizeof e);
        _exit(127);
    }
    close(report[1]);
    int e = 0;
    ssize_t n;
    do { n = read(report[0], &e, sizeof e); } while (n < 0 && errno == EINTR);
    close(report[0]);
    if (n == (ssize_t)sizeof e) {           /* exec failed: reap the child, report */
        int status;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
        *err = e;
        return -1;
    }
    return pid;
}
