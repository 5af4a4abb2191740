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
add_test(NAME corpus.demos
  COMMAND ${pv_corpus_python} ${CMAKE_CURRENT_LIST_DIR}/demos.py
          --pvox $<TARGET_FILE:pvox> --mpirun ${MPIEXEC_EXECUTABLE} --ranks 1,2
          --work ${CMAKE_BINARY_DIR}/corpus --log ${CMAKE_BINARY_DIR}/corpus/runs.log
          --known ${CMAKE_CURRENT_LIST_DIR}/known_failures.txt --timeout 600 --jobs 2)
set_tests_properties(corpus.demos PROPERTIES
  LABELS "corpus;mpi" PROCESSORS 2 TIMEOUT 2400 SKIP_RETURN_CODE 77
  ENVIRONMENT "${PV_MPI_ENV}")

# pvox --check agrees with gnuplot 5.4 on every script of the suite, examples/, jobs/ and
# bench/ (tests/corpus/check_agrees.py): a script gnuplot runs to the end passes the check,
# a syntax error pvox reports is one gnuplot stops at too, and the reverse.
add_test(NAME corpus.check_agrees
  COMMAND ${pv_corpus_python} ${CMAKE_CURRENT_LIST_DIR}/check_agrees.py
          --pvox $<TARGET_FILE:pvox> --root ${CMAKE_SOURCE_DIR}
          --work ${CMAKE_BINARY_DIR}/check_agrees --timeout 60 --jobs 2)
set_tests_properties(corpus.check_agrees PROPERTIES
  LABELS "corpus" PROCESSORS 2 TIMEOUT 1800 SKIP_RETURN_CODE 77
  ENVIRONMENT "${PV_MPI_ENV}")
