/*
 * exec/ckpt: checkpoints of all grids while a job runs, and resuming from one (ckpt.h).
 */
#include "ckpt.h"

#include "gridio.h"
#include "gridset.h"
#include "pvox/stats.h"
#include "pvox/stop.h"

#include <dirent.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static uint64_t fnv1a(const char *text, size_t len)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)text[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

static void hash_hex(const char *text, size_t len, char out[17])
{
    snprintf(out, 17, "%016" PRIx64, fnv1a(text, len));
}

void pv_interp_set_job_scripts(pv_interp *I, const char *const *paths, int n)
{
    I->ck.scripts = paths;
    I->ck.nscripts = n;
}

/* Collective: the job's hash into I->ck.hash: one script, the FNV-1a 64 of its bytes (as
 * before several scripts were hashed, so older checkpoints resume); several, the FNV-1a
 * 64 of their hashes in command-line order, one per line. `text` is the first script's
 * bytes; the others are read now (rank 0, broadcast). A later "-" (standard input,
 * read only once) enters by its name. Also the `script` attribute: the names, spaced. */
static pv_status job_hash(pv_interp *I, const char *text, size_t len)
{
    pv_ctx *ctx = I->ctx;
    hash_hex(text, len, I->ck.hash);
    int n = I->ck.nscripts;
    if (n <= 1)
        return PV_OK;
    pv_strbuf hashes = {0}, names = {0};
    pv_status st = PV_OK;
    for (int k = 0; k < n && st == PV_OK; k++) {
        char h[17];
        if (k == 0) {
            memcpy(h, I->ck.hash, sizeof h);
        } else if (strcmp(I->ck.scripts[k], "-") == 0) {
            hash_hex("-", 1, h);
        } else {
            char *data = NULL;
            size_t dlen = 0;
            if ((st = pv_read_file_bcast(ctx, I->ck.scripts[k], &data, &dlen)) != PV_OK)
                break;
            hash_hex(data, dlen, h);
            free(data);
        }
        if ((st = pv_strbuf_put(ctx, &hashes, h, 16)) == PV_OK)
            st = pv_strbuf_put(ctx, &hashes, "\n", 1);
        if (st == PV_OK && k > 0)
            st = pv_strbuf_put(ctx, &names, " ", 1);
        if (st == PV_OK)
            st = pv_strbuf_put(ctx, &names, I->ck.scripts[k], strlen(I->ck.scripts[k]));
    }
    st = pv_status_agree(ctx, st);
    if (st == PV_OK) {
        hash_hex(hashes.s, hashes.len, I->ck.hash);
        free(I->ck.script_names);
        I->ck.script_names = strdup(names.s);
    }
    pv_strbuf_free(ctx, &hashes);
    pv_strbuf_free(ctx, &names);
    return st;
}

/* A job_state as save_now writes it: "changes=N active=NAME" (NAME may be empty, else a
 * grid of the file). False for anything else. */
static bool parse_job_state(const char *s, const pv_h5_info *in, long long *changes,
                            char *active, size_t alen)
{
    if (strncmp(s, "changes=", 8) != 0)
        return false;
    const char *p = s + 8;
    long long v = 0;
    if (*p < '0' || *p > '9')
        return false;
    for (; *p >= '0' && *p <= '9'; p++) {
        if (v > (INT64_MAX - 9) / 10)
            return false;
        v = v * 10 + (*p - '0');
    }
    if (strncmp(p, " active=", 8) != 0)
        return false;
    p += 8;
    size_t n = strlen(p);
    if (n >= alen || strchr(p, ' '))
        return false;
    bool found = n == 0;
    for (size_t k = 0; k < in->ngrids && !found; k++)
        found = strcmp(in->grids[k].name, p) == 0;
    if (!found)
        return false;
    *changes = v;
    memcpy(active, p, n + 1);
    return true;
}

/* `s` for a message: at most 60 characters, anything unprintable as '?'. */
static void printable(const char *s, char out[64])
{
    size_t k = 0;
    for (; s[k] && k < 60; k++)
        out[k] = s[k] >= 0x20 && s[k] < 0x7f ? s[k] : '?';
    out[k] = '\0';
    if (s[k])
        snprintf(out + k, 4, "...");
}

/* ---- temporaries left by the interrupted run ----
 * Outputs are written to "<path>.tmp.<16 hex digits>" and renamed (io/tmpfile); a run
 * killed by a signal (SIGKILL of a rank, and mpiexec or srun killing the others) leaves
 * its temporaries behind, a whole checkpoint's size each. The resumed run removes those
 * of its checkpoint when it starts and those of an output the first time a plot meets
 * it (before this run writes one of its own under that name: a later plot to the same
 * path may find this run's own frame still being written). The random part makes these
 * names pvox's own. Rank 0 only; regular files only; failures are ignored (the file is
 * merely left). */
static bool temp_name_of(const char *name, const char *base, size_t blen)
{
    if (strncmp(name, base, blen) != 0 || strncmp(name + blen, ".tmp.", 5) != 0)
        return false;
    const char *hex = name + blen + 5;
    for (int i = 0; i < 16; i++)
        if (!((hex[i] >= '0' && hex[i] <= '9') || (hex[i] >= 'a' && hex[i] <= 'f')))
            return false;
    /* MPI-IO may add files of its own beside it ("<tmp>.locktest.0") */
    return hex[16] == '\0' || hex[16] == '.';
}

static void remove_stale_temps(pv_interp *I, const char *path)
{
    pv_ctx *ctx = I->ctx;
    /* streams ("| command", /dev/stdout) are written in place, without a temporary */
    if (ctx->rank != 0 || !path || !path[0] || path[0] == '|' || strncmp(path, "/dev/", 5) == 0 ||
        strncmp(path, "/proc/", 6) == 0)
        return;
    /* once per path and run */
    uint64_t h = fnv1a(path, strlen(path));
    for (size_t i = 0; i < I->ck.nswept; i++)
        if (I->ck.swept[i] == h)
            return;
    if (I->ck.nswept == I->ck.capswept) {
        size_t cap = I->ck.capswept ? 2 * I->ck.capswept : 16;
        uint64_t *a = realloc(I->ck.swept, cap * sizeof *a);
        if (!a)
            return;
        I->ck.swept = a;
        I->ck.capswept = cap;
    }
    I->ck.swept[I->ck.nswept++] = h;

    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
    DIR *d = dir ? opendir(dir) : NULL;
    if (d) {
        size_t blen = strlen(base);
        struct dirent *de;
        while ((de = readdir(d)) != NULL) {
            struct stat sb;
            if (!temp_name_of(de->d_name, base, blen) ||
                fstatat(dirfd(d), de->d_name, &sb, AT_SYMLINK_NOFOLLOW) != 0 ||
                !S_ISREG(sb.st_mode) || unlinkat(dirfd(d), de->d_name, 0) != 0)
                continue;
            pv_log(ctx, PV_LOG_INFO, "ckpt", "resume: removed %s%s%s, left by an interrupted "
                   "run", slash ? dir : "", slash && slash != path ? "/" : "", de->d_name);
        }
        closedir(d);
    }
    free(dir);
}

static void remove_stale_ckpt_temps(pv_interp *I, const char *h5)
{
    if (!h5)
        return;
    remove_stale_temps(I, h5);
    char *xmf = pv_h5_xdmf_path(h5);
    if (xmf)
        remove_stale_temps(I, xmf);
    free(xmf);
}

/* The grid changes the grids hold: while a resumed run replays, those of the checkpoint
 * it resumed from (seq has not counted them yet). */
static int64_t held_changes(const pv_interp *I)
{
    return I->ck.seq > I->ck.replay_until ? I->ck.seq : I->ck.replay_until;
}

static pv_status save_now(pv_interp *I)
{
    pv_ctx *ctx = I->ctx;
    size_t n = pv_gridset_count(I);
    pv_h5_grid *d = calloc(n ? n : 1, sizeof *d);
    if (pv_status_agree(ctx, d ? PV_OK : pv_err(ctx, PV_ENOMEM, "out of memory")) != PV_OK) {
        free(d);
        return PV_ENOMEM;
    }
    for (size_t k = 0; k < n; k++)
        d[k] = pv_io_grid_desc(pv_gridset_at(I, k));
    pv_grid *act = pv_gridset_active(I);
    int64_t held = held_changes(I);
    char state[512];
    snprintf(state, sizeof state, "changes=%" PRId64 " active=%s", held, act ? act->name : "");
    pv_h5_opts o = {0};
    o.script = I->ck.script_names ? I->ck.script_names : I->script_name;
    o.job_hash = I->ck.hash;
    o.job_state = state;
    o.vtk_grid = act ? act->name : NULL; /* the /VTKHDF ImageData's geometry */
    pv_h5_stats hs;
    pv_stats_cmd sc;
    pv_stats_command_begin(ctx, &sc);
    double t0 = MPI_Wtime();
    pv_status st = pv_h5_save_all(ctx, ctx->opt.checkpoint, d, n, &o, &hs);
    pv_status rs = pv_stats_command_end(ctx, &sc, "checkpoint", NULL);
    if (st == PV_OK) st = pv_status_agree(ctx, rs);
    free(d);
    if (st == PV_OK) {
        I->ck.dirty = false;
        I->ck.last_save = MPI_Wtime();
        I->ck.save_seconds = I->ck.last_save - t0;
        pv_log(ctx, PV_LOG_INFO, "ckpt", "checkpoint %s: %zu grid%s after %" PRId64
               " grid changes (%.2f s)", ctx->opt.checkpoint, n, n == 1 ? "" : "s",
               held, hs.seconds);
    }
    return st;
}

/* Save if --checkpoint is on and the interval allows (rank 0's clock decides). The
 * interval is --checkpoint-every's seconds or, by default (PV_CHECKPOINT_AUTO), ten times
 * what the last save took: every save writes every grid, so saving after each of many
 * small changes would cost the square of the grid count; this way saves take about a
 * tenth of the run and a crash loses at most about ten saves' time of work. A save put
 * off is made at the latest when the script ends (pv_ckpt_finish, which also saves
 * changes no save follows, such as voxel()=) or when a signal stops it. */
static pv_status maybe_save(pv_interp *I)
{
    pv_ctx *ctx = I->ctx;
    if (!ctx->opt.checkpoint || !I->ck.dirty)
        return PV_OK;
    int go = 1;
    double every = ctx->opt.checkpoint_every;
    if (every == PV_CHECKPOINT_AUTO) every = PV_CHECKPOINT_AUTO_RATIO * I->ck.save_seconds;
    if (every > 0 && I->ck.last_save > 0)
        go = MPI_Wtime() - I->ck.last_save >= every;
    if (MPI_Bcast(&go, 1, MPI_INT, 0, ctx->comm) != MPI_SUCCESS)
        return pv_status_agree(ctx, pv_err(ctx, PV_EMPI, "MPI_Bcast failed before a checkpoint"));
    return go ? save_now(I) : PV_OK;
}

pv_status pv_ckpt_finish(pv_interp *I)
{
    if (!I->ctx->opt.checkpoint || !I->ck.dirty)
        return PV_OK;
    return save_now(I);
}

/* ---- stopping early (pvox/stop.h) ----
 * A safe point: after a statement that may checkpoint (splot, replot, vfill, vgfill,
 * vclear, vload, set vgrid), every rank there with the statement's status agreed. One
 * small reduction asks whether a signal reached any rank; if one did, grids changed
 * since the last checkpoint are saved now (whatever --checkpoint-every says) and the run
 * ends like a script's `exit` with status PV_EXIT_STOPPED, which finishes the frame
 * being written (interp.c finish_run). A save that fails ends the run with its error. */
static pv_status stop_point(pv_interp *I)
{
    pv_ctx *ctx = I->ctx;
    int mine = pv_stop_signal(), sig = 0;
    if (MPI_Allreduce(&mine, &sig, 1, MPI_INT, MPI_MAX, ctx->comm) != MPI_SUCCESS)
        return pv_status_agree(ctx, pv_err(ctx, PV_EMPI, "MPI_Allreduce failed at a stop point"));
    if (!sig)
        return PV_OK;
    const char *ck = ctx->opt.checkpoint;
    /* a checkpoint that this run has not written yet but holds this run's state: grids
     * changed, or resumed from another file */
    bool save = ck && (I->ck.dirty || (I->ck.from && I->ck.last_save <= 0 &&
                                       strcmp(I->ck.from, ck) != 0));
    pv_status st = save ? save_now(I) : PV_OK;
    if (st != PV_OK)
        return st;
    char buf[24];
    const char *name = pv_stop_signal_name(sig, buf);
    /* unsaved, the file holds the last save (no change since) or, stopped while a
     * resumed run replays, the changes it was resumed with */
    int64_t held = held_changes(I);
    if (ck && (save || I->ck.last_save > 0 || I->ck.from))
        pv_msg(ctx, "pvox: %s: stopped early; checkpoint %s holds the first %" PRId64
               " grid changes; run again with --resume %s to go on (exit status %d)\n",
               name, ck, held, ck, PV_EXIT_STOPPED);
    else if (ck)
        pv_msg(ctx, "pvox: %s: stopped early before any grid change; no checkpoint needed: "
               "run again to go on (exit status %d)\n", name, PV_EXIT_STOPPED);
    else
        pv_msg(ctx, "pvox: %s: stopped early; no checkpoint (no --checkpoint given): run "
               "again to go on (exit status %d)\n", name, PV_EXIT_STOPPED);
    ctx->exit_code = PV_EXIT_STOPPED;
    return PV_EEXIT;
}

/* Run the statement; `timed` names it for --stats (its own time, without the checkpoint
 * that may follow), or NULL. */
static pv_status run_stmt(pv_interp *I, pv_cursor *c, pv_cmd_fn run, const char *timed)
{
    if (!timed)
        return run(I, c, true);
    int line = 0, col = 0;
    pv_source_locate(c->tl->src, c->tl->tok[c->pos].start, &line, &col);
    char where[300];
    snprintf(where, sizeof where, "%s:%d", c->tl->src->name, line);
    pv_stats_cmd sc;
    pv_stats_command_begin(I->ctx, &sc);
    pv_status st = run(I, c, true);
    pv_status rs = pv_stats_command_end(I->ctx, &sc, timed, where);
    /* recorded on every rank whatever the command's status; a record that could not be
     * kept (out of memory on one rank) is agreed before the next statement */
    return st != PV_OK ? st : pv_status_agree(I->ctx, rs);
}

pv_status pv_ckpt_stmt(pv_interp *I, pv_cursor *c, pv_ck_class ck, pv_cmd_fn run,
                       const char *timed)
{
    if (ck == PV_CK_NONE)
        return run_stmt(I, c, run, timed);
    if (ck == PV_CK_PLOT) {
        pv_status st = maybe_save(I);
        if (st == PV_OK)
            st = run(I, c, true);
        return st == PV_OK ? stop_point(I) : st;
    }
    if (I->ck.seq < I->ck.replay_until) {
        /* replaying: the grids from the checkpoint already hold this change */
        I->ck.seq++;
        I->replaying = true;
        pv_status st = run(I, c, false);
        I->replaying = false;
        return st;
    }
    I->grid_resized = false;
    pv_status st = run_stmt(I, c, run, timed);
    if (st != PV_OK)
        return st;
    I->ck.seq++;
    I->ck.dirty = true;
    if (ck == PV_CK_CHANGE)
        return PV_OK; /* voxel()=, set v*range: cheap statements, no safe point */
    bool save = ck == PV_CK_CHANGE_SAVE || (ck == PV_CK_VGRID && I->grid_resized);
    st = save ? maybe_save(I) : PV_OK;
    return st == PV_OK ? stop_point(I) : st;
}

bool pv_ckpt_skip_plot(pv_interp *I, const char *path)
{
    if (!I->ck.resumed) {
        if (I->ck.sweep)
            remove_stale_temps(I, path); /* a fresh start of a killed run (rank 0) */
        return false;
    }
    int exists = 0;
    if (I->ctx->rank == 0) {
        exists = path && access(path, F_OK) == 0;
        if (!exists)
            remove_stale_temps(I, path);
    }
    MPI_Bcast(&exists, 1, MPI_INT, 0, I->ctx->comm);
    if (exists)
        pv_log(I->ctx, PV_LOG_INFO, "ckpt", "resume: %s exists, not drawn again", path);
    return exists != 0;
}

static pv_status load_all(pv_interp *I, pv_h5_file *f, const char *active)
{
    pv_ctx *ctx = I->ctx;
    const pv_h5_info *in = pv_h5_file_info(f);
    for (size_t k = 0; k < in->ngrids; k++) {
        const pv_h5_entry *e = &in->grids[k];
        if (e->problem)
            return pv_err(ctx, PV_EIO, "%s: %s", I->ck.from, e->problem);
        pv_grid *g = pv_io_read_grid(I, f, e, NULL);
        if (!g)
            return ctx->err_code ? ctx->err_code : PV_ENOMEM;
        pv_status st = pv_gridset_adopt(I, g, strcmp(e->name, active) == 0);
        if (st != PV_OK)
            return st;
    }
    return PV_OK;
}

pv_status pv_ckpt_script_start(pv_interp *I, const char *text, size_t len)
{
    pv_ctx *ctx = I->ctx;
    if (I->ck.started)
        return PV_OK;
    I->ck.started = true;
    pv_status hs = PV_OK;
    if (ctx->opt.checkpoint || ctx->opt.resume)
        hs = job_hash(I, text, len);
    if (hs != PV_OK)
        return hs;
    const char *from = ctx->opt.resume ? ctx->opt.resume : ctx->opt.checkpoint;
    if (ctx->opt.resume_if_exists && from) {
        /* --resume-if-exists: a requeued job resumes, its first run starts afresh */
        int exists = ctx->rank == 0 && access(from, F_OK) == 0;
        MPI_Bcast(&exists, 1, MPI_INT, 0, ctx->comm);
        if (!exists) {
            pv_log(ctx, PV_LOG_INFO, "ckpt", "--resume-if-exists: no %s yet, starting from "
                   "the beginning", from);
            I->ck.sweep = true; /* the temporaries of a run killed before its first save */
            remove_stale_ckpt_temps(I, ctx->opt.checkpoint);
            return PV_OK;
        }
    } else if (!ctx->opt.resume) {
        return PV_OK;
    }
    I->ck.from = from;
    pv_h5_file *f = pv_h5_open(ctx, from, NULL);
    if (!f)
        return ctx->err_code ? ctx->err_code : PV_EIO;
    const pv_h5_info *in = pv_h5_file_info(f);
    pv_status st = PV_OK;
    long long changes = -1;
    char active[256] = "";
    char shown[64];
    if (!in->job_hash[0] && !in->job_state[0])
        st = pv_err(ctx, PV_ESCRIPT, "%s: not a --checkpoint file (no job_hash/job_state "
                    "attributes); load it with vload instead", from);
    else if (strlen(in->job_hash) != 16 || strspn(in->job_hash, "0123456789abcdef") != 16) {
        printable(in->job_hash, shown);
        st = pv_err(ctx, PV_EIO, "%s: damaged: job_hash \"%s\" is not 16 hex digits", from,
                    shown);
    } else if (!parse_job_state(in->job_state, in, &changes, active, sizeof active)) {
        printable(in->job_state, shown);
        st = pv_err(ctx, PV_EIO, "%s: damaged: job_state \"%s\" is not \"changes=N "
                    "active=NAME\" with NAME one of its grids", from, shown);
    } else if (strcmp(in->job_hash, I->ck.hash) != 0)
        st = I->ck.nscripts > 1 || strchr(in->script, ' ')
                 ? pv_err(ctx, PV_ESCRIPT, "%s was written by a different job (scripts %s, hash "
                          "%s; these scripts hash to %s): refusing to resume", from,
                          in->script[0] ? in->script : "?", in->job_hash, I->ck.hash)
                 : pv_err(ctx, PV_ESCRIPT, "%s was written by a different job script (%s, hash "
                          "%s; this script hashes to %s): refusing to resume", from,
                          in->script[0] ? in->script : "?", in->job_hash, I->ck.hash);
    if (st == PV_OK) {
        pv_stats_cmd sc;
        pv_stats_command_begin(ctx, &sc);
        st = load_all(I, f, active);
        pv_status rs = pv_stats_command_end(ctx, &sc, "resume", NULL);
        if (st == PV_OK) st = rs;
    }
    st = pv_status_agree(ctx, st);
    if (st == PV_OK) {
        I->ck.replay_until = changes;
        I->ck.resumed = true;
        I->ck.sweep = true;
        pv_log(ctx, PV_LOG_INFO, "ckpt", "resuming from %s: %zu grid%s, skipping the first "
               "%lld grid changes of the script", from, in->ngrids,
               in->ngrids == 1 ? "" : "s", changes);
        remove_stale_ckpt_temps(I, from);
        remove_stale_ckpt_temps(I, ctx->opt.checkpoint);
    }
    pv_h5_close(ctx, f);
    return st;
}
