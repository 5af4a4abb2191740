# SIGUSR1 to one rank, SIGTERM to all, SIGUSR1 without --checkpoint, mid-job: every rank
# exits 75 at the next safe point with an intact checkpoint and no temporary file; the
# same command with --resume-if-exists then finishes with the grid and frames of an
# uninterrupted run (tests/fault/stop_signal.sh, kill_job.gp; README "Stopping a job
# early"). Skips (77) only when h5dump, h5diff or pgrep is missing, and fails then under
# CI=true.
add_test(NAME fault.stop_signal
  COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/stop_signal.sh $<TARGET_FILE:pvox>
          ${MPIEXEC_EXECUTABLE} 3)
set_tests_properties(fault.stop_signal PROPERTIES
  LABELS "fault;mpi" PROCESSORS 2 TIMEOUT 600 SKIP_RETURN_CODE 77
  ENVIRONMENT "${PV_MPI_ENV}")
