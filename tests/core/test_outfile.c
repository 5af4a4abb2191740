/*
 * The output rule (pvox/outfile.h): how a path is classified for writing, in a scratch
 * directory: a new name, a regular file, links (relative, absolute, chained, dangling, in
 * a loop), a directory, a FIFO, a socket; streams allowed or not; the descriptor names
 * under /dev; temporary names and their targets. No MPI. (The writers themselves:
 * tests/output/output_test.sh.)
 */
#define _GNU_SOURCE
#include "pv_test.h"
#include "pvox/core.h"
#include "pvox/outfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

static char dir[] = "/tmp/pvox-outfile-XXXXXX";

static char *at(const char *name) { return pv_asprintf("%s/%s", dir, name); }

/* Classify dir/name; the target relative to dir ("" when none) into *rel. */
static pv_io_target classify(const char *name, bool stream_ok, char *rel, size_t cap,
                             const char **why)
{
    char *p = at(name), *t = NULL;
    pv_io_target k = pv_io_output_target(p, stream_ok, &t, why);
    size_t n = strlen(dir);
    snprintf(rel, cap, "%s", t ? (strncmp(t, dir, n) == 0 ? t + n + 1 : t) : "");
    free(t);
    free(p);
    return k;
}

static void make(void)
{
    char *p;
    FILE *f = fopen(p = at("reg"), "w");
    PV_CHECK(f != NULL);
    if (f) fclose(f);
    free(p);
    PV_CHECK(mkdir(p = at("sub"), 0777) == 0);
    free(p);
    PV_CHECK(mkdir(p = at("adir"), 0777) == 0);
    free(p);
    PV_CHECK(mkfifo(p = at("fifo"), 0666) == 0);
    free(p);
    PV_CHECK(symlink("reg", p = at("l_rel")) == 0); /* relative to the link's directory */
    free(p);
    PV_CHECK(symlink("../reg", p = at("sub/l_up")) == 0);
    free(p);
    PV_CHECK(symlink("sub/l_up", p = at("l_chain")) == 0); /* a link to a link */
    free(p);
    PV_CHECK(symlink("sub/new", p = at("l_dangling")) == 0);
    free(p);
    PV_CHECK(symlink("fifo", p = at("l_fifo")) == 0);
    free(p);
    PV_CHECK(symlink("adir", p = at("l_dir")) == 0);
    free(p);
    PV_CHECK(symlink("loop_b", p = at("loop_a")) == 0);
    free(p);
    PV_CHECK(symlink("loop_a", p = at("loop_b")) == 0);
    free(p);
    char *abs = at("reg");
    PV_CHECK(symlink(abs, p = at("l_abs")) == 0);
    free(p);
    free(abs);
    int s = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    p = at("sock");
    snprintf(sa.sun_path, sizeof sa.sun_path, "%s", p);
    PV_CHECK(s >= 0 && bind(s, (struct sockaddr *)&sa, sizeof sa) == 0);
    free(p);
    if (s >= 0) close(s);
}

static void test_classes(void)
{
    char rel[4096];
    const char *why = NULL;
    /* a new name and a regular file: replaced through a temporary, the name itself */
    PV_CHECK_EQ(classify("new", false, rel, sizeof rel, &why), PV_IO_REPLACE);
    PV_CHECK_STR(rel, "new");
    PV_CHECK_EQ(classify("reg", false, rel, sizeof rel, &why), PV_IO_REPLACE);
    PV_CHECK_STR(rel, "reg");
    /* links: the name they finally reach; the link itself is never the target */
    PV_CHECK_EQ(classify("l_rel", false, rel, sizeof rel, &why), PV_IO_REPLACE);
    PV_CHECK_STR(rel, "reg");
    PV_CHECK_EQ(classify("l_chain", false, rel, sizeof rel, &why), PV_IO_REPLACE);
    PV_CHECK_STR(rel, "sub/../reg");
    PV_CHECK_EQ(classify("l_abs", false, rel, sizeof rel, &why), PV_IO_REPLACE);
    PV_CHECK_STR(rel, "reg");
    PV_CHECK_EQ(classify("l_dangling", false, rel, sizeof rel, &why), PV_IO_REPLACE);
    PV_CHECK_STR(rel, "sub/new");
    /* a FIFO: a stream where allowed, else refused; through a link likewise */
    PV_CHECK_EQ(classify("fifo", true, rel, sizeof rel, &why), PV_IO_STREAM);
    PV_CHECK_STR(rel, "");
    PV_CHECK_EQ(classify("fifo", false, rel, sizeof rel, &why), PV_IO_REFUSED);
    PV_CHECK_STR(why, PV_IO_NOT_REGULAR);
    PV_CHECK_EQ(classify("l_fifo", true, rel, sizeof rel, &why), PV_IO_STREAM);
    PV_CHECK_EQ(classify("l_fifo", false, rel, sizeof rel, &why), PV_IO_REFUSED);
    /* directories and sockets: always refused */
    PV_CHECK_EQ(classify("adir", true, rel, sizeof rel, &why), PV_IO_REFUSED);
    PV_CHECK_STR(why, "is a directory");
    PV_CHECK_EQ(classify("l_dir", false, rel, sizeof rel, &why), PV_IO_REFUSED);
    PV_CHECK_STR(why, "is a directory");
    PV_CHECK_EQ(classify("sock", true, rel, sizeof rel, &why), PV_IO_REFUSED);
    PV_CHECK_STR(why, "not a regular file, a character device or a FIFO");
    PV_CHECK_EQ(classify("sock", false, rel, sizeof rel, &why), PV_IO_REFUSED);
    PV_CHECK_STR(why, PV_IO_NOT_REGULAR);
    /* a loop of links: refused with the system's words */
    PV_CHECK_EQ(classify("loop_a", true, rel, sizeof rel, &why), PV_IO_REFUSED);
    PV_CHECK_STR(why, strerror(ELOOP));
    /* a name under a missing directory: a new name (creating its temporary will fail) */
    PV_CHECK_EQ(classify("nodir/x", false, rel, sizeof rel, &why), PV_IO_REPLACE);
}

static void test_streams(void)
{
    char *t = NULL;
    const char *why = NULL;
    /* the descriptor names: streams in place, never replaced, refused when not allowed */
    PV_CHECK_EQ(pv_io_output_target("/dev/stdout", true, &t, &why), PV_IO_STREAM);
    PV_CHECK(t == NULL);
    PV_CHECK_EQ(pv_io_output_target("/dev/stdout", false, &t, &why), PV_IO_REFUSED);
    PV_CHECK_EQ(pv_io_output_target("/dev/null", true, &t, &why), PV_IO_STREAM);
    PV_CHECK_EQ(pv_io_output_target("/dev/null", false, &t, &why), PV_IO_REFUSED);
    PV_CHECK_STR(why, PV_IO_NOT_REGULAR);
    PV_CHECK_EQ(pv_io_output_target("| cat", true, &t, &why), PV_IO_STREAM);
    PV_CHECK_EQ(pv_io_output_target("", true, &t, &why), PV_IO_REFUSED);
}

static void test_temp_names(void)
{
    char *tmp = pv_io_temp_name("a/b.png");
    PV_CHECK(tmp != NULL && strncmp(tmp, "a/b.png.tmp.", 12) == 0 && strlen(tmp) == 28);
    char *back = tmp ? pv_io_temp_target(tmp) : NULL;
    PV_CHECK(back != NULL);
    if (back) PV_CHECK_STR(back, "a/b.png");
    free(back);
    free(tmp);
    PV_CHECK(pv_io_temp_target("a/b.png") == NULL && errno == EINVAL);
    PV_CHECK(pv_io_temp_target("a/b.png.tmp.0123") == NULL);
    PV_CHECK_STR(pv_io_strerror(EFBIG), "file too large (ulimit -f)");
    PV_CHECK_STR(pv_io_strerror(ENOSPC), strerror(ENOSPC));
}

static void cleanup(void)
{
    static const char *const names[] = {"sub/l_up", "sub/new",    "reg",    "fifo",  "l_rel",
                                        "l_chain",  "l_dangling", "l_fifo", "l_dir", "loop_a",
                                        "loop_b",   "l_abs",      "sock"};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        char *p = at(names[k]);
        unlink(p);
        free(p);
    }
    char *p = at("sub");
    rmdir(p);
    free(p);
    rmdir(p = at("adir"));
    free(p);
    rmdir(dir);
}

int main(void)
{
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    make();
    test_classes();
    test_streams();
    test_temp_names();
    cleanup();
    return pv_test_result("core.test_outfile");
}
