# Fault tests (label "fault"): failures one rank meets alone must reach every rank, and
# the run must end with one message and exit code 3 everywhere, never a hang.
find_package(Python3 COMPONENTS Interpreter QUIET)
if(Python3_Interpreter_FOUND)
  set(pv_fault_python ${Python3_EXECUTABLE})
else()
  set(pv_fault_python python3)
endif()
# Allocation failure injected on rank 0 and on the last rank of three, at every tracked
# allocation of at least 4 KiB that job.gp makes (grid slabs, frame buffers, tiles, rows),
# then at every 9th allocation of any size.
add_test(NAME fault.alloc_sweep_large
  COMMAND ${pv_fault_python} ${CMAKE_CURRENT_LIST_DIR}/alloc_sweep.py
          --pvox $<TARGET_FILE:pvox> --mpiexec ${MPIEXEC_EXECUTABLE} --np 3
          --rank 0 --rank 2 --min-size 4K --timeout 60 ${CMAKE_CURRENT_LIST_DIR}/job.gp)
add_test(NAME fault.alloc_sweep_any
  COMMAND ${pv_fault_python} ${CMAKE_CURRENT_LIST_DIR}/alloc_sweep.py
          --pvox $<TARGET_FILE:pvox> --mpiexec ${MPIEXEC_EXECUTABLE} --np 3
          --rank 0 --rank 2 --min-size 1 --stride 9 --timeout 60
          ${CMAKE_CURRENT_LIST_DIR}/job.gp)
set_tests_properties(fault.alloc_sweep_large fault.alloc_sweep_any PROPERTIES
  LABELS "fault;mpi" PROCESSORS 2 TIMEOUT 1500 ENVIRONMENT "${PV_MPI_ENV}")

# Output to devices and links, unwritable outputs, killed ranks (fault_test.sh cases)
include(${CMAKE_CURRENT_LIST_DIR}/cases.cmake OPTIONAL)
include(${CMAKE_CURRENT_LIST_DIR}/kill.cmake OPTIONAL)
