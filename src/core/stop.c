/*
 * core/stop: record SIGUSR1 / SIGTERM for a stop at the next safe point (pvox/stop.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "pvox/stop.h"

#include <signal.h>
#include <stdio.h>
#include <time.h>

static volatile sig_atomic_t stop_sig;  /* the first stop signal, 0: none */
static volatile sig_atomic_t stop_when; /* when it came, in tenths of a second after ... */
static struct timespec installed;       /* ... the handlers were installed (set before) */

static long tenths_since_install(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0) return 0;
    return (long)(ts.tv_sec - installed.tv_sec) * 10 + (ts.tv_nsec - installed.tv_nsec) / 100000000;
}

/* Only async-signal-safe calls here: clock_gettime, signal, raise. */
static void on_stop_signal(int sig)
{
    if (!stop_sig) {
        stop_when = (sig_atomic_t)tenths_since_install();
        stop_sig = sig;
        return;
    }
    if (tenths_since_install() - (long)stop_when <= 10L * PV_STOP_REPEAT_S)
        return; /* the same request delivered twice */
    /* asked again: die as if no handler were installed (the signal is blocked while
     * this runs, and delivered with the default action when it returns) */
    signal(sig, SIG_DFL);
    raise(sig);
}

void pv_stop_install(void)
{
    clock_gettime(CLOCK_MONOTONIC, &installed);
    struct sigaction sa;
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGUSR1);
    sigaddset(&sa.sa_mask, SIGTERM);
    sa.sa_flags = SA_RESTART; /* system calls in flight (writes, MPI's polls) go on */
    sigaction(SIGUSR1, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

int pv_stop_signal(void)
{
    return (int)stop_sig;
}

const char *pv_stop_signal_name(int sig, char buf[24])
{
    if (sig == SIGUSR1) return "SIGUSR1";
    if (sig == SIGTERM) return "SIGTERM";
    snprintf(buf, 24, "signal %d", sig);
    return buf;
}
