# gnuplot 5.4 oracle (tests/oracle/README.md): one ctest per case file, label "oracle".
# A case whose file contains the line "# oracle: mpi" also runs under mpiexec with 2 ranks.
# Without gnuplot the tests skip (77), or fail when the environment has CI=true.
find_package(Python3 COMPONENTS Interpreter QUIET)
if(Python3_Interpreter_FOUND)
  set(pv_oracle_python ${Python3_EXECUTABLE})
else()
  set(pv_oracle_python python3)
endif()
file(GLOB pv_oracle_cases CONFIGURE_DEPENDS
  ${CMAKE_CURRENT_LIST_DIR}/cases/e[0-9][0-9]_*.gp
  ${CMAKE_CURRENT_LIST_DIR}/cases/s[0-9][0-9]_*.gp)
foreach(case ${pv_oracle_cases})
  get_filename_component(cname ${case} NAME_WE)
  add_test(NAME oracle.${cname}
    COMMAND ${pv_oracle_python} ${CMAKE_CURRENT_LIST_DIR}/run_oracle.py
            --pvox $<TARGET_FILE:pvox> ${case})
  set_tests_properties(oracle.${cname} PROPERTIES
    LABELS oracle SKIP_RETURN_CODE 77 TIMEOUT 300 ENVIRONMENT "${PV_MPI_ENV}")
  file(STRINGS ${case} pv_oracle_mpi_tag REGEX "^# oracle: mpi")
  if(pv_oracle_mpi_tag)
    add_test(NAME oracle.${cname}.np2
      COMMAND ${pv_oracle_python} ${CMAKE_CURRENT_LIST_DIR}/run_oracle.py
              --pvox $<TARGET_FILE:pvox> --np 2 --mpiexec ${MPIEXEC_EXECUTABLE} ${case})
    set_tests_properties(oracle.${cname}.np2 PROPERTIES
      LABELS "oracle;mpi" PROCESSORS 2 SKIP_RETURN_CODE 77 TIMEOUT 300
      ENVIRONMENT "${PV_MPI_ENV}")
  endif()
endforeach()
