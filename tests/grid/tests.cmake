# Text files read in parts by every rank (exec/fill_text.c, tests/grid/text/):
# - grid.text_rows.npN: tg01_text_rows.gp against gnuplot (run_oracle.py) at N = 1, 2, 3
#   ranks and 1, 2 threads with 40-byte chunks (PVOX_TEXT_CHUNK: a round every line or
#   two, cuts inside blank-line runs; at 3 ranks with PVOX_TEXT_SHARES=skew, arbitrary
#   shares, some empty, instead of the load balance's); np2_default with the default chunks;
# - grid.text_checksum / text_memory / text_errors: run_text.py (its docstring).
foreach(np 1 2 3)
  add_test(NAME grid.text_rows.np${np}
    COMMAND ${PV_PYTHON} ${CMAKE_SOURCE_DIR}/tests/oracle/run_oracle.py
            --pvox $<TARGET_FILE:pvox> --np ${np} --threads 1,2 --mpiexec ${MPIEXEC_EXECUTABLE}
            ${CMAKE_CURRENT_LIST_DIR}/text/tg01_text_rows.gp)
  set_tests_properties(grid.text_rows.np${np} PROPERTIES
    LABELS "oracle;grid;mpi" PROCESSORS 2 SKIP_RETURN_CODE 77 TIMEOUT 300
    ENVIRONMENT "${PV_MPI_ENV};PVOX_TEXT_CHUNK=40")
endforeach()
set_tests_properties(grid.text_rows.np3 PROPERTIES
  ENVIRONMENT "${PV_MPI_ENV};PVOX_TEXT_CHUNK=40;PVOX_TEXT_SHARES=skew")
add_test(NAME grid.text_rows.np2_default
  COMMAND ${PV_PYTHON} ${CMAKE_SOURCE_DIR}/tests/oracle/run_oracle.py
          --pvox $<TARGET_FILE:pvox> --np 2 --threads 1 --mpiexec ${MPIEXEC_EXECUTABLE}
          ${CMAKE_CURRENT_LIST_DIR}/text/tg01_text_rows.gp)
set_tests_properties(grid.text_rows.np2_default PROPERTIES
  LABELS "oracle;grid;mpi" PROCESSORS 2 SKIP_RETURN_CODE 77 TIMEOUT 300
  ENVIRONMENT "${PV_MPI_ENV}")
foreach(check checksum memory errors)
  add_test(NAME grid.text_${check}
    COMMAND ${PV_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/text/run_text.py
            --pvox $<TARGET_FILE:pvox> --mpiexec ${MPIEXEC_EXECUTABLE} ${check})
  set_tests_properties(grid.text_${check} PROPERTIES
    LABELS "grid;mpi" PROCESSORS 2 TIMEOUT 600 ENVIRONMENT "${PV_MPI_ENV}")
endforeach()
