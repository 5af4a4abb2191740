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
  # Open MPI keeps allocations alive until exit inside plugins it unloads, which
  # LeakSanitizer can neither name nor suppress: leak checks off, address checks on.
  list(APPEND PV_MPI_ENV "ASAN_OPTIONS=detect_leaks=0")
endif()
set(PV_MPIEXEC ${MPIEXEC_EXECUTABLE} --oversubscribe)
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
