# The one output rule (include/pvox/outfile.h, README "When things go wrong"), writer by
# writer (output_test.sh): the output is a FIFO, a character device, a socket, a
# directory, a link or a dangling link (1 and 3 ranks), and `ulimit -f` is too small for
# it (1 and 2 ranks). Label "io" and "fault"; "mpi" as they run under mpiexec.
foreach(w png print table vtp pvtp vsave checkpoint stats)
  foreach(c ${w} ulimit_${w})
    add_test(NAME output.${c}
      COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/output_test.sh ${c} $<TARGET_FILE:pvox>
              ${MPIEXEC_EXECUTABLE})
    set_tests_properties(output.${c} PROPERTIES LABELS "io;fault;mpi" PROCESSORS 2
      TIMEOUT 600 SKIP_RETURN_CODE 77 ENVIRONMENT "${PV_MPI_ENV}")
  endforeach()
endforeach()
