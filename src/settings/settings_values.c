/*
 * pvox settings: single values and flags (`pointsize`, `pointintervalbox`, `parametric`,
 * `polar`, `surface`, `macros`, `angles`, `dummy`, `datafile`): set, unset and show.
 */
#include "settings_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static pv_status positive_or_one(pv_sp *p, double *dst)
{
    double v = 1.0;
    pv_status st = PV_OK;
    if (!sp_end(p)) st = sp_real(p, &v);
    if (st == PV_OK) st = sp_expect_end(p);
    if (st == PV_OK && p->exec) *dst = v > 0.0 ? v : 1.0;
    return st;
}
pv_status sp_set_pointsize(pv_sp *p) { return positive_or_one(p, &p->s->pointsize); }
pv_status sp_set_pointintervalbox(pv_sp *p) { return positive_or_one(p, &p->s->pointintervalbox); }
pv_status sp_unset_pointsize(pv_sp *p)
{
    if (p->exec) p->s->pointsize = 1.0;
    return sp_expect_end(p);
}
pv_status sp_unset_pointintervalbox(pv_sp *p)
{
    if (p->exec) p->s->pointintervalbox = 1.0;
    return sp_expect_end(p);
}

static pv_status set_flag(pv_sp *p, bool *dst, bool v)
{
    pv_status st = sp_expect_end(p);
    if (st == PV_OK && p->exec) *dst = v;
    return st;
}
/* gnuplot: switching parametric on names the dummies t, y (unless `set polar` did), a
 * parametric splot then u, v; switching it off restores x, y */
pv_status sp_set_parametric(pv_sp *p)
{
    bool was = p->s->parametric;
    pv_status st = set_flag(p, &p->s->parametric, true);
    if (st == PV_OK && p->exec && !was && !p->s->polar) {
        strcpy(p->s->dummy[0], "t");
        strcpy(p->s->dummy[1], "y");
    }
    return st;
}
pv_status sp_unset_parametric(pv_sp *p)
{
    bool was = p->s->parametric;
    pv_status st = set_flag(p, &p->s->parametric, false);
    if (st == PV_OK && p->exec && was && !p->s->polar) {
        strcpy(p->s->dummy[0], "x");
        strcpy(p->s->dummy[1], "y");
    }
    return st;
}
pv_status sp_set_polar(pv_sp *p)
{
    sp_warn_once(p, WARN_POLAR, "set polar is stored but pvox draws no polar plots");
    return set_flag(p, &p->s->polar, true);
}
pv_status sp_unset_polar(pv_sp *p) { return set_flag(p, &p->s->polar, false); }
pv_status sp_set_surface(pv_sp *p)
{
    (void)(sp_word(p, "impl$icit") || sp_word(p, "expl$icit"));
    return set_flag(p, &p->s->surface, true);
}
pv_status sp_unset_surface(pv_sp *p) { return set_flag(p, &p->s->surface, false); }
pv_status sp_set_macros(pv_sp *p) { return set_flag(p, &p->s->macros, true); }
pv_status sp_unset_macros(pv_sp *p) { return set_flag(p, &p->s->macros, true); }

pv_status sp_set_angles(pv_sp *p)
{
    bool deg = false;
    if (sp_word(p, "d$egrees")) deg = true;
    else if (!sp_end(p) && !sp_word(p, "r$adians"))
        return sp_err(p, PV_ESYNTAX, "expecting 'radians' or 'degrees'");
    return set_flag(p, &p->s->angles_degrees, deg);
}
pv_status sp_unset_angles(pv_sp *p) { return set_flag(p, &p->s->angles_degrees, false); }

pv_status sp_set_dummy(pv_sp *p)
{
    char names[2][32];
    memcpy(names, p->s->dummy, sizeof names);
    for (int k = 0; k < 2 && !sp_end(p); k++) {
        if (sp_op(p, ",")) continue;
        const pv_token *t = pv_cur_peek(p->c);
        if (t->kind != PV_TK_NAME) return sp_err(p, PV_ESYNTAX, "set dummy: expecting a variable name");
        snprintf(names[k], sizeof names[k], "%s", t->sval);
        pv_cur_next(p->c);
        if (!sp_op(p, ",")) break;
    }
    sp_skip_rest(p); /* gnuplot accepts and ignores further names */
    if (p->exec) memcpy(p->s->dummy, names, sizeof names);
    return PV_OK;
}
pv_status sp_unset_dummy(pv_sp *p)
{
    if (p->exec) {
        strcpy(p->s->dummy[0], "x");
        strcpy(p->s->dummy[1], "y");
    }
    return sp_expect_end(p);
}

pv_status sp_set_datafile(pv_sp *p)
{
    pv_settings *s = p->s;
    pv_status st = PV_OK;
    if (sp_word(p, "sep$arators")) {
        char sep = 0;
        if (sp_end(p) || sp_word(p, "white$space")) sep = 0;
        else if (sp_word(p, "tab")) sep = '\t';
        else if (sp_word(p, "comma")) sep = ',';
        else {
            char *str = NULL;
            if ((st = sp_string(p, &str)) != PV_OK) return st;
            if (str) sep = str[0] == '\\' && str[1] == 't' ? '\t' : str[0];
            free(str);
        }
        if (p->exec) s->datafile.separator = sep;
        return sp_expect_end(p);
    }
    if (sp_word(p, "miss$ing")) {
        char *str = NULL;
        if (sp_word(p, "NaN")) {
            str = sp_strdup("NaN");
        } else if (!sp_end(p) && (st = sp_string(p, &str)) != PV_OK) {
            return st;
        }
        if (p->exec) {
            free(s->datafile.missing);
            s->datafile.missing = str;
        } else free(str);
        return sp_expect_end(p);
    }
    if (sp_word(p, "com$mentschars")) {
        char *str = sp_strdup("#");
        if (!sp_end(p) && (st = sp_string(p, &str)) != PV_OK) {
            free(str);
            return st;
        }
        if (p->exec) {
            free(s->datafile.commentschars);
            s->datafile.commentschars = str;
        } else free(str);
        return sp_expect_end(p);
    }
    if (sp_word(p, "fortran") || sp_word(p, "nofortran") || sp_word(p, "fpe_trap") ||
        sp_word(p, "nofpe_trap") || sp_word(p, "columnhead$ers") ||
        sp_word(p, "nocolumnhead$ers") || sp_word(p, "bin$ary") || sp_word(p, "noext$end")) {
        sp_skip_rest(p);
        return PV_OK;
    }
    return sp_err(p, PV_ESYNTAX, "expecting datafile modifier");
}

pv_status sp_unset_datafile(pv_sp *p)
{
    pv_settings *s = p->s;
    bool all = sp_end(p);
    bool sep = all || sp_word(p, "sep$arators");
    bool miss = all || sp_word(p, "miss$ing");
    bool com = all || sp_word(p, "com$mentschars");
    if (!sep && !miss && !com) {
        sp_skip_rest(p);
        return PV_OK;
    }
    if (p->exec) {
        if (sep) s->datafile.separator = 0;
        if (miss) {
            free(s->datafile.missing);
            s->datafile.missing = NULL;
        }
        if (com) sp_setstr(&s->datafile.commentschars, "#");
    }
    return sp_expect_end(p);
}

/* ---- show ------------------------------------------------------------------------ */

pv_status sp_show_pointsize(pv_sp *p)
{
    if (OUT) fprintf(OUT, "\n\tpointsize is %g\n\n", p->s->pointsize);
    return sp_done(p);
}

pv_status sp_show_pointintervalbox(pv_sp *p)
{
    if (OUT) fprintf(OUT, "\n\tpointintervalbox is %g\n\n", p->s->pointintervalbox);
    return sp_done(p);
}

pv_status sp_show_datafile(pv_sp *p)
{
    const pv_datafile *d = &p->s->datafile;
    if (OUT) {
        fprintf(OUT, "\n");
        if (d->missing) fprintf(OUT, "\tMissing data string set to \"%s\"\n", d->missing);
        else fprintf(OUT, "\tNo missing data string set for datafile\n");
        if (!d->separator) fprintf(OUT, "\tdatafile fields separated by whitespace\n");
        else if (d->separator == '\t') fprintf(OUT, "\tdatafile fields separated by tab\n");
        else fprintf(OUT, "\tdatafile fields separated by \"%c\"\n", d->separator);
        fprintf(OUT, "\tComments chars are \"%s\"\n\n", d->commentschars ? d->commentschars : "");
    }
    return sp_done(p);
}

pv_status sp_show_dummy(pv_sp *p)
{
    if (OUT) fprintf(OUT, "\n\tdummy variables are %s %s \n\n", p->s->dummy[0], p->s->dummy[1]);
    return sp_done(p);
}

pv_status sp_show_angles(pv_sp *p)
{
    if (OUT)
        fprintf(OUT, "\n\tAngles are in %s\n\n", p->s->angles_degrees ? "degrees" : "radians");
    return sp_done(p);
}

pv_status sp_show_macros(pv_sp *p)
{
    if (OUT) fprintf(OUT, "\n\tcommand line macros will be expanded\n\n");
    return sp_done(p);
}

pv_status sp_show_parametric(pv_sp *p)
{
    if (OUT) fprintf(OUT, "\n\tparametric is %s\n\n", p->s->parametric ? "ON" : "OFF");
    return sp_done(p);
}

pv_status sp_show_polar(pv_sp *p)
{
    if (OUT) fprintf(OUT, "\n\tpolar is %s\n\n", p->s->polar ? "ON" : "OFF");
    return sp_done(p);
}

pv_status sp_show_surface(pv_sp *p)
{
    if (OUT) fprintf(OUT, "\n\tsurface is %sdrawn\n\n", p->s->surface ? "" : "not ");
    return sp_done(p);
}
