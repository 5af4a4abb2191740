# Script golden tests: every tests/scripts/cases/NAME.gp runs at 1, 2 and 3 ranks and must
# reproduce NAME.out (stdout), NAME.err (stderr) and NAME.rc (exit code) exactly. See
# tests/scripts/run_case.sh for the optional NAME.args / NAME.in and PV_GOLDEN_UPDATE.
file(GLOB pv_script_cases CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/scripts/cases/*.gp)
foreach(gp ${pv_script_cases})
  get_filename_component(name ${gp} NAME_WE)
  foreach(np 1 2 3)
    add_test(NAME scripts.${name}.np${np}
      COMMAND bash ${CMAKE_SOURCE_DIR}/tests/scripts/run_case.sh $<TARGET_FILE:pvox>
              ${MPIEXEC_EXECUTABLE} ${np} ${CMAKE_SOURCE_DIR}/tests/scripts/cases ${name})
    set_tests_properties(scripts.${name}.np${np} PROPERTIES
      LABELS "scripts;mpi" PROCESSORS ${np} TIMEOUT 300 SKIP_RETURN_CODE 77
      ENVIRONMENT "${PV_MPI_ENV}")
  endforeach()
endforeach()
