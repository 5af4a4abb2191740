/*
 * pvox lang: questions about compiled code that its users ask before running it.
 */
#ifndef PVOX_LANG_QUERY_H
#define PVOX_LANG_QUERY_H

#include "pvox/lang.h"

/* True if evaluating `code` may read the variable `name`: the expression names it (as a
 * variable, an assignment target or a function), or a string constant contains it (so
 * value("name") counts). Functions the expression calls are not looked into. False for
 * NULL code. */
bool pv_code_reads_name(const pv_code *code, const char *name);

#endif /* PVOX_LANG_QUERY_H */
