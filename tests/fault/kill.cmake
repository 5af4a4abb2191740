# A rank killed with SIGKILL in the middle of a --checkpoint job (kill_rank.sh): the other
# ranks and mpiexec end within 60 s with a non-zero code, the checkpoint stays intact, and
# --resume finishes the job with the grid and frames of an uninterrupted run. Rank 2 of 3,
# then rank 0 (which creates the checkpoint file, writes its sidecar and renames both).
# Skips (77) only when h5dump, h5diff or pgrep is missing, and fails then under CI=true.
add_test(NAME fault.kill_rank
  COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/kill_rank.sh $<TARGET_FILE:pvox>
          ${MPIEXEC_EXECUTABLE} 3 2 0)
set_tests_properties(fault.kill_rank PROPERTIES
  LABELS "fault;mpi" PROCESSORS 2 TIMEOUT 900 SKIP_RETURN_CODE 77
  ENVIRONMENT "${PV_MPI_ENV}")
