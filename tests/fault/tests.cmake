# Fault tests (label "fault"): failures one rank meets alone must reach every rank, and
# the run must end with one message and exit code 3 everywhere, never a hang.
# Allocation failure injected on one rank of three (alloc_sweep.py): job.gp and job2.gp
# between them fill from files, "++" and datablocks, plot points, isosurfaces, pm3d,
# images, labels and 2D plots, write a frame sequence, a mesh table and a checkpoint and
# read it back. The large allocations (grid slabs, frame buffers, tiles, rows: at least
# 4 KiB, every 2nd or 4th) on the first and the last rank, then allocations of any size on the middle one,
# and on a lone rank (no other rank to agree with: exit code 3, no crash).
# name|script|arguments (a list of lists: fields joined by "|")
set(pv_sweeps
  "large_job|job.gp|--rank|0|--rank|2|--min-size|4K|--stride|2"
  "large_job2|job2.gp|--rank|0|--rank|2|--min-size|4K|--stride|4"
  "any_job|job.gp|--rank|1|--min-size|1|--stride|5"
  "any_job2|job2.gp|--rank|1|--min-size|1|--stride|8"
  "np1_job2|job2.gp|--np|1|--rank|0|--min-size|1|--stride|6")
# Not in the sanitizer build: its subject is how ranks agree, which sanitizers do not
# change, and under them its 180 runs would take most of CI's time (tests/README.md).
if(PV_SANITIZE)
  set(pv_sweeps "")
endif()
foreach(sweep_text ${pv_sweeps})
  string(REPLACE "|" ";" sweep "${sweep_text}")
  list(POP_FRONT sweep name script)
  add_test(NAME fault.alloc_sweep_${name}
    COMMAND ${PV_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/alloc_sweep.py
            --pvox $<TARGET_FILE:pvox> --mpiexec ${MPIEXEC_EXECUTABLE} --np 3 --timeout 60
            ${sweep} ${CMAKE_CURRENT_LIST_DIR}/${script})
  set_tests_properties(fault.alloc_sweep_${name} PROPERTIES
    LABELS "fault;mpi" PROCESSORS 2 TIMEOUT 1500 ENVIRONMENT "${PV_MPI_ENV}")
endforeach()

# Output to devices and links, unwritable outputs, killed ranks (fault_test.sh cases)
include(${CMAKE_CURRENT_LIST_DIR}/cases.cmake OPTIONAL)
include(${CMAKE_CURRENT_LIST_DIR}/kill.cmake OPTIONAL)
include(${CMAKE_CURRENT_LIST_DIR}/stop.cmake OPTIONAL)
