/*
 * app/cli.h: the command line, parsed identically on every rank (private to app/).
 *
 * Every rank parses the same argv, so every rank reaches the same verdict (run, help,
 * version or usage error) without a message; only rank 0 prints it.
 */
#ifndef PVOX_APP_CLI_H
#define PVOX_APP_CLI_H

#include "plan.h"
#include "pvox/core.h"

typedef enum pv_action_kind {
    PV_ACT_SCRIPT, /* run a script file ("-" = standard input) */
    PV_ACT_EXPR    /* run the commands given to -e */
} pv_action_kind;

typedef struct pv_action {
    pv_action_kind kind;
    const char *arg; /* borrowed from argv */
} pv_action;

typedef struct pv_cli {
    pv_options opt;     /* options for pv_ctx_create */
    pv_action *actions; /* -e commands and scripts, in command-line order */
    int nactions;
    bool help;          /* --help seen */
    bool version;       /* --version seen */
    bool plan;          /* --plan seen: plan_args hold the planner's command line */
    pv_plan_args plan_args;
    char *error;        /* usage error (malloc'd), NULL if the command line is fine */
} pv_cli;

/* Parse argv into *cli. Returns PV_OK, or PV_EUSAGE with cli->error set. Always call
 * pv_cli_free afterwards. Not collective; touches no MPI. */
pv_status pv_cli_parse(int argc, char **argv, pv_cli *cli);
void pv_cli_free(pv_cli *cli);

/* Write the --help text / the --version text / a usage error to `f`. */
void pv_cli_print_help(FILE *f);
void pv_cli_print_version(FILE *f);
void pv_cli_print_usage_error(FILE *f, const char *msg);

/* Parse a size such as "512M", "1.5GiB", "4096" (binary units: K=1024) into bytes.
 * Returns false for garbage, zero or overflow. */
bool pv_parse_size(const char *s, size_t *out);

#endif
