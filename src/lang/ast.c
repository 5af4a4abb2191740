/*
 * AST nodes of lang expressions (lang_int.h): create, free, add a child, deep copy. A leaf
 * of the module: the parser, the bytecode compiler and the vector VM compiler build on it.
 */
#include "lang_int.h"

#include <stdlib.h>

pv_node *pv_node_new(pv_nkind kind, size_t off)
{
    pv_node *n = calloc(1, sizeof *n);
    if (n) {
        n->kind = kind;
        n->off = off;
        n->height = 1;
    }
    return n;
}

void pv_node_free(pv_node *n)
{
    if (!n) return;
    for (int i = 0; i < n->nkids; i++) pv_node_free(n->kid[i]);
    free(n->kid);
    pv_value_free(&n->val);
    free(n->name);
    free(n);
}

pv_status pv_node_addkid(pv_node *n, pv_node *k)
{
    pv_node **nk = realloc(n->kid, (size_t)(n->nkids + 1) * sizeof *nk);
    if (!nk) return PV_ENOMEM;
    n->kid = nk;
    n->kid[n->nkids++] = k;
    if (k && k->height + 1 > n->height) n->height = k->height + 1;
    return PV_OK;
}

pv_node *pv_node_clone(const pv_node *n)
{
    if (!n) return NULL;
    pv_node *c = pv_node_new(n->kind, n->off);
    if (!c) return NULL;
    c->op = n->op;
    c->ival = n->ival;
    c->val = pv_value_copy(&n->val);
    if (n->name) c->name = pvl_strdup(n->name);
    for (int i = 0; i < n->nkids; i++) {
        pv_node *k = n->kid[i] ? pv_node_clone(n->kid[i]) : NULL;
        if ((n->kid[i] && !k) || pv_node_addkid(c, k) != PV_OK) {
            pv_node_free(k);
            pv_node_free(c);
            return NULL;
        }
    }
    return c;
}
