/* Lexer: token kinds, values and byte offsets; comments, continuations, heredocs. */
#include "lt_common.h"

static pv_source *src;
static pv_toklist tl;

static pv_status lex(pv_ctx *ctx, const char *text)
{
    pv_toklist_fini(&tl);
    pv_source_destroy(src);
    pv_err_clear(ctx);
    src = pv_source_create(ctx, "t.gp", text, strlen(text), 1);
    return pv_lex(ctx, src, &tl);
}

static void test_numbers(pv_ctx *ctx)
{
    PV_CHECK_EQ(lex(ctx, "010 0x1F 1e6 .5 10. 08 09.5 12345678901234567890"), PV_OK);
    PV_CHECK_EQ(tl.tok[0].kind, PV_TK_INT);
    PV_CHECK_EQ(tl.tok[0].ival, 8);
    PV_CHECK_EQ(tl.tok[1].ival, 31);
    PV_CHECK_EQ(tl.tok[2].kind, PV_TK_REAL);
    PV_CHECK(tl.tok[2].dval == 1e6);
    PV_CHECK(tl.tok[3].kind == PV_TK_REAL && tl.tok[3].dval == 0.5);
    PV_CHECK(tl.tok[4].kind == PV_TK_REAL && tl.tok[4].dval == 10.0);
    /* "08": octal 0 then 8, as gnuplot */
    PV_CHECK(tl.tok[5].kind == PV_TK_INT && tl.tok[5].ival == 0 && tl.tok[5].end == 21);
    PV_CHECK(tl.tok[6].kind == PV_TK_INT && tl.tok[6].ival == 8);
    PV_CHECK(tl.tok[7].kind == PV_TK_REAL && tl.tok[7].dval == 9.5);
    PV_CHECK(tl.tok[8].kind == PV_TK_REAL); /* too big for int64 */
    PV_CHECK_EQ(tl.tok[9].kind, PV_TK_EOF);
    PV_CHECK_EQ(tl.tok[1].start, 4);
    PV_CHECK_EQ(tl.tok[1].end, 8);
    /* overflowing literals: real value of the text (gnuplot warns) */
    PV_CHECK_EQ(lex(ctx, "0x7fffffffffffffff 0xffffffffffffffff 017777777777777777777777 1.e5"), PV_OK);
    PV_CHECK(tl.tok[0].kind == PV_TK_INT && tl.tok[0].ival == INT64_MAX);
    PV_CHECK(tl.tok[1].kind == PV_TK_REAL && tl.tok[1].dval == 18446744073709551615.0);
    PV_CHECK(tl.tok[2].kind == PV_TK_REAL && tl.tok[2].dval == 17777777777777777777777.0);
    PV_CHECK(tl.tok[3].kind == PV_TK_REAL && tl.tok[3].dval == 1e5);
    PV_CHECK_EQ(lex(ctx, "print 1e"), PV_ESYNTAX);
    PV_CHECK(strstr(ctx->err_msg, "t.gp:1:7: error: expecting exponent") != NULL);
}

static void test_strings(pv_ctx *ctx)
{
    PV_CHECK_EQ(lex(ctx, "\"a\\tb\\x41\\101\\\"\" 'it''s\\n' \"open\""), PV_OK);
    PV_CHECK_EQ(tl.tok[0].kind, PV_TK_STRING);
    PV_CHECK_STR(tl.tok[0].sval, "a\tbx41A\"");
    PV_CHECK_EQ(tl.tok[0].op[0], '"');
    PV_CHECK_STR(tl.tok[1].sval, "it's\\n");
    PV_CHECK_EQ(tl.tok[1].op[0], '\'');
    PV_CHECK_STR(tl.tok[2].sval, "open");
    /* an unterminated string ends with its line, as gnuplot reads it */
    PV_CHECK_EQ(lex(ctx, "x = \"open\ny"), PV_OK);
    PV_CHECK_EQ(tl.tok[2].kind, PV_TK_STRING);
    PV_CHECK_STR(tl.tok[2].sval, "open");
    PV_CHECK_EQ(tl.tok[3].kind, PV_TK_NEWLINE);
    PV_CHECK_EQ(lex(ctx, "x = 'it''s\n"), PV_OK);
    PV_CHECK_STR(tl.tok[2].sval, "it's");
    PV_CHECK_EQ(lex(ctx, "\"a\\0b\""), PV_OK);
    PV_CHECK_EQ(tl.tok[0].slen, 3);
}

static void test_symbols(pv_ctx *ctx)
{
    PV_CHECK_EQ(lex(ctx, "$4 $# $grid @mac a_1 ** != <= >= << >> && || ! ~ ? : ; . ="), PV_OK);
    PV_CHECK(tl.tok[0].kind == PV_TK_COLUMN && tl.tok[0].ival == 4);
    PV_CHECK(tl.tok[1].kind == PV_TK_COLUMN && tl.tok[1].ival == -1);
    PV_CHECK(tl.tok[2].kind == PV_TK_DOLLAR);
    PV_CHECK_STR(tl.tok[2].sval, "$grid");
    PV_CHECK(tl.tok[3].kind == PV_TK_MACRO);
    PV_CHECK_STR(tl.tok[3].sval, "mac");
    PV_CHECK_STR(tl.tok[4].sval, "a_1");
    const char *ops[] = {"**", "!=", "<=", ">=", "<<", ">>", "&&", "||", "!", "~", "?", ":"};
    for (int i = 0; i < 12; i++) {
        PV_CHECK_EQ(tl.tok[5 + i].kind, PV_TK_OP);
        PV_CHECK_STR(tl.tok[5 + i].op, ops[i]);
    }
    PV_CHECK_EQ(tl.tok[17].kind, PV_TK_SEMI);
    PV_CHECK_STR(tl.tok[18].op, ".");
    PV_CHECK_STR(tl.tok[19].op, "=");
    /* += is two tokens in gnuplot 5.4 */
    PV_CHECK_EQ(lex(ctx, "a += 2"), PV_OK);
    PV_CHECK_STR(tl.tok[1].op, "+");
    PV_CHECK_STR(tl.tok[2].op, "=");
    PV_CHECK_EQ(lex(ctx, "print `ls`"), PV_ESYNTAX);
    PV_CHECK(strstr(ctx->err_msg, "t.gp:1:7:") != NULL);
}

static void test_lines(pv_ctx *ctx)
{
    /* comments, continued comment, `\` continuation */
    PV_CHECK_EQ(lex(ctx, "a # c \\\nprint 5\nb = 1 + \\\n 2\n"), PV_OK);
    PV_CHECK_STR(tl.tok[0].sval, "a");
    PV_CHECK_EQ(tl.tok[1].kind, PV_TK_NEWLINE);
    PV_CHECK_STR(tl.tok[2].sval, "b");
    PV_CHECK_EQ(tl.tok[6].kind, PV_TK_INT);
    PV_CHECK_EQ(tl.tok[6].ival, 2);
    PV_CHECK_EQ(tl.tok[7].kind, PV_TK_NEWLINE);
    int line, col;
    pv_source_locate(src, tl.tok[6].start, &line, &col);
    PV_CHECK_EQ(line, 4);
    PV_CHECK_EQ(col, 2);
    PV_CHECK_EQ(lex(ctx, "x = 1; y = 2"), PV_OK);
    PV_CHECK_EQ(tl.tok[3].kind, PV_TK_SEMI);
    /* '#' inside a string is not a comment */
    PV_CHECK_EQ(lex(ctx, "s = \"#x\""), PV_OK);
    PV_CHECK_STR(tl.tok[2].sval, "#x");
}

static void test_heredoc(pv_ctx *ctx)
{
    const char *t = "$d << EOD # note\n1 2 3\n  EOD\n# x\nEODX rest\nprint |$d|\n";
    PV_CHECK_EQ(lex(ctx, t), PV_OK);
    PV_CHECK(tl.tok[0].kind == PV_TK_DOLLAR);
    PV_CHECK_STR(tl.tok[1].op, "<<");
    PV_CHECK_STR(tl.tok[2].sval, "EOD");
    PV_CHECK_EQ(tl.tok[3].kind, PV_TK_NEWLINE);
    PV_CHECK_EQ(tl.tok[4].kind, PV_TK_HEREDOC);
    PV_CHECK_STR(tl.tok[4].sval, "1 2 3\n  EOD\n# x\n");
    PV_CHECK_EQ(tl.tok[4].start, 17);
    PV_CHECK_EQ(tl.tok[5].kind, PV_TK_NEWLINE);
    PV_CHECK_STR(tl.tok[6].sval, "print");
    PV_CHECK_STR(tl.tok[7].op, "|");
    /* after a semicolon too, and an empty body */
    PV_CHECK_EQ(lex(ctx, "x=1; $e << END\nEND\n"), PV_OK);
    PV_CHECK_EQ(tl.tok[8].kind, PV_TK_HEREDOC);
    PV_CHECK_EQ(tl.tok[8].slen, 0);
    /* `<<` as a shift is not a heredoc */
    PV_CHECK_EQ(lex(ctx, "print 1 << 2\n3\n"), PV_OK);
    PV_CHECK_EQ(tl.tok[4].kind, PV_TK_NEWLINE);
    PV_CHECK_EQ(tl.tok[5].kind, PV_TK_INT);
    /* no terminator: the datablock runs to the end of the file (gnuplot), with a warning */
    PV_CHECK_EQ(lex(ctx, "$d << EOD\n1\n2\n"), PV_OK);
    PV_CHECK_EQ(tl.tok[4].kind, PV_TK_HEREDOC);
    PV_CHECK_STR(tl.tok[4].sval, "1\n2\n");
}

/* The index of the k-th token of kind `kind` (SIZE_MAX if none). */
static size_t nth(pv_tok_kind kind, int k)
{
    for (size_t i = 0; i < tl.ntok; i++)
        if (tl.tok[i].kind == kind && k-- == 0) return i;
    return SIZE_MAX;
}

static void test_inline(pv_ctx *ctx)
{
    /* two sources, two blocks; "end" and " E" end a block, "#e" does not */
    PV_CHECK_EQ(lex(ctx, "plot '-' u 1:2, \"-\" title '-'\n1 2\n#e\nend\n3 4\n E x\nprint 1\n"),
                PV_OK);
    size_t b0 = nth(PV_TK_INLINE, 0), b1 = nth(PV_TK_INLINE, 1);
    PV_CHECK(b0 != SIZE_MAX && b1 == b0 + 1 && nth(PV_TK_INLINE, 2) == SIZE_MAX);
    PV_CHECK_STR(tl.tok[b0].sval, "1 2\n#e\n");
    PV_CHECK_STR(tl.tok[b1].sval, "3 4\n");
    PV_CHECK_EQ(tl.tok[1].data_first, b0);
    PV_CHECK_EQ(tl.tok[1].data_count, 1);
    PV_CHECK_EQ(tl.tok[7].data_first, b1); /* the second '-'; title '-' reads nothing */
    PV_CHECK_EQ(tl.tok[9].data_count, 0);
    PV_CHECK_STR(tl.tok[b1 + 1].sval, "print");
    /* iterations: one block per pass; replot reads the last plot's blocks again */
    PV_CHECK_EQ(lex(ctx, "plot for [i=3:1:-1] '-', for [s in \"a b\"] '-'\ne\ne\ne\ne\ne\n"
                         "replot\ne\ne\ne\ne\ne\nprint 2\n"), PV_OK);
    PV_CHECK_EQ(nth(PV_TK_INLINE, 9) != SIZE_MAX && nth(PV_TK_INLINE, 10) == SIZE_MAX, 1);
    size_t rp = nth(PV_TK_INLINE, 5) - 2; /* replot, NEWLINE, its blocks */
    PV_CHECK_STR(tl.tok[rp].sval, "replot");
    PV_CHECK_EQ(tl.tok[rp].data_count, 5);
    PV_CHECK_EQ(tl.tok[rp].data_first, rp + 2);
    /* stats, vfill with two sources, fit, set palette file; old-style if */
    PV_CHECK_EQ(lex(ctx, "stats [0:1] '-'\ne\nvfill '-' u 1:2:3:(1):(1), '-' u 1:2:3:(1):(2)\n"
                         "e\ne\nfit f(x) '-' via 'p'\ne\nset palette file '-'\ne\n"
                         "if (1) plot '-'; plot '-'\ne\ne\nprint 3\n"), PV_OK);
    PV_CHECK(nth(PV_TK_INLINE, 6) != SIZE_MAX && nth(PV_TK_INLINE, 7) == SIZE_MAX);
    /* inside { } and in an eval string nothing is taken (gnuplot reads stdin there) */
    PV_CHECK_EQ(lex(ctx, "do for [i=1:2] {\n plot '-'\n}\nif (1) { plot '-' }\n"), PV_OK);
    PV_CHECK_EQ(nth(PV_TK_INLINE, 0), SIZE_MAX);
    /* the end of the source ends a block (a warning), later ones are empty */
    PV_CHECK_EQ(lex(ctx, "plot '-', '-'\n1 2"), PV_OK);
    PV_CHECK_STR(tl.tok[nth(PV_TK_INLINE, 0)].sval, "1 2");
    PV_CHECK_EQ(tl.tok[nth(PV_TK_INLINE, 1)].slen, 0);
    /* lines keep their numbers after the data */
    PV_CHECK_EQ(lex(ctx, "plot '-'\n1\n2\ne\nprint (1 +\n"), PV_OK);
    int line = 0, col = 0;
    pv_source_locate(src, tl.tok[nth(PV_TK_NAME, 1)].start, &line, &col);
    PV_CHECK_EQ(line, 5);
    /* an iteration whose bounds are not constants cannot be counted before running */
    PV_CHECK_EQ(lex(ctx, "plot for [i=1:n] '-'\n1\ne\n"), PV_ESYNTAX);
    PV_CHECK(strstr(ctx->err_msg, "t.gp:1:6: error: inline data '-' in an iteration") != NULL);
}

static void test_cursor(pv_ctx *ctx)
{
    PV_CHECK(pv_word_matches("ou", "ou$tput"));
    PV_CHECK(pv_word_matches("out", "ou$tput"));
    PV_CHECK(pv_word_matches("output", "ou$tput"));
    PV_CHECK(!pv_word_matches("o", "ou$tput"));
    PV_CHECK(!pv_word_matches("outputs", "ou$tput"));
    PV_CHECK(!pv_word_matches("oux", "ou$tput"));
    PV_CHECK(pv_word_matches("vgrid", "vgrid"));
    PV_CHECK(!pv_word_matches("vgri", "vgrid"));
    PV_CHECK_EQ(lex(ctx, "set out 'x'; print"), PV_OK);
    pv_cursor c = {ctx, &tl, 0, tl.ntok};
    PV_CHECK(pv_cur_accept_word(&c, "se$t"));
    PV_CHECK(pv_cur_is_word(&c, "ou$tput"));
    PV_CHECK(!pv_cur_accept_word(&c, "te$rminal"));
    pv_cur_next(&c);
    PV_CHECK_EQ(pv_cur_peek(&c)->kind, PV_TK_STRING);
    PV_CHECK_EQ(pv_cur_offset(&c), 8);
    pv_cur_next(&c);
    PV_CHECK(pv_cur_at_end(&c));
    PV_CHECK(!pv_cur_is_op(&c, ";"));
    PV_CHECK_EQ(pv_cur_error(&c, PV_ESYNTAX, "expected %s", "x"), PV_ESYNTAX);
    PV_CHECK(strstr(ctx->err_msg, "t.gp:1:12: error: expected x") != NULL);
    /* a statement end bounds the cursor */
    pv_cursor c2 = {ctx, &tl, 0, 2};
    pv_cur_next(&c2);
    pv_cur_next(&c2);
    PV_CHECK(pv_cur_at_end(&c2));
    PV_CHECK_EQ(pv_cur_peek(&c2)->start, 8);
}

int main(int argc, char **argv)
{
    pv_ctx *ctx = lt_init(&argc, &argv);
    test_numbers(ctx);
    test_strings(ctx);
    test_symbols(ctx);
    test_lines(ctx);
    test_heredoc(ctx);
    test_inline(ctx);
    test_cursor(ctx);
    pv_toklist_fini(&tl);
    pv_source_destroy(src);
    lt_fini(ctx);
    return pv_test_result("lang_lex");
}
