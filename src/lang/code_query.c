/*
 * lang/code_query.c: questions about compiled code (pvox/lang_query.h), answered from the
 * bytecode's name and constant tables.
 */
#include "lang_int.h"
#include "pvox/lang_query.h"

#include <string.h>

bool pv_code_reads_name(const pv_code *code, const char *name)
{
    if (!code || !name) return false;
    for (int i = 0; i < code->nnames; i++)
        if (code->names[i] && strcmp(code->names[i], name) == 0) return true;
    for (int i = 0; i < code->nconsts; i++)
        if (code->consts[i].type == PV_V_STR && code->consts[i].s &&
            strstr(code->consts[i].s, name))
            return true;
    return false;
}
