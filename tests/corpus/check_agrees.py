#!/usr/bin/env python3
"""pvox's pre-run check (`pvox --check`) agrees with gnuplot 5.4 on pvox's own scripts.

Every script of the test suite (tests/scripts/cases, tests/oracle/cases, the picture
scenes), of examples/, jobs/ and bench/ is checked by `pvox --check` and run by gnuplot
(pngcairo, in a scratch copy of its folder, with a time limit). They agree when:

  - gnuplot runs the script to the end (exit 0): pvox --check accepts it;
  - pvox --check rejects it with its first syntax error at line L: gnuplot stops too,
    at L or before it (an earlier error of its own means it never read line L; a few
    lines after L are allowed, for gnuplot's count of continued lines);
  - gnuplot stops with a syntax error of its own ("invalid command", "unexpected or
    unrecognized token", "invalid expression", ...) at line G: pvox --check rejects the
    script, at G or before it.

  When the last rule fails for a line gnuplot checks only while running it (`eval`, a
  loaded file, a voxel grid read with `using`), pvox may find the error at run time
  instead: the script is then run by pvox, and they agree when pvox stops at G too.

Scripts that use a pvox extension (vsave, vload, vgfill, GridDistance: not in gnuplot 5.4),
that test a documented refusal (DOCUMENTED below, with the README's name for it) or
whose gnuplot run exceeds the time limit are listed but not judged. The table lists
every script with both verdicts. Exit status: 0 all agree, 1 a disagreement, 77 gnuplot
missing (a failure under CI=true).

  check_agrees.py --pvox build/pvox --root . --work DIR [SCRIPT ...]
"""
import argparse
import concurrent.futures
import glob
import os
import re
import shutil
import subprocess
import sys

SCRIPT_GLOBS = ["tests/scripts/cases/*.gp", "tests/oracle/cases/[a-z][0-9]*.gp",
                "tests/picture/scenes/*.gp", "examples/*.gp", "jobs/*.gp", "bench/*.gp"]
# pvox extensions: grid commands, GridDistance, and the PNG options of `set term`
# (`compression N`, `filter F`: README "Plotting"), which gnuplot rejects
EXTENSIONS = re.compile(r"^\s*(vsave|vload|vgfill)\b|\bGridDistance\b|"
                        r"(^|;)\s*set\s+t(e(r(m(i(n(al?)?)?)?)?)?)?\s[^;\n]*"
                        r"\b(compr(e(s(s(i(on?)?)?)?)?)?|filter)\b", re.M)
# documented differences: scripts gnuplot runs and pvox refuses on purpose
DOCUMENTED = {
    "tests/scripts/cases/err_set_term.gp": "DIFF-10: only png/pngcairo terminals",
    "tests/scripts/cases/inline_data_for_bounds.gp": "DIFF-20: inline blocks counted from the text",
    "tests/scripts/cases/err_nest_calls.gp": "DIFF-22: expression depth bounded",
    "tests/scripts/cases/err_nest_chain.gp": "DIFF-22: expression depth bounded",
}
GNUPLOT_ERR = re.compile(r'^"([^"]*)" line (\d+): (.*)$', re.M)
PVOX_ERR = re.compile(r"^[^:\n]+:(\d+):\d+: error: (.*)$", re.M)
# gnuplot messages that mean it could not parse the line (not a run-time failure)
SYNTAX = re.compile(r"invalid command|unexpected or unrecognized token|invalid expression|"
                    r"unrecognized option|^expecting|^'.' expected|unknown .* option|"
                    r"unrecognized plot type|unbounded iteration not accepted")
SLACK = 3  # gnuplot may count a continued line as the line after it


def gnuplot_run(gnuplot, script, cwd, timeout):
    env = dict(os.environ, GNUTERM="pngcairo")
    env.pop("DISPLAY", None)
    try:
        p = subprocess.run([gnuplot, "-e", "set term pngcairo; set output '/dev/null'",
                            os.path.basename(script)], cwd=cwd, env=env,
                           stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout", None, ""
    err = p.stderr.decode("utf-8", "replace")
    if p.returncode == 0:
        return "ok", None, ""
    # the last located message is where gnuplot stopped (earlier ones are warnings); a
    # message located in another file (a loaded one) has no line of this script
    errors = [(f, int(l), msg) for f, l, msg in GNUPLOT_ERR.findall(err)
              if not msg.startswith("warning:")]
    if not errors:
        return "error", None, (err.strip().splitlines() or [""])[-1].strip()
    f, line, msg = errors[-1]
    return "error", line if os.path.basename(f) == os.path.basename(script) else None, msg


def pvox_check(pvox, script, cwd, check=True):
    args = [pvox, "--check", "-q"] if check else [pvox, "-q", "-o", cwd]
    p = subprocess.run(args + [os.path.basename(script)], cwd=cwd,
                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, timeout=300)
    err = p.stderr.decode("utf-8", "replace")
    if p.returncode == 0:
        return "ok", None, ""
    m = PVOX_ERR.search(err)
    return "error", int(m.group(1)) if m else None, m.group(2) if m else err.strip()


def judge(rel, text, gp, pv, pv_run):
    """(verdict, reason): verdict is agree, DISAGREE or unjudged. pv_run() runs the
    script in pvox (for errors found only at run time)."""
    if EXTENSIONS.search(text):
        return "unjudged", "pvox extension"
    if rel in DOCUMENTED:
        return "unjudged", DOCUMENTED[rel]
    if gp[0] == "timeout":
        return "unjudged", "gnuplot time limit"
    if gp[0] == "ok" and pv[0] != "ok":
        return "DISAGREE", "gnuplot runs it; pvox --check: line %s: %s" % (pv[1], pv[2])
    if pv[0] == "error" and gp[0] == "error" and pv[1] and gp[1] and gp[1] > pv[1] + SLACK:
        return "DISAGREE", "gnuplot got past line %d (stops at %d: %s)" % (pv[1], gp[1], gp[2])
    if gp[0] == "error" and gp[1] and SYNTAX.search(gp[2] or "") and pv[0] == "ok":
        run = pv_run()
        if run[0] == "error" and run[1] and run[1] <= gp[1] + SLACK:
            return "agree", "pvox stops at line %d when run" % run[1]
        return "DISAGREE", "gnuplot: line %s: %s; pvox --check accepts" % (gp[1], gp[2])
    if gp[0] == "error" and SYNTAX.search(gp[2] or "") and pv[1] and gp[1] and \
            pv[1] > gp[1] + SLACK:
        return "DISAGREE", "gnuplot: line %d: %s; pvox's first error is at %d" % (
            gp[1], gp[2], pv[1])
    return "agree", ""


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pvox", required=True)
    ap.add_argument("--gnuplot", default="gnuplot")
    ap.add_argument("--root", required=True, help="the project's source folder")
    ap.add_argument("--work", required=True)
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("scripts", nargs="*")
    a = ap.parse_args()
    if not shutil.which(a.gnuplot):
        print("gnuplot missing (apt-get install gnuplot-nox)")
        return 1 if os.environ.get("CI") == "true" else 77
    root = os.path.abspath(a.root)
    pvox = os.path.abspath(a.pvox)
    scripts = [os.path.abspath(s) for s in a.scripts] or sorted(
        s for g in SCRIPT_GLOBS for s in glob.glob(os.path.join(root, g)))
    os.makedirs(a.work, exist_ok=True)

    def one(k, script):
        rel = os.path.relpath(script, root)
        base = os.path.join(a.work, "%03d" % k)
        shutil.rmtree(base, ignore_errors=True)
        dirs = []
        for tag in ("gnuplot", "pvox"):
            d = os.path.join(base, tag)
            shutil.copytree(os.path.dirname(script), d, symlinks=True)
            dirs.append(d)
        gp = gnuplot_run(a.gnuplot, script, dirs[0], a.timeout)
        pv = pvox_check(pvox, script, dirs[1])
        text = open(script, encoding="utf-8", errors="replace").read()
        verdict = judge(rel, text, gp, pv, lambda: pvox_check(pvox, script, dirs[1], False))
        shutil.rmtree(base, ignore_errors=True)
        return rel, gp, pv, verdict

    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as ex:
        rows = list(ex.map(lambda kv: one(*kv), enumerate(scripts)))

    def cell(r):
        return r[0] if r[0] != "error" else "line %s" % (r[1] or "?")

    print("%-52s %-10s %-12s %s" % ("script", "gnuplot", "pvox --check", "verdict"))
    count = {"agree": 0, "DISAGREE": 0, "unjudged": 0}
    for rel, gp, pv, (v, why) in rows:
        count[v] += 1
        print("%-52s %-10s %-12s %s" % (rel, cell(gp), cell(pv), v + ("  " + why if why else "")))
    print("%d scripts: %d agree, %d disagree, %d not judged" % (
        len(rows), count["agree"], count["DISAGREE"], count["unjudged"]))
    return 1 if count["DISAGREE"] else 0


if __name__ == "__main__":
    sys.exit(main())
