/*
 * app/mpi_start.c: Open MPI settings chosen before MPI_Init: a session directory of the
 * process's own for a singleton, and a faster start (README "Start-up time").
 *
 * The session directory. Open MPI 4.1 keeps a job's files under one directory per user
 * and node, $TMPDIR/ompi.<host>.<uid>, shared by every Open MPI job of that user on the
 * node; each job makes its subdirectory with mkdir -p and, when it ends, removes the
 * top directory if it is empty ("last one out"). A job starting while another ends can
 * see the top directory made (or found) and gone again before it makes its own below:
 * MPI_Init then fails with "A call to mkdir was unable to create the desired directory"
 * and ORTE_ERROR_LOG session_dir.c lines 107 and 346. Job arrays and test suites start
 * and end many one-process jobs on a node, so they hit it. A singleton (no launcher)
 * therefore gets a directory of its own, $TMPDIR/pvox-mpi.<host>.XXXXXX (mkdtemp), as Open
 * MPI's orte_tmpdir_base: nothing else makes or removes anything in it. pvox removes it
 * when it exits (atexit, also after a failed MPI_Init). It holds a lock (flock) on the
 * directory while it runs, so a later singleton removes what a killed one left behind:
 * the lock of a dead process is free. This holds also with PVOX_MPI_TUNE=0 (it is not
 * a speed setting). Ranks started by mpiexec use mpiexec's session directory, which
 * mpiexec has made before them and removes after them: nothing to do for them (mpiexec
 * itself makes it in the shared place, so concurrent mpiexec jobs need an
 * orte_tmpdir_base each: run.sh and the test suite give them one). Ranks started by srun
 * through PMIx (Slurm's mpi/pmix plugin) do not use $TMPDIR at all: Open MPI takes the
 * job session directory that PMIx hands it, one per step that slurmstepd makes and
 * removes (/tmp/spmix_appdir_<uid>_<job>.<step>; each rank makes its own subdirectory
 * there), so steps beside each other (a job array, concurrent sruns) share nothing:
 * nothing to do for them either (tests/slurm/run_slurm.sh checks it). The shared-memory
 * transport's files are in /dev/shm, named per job and rank, in every case.
 *
 * Speed, measured on a 2-core Debian 12 VM with Open MPI 4.1.4 (`pvox -e 'print 1'`):
 *   - a singleton took 0.32 s: Open MPI forks a supporting daemon (orted) and the UCX
 *     PML probes the network devices. A singleton has no peer, so only the loopback
 *     transport is loaded (pml ob1, btl self), and with its own session directory it
 *     can skip the daemon too (ess_singleton_isolated): without one, every isolated
 *     singleton on the node uses the same directory, .../jf.0/1/0, and one ending
 *     removes it under another (3 of 180 started together failed).
 *   - `mpiexec -n 2` on one node took 0.41-0.48 s, 0.23-0.28 s with pml ob1 (its
 *     shared-memory transport, vader, carries the ranks' messages); a 2-task `srun`
 *     step on one node 0.79-0.95 s, 0.57-0.72 s with pml ob1 (srun included). Chosen
 *     only when the launcher says every rank is on this node; across nodes the site's
 *     choice (UCX for InfiniBand, ...) stays.
 * A variable the user or the launcher has set is never overridden, and PVOX_MPI_TUNE=0
 * turns the speed settings off. The variables are removed again once MPI_Init has read
 * them, so that commands the script runs (system(), `!`, pipes) do not inherit them: an
 * mpiexec started there with btl=self could not connect its ranks, and a pvox started
 * there makes its own session directory. Other MPI implementations, and Open MPI 5
 * (whose session directories are made by PRRTE), get none of this.
 */
#define _DEFAULT_SOURCE /* flock */
#include "mpi_start.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(OPEN_MPI) && OMPI_MAJOR_VERSION < 5
#define PV_ORTE_SESSION_DIRS 1
#else
#define PV_ORTE_SESSION_DIRS 0
#endif

/* Name of the private directories: pvox-mpi.<host>.XXXXXX (mkdtemp's six characters).
 * The host name keeps a sweep on one node away from another node's directories when
 * TMPDIR is a shared file system whose locks are local to each node. */
#define PRIVATE_PREFIX "pvox-mpi."
#define PRIVATE_SUFFIX_LEN 6

static const char *env(const char *name)
{
    const char *v = getenv(name);
    return v && v[0] ? v : NULL;
}

/* The variables set here, to remove after MPI_Init. */
static const char *set_names[8];
static int nset;

/* The private session directory: its path, the descriptor holding its lock, and the
 * process that made it (a forked child must not remove it). Process-wide because the
 * atexit handler needs it. */
static char session_path[PATH_MAX];
static int session_fd = -1;
static pid_t session_owner;

static void set_default(const char *name, const char *value)
{
    if (!env(name) && setenv(name, value, 1) == 0 &&
        nset < (int)(sizeof set_names / sizeof set_names[0]))
        set_names[nset++] = name;
}

/* No launcher started this process: no Open MPI, PMIx or PMI variables, and not one task
 * of a multi-task srun step. */
static bool is_singleton(void)
{
    static const char *const launched[] = {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK",
                                           "PMI_SIZE", "PMI_FD", "OMPI_MCA_orte_hnp_uri"};
    for (size_t i = 0; i < sizeof launched / sizeof launched[0]; i++)
        if (env(launched[i]))
            return false;
    const char *ntasks = env("SLURM_STEP_NUM_TASKS");
    return !ntasks || strcmp(ntasks, "1") == 0;
}

/* Slurm's srun started this process directly through PMIx (srun --mpi=pmix), not
 * mpiexec: a task of a step, with no Open MPI launcher variables (mpiexec under Slurm
 * starts its daemons with srun, so its ranks have SLURM_* too, and OMPI_COMM_WORLD_*). */
static bool launched_by_srun(void)
{
    return env("SLURM_STEP_ID") && env("SLURM_PROCID") && env("PMIX_RANK") &&
           env("PMIX_NAMESPACE") && !env("OMPI_COMM_WORLD_SIZE") && !env("OMPI_MCA_orte_hnp_uri");
}

/* Every rank of the job is on this node: started so by Open MPI's mpiexec, or a task of
 * an srun step on one node. */
static bool all_ranks_local(void)
{
    const char *size = env("OMPI_COMM_WORLD_SIZE");
    const char *local = env("OMPI_COMM_WORLD_LOCAL_SIZE");
    if (size && local) return strcmp(size, local) == 0;
    const char *nodes = env("SLURM_STEP_NUM_NODES");
    return launched_by_srun() && nodes && strcmp(nodes, "1") == 0;
}

/* The user chose where Open MPI's session directories go: kept as it is (and Open MPI
 * refuses orte_tmpdir_base beside orte_local/remote_tmpdir_base). */
static bool user_chose_session_dir(void)
{
    static const char *const names[] = {
        "OMPI_MCA_orte_tmpdir_base",        "OMPI_MCA_orte_local_tmpdir_base",
        "OMPI_MCA_orte_remote_tmpdir_base", "OMPI_MCA_orte_top_session_dir",
        "OMPI_MCA_orte_jobfam_session_dir", "OMPI_MCA_orte_create_session_dirs"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (env(names[i])) return true;
    return false;
}

/* Where Open MPI would put its session directories: the same variables, same order. */
static const char *tmp_base(void)
{
    static const char *const names[] = {"TMPDIR", "TEMP", "TMP"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (env(names[i])) return env(names[i]);
    return "/tmp";
}

/* Remove NAME in directory DIRFD and, if it is a directory, everything below it; symbolic
 * links are removed, never followed. Errors are ignored (a part that cannot be removed
 * stays). */
static void remove_at(int dirfd, const char *name, int depth)
{
    struct stat sb;
    if (fstatat(dirfd, name, &sb, AT_SYMLINK_NOFOLLOW) != 0) return;
    if (!S_ISDIR(sb.st_mode)) {
        unlinkat(dirfd, name, 0);
        return;
    }
    int fd = depth < 64 ? openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) : -1;
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (d) {
        const struct dirent *e;
        while ((e = readdir(d)) != NULL)
            if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
                remove_at(fd, e->d_name, depth + 1);
        closedir(d); /* closes fd */
    } else if (fd >= 0) {
        close(fd);
    }
    unlinkat(dirfd, name, AT_REMOVEDIR);
}

/* "pvox-mpi.<host>." for this node: the short host name, at most 32 characters. */
static void private_prefix(char *buf, size_t size)
{
    char host[256] = "";
    if (gethostname(host, sizeof host - 1) != 0 || !host[0]) strcpy(host, "localhost");
    host[strcspn(host, "./")] = '\0';
    snprintf(buf, size, PRIVATE_PREFIX "%.32s.", host);
}

static bool is_private_name(const char *name, const char *prefix)
{
    size_t n = strlen(prefix);
    return strncmp(name, prefix, n) == 0 && strlen(name) == n + PRIVATE_SUFFIX_LEN;
}

/* Remove the private directories in BASE that no live process holds: left by a pvox that
 * was killed (SIGKILL, or a signal that ends it at once). A directory is taken only when
 * its lock can be had, i.e. its maker is gone; where locks do not work (some network
 * file systems) nothing is removed. */
static void reap_stale(const char *base, const char *prefix)
{
    int basefd = open(base, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *d = basefd >= 0 ? fdopendir(basefd) : NULL;
    if (!d) {
        if (basefd >= 0) close(basefd);
        return;
    }
    const struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (!is_private_name(e->d_name, prefix)) continue;
        struct stat sb;
        if (fstatat(basefd, e->d_name, &sb, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISDIR(sb.st_mode) ||
            sb.st_uid != geteuid())
            continue;
        int fd = openat(basefd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0) continue;
        if (flock(fd, LOCK_EX | LOCK_NB) == 0) remove_at(basefd, e->d_name, 0);
        close(fd); /* releases the lock */
    }
    closedir(d);
}

static void session_remove_at_exit(void) { pv_mpi_session_remove(); }

/* Make the private directory under BASE and take its lock. A stale-directory sweep of
 * another pvox may take a directory between mkdtemp and flock (it is not locked yet):
 * then it is gone or going, and a new one is made. */
static bool make_private_dir(const char *base, const char *prefix)
{
    for (int attempt = 0; attempt < 8; attempt++) {
        int n = snprintf(session_path, sizeof session_path, "%s/%sXXXXXX", base, prefix);
        if (n < 0 || (size_t)n >= sizeof session_path || !mkdtemp(session_path)) return false;
        int fd = open(session_path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0) {
            if (errno == ENOENT) /* swept already */
                continue;
            rmdir(session_path);
            return false;
        }
        struct stat sb;
        if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
            if (errno == EWOULDBLOCK) { /* a sweep holds it and is removing it */
                close(fd);
                continue;
            }
            /* no locks here (network file system): the directory is used unlocked, and
             * no sweep can take it either */
        } else if (fstat(fd, &sb) == 0 && sb.st_nlink == 0) { /* swept before locked */
            close(fd);
            continue;
        }
        session_fd = fd;
        session_owner = getpid();
        return true;
    }
    return false;
}

/* A session directory of this process's own, named to Open MPI as orte_tmpdir_base. */
static bool private_session_dir(void)
{
    if (!PV_ORTE_SESSION_DIRS || user_chose_session_dir()) return false;
    const char *base = tmp_base();
    char abs[PATH_MAX];
    if (base[0] != '/' && realpath(base, abs)) /* the script may change directory (cd) */
        base = abs;
    char prefix[64];
    private_prefix(prefix, sizeof prefix);
    reap_stale(base, prefix);
    if (!make_private_dir(base, prefix)) return false; /* Open MPI's own default, as before */
    set_default("OMPI_MCA_orte_tmpdir_base", session_path);
    atexit(session_remove_at_exit);
    return true;
}

/* What Open MPI's singleton start puts in the environment (the components it chose):
 * removed after MPI_Init unless they were set before, for the same reason as ours: an
 * mpiexec that a script runs would inherit ess=singleton and start no ranks. */
static const char *const singleton_pushed[] = {"OMPI_MCA_ess", "OMPI_MCA_pmix"};
static bool pushed_was_set[2];
static bool started_singleton;

pv_mpi_tuning pv_mpi_tune_env(void)
{
    bool singleton = is_singleton();
    started_singleton = singleton;
    for (int i = 0; i < 2; i++) pushed_was_set[i] = getenv(singleton_pushed[i]) != NULL;
    bool private_dir = singleton && private_session_dir();
    const char *off = env("PVOX_MPI_TUNE");
    if (off && strcmp(off, "0") == 0)
        return PV_MPI_TUNE_OFF;
    if (singleton) {
        set_default("OMPI_MCA_pml", "ob1");
        set_default("OMPI_MCA_btl", "self");
        /* no daemon: safe only in a session directory no other singleton uses */
        if (private_dir) set_default("OMPI_MCA_ess_singleton_isolated", "1");
        return PV_MPI_TUNE_SINGLETON;
    }
    if (all_ranks_local()) {
        set_default("OMPI_MCA_pml", "ob1");
        return PV_MPI_TUNE_ONE_NODE;
    }
    return PV_MPI_TUNE_NONE;
}

void pv_mpi_untune_env(void)
{
    for (int i = 0; i < nset; i++)
        unsetenv(set_names[i]);
    nset = 0;
    for (int i = 0; i < 2 && started_singleton; i++)
        if (!pushed_was_set[i]) unsetenv(singleton_pushed[i]);
}

const char *pv_mpi_session_dir(void) { return session_owner ? session_path : NULL; }

void pv_mpi_session_remove(void)
{
    if (!session_owner || session_owner != getpid()) return;
    remove_at(AT_FDCWD, session_path, 0);
    if (session_fd >= 0) close(session_fd);
    session_fd = -1;
    session_owner = 0;
}

const char *pv_mpi_tuning_name(pv_mpi_tuning t)
{
    switch (t) {
    case PV_MPI_TUNE_SINGLETON: return "singleton: loopback transport only";
    case PV_MPI_TUNE_ONE_NODE: return "one node: Open MPI's ob1 transport (shared memory)";
    case PV_MPI_TUNE_OFF: return "off (PVOX_MPI_TUNE=0)";
    case PV_MPI_TUNE_NONE: break;
    }
    return "none (ranks on several nodes: the site's MPI settings)";
}
