/*
 * io/xml.c: text escapes for the XML files io writes (the XDMF sidecar, VTK meshes).
 */
#include "io_int.h"

void pv_io_put_xml(FILE *f, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&apos;", f); break;
        default: fputc(*s, f);
        }
    }
}
