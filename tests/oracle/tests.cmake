# gnuplot 5.4 oracle (tests/oracle/README.md): one ctest per case file, label "oracle".
# A case whose file contains the line "# oracle: mpi" also runs under mpiexec with 2 ranks.
# A case with "# oracle: np=1,2,3,4 threads=1,2" (the grid cases gNN_*.gp) instead gets one
# ctest per rank count, oracle.<case>.np<N>, each running pvox with every thread count
# listed (run_oracle.py reads the threads from the case); label "oracle;grid;mpi".
# Without gnuplot the tests skip (77), or fail when the environment has CI=true.
file(GLOB pv_oracle_cases CONFIGURE_DEPENDS
  ${CMAKE_CURRENT_LIST_DIR}/cases/e[0-9][0-9]_*.gp
  ${CMAKE_CURRENT_LIST_DIR}/cases/s[0-9][0-9]_*.gp
  ${CMAKE_CURRENT_LIST_DIR}/cases/g[0-9][0-9]_*.gp)
foreach(case ${pv_oracle_cases})
  get_filename_component(cname ${case} NAME_WE)
  file(STRINGS ${case} pv_oracle_np_tag REGEX "^# oracle:.*np=[0-9]")
  if(pv_oracle_np_tag)
    string(REGEX MATCH "np=[0-9]+(,[0-9]+)*" pv_oracle_np "${pv_oracle_np_tag}")
    string(REPLACE "np=" "" pv_oracle_np "${pv_oracle_np}")
    string(REPLACE "," ";" pv_oracle_np "${pv_oracle_np}")
    foreach(np ${pv_oracle_np})
      # ranks beyond the 2 cores are oversubscribed anyway: do not make ctest -j2 run
      # the 3- and 4-rank tests alone
      set(pv_oracle_procs ${np})
      if(pv_oracle_procs GREATER 2)
        set(pv_oracle_procs 2)
      endif()
      add_test(NAME oracle.${cname}.np${np}
        COMMAND ${PV_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/run_oracle.py
                --pvox $<TARGET_FILE:pvox> --np ${np} --mpiexec ${MPIEXEC_EXECUTABLE} ${case})
      set_tests_properties(oracle.${cname}.np${np} PROPERTIES
        LABELS "oracle;grid;mpi" PROCESSORS ${pv_oracle_procs} SKIP_RETURN_CODE 77 TIMEOUT 300
        ENVIRONMENT "${PV_MPI_ENV}")
    endforeach()
    continue()
  endif()
  add_test(NAME oracle.${cname}
    COMMAND ${PV_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/run_oracle.py
            --pvox $<TARGET_FILE:pvox> ${case})
  set_tests_properties(oracle.${cname} PROPERTIES
    LABELS oracle SKIP_RETURN_CODE 77 TIMEOUT 300 ENVIRONMENT "${PV_MPI_ENV}")
  file(STRINGS ${case} pv_oracle_mpi_tag REGEX "^# oracle: mpi")
  if(pv_oracle_mpi_tag)
    add_test(NAME oracle.${cname}.np2
      COMMAND ${PV_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/run_oracle.py
              --pvox $<TARGET_FILE:pvox> --np 2 --mpiexec ${MPIEXEC_EXECUTABLE} ${case})
    set_tests_properties(oracle.${cname}.np2 PROPERTIES
      LABELS "oracle;mpi" PROCESSORS 2 SKIP_RETURN_CODE 77 TIMEOUT 300
      ENVIRONMENT "${PV_MPI_ENV}")
  endif()
endforeach()
