/*
 * io/png_async.c: the PNG writer thread (png_async.h). A mutex and a condition variable
 * guard one job slot; the thread sleeps until a job arrives or it is told to stop.
 */
#include "pvox/png_async.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct pv_png_async {
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool queued;             /* a job waits for the thread */
    bool running;            /* the thread works on it */
    bool quit;
    /* the job */
    pv_ctx shadow;           /* the caller's context, copied: errors land here */
    char *path;
    int width, height, channels;
    const uint8_t *pixels;
    size_t stride;
    pv_png_options opt;
    bool has_opt;
    /* its result, until taken */
    bool has_result;
    pv_status status;
    char *msg;
    double seconds;
};

static double now_sec(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void *worker(void *arg)
{
    pv_png_async *a = arg;
    pthread_mutex_lock(&a->mu);
    for (;;) {
        while (!a->queued && !a->quit) pthread_cond_wait(&a->cv, &a->mu);
        if (!a->queued) break; /* quit with nothing left */
        a->queued = false;
        a->running = true;
        pthread_mutex_unlock(&a->mu);

        double t0 = now_sec();
        pv_ctx *sh = &a->shadow;
        pv_status st = pv_png_write(sh, a->path, a->width, a->height, a->channels, a->pixels,
                                    a->stride, a->has_opt ? &a->opt : NULL);
        char *msg = st != PV_OK && sh->err_msg ? strdup(sh->err_msg) : NULL;
        free(sh->err_msg);
        sh->err_msg = NULL;
        sh->err_code = PV_OK;
        double dt = now_sec() - t0;

        pthread_mutex_lock(&a->mu);
        a->running = false;
        a->has_result = true;
        a->status = st;
        a->msg = msg;
        a->seconds = dt;
        pthread_cond_broadcast(&a->cv);
    }
    pthread_mutex_unlock(&a->mu);
    return NULL;
}

pv_png_async *pv_png_async_create(pv_ctx *ctx)
{
    pv_png_async *a = calloc(1, sizeof *a);
    if (!a) {
        pv_err(ctx, PV_ENOMEM, "out of memory");
        return NULL;
    }
    pthread_mutex_init(&a->mu, NULL);
    pthread_cond_init(&a->cv, NULL);
    if (pthread_create(&a->thread, NULL, worker, a) != 0) {
        pthread_cond_destroy(&a->cv);
        pthread_mutex_destroy(&a->mu);
        free(a);
        pv_err(ctx, PV_EINTERNAL, "cannot start the PNG writer thread");
        return NULL;
    }
    return a;
}

/* Wait until no job is queued or running (mutex held). */
static void idle_locked(pv_png_async *a)
{
    while (a->queued || a->running) pthread_cond_wait(&a->cv, &a->mu);
}

void pv_png_async_destroy(pv_ctx *ctx, pv_png_async *a)
{
    (void)ctx;
    if (!a) return;
    pthread_mutex_lock(&a->mu);
    idle_locked(a);
    a->quit = true;
    pthread_cond_broadcast(&a->cv);
    pthread_mutex_unlock(&a->mu);
    pthread_join(a->thread, NULL);
    pthread_cond_destroy(&a->cv);
    pthread_mutex_destroy(&a->mu);
    free(a->path);
    free(a->msg);
    free(a);
}

pv_status pv_png_async_submit(pv_ctx *ctx, pv_png_async *a, const char *path, int width,
                              int height, int channels, const uint8_t *pixels, size_t stride,
                              const pv_png_options *opt)
{
    char *p = strdup(path);
    if (!p) return pv_err(ctx, PV_ENOMEM, "out of memory");
    pthread_mutex_lock(&a->mu);
    idle_locked(a);
    if (a->has_result) { /* not taken: the caller broke the contract; drop it */
        free(a->msg);
        a->msg = NULL;
        a->has_result = false;
    }
    free(a->path);
    a->path = p;
    a->shadow = *ctx;
    a->shadow.err_code = PV_OK;
    a->shadow.err_msg = NULL;
    a->shadow.err_located = false;
    a->width = width, a->height = height, a->channels = channels;
    a->pixels = pixels;
    a->stride = stride;
    a->has_opt = opt != NULL;
    if (opt) a->opt = *opt;
    a->queued = true;
    pthread_cond_broadcast(&a->cv);
    pthread_mutex_unlock(&a->mu);
    return PV_OK;
}

pv_status pv_png_async_wait(pv_png_async *a, char **msg, double *seconds)
{
    pthread_mutex_lock(&a->mu);
    idle_locked(a);
    pv_status st = a->has_result ? a->status : PV_OK;
    if (msg) *msg = a->has_result ? a->msg : NULL;
    else free(a->msg);
    if (seconds) *seconds = a->has_result ? a->seconds : 0.0;
    a->msg = NULL;
    a->has_result = false;
    pthread_mutex_unlock(&a->mu);
    return st;
}
