/*
 * How many bytes a rank may give to grids (DEC-1): the smallest of the --max-memory
 * option (per rank), the cgroup v2/v1 or SLURM limit shared by this node's ranks, and
 * MemAvailable shared by this node's ranks. Sources that cannot be read are ignored.
 */
#include "pvox/grid.h"

#include <stdlib.h>
#include <string.h>

static size_t read_size_file(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char buf[64] = {0};
    size_t got = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    if (got == 0 || strncmp(buf, "max", 3) == 0)
        return 0;
    unsigned long long v = strtoull(buf, NULL, 10);
    /* cgroup v1 reports "no limit" as a huge page-rounded number */
    if (v == 0 || v > (1ULL << 60))
        return 0;
    return (size_t)v;
}

static size_t mem_available(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f)
        return 0;
    char line[256];
    size_t kb = 0;
    while (fgets(line, sizeof line, f)) {
        unsigned long long v;
        if (sscanf(line, "MemAvailable: %llu kB", &v) == 1) {
            kb = (size_t)v;
            break;
        }
    }
    fclose(f);
    return kb * 1024;
}

/* SLURM_MEM_PER_NODE / SLURM_MEM_PER_CPU are in megabytes. */
static size_t slurm_limit(int node_ranks)
{
    const char *node = getenv("SLURM_MEM_PER_NODE");
    if (node && *node)
        return (size_t)strtoull(node, NULL, 10) * 1024 * 1024;
    const char *cpu = getenv("SLURM_MEM_PER_CPU");
    const char *cpt = getenv("SLURM_CPUS_PER_TASK");
    if (cpu && *cpu) {
        size_t per_task = (size_t)strtoull(cpu, NULL, 10) * 1024 * 1024;
        size_t ncpu = cpt && *cpt ? (size_t)strtoull(cpt, NULL, 10) : 1;
        return per_task * (ncpu ? ncpu : 1) * (size_t)node_ranks;
    }
    return 0;
}

static size_t min_nonzero(size_t a, size_t b)
{
    if (a == 0)
        return b;
    if (b == 0)
        return a;
    return a < b ? a : b;
}

/* Lower *limit to `v` (if readable and smaller), naming its source. */
static void lower_to(size_t *limit, const char **source, size_t v, const char *name)
{
    if (v != 0 && (*limit == 0 || v < *limit)) {
        *limit = v;
        *source = name;
    }
}

size_t pv_mem_node_limit(int node_ranks, const char **source)
{
    size_t limit = 0;
    const char *src = "none";
    lower_to(&limit, &src, read_size_file("/sys/fs/cgroup/memory.max"), "cgroup");
    lower_to(&limit, &src, read_size_file("/sys/fs/cgroup/memory/memory.limit_in_bytes"), "cgroup");
    lower_to(&limit, &src, slurm_limit(node_ranks), "SLURM");
    lower_to(&limit, &src, mem_available(), "MemAvailable");
    if (source) *source = src;
    return limit;
}

size_t pv_mem_budget(pv_ctx *ctx)
{
    MPI_Comm node;
    int node_ranks = 1;
    if (MPI_Comm_split_type(ctx->comm, MPI_COMM_TYPE_SHARED, ctx->rank, MPI_INFO_NULL,
                            &node) == MPI_SUCCESS) {
        MPI_Comm_size(node, &node_ranks);
        MPI_Comm_free(&node);
    }
    size_t budget = pv_mem_node_limit(node_ranks, NULL) / (size_t)node_ranks;
    budget = min_nonzero(budget, ctx->opt.max_memory);
    if (budget == 0)
        budget = (size_t)1 << 40; /* nothing readable: do not refuse */
    return budget;
}
