# fault_test.sh cases: outputs that are devices, links or FIFOs, and an output that
# cannot be written mid-run, each at 1 and 3 ranks.
foreach(c output_stdout output_link output_unwritable)
  add_test(NAME fault.${c}
    COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/fault_test.sh ${c} $<TARGET_FILE:pvox>
            ${MPIEXEC_EXECUTABLE})
  set_tests_properties(fault.${c} PROPERTIES LABELS "fault;mpi" PROCESSORS 2 TIMEOUT 600
    SKIP_RETURN_CODE 77 ENVIRONMENT "${PV_MPI_ENV}")
endforeach()
