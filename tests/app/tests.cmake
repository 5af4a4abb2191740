# Command-line tests (tests/app/cli_test.sh): one ctest test per case, labelled "app".
# Cases ending in _mpi start 3 ranks.
set(pv_cli_cases version help bad_option bad_option_mpi bad_values good_values missing_file
  missing_file_mpi order order_mpi stdin stdin_mpi script_error exit_status outdir dashdash
  fault_injection stats_progress_mpi png_options no_shell_mpi mpi_start_mpi)
foreach(c ${pv_cli_cases})
  add_test(NAME app.cli.${c}
    COMMAND env PV_EXPECT_VERSION=${PROJECT_VERSION} bash ${CMAKE_SOURCE_DIR}/tests/app/cli_test.sh ${c} $<TARGET_FILE:pvox>
            ${MPIEXEC_EXECUTABLE})
  set(procs 1)
  set(labels app)
  if(c MATCHES "_mpi$" OR c STREQUAL "exit_status" OR c STREQUAL "fault_injection")
    set(procs 3)
    set(labels app mpi)
  endif()
  set_tests_properties(app.cli.${c} PROPERTIES LABELS "${labels}" PROCESSORS ${procs}
    TIMEOUT 300 SKIP_RETURN_CODE 77 ENVIRONMENT "${PV_MPI_ENV}")
endforeach()

# `pvox --plan` (tests/app/plan_test.sh): its figures against pvox's own grid check,
# refusal message and vsave files. Cases ending in _mpi (and mpi) start up to 3 ranks.
set(pv_plan_cases table mpi bad_args grid_check_mpi fewest_mpi checkpoint_size)
foreach(c ${pv_plan_cases})
  add_test(NAME app.plan.${c}
    COMMAND bash ${CMAKE_SOURCE_DIR}/tests/app/plan_test.sh ${c} $<TARGET_FILE:pvox>
            ${MPIEXEC_EXECUTABLE})
  set(procs 1)
  set(labels app)
  if(c MATCHES "mpi")
    set(procs 3)
    set(labels app mpi)
  endif()
  set_tests_properties(app.plan.${c} PROPERTIES LABELS "${labels}" PROCESSORS ${procs}
    TIMEOUT 300 SKIP_RETURN_CODE 77 ENVIRONMENT "${PV_MPI_ENV}")
endforeach()

# Open MPI session directories (tests/app/session_test.sh): 3 rounds of 60 singletons
# started at once beside 2-rank mpiexec jobs, none failing, nothing left behind; killed
# runs' directories removed by the next. widen_mkdir.c, preloaded into the singletons,
# makes a shared session directory fail the test every time (not with the sanitizers,
# whose runtime must come first).
add_library(pv_test_widen_mkdir MODULE ${CMAKE_SOURCE_DIR}/tests/app/widen_mkdir.c)
target_link_libraries(pv_test_widen_mkdir PRIVATE ${CMAKE_DL_LIBS})
set(pv_widen_so $<TARGET_FILE:pv_test_widen_mkdir>)
if(PV_SANITIZE)
  set(pv_widen_so "")
endif()
# The sanitizer stage leaves it out: without the shim it cannot see the failure it is
# for, and 180 singleton starts repeat what the other tests run under the sanitizers
# (about 50 s of the stage).
if(NOT PV_SANITIZE)
  add_test(NAME app.session_dirs_mpi
    COMMAND bash ${CMAKE_SOURCE_DIR}/tests/app/session_test.sh $<TARGET_FILE:pvox>
            ${MPIEXEC_EXECUTABLE} ${pv_widen_so})
  set_tests_properties(app.session_dirs_mpi PROPERTIES LABELS "app;mpi" PROCESSORS 2
    TIMEOUT 900 SKIP_RETURN_CODE 77 ENVIRONMENT "${PV_MPI_ENV}")
endif()
