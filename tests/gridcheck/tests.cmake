# Rank/thread determinism of grid fills (run_checksum.py): fill_checksum.gp fills a 64^3 and
# a 101^3 grid (odd slab split) at 1..4 ranks and 1..2 OpenMP threads; every run must log
# the same whole-grid checksums (pvox -v) and print the same statistics.
add_test(NAME gridcheck.fill_checksum
  COMMAND ${PV_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/run_checksum.py
          --pvox $<TARGET_FILE:pvox> --mpiexec ${MPIEXEC_EXECUTABLE} --np 1,2,3,4
          --threads 1,2 --min-checksums 7 ${CMAKE_CURRENT_LIST_DIR}/fill_checksum.gp)
set_tests_properties(gridcheck.fill_checksum PROPERTIES
  LABELS "grid;mpi" PROCESSORS 2 TIMEOUT 300 ENVIRONMENT "${PV_MPI_ENV}")

# The memory check as goldens (tests/scripts/run_case.sh: NAME.gp/.args/.out/.err/.rc): the
# refusal message names the rank count, so each rank count has its own folder
# memory/np<N>/ with the expected text for N ranks.
foreach(np 1 3)
  file(GLOB pv_gridcheck_mem CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/memory/np${np}/*.gp)
  foreach(gp ${pv_gridcheck_mem})
    get_filename_component(name ${gp} NAME_WE)
    add_test(NAME gridcheck.${name}.np${np}
      COMMAND bash ${CMAKE_SOURCE_DIR}/tests/scripts/run_case.sh $<TARGET_FILE:pvox>
              ${MPIEXEC_EXECUTABLE} ${np} ${CMAKE_CURRENT_LIST_DIR}/memory/np${np} ${name})
    set_tests_properties(gridcheck.${name}.np${np} PROPERTIES
      LABELS "scripts;grid;mpi" PROCESSORS 2 TIMEOUT 300 SKIP_RETURN_CODE 77
      ENVIRONMENT "${PV_MPI_ENV}")
  endforeach()
endforeach()
