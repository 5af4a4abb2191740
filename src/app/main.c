/*
 * app/main.c: pvox's entry point: MPI set-up, the command line, running the -e commands
 * and scripts in order, and the exit code.
 *
 * SPMD: every rank parses the same argv and runs the same interpreter over the same text;
 * the interpreter's collectives agree every failure, and main agrees once more after each
 * script so all ranks leave the loop together. Only rank 0 prints. Exit codes (README):
 * 0 ok, 1 script error, 2 usage, 3 runtime or I/O, 75 stopped by a signal (resumable); a
 * script's `exit` chooses its own.
 * Only this file calls exit-like paths (returning from main); nothing below app/ does.
 */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "mpi_start.h"
#include "pvox/exec.h"
#include "pvox/stats.h"
#include "pvox/stop.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Rank 0 makes sure -o DIR is a directory (creating one level if missing) that takes a
 * new file, before the script runs: a probe file is created and removed (a permission
 * test would pass for root on a file system that refuses files). Collective. */
static pv_status check_outdir(pv_ctx *ctx)
{
    pv_status st = PV_OK;
    const char *dir = ctx->opt.outdir;
    if (ctx->rank == 0 && dir) {
        struct stat sb;
        if (stat(dir, &sb) != 0) {
            if (errno != ENOENT || mkdir(dir, 0777) != 0)
                st = pv_err(ctx, PV_EIO, "cannot use output directory '%s': %s", dir,
                            strerror(errno));
        } else if (!S_ISDIR(sb.st_mode)) {
            st = pv_err(ctx, PV_EIO, "cannot use output directory '%s': %s", dir,
                        strerror(ENOTDIR));
        }
        if (st == PV_OK) {
            char probe[4096];
            snprintf(probe, sizeof probe, "%s/.pvox-probe-%ld", dir, (long)getpid());
            int fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0600);
            if (fd < 0) {
                st = pv_err(ctx, PV_EIO, "cannot write in output directory '%s': %s", dir,
                            strerror(errno));
            } else {
                close(fd);
                unlink(probe);
            }
        }
    }
    return pv_status_agree(ctx, st);
}

/* Run every action in order; stop at the first error or `exit`. Collective. */
static pv_status run_actions(pv_ctx *ctx, pv_interp *I, const pv_cli *cli)
{
    pv_status st = PV_OK;
    for (int i = 0; i < cli->nactions && st == PV_OK; i++) {
        const pv_action *a = &cli->actions[i];
        if (a->kind == PV_ACT_EXPR)
            st = pv_interp_run_text(I, "-e", a->arg, strlen(a->arg));
        else
            st = pv_interp_run_file(I, a->arg);
        st = pv_status_agree(ctx, st);
    }
    return st;
}

/* Everything after the command line: context, interpreter, the run. Returns the exit code. */
static int run(const pv_cli *cli, int mpi_thread_level, pv_mpi_tuning tuning)
{
    pv_ctx *ctx = pv_ctx_create(MPI_COMM_WORLD, &cli->opt);
    int ok = ctx != NULL, all_ok = 0;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (!all_ok) {
        int wrank = 0;
        MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
        if (wrank == 0) fputs("pvox: error: out of memory creating the run context\n", stderr);
        pv_ctx_destroy(ctx);
        return PV_EXIT_RUNTIME;
    }
    if (mpi_thread_level < MPI_THREAD_FUNNELED)
        pv_log(ctx, PV_LOG_WARN, "app", "MPI gives thread level %d, below MPI_THREAD_FUNNELED",
               mpi_thread_level);
    pv_log(ctx, PV_LOG_DEBUG, "app", "pvox %s on %d ranks x %d threads", PV_VERSION_STRING,
           ctx->nranks, ctx->nthreads);
    pv_log(ctx, PV_LOG_DEBUG, "app", "MPI start-up settings: %s", pv_mpi_tuning_name(tuning));
    if (pv_mpi_session_dir())
        pv_log(ctx, PV_LOG_DEBUG, "app", "MPI session directory: %s", pv_mpi_session_dir());

    pv_interp *I = NULL;
    pv_status st = check_outdir(ctx);
    if (st == PV_OK) {
        I = pv_interp_create(ctx);
        st = pv_status_agree(ctx, I ? PV_OK : (ctx->err_code ? ctx->err_code : PV_ENOMEM));
    }
    /* the scripts of the command line, hashed together into a checkpoint's job hash */
    const char **scripts = calloc((size_t)cli->nactions + 1, sizeof *scripts);
    if (st == PV_OK)
        st = pv_status_agree(ctx, scripts ? PV_OK : pv_err(ctx, PV_ENOMEM, "out of memory"));
    if (st == PV_OK) {
        int n = 0;
        for (int i = 0; i < cli->nactions; i++)
            if (cli->actions[i].kind != PV_ACT_EXPR) scripts[n++] = cli->actions[i].arg;
        pv_interp_set_job_scripts(I, scripts, n);
    }
    if (st == PV_OK) st = run_actions(ctx, I, cli);

    int rc = st == PV_EEXIT ? ctx->exit_code : pv_status_exit_code(st);
    fflush(stdout);
    pv_err_print(ctx);
    /* --stats: what was recorded, also after a failed script (every rank is here: the
     * status was agreed); a failure to write it decides the exit code only on its own */
    if (ctx->opt.stats_path) {
        pv_err_clear(ctx);
        pv_status sst = pv_stats_write(ctx);
        if (sst != PV_OK) {
            pv_err_print(ctx);
            if (rc == PV_EXIT_OK) rc = pv_status_exit_code(sst);
        }
    }
    pv_log(ctx, PV_LOG_DEBUG, "app", "peak tracked memory %zu bytes on rank %d, %.3f s",
           ctx->mem_peak, ctx->rank, pv_elapsed(ctx));
    /* for fault sweeps (tests/fault): how far N can go on the rank being tested */
    if (ctx->opt.fail_alloc_at > 0 && ctx->opt.fail_alloc_one_rank &&
        ctx->opt.fail_alloc_rank == ctx->rank)
        fprintf(stderr, "pvox: rank %d made %ld counted allocations\n", ctx->rank,
                ctx->nallocs);
    pv_interp_destroy(I);
    free(scripts);
    pv_ctx_destroy(ctx);
    return rc;
}

int main(int argc, char **argv)
{
    /* past the file size limit (ulimit -f) a write fails with EFBIG, which every writer
     * reports (exit 3, the old file kept), instead of SIGXFSZ ending the process silently */
    signal(SIGXFSZ, SIG_IGN);
    int provided = 0;
    pv_mpi_tuning tuning = pv_mpi_tune_env();
    if (MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
        fputs("pvox: error: MPI initialisation failed\n", stderr);
        return PV_EXIT_RUNTIME;
    }
    pv_mpi_untune_env();
    int wrank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    pv_stop_install(); /* SIGUSR1/SIGTERM: stop at a safe point, exit 75 (pvox/stop.h) */

    pv_cli cli;
    int rc;
    if (pv_cli_parse(argc, argv, &cli) != PV_OK) {
        if (wrank == 0) pv_cli_print_usage_error(stderr, cli.error ? cli.error : "bad usage");
        rc = PV_EXIT_USAGE;
    } else if (cli.help) {
        if (wrank == 0) pv_cli_print_help(stdout);
        rc = PV_EXIT_OK;
    } else if (cli.plan) { /* arithmetic only, no collective: rank 0 prints */
        if (wrank == 0) pv_plan_print(&cli.plan_args, stdout);
        rc = PV_EXIT_OK;
    } else if (cli.version) {
        if (wrank == 0) pv_cli_print_version(stdout);
        rc = PV_EXIT_OK;
    } else {
        rc = run(&cli, provided, tuning);
    }
    pv_cli_free(&cli);
    fflush(stdout);
    fflush(stderr);
    MPI_Finalize();
    pv_mpi_session_remove(); /* the singleton's own session directory (mpi_start.h) */
    return rc;
}
