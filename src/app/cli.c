/*
 * app/cli.c: command-line parsing for pvox (see pv_cli_print_help for the user's view).
 *
 * gnuplot processes its -e commands and script files in command-line order; so do we: the
 * actions keep argv order. Options may appear anywhere before "--"; after "--" every
 * argument is a script. An option's value is the next argument, or follows "=" for long
 * options (--threads=4).
 */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char usage_line[] = "usage: pvox [options] [-e \"commands\"] job.gp [more.gp ...]";

static pv_status usage(pv_cli *cli, const char *fmt, ...) PV_PRINTF(2, 3);
static pv_status usage(pv_cli *cli, const char *fmt, ...)
{
    if (!cli->error) {
        va_list ap;
        va_start(ap, fmt);
        cli->error = pv_vasprintf(fmt, ap);
        va_end(ap);
    }
    return PV_EUSAGE;
}

bool pv_parse_size(const char *s, size_t *out)
{
    errno = 0;
    char *end;
    double v = strtod(s, &end);
    if (end == s || errno || !(v > 0) || !isfinite(v)) return false;
    double mult = 1;
    const char *units = "KMGTPE";
    if (*end) {
        const char *u = strchr(units, *end >= 'a' && *end <= 'z' ? *end - 32 : *end);
        if (u && *end) {
            for (const char *k = units; k <= u; k++) mult *= 1024;
            end++;
            if (*end == 'i') end++;
        }
        if (*end == 'B' || *end == 'b') end++;
    }
    if (*end) return false;
    double bytes = v * mult;
    if (bytes >= 18446744073709551615.0 || bytes > (double)SIZE_MAX) return false;
    *out = (size_t)bytes;
    return *out > 0;
}

static bool parse_threads(const char *s, int *out)
{
    errno = 0;
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || *end || errno || v < 1 || v > 4096) return false;
    *out = (int)v;
    return true;
}

static bool parse_count(const char *s, long *out)
{
    errno = 0;
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || *end || errno || v < 0) return false;
    *out = v;
    return true;
}

/* --fail-alloc-at N[@RANK][/SIZE]: the N-th tracked allocation fails on every rank, or
 * on that rank only (the others go on, so failures one rank meets alone can be tested);
 * with /SIZE only allocations of at least SIZE bytes are counted (a sweep over the large
 * ones stays short). */
static bool parse_fail_alloc(const char *s, pv_options *opt)
{
    char count_s[32], rank_s[32] = "-1";
    size_t min = 0;
    const char *slash = strchr(s, '/'), *at = strchr(s, '@');
    if (slash && strcmp(slash + 1, "0") != 0 && !pv_parse_size(slash + 1, &min)) return false;
    size_t end = slash ? (size_t)(slash - s) : strlen(s);
    if (at && (size_t)(at - s) > end) return false;
    size_t ncount = at ? (size_t)(at - s) : end;
    size_t nrank = at ? end - ncount - 1 : 0;
    if (ncount >= sizeof count_s || nrank >= sizeof rank_s) return false;
    memcpy(count_s, s, ncount);
    count_s[ncount] = '\0';
    if (at) {
        memcpy(rank_s, at + 1, nrank);
        rank_s[nrank] = '\0';
    }
    long count, rank = -1;
    if (!parse_count(count_s, &count)) return false;
    if (at && (!parse_count(rank_s, &rank) || rank > INT_MAX)) return false;
    opt->fail_alloc_at = count;
    opt->fail_alloc_one_rank = at != NULL;
    opt->fail_alloc_rank = at ? (int)rank : 0;
    opt->fail_alloc_min = min;
    return true;
}

/* If argv[*i] is the long option `name` (with "=value" or a separate value), store the
 * value in *val, advance *i past it and return 1; return 0 if it is another option;
 * -1 if the value is missing. */
static int long_value(int argc, char **argv, int *i, const char *name, const char **val)
{
    size_t n = strlen(name);
    const char *a = argv[*i];
    if (strncmp(a, name, n) != 0) return 0;
    if (a[n] == '=') {
        *val = a + n + 1;
        return 1;
    }
    if (a[n] != '\0') return 0;
    if (*i + 1 >= argc) return -1;
    *val = argv[++*i];
    return 1;
}

static void add_action(pv_cli *cli, pv_action_kind kind, const char *arg)
{
    cli->actions[cli->nactions++] = (pv_action){kind, arg};
}

/* Options taking a value: returns PV_OK if argv[*i] was one of them (handled), PV_EUSAGE
 * on a bad value, and PV_EINTERNAL if argv[*i] is none of them. */
static pv_status valued(pv_cli *cli, int argc, char **argv, int *i)
{
    static const char *const names[] = {"-e", "-o", "--outdir", "--threads", "--max-memory",
                                         "--fail-alloc-at", "--checkpoint",
                                         "--checkpoint-every", "--resume",
                                         "--batch-triangles", "--stats", "--iso-cache",
                                         "--frame-writer", "--frame-encode"};
    const char *val = NULL;
    int which = -1;
    for (int k = 0; k < (int)(sizeof names / sizeof names[0]); k++) {
        int r = long_value(argc, argv, i, names[k], &val);
        if (r < 0) return usage(cli, "option '%s' needs a value", names[k]);
        if (r > 0) {
            which = k;
            break;
        }
    }
    switch (which) {
    case 0: add_action(cli, PV_ACT_EXPR, val); return PV_OK;
    case 1:
    case 2:
        if (!*val) return usage(cli, "option '%s' needs a directory name", names[which]);
        cli->opt.outdir = val;
        return PV_OK;
    case 3:
        if (!parse_threads(val, &cli->opt.nthreads))
            return usage(cli, "invalid thread count '%s' (expected an integer from 1 to 4096)",
                         val);
        return PV_OK;
    case 4:
        if (!pv_parse_size(val, &cli->opt.max_memory))
            return usage(cli, "invalid memory size '%s' (expected e.g. 512M, 4G, 1.5GiB)", val);
        return PV_OK;
    case 5:
        if (!parse_fail_alloc(val, &cli->opt))
            return usage(cli, "invalid allocation count '%s' (expected N, N@RANK or N@RANK/SIZE)", val);
        return PV_OK;
    case 6:
    case 8:
        if (!*val) return usage(cli, "option '%s' needs a file name", names[which]);
        if (which == 6) cli->opt.checkpoint = val;
        else cli->opt.resume = val;
        return PV_OK;
    case 7: {
        char *end = NULL;
        if (!strcmp(val, "auto")) {
            cli->opt.checkpoint_every = PV_CHECKPOINT_AUTO;
            return PV_OK;
        }
        double sec = strtod(val, &end);
        if (!*val || *end || !(sec >= 0) || sec > 1e9)
            return usage(cli, "invalid interval '%s' (expected seconds, e.g. 600, or auto)", val);
        cli->opt.checkpoint_every = sec;
        return PV_OK;
    }
    case 9:
        if (!parse_count(val, &cli->opt.batch_triangles) || cli->opt.batch_triangles < 1)
            return usage(cli, "invalid triangle count '%s' (expected a positive integer)", val);
        return PV_OK;
    case 10:
        if (!*val) return usage(cli, "option '%s' needs a file name", names[which]);
        cli->opt.stats_path = val;
        return PV_OK;
    case 11: {
        long mib = 0;
        if (!parse_count(val, &mib) || mib > (1L << 30))
            return usage(cli, "invalid size '%s' (expected MiB, e.g. 256; 0 keeps none)", val);
        cli->opt.iso_cache_bytes = (size_t)mib << 20;
        return PV_OK;
    }
    case 12: {
        long r = 0;
        if (!strcmp(val, "rotate")) cli->opt.frame_writer = -1;
        else if (parse_count(val, &r) && r < (1L << 30)) cli->opt.frame_writer = (int)r;
        else return usage(cli, "invalid frame writer '%s' (expected `rotate` or a rank)", val);
        return PV_OK;
    }
    case 13:
        if (!strcmp(val, "pieces")) cli->opt.frame_encode_writer = false;
        else if (!strcmp(val, "writer")) cli->opt.frame_encode_writer = true;
        else return usage(cli, "invalid frame encoding '%s' (expected `pieces` or `writer`)", val);
        return PV_OK;
    default: return PV_EINTERNAL;
    }
}

/* Options without a value. Returns false if `a` is none of them. */
static bool flag(pv_cli *cli, const char *a, bool *progress_set)
{
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
        cli->help = true;
    } else if (!strcmp(a, "-V") || !strcmp(a, "--version")) {
        cli->version = true;
    } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
        cli->opt.quiet = true;
    } else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
        cli->opt.log_level = PV_LOG_INFO;
    } else if (!strcmp(a, "-vv") || !strcmp(a, "--debug")) {
        cli->opt.log_level = PV_LOG_DEBUG;
    } else if (!strcmp(a, "--progress")) {
        cli->opt.progress = true;
        *progress_set = true;
    } else if (!strcmp(a, "--check")) {
        cli->opt.check_only = true;
    } else if (!strcmp(a, "--no-progress")) {
        cli->opt.progress = false;
        *progress_set = true;
    } else if (!strcmp(a, "--log-all-ranks")) {
        cli->opt.log_all_ranks = true;
    } else if (!strcmp(a, "--no-shell")) {
        cli->opt.no_shell = true;
    } else if (!strcmp(a, "--resume-if-exists")) {
        cli->opt.resume_if_exists = true;
    } else {
        return false;
    }
    return true;
}

pv_status pv_cli_parse(int argc, char **argv, pv_cli *cli)
{
    memset(cli, 0, sizeof *cli);
    pv_options_default(&cli->opt);
    cli->actions = calloc(argc > 0 ? (size_t)argc : 1, sizeof *cli->actions);
    if (!cli->actions) return usage(cli, "out of memory");
    if (pv_plan_wanted(argc, argv)) { /* the whole command line is the planner's */
        cli->plan = true;
        return pv_plan_parse(argc, argv, &cli->plan_args, &cli->help, &cli->error);
    }
    bool progress_set = false, only_scripts = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (only_scripts || a[0] != '-' || !strcmp(a, "-")) {
            add_action(cli, PV_ACT_SCRIPT, a);
            continue;
        }
        if (!strcmp(a, "--")) {
            only_scripts = true;
            continue;
        }
        if (flag(cli, a, &progress_set)) continue;
        pv_status st = valued(cli, argc, argv, &i);
        if (st == PV_EUSAGE) return st;
        if (st == PV_EINTERNAL) return usage(cli, "unknown option '%s'", a);
    }
    if (cli->opt.quiet) {
        if (cli->opt.log_level > PV_LOG_WARN) cli->opt.log_level = PV_LOG_WARN;
        if (!progress_set) cli->opt.progress = false;
    } else if (!progress_set) {
        cli->opt.progress = isatty(STDERR_FILENO) != 0;
    }
    if (cli->opt.resume_if_exists && !cli->opt.resume && !cli->opt.checkpoint)
        return usage(cli, "--resume-if-exists needs --checkpoint FILE (or --resume FILE)");
    if (!cli->help && !cli->version && cli->nactions == 0)
        return usage(cli, "no job script given (use '-' to read one from standard input)");
    return PV_OK;
}

void pv_cli_free(pv_cli *cli)
{
    free(cli->actions);
    free(cli->error);
    cli->actions = NULL;
    cli->error = NULL;
}

void pv_cli_print_usage_error(FILE *f, const char *msg)
{
    fprintf(f, "pvox: error: %s\n%s\ntry 'pvox --help' for more information\n", msg,
            usage_line);
    fflush(f);
}

void pv_cli_print_version(FILE *f)
{
    int major, minor, len = 0;
    MPI_Get_version(&major, &minor);
    char lib[MPI_MAX_LIBRARY_VERSION_STRING] = "";
    MPI_Get_library_version(lib, &len);
    lib[strcspn(lib, ",\n")] = '\0'; /* "Open MPI v4.1.4, package: ..." -> its name */
#ifdef _OPENMP
    long omp = _OPENMP; /* yyyymm of the OpenMP specification */
#else
    long omp = 0;
#endif
    fprintf(f, "pvox %s\nMPI %d.%d (%s), OpenMP %ld\n", PV_VERSION_STRING, major, minor,
            lib[0] ? lib : "unknown library", omp);
    fflush(f);
}

void pv_cli_print_help(FILE *f)
{
    fprintf(f, "%s\n", usage_line);
    fputs("\n"
          "Run gnuplot 5.4 voxel job scripts on MPI ranks and OpenMP threads and write PNG\n"
          "frames. Scripts and -e commands run in command-line order; '-' reads a script\n"
          "from standard input.\n"
          "\n"
          "  mpirun -n 8 pvox job.gp         srun pvox job.gp          ./pvox job.gp\n"
          "\n"
          "options:\n"
          "  -e \"commands\"        run gnuplot commands before/between scripts\n"
          "  -o, --outdir DIR     directory for relative `set output` names and default frame\n"
          "                       names (other files stay relative to the current directory)\n"
          "  --checkpoint FILE    save all grids to FILE (HDF5) after each grid change and\n"
          "                       before a plot that follows one (README \"Checkpoints\")\n"
          "  --checkpoint-every S at most one checkpoint every S seconds; 0: after every\n"
          "                       change; auto (default): once the run has gone on ten\n"
          "                       times as long as the last save took\n"
          "  --resume FILE        load the grids from FILE and replay the script, skipping\n"
          "                       the grid changes it holds and plots already written\n"
          "  --resume-if-exists   resume from the --checkpoint FILE (or --resume FILE) when\n"
          "                       it exists, else start from the beginning (requeued jobs)\n"
          , f);
    fputs("  --threads N          OpenMP threads per rank (default: OMP_NUM_THREADS, else the\n"
          "                       rank's cores, shared among the node's unbound ranks)\n"
          "  --max-memory SIZE    memory limit per rank used by the grid size check, e.g. 4G\n"
          "  --batch-triangles N  triangles a rank rasterises before compositing them and\n"
          "                       going on (default 500000; bounds the memory of big\n"
          "                       isosurface frames)\n"
          "  --iso-cache MIB      isosurface polygons a rank keeps so that the next frames\n"
          "                       of an unchanged grid (a rotating view) are not extracted\n"
          "                       again (default: 128 less an eighth of the rank's grid\n"
          "                       memory in MiB, none from 1 GiB of grid; 0 keeps none)\n"
          "  --frame-writer W     which rank writes each frame: `rotate` (default: frame f\n"
          "                       by rank f mod P, so the others go on drawing) or a rank\n"
          "  --frame-encode E     who encodes a frame's PNG with several ranks: `pieces`\n"
          "                       (default: every rank its piece of the picture, the writer\n"
          "                       joins them; unfiltered PNGs only) or `writer` (alone)\n"
          "  --stats FILE         write per-frame timings, compositor bytes and peak memory\n"
          "                       of every rank to FILE as JSON at the end of the run\n"
          "                       (README \"Statistics (--stats)\")\n"
          "  --plan N             print what an N^3 grid needs and exit: memory per rank,\n"
          "                       the fewest ranks and nodes, checkpoint size, time per\n"
          "                       phase; with --ranks P, --ranks-per-node R, --mem SIZE (a\n"
          "                       node's), --levels L, --size WxH, --frames F, --bandwidth\n"
          "                       SIZE (per second), --threads, --batch-triangles,\n"
          "                       --iso-cache, --rate NAME=VALUE, --json (README \"Planning\n"
          "                       a run (--plan)\")\n"
          "  --progress           progress bars with rate and time left on stderr (default\n"
          "                       when stderr is a terminal)\n"
          "  --no-progress        no progress bars\n"
          "  -q, --quiet          no progress bars and no informational log lines\n"
          "  --check              check the syntax of every statement, report every error\n"
          "                       and run nothing (exit 1 if any)\n"
          "  --no-shell           run no shell command: system(), `system`, `!`, backquotes,\n"
          "                       \"< command\" data and \"| command\" outputs are errors\n"
          "  -v, --verbose        info log lines (timings, rates, grid checksums)\n"
          "  -vv, --debug         debug log lines as well\n"
          "  --log-all-ranks      log lines from every rank, not only rank 0\n"
          "  -V, --version        print the version and exit\n"
          "  -h, --help           print this help and exit\n"
          "  --                   treat every later argument as a script name\n"
          "\n"
          "SIGUSR1 or SIGTERM stops the job after the next splot, replot, vfill, vgfill,\n"
          "vclear, vload or set vgrid, where all ranks meet: grids changed since the last\n"
          "checkpoint are saved (with --checkpoint), the frame being written is finished,\n"
          "and pvox exits 75; run again with --resume to go on (README \"Stopping a job\n"
          "early\"). The same signal again after 2 s kills.\n"
          "\n"
          "exit status: 0 ok, 1 script error, 2 bad command line, 3 runtime or I/O error\n"
          "(out of memory, unreadable file, MPI/HDF5/PNG failure), 75 stopped early by a\n"
          "signal (resume it); a script's `exit status N` gives N. See README.md for the\n"
          "language supported and the differences from gnuplot 5.4.\n",
          f);
    fflush(f);
}
