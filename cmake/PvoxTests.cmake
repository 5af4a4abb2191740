# Test registration (STYLE-10 in docs/STYLE.md; index in tests/README.md).
#
# - tests/<module>/test_<topic>.c: one executable each, labelled <module>. A name ending in
#   _mpi (test_agree_mpi.c) runs under mpiexec at 1, 2, 3 and PV_TEST_MAX_RANKS ranks.
#   Exit codes: 0 pass, 1 fail, 77 skip.
# - tests/<folder>/tests.cmake: custom registrations (script goldens, the gnuplot oracle,
#   SLURM), included in folder order.
set(PV_MPI_ENV
  "OMPI_ALLOW_RUN_AS_ROOT=1" "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1"
  "OMPI_MCA_rmaps_base_oversubscribe=1" "OMPI_MCA_btl_vader_single_copy_mechanism=none"
  "OMPI_MCA_mpi_yield_when_idle=1" "OMP_NUM_THREADS=1"
  # mpirun waits a second or two before reaping a job whose ranks exit non-zero, which
  # every error test does; 0 keeps the exit code and drops the wait
  "OMPI_MCA_odls_base_sigkill_timeout=0")
if(PV_SANITIZE)
  # Sanitizer runtime options for every test (tests/README.md "Sanitizer suite"). A report
  # stops the process (halt_on_error) with SIGABRT (abort_on_error), which mpiexec and the
  # harnesses see as a crash. AddressSanitizer and LeakSanitizer reports go to files in
  # PV_SANITIZER_REPORTS (log_path), which the last test, sanitizer.reports, requires to be
  # empty: a report fails the run even under a harness that accepts any non-zero exit.
  # UBSan reports stay on stderr (GCC's separate libubsan ignores log_path when linked
  # with libasan). intercept_tls_get_addr=0: with it, GCC 12's LeakSanitizer reads a
  # bogus dynamic TLS range on Debian 12 and dies ("Tracer caught signal 11") at the exit
  # of many processes (pvox's usage errors, some unit tests). Suppressions, each with its
  # reason, are tools/sanitizer/*.supp. The same settings are written to sanitizer/env.sh
  # in the build directory, for test.sh and for runs by hand.
  set(PV_SANITIZER_REPORTS ${CMAKE_BINARY_DIR}/sanitizer/reports)
  set(pv_supp ${CMAKE_SOURCE_DIR}/tools/sanitizer)
  set(PV_SANITIZER_ENV
    "ASAN_OPTIONS=halt_on_error=1:abort_on_error=1:detect_leaks=1:intercept_tls_get_addr=0:log_path=${PV_SANITIZER_REPORTS}/asan"
    "LSAN_OPTIONS=suppressions=${pv_supp}/lsan.supp:print_suppressions=0"
    "UBSAN_OPTIONS=halt_on_error=1:abort_on_error=1:print_stacktrace=1:suppressions=${pv_supp}/ubsan.supp")
  list(APPEND PV_MPI_ENV ${PV_SANITIZER_ENV})
  file(MAKE_DIRECTORY ${PV_SANITIZER_REPORTS})
  set(pv_env_sh "# written by cmake/PvoxTests.cmake (PV_SANITIZE=ON): . this file\n")
  foreach(kv ${PV_SANITIZER_ENV})
    string(APPEND pv_env_sh "export ${kv}\n")
  endforeach()
  file(WRITE ${CMAKE_BINARY_DIR}/sanitizer/env.sh "${pv_env_sh}")
endif()
set(PV_MPIEXEC ${MPIEXEC_EXECUTABLE} --oversubscribe)
# The Python that runs the test drivers (tests/*/*.py); without one, `python3` from PATH
# (those tests then fail with the shell's message, or skip where they say so)
find_package(Python3 COMPONENTS Interpreter QUIET)
if(Python3_Interpreter_FOUND)
  set(PV_PYTHON ${Python3_EXECUTABLE})
else()
  set(PV_PYTHON python3)
endif()
set(PV_RANK_COUNTS 1 2 3)
if(PV_TEST_MAX_RANKS GREATER 3)
  list(APPEND PV_RANK_COUNTS ${PV_TEST_MAX_RANKS})
endif()

add_library(pv_test_support INTERFACE)
target_include_directories(pv_test_support INTERFACE ${CMAKE_SOURCE_DIR}/tests)

file(GLOB pv_test_dirs LIST_DIRECTORIES true ${CMAKE_SOURCE_DIR}/tests/*)
foreach(dir ${pv_test_dirs})
  if(NOT IS_DIRECTORY ${dir})
    continue()
  endif()
  get_filename_component(module ${dir} NAME)
  file(GLOB tsrcs CONFIGURE_DEPENDS ${dir}/test_*.c)
  foreach(src ${tsrcs})
    get_filename_component(tname ${src} NAME_WE)
    set(exe ${module}_${tname})
    add_executable(${exe} ${src})
    # Tests reach their module's library (and, through it, everything that module may
    # use) and the module's private headers. Linking only that much keeps, say, the core
    # tests building while a higher module is half-written. Folders that are not a module
    # (tests/app, tests/scripts, ...) link every library.
    target_include_directories(${exe} PRIVATE ${CMAKE_SOURCE_DIR}/src/${module})
    if(TARGET pv_${module})
      target_link_libraries(${exe} PRIVATE pv_test_support pv_warnings pv_${module})
    else()
      target_link_libraries(${exe} PRIVATE pv_test_support pv_warnings ${PV_MODULES})
    endif()
    set_target_properties(${exe} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tests)
    if(tname MATCHES "_mpi$")
      foreach(np ${PV_RANK_COUNTS})
        add_test(NAME ${module}.${tname}.np${np}
          COMMAND ${PV_MPIEXEC} ${MPIEXEC_NUMPROC_FLAG} ${np} $<TARGET_FILE:${exe}>)
        set_tests_properties(${module}.${tname}.np${np} PROPERTIES
          LABELS "${module};mpi" PROCESSORS ${np} SKIP_RETURN_CODE 77 TIMEOUT 300
          ENVIRONMENT "${PV_MPI_ENV}")
      endforeach()
    else()
      add_test(NAME ${module}.${tname} COMMAND ${exe})
      set_tests_properties(${module}.${tname} PROPERTIES
        LABELS ${module} SKIP_RETURN_CODE 77 TIMEOUT 300 ENVIRONMENT "${PV_MPI_ENV}")
    endif()
  endforeach()
  if(EXISTS ${dir}/tests.cmake)
    include(${dir}/tests.cmake)
  endif()
endforeach()

# Every test (but the SLURM one) gets a TMPDIR of its own, /tmp/pvt-<build>/<n>, where
# Open MPI keeps its session directories. Open MPI 4 keeps those of all of a user's jobs
# on a node under one directory, $TMPDIR/ompi.<host>.<uid>, which the last job to end
# removes; an mpiexec (or a singleton that is not pvox) starting just then fails in
# MPI_Init (README "Start-up time"). With a TMPDIR per test, tests running beside each
# other (ctest -j, several build trees) never share it; pvox singletons keep making their
# own directory inside it, and scratch files of the tests land there too. <build> is a
# hash of the build directory and <n> the test's number: the paths stay short (Open MPI
# and PMIx put files and sockets below, and a socket path has at most 107 bytes). The
# directories must exist (mktemp, pvox's own directory): test pv.tmpdirs makes them,
# every test requires it. What stays behind is one directory per test: pv.tmpdirs also
# removes the empty directories in them that nothing has touched for 10 minutes (Open
# MPI singletons of other programs, e.g. ParaView's, leave their jf.* there).
# (tests/slurm keeps the shared TMPDIR: its lock file is one per machine.)
string(SHA1 pv_build_hash "${CMAKE_BINARY_DIR}")
string(SUBSTRING "${pv_build_hash}" 0 8 pv_build_hash)
set(PV_TEST_TMP_ROOT /tmp/pvt-${pv_build_hash})
get_property(pv_all_tests DIRECTORY PROPERTY TESTS)
set(pv_tmp_dirs "")
set(pv_test_index 0)
foreach(t ${pv_all_tests})
  get_test_property(${t} LABELS pv_labels)
  if(pv_labels MATCHES "(^|;)slurm(;|$)")
    continue()
  endif()
  math(EXPR pv_test_index "${pv_test_index} + 1")
  set_property(TEST ${t} APPEND PROPERTY ENVIRONMENT "TMPDIR=${PV_TEST_TMP_ROOT}/${pv_test_index}")
  set_property(TEST ${t} APPEND PROPERTY FIXTURES_REQUIRED pv_tmpdirs)
  list(APPEND pv_tmp_dirs ${PV_TEST_TMP_ROOT}/${pv_test_index})
endforeach()
add_test(NAME pv.tmpdirs COMMAND sh -c
  [=[mkdir -p "$@" && find "$@" -mindepth 1 -type d -empty -mmin +10 -delete]=] sh ${pv_tmp_dirs})
set_tests_properties(pv.tmpdirs PROPERTIES FIXTURES_SETUP pv_tmpdirs LABELS tmpdirs)

if(PV_SANITIZE)
  # sanitizer.clear empties the report directory before any test, sanitizer.reports fails
  # after all of them if a process wrote a report (tools/sanitizer/reports.sh)
  # (and, for UBSan's reports, the corpus demos' log of every run's stderr)
  set(pv_san_logs ${CMAKE_BINARY_DIR}/corpus/runs.log)
  add_test(NAME sanitizer.clear
    COMMAND sh -c "rm -rf \"$1\" \"$2\" && mkdir -p \"$1\"" sh ${PV_SANITIZER_REPORTS}
            ${pv_san_logs})
  add_test(NAME sanitizer.reports
    COMMAND sh ${CMAKE_SOURCE_DIR}/tools/sanitizer/reports.sh ${PV_SANITIZER_REPORTS}
            ${pv_san_logs})
  get_property(pv_all_tests DIRECTORY PROPERTY TESTS)
  list(REMOVE_ITEM pv_all_tests sanitizer.clear sanitizer.reports)
  set_property(TEST ${pv_all_tests} APPEND PROPERTY FIXTURES_REQUIRED pv_sanitizer)
  # also the tests registered without PV_MPI_ENV (slurm.jobs: sbatch passes it on)
  set_property(TEST ${pv_all_tests} APPEND PROPERTY ENVIRONMENT ${PV_SANITIZER_ENV})
  set_tests_properties(sanitizer.clear PROPERTIES FIXTURES_SETUP pv_sanitizer LABELS sanitizer)
  set_tests_properties(sanitizer.reports PROPERTIES FIXTURES_CLEANUP pv_sanitizer
    LABELS sanitizer)
endif()
