# The gnuplot demo corpus (tests/corpus/demos.py), label "corpus": every `splot` demo of
# Debian's gnuplot-doc, made batch, runs in gnuplot 5.4 and in pvox at 1 and 2 ranks;
# every demo gnuplot runs to the end, pvox must run to the end with exit 0. The table of
# pictures and warnings is in the test's output (ctest -V -R corpus). Needs gnuplot-nox and
# gnuplot-doc (the test command installs them); without them the test skips (77), or
# fails under CI=true.
find_package(Python3 COMPONENTS Interpreter QUIET)
set(pv_corpus_python python3)
if(Python3_EXECUTABLE)
  set(pv_corpus_python ${Python3_EXECUTABLE})
endif()
# A PV_SANITIZE build runs the two tests reduced unless PV_SANITIZE_CORPUS is FULL
# (tests/README.md "Sanitizer suite"), so that CI's sanitizer stage fits its time: under
# AddressSanitizer each pvox run costs several times more. The reduced tests are named
# corpus.demos.np1 (every demo but animate2, at 1 rank only: more ranks are the rank
# tests' part; animate2 draws one hidden3d globe 72 times, 100 s in a normal build and
# 10 min under ASan, with the code of the other hidden3d demos) and
# corpus.check_agrees.unrun (only the scripts of examples/, jobs/ and bench/: the other
# tests run the suite's scripts through pvox, whose run checks the whole script first).
set(PV_SANITIZE_CORPUS REDUCED CACHE STRING
  "Corpus tests of a PV_SANITIZE build: REDUCED (CI's sanitizer stage) or FULL")
set(pv_corpus_reduced OFF)
if(PV_SANITIZE AND NOT PV_SANITIZE_CORPUS STREQUAL "FULL")
  set(pv_corpus_reduced ON)
endif()
set(pv_demos_name corpus.demos)
set(pv_demos_ranks 1,2)
set(pv_demos_exclude "")
set(pv_demos_timeout 600)    # one run
set(pv_demos_ctest 2400)     # the whole test
if(PV_SANITIZE)              # animate2 alone takes about 10 minutes under ASan
  set(pv_demos_timeout 1800)
  set(pv_demos_ctest 5400)
endif()
if(pv_corpus_reduced)
  set(pv_demos_name corpus.demos.np1)
  set(pv_demos_ranks 1)
  set(pv_demos_exclude animate2)
endif()
add_test(NAME ${pv_demos_name}
  COMMAND ${pv_corpus_python} ${CMAKE_CURRENT_LIST_DIR}/demos.py
          --pvox $<TARGET_FILE:pvox> --mpirun ${MPIEXEC_EXECUTABLE} --ranks ${pv_demos_ranks}
          --work ${CMAKE_BINARY_DIR}/corpus --log ${CMAKE_BINARY_DIR}/corpus/runs.log
          --known ${CMAKE_CURRENT_LIST_DIR}/known_failures.txt --timeout ${pv_demos_timeout} --jobs 2
          --exclude=${pv_demos_exclude})
set_tests_properties(${pv_demos_name} PROPERTIES
  LABELS "corpus;mpi" PROCESSORS 2 TIMEOUT ${pv_demos_ctest} SKIP_RETURN_CODE 77
  ENVIRONMENT "${PV_MPI_ENV}")

# pvox --check agrees with gnuplot 5.4 on every script of the suite, examples/, jobs/ and
# bench/ (tests/corpus/check_agrees.py): a script gnuplot runs to the end passes the check,
# a syntax error pvox reports is one gnuplot stops at too, and the reverse.
set(pv_agrees_name corpus.check_agrees)
set(pv_agrees_scripts)
if(pv_corpus_reduced)
  set(pv_agrees_name corpus.check_agrees.unrun)
  file(GLOB pv_agrees_scripts CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/examples/*.gp
    ${CMAKE_SOURCE_DIR}/jobs/*.gp ${CMAKE_SOURCE_DIR}/bench/*.gp)
endif()
add_test(NAME ${pv_agrees_name}
  COMMAND ${pv_corpus_python} ${CMAKE_CURRENT_LIST_DIR}/check_agrees.py
          --pvox $<TARGET_FILE:pvox> --root ${CMAKE_SOURCE_DIR}
          --work ${CMAKE_BINARY_DIR}/check_agrees --timeout 60 --jobs 2 ${pv_agrees_scripts})
set_tests_properties(${pv_agrees_name} PROPERTIES
  LABELS "corpus" PROCESSORS 2 TIMEOUT 1800 SKIP_RETURN_CODE 77
  ENVIRONMENT "${PV_MPI_ENV}")
