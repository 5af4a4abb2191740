# 3D binary bricks as vfill/vgfill sources (DIFF-25, src/exec/fill_array.c), run_bricks.py:
# - bricks.values: every element type, byte order, several scan orders, flips, skip= and
#   several fields, the grid's size (the fast path): voxels equal the values written, the
#   grid equals the text rows path on the same numbers;
# - bricks.general: other geometry (dx=, origin=, center=, other sizes), radius > 0,
#   vgfill, scan orders and flips: equal to the text rows path (checksums, counts);
# - bricks.direct: float32 bricks read straight into zero planes of the slab: -0, NaNs,
#   infinities and denormals end as the add gives them (equal to the decoder's path);
# - bricks.errors: truncated and oversized bricks, a missing file, an unknown type, bad
#   scan= and sizes, a 3D array in plot: located error, exit code, no hang.
# Each runs at 1, 2 and 3 ranks and 1 and 2 threads (errors: 1 thread) and requires the
# same output and checksums everywhere.
foreach(part values general direct errors)
  add_test(NAME bricks.${part}
    COMMAND ${PV_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/run_bricks.py --pvox $<TARGET_FILE:pvox>
            --mpiexec ${MPIEXEC_EXECUTABLE} --np 1,2,3 --threads 1,2 ${part})
  set_tests_properties(bricks.${part} PROPERTIES
    LABELS "grid;mpi" PROCESSORS 2 TIMEOUT 600 SKIP_RETURN_CODE 77
    ENVIRONMENT "${PV_MPI_ENV}")
endforeach()

# The same values and general checks with the bricks stored x fastest read through the
# reader interface of fill_array.h (PVOX_TEST_ARRAY_READ=1), the path HDF5 datasets take.
foreach(part values general)
  add_test(NAME bricks.${part}_via_read
    COMMAND ${PV_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/run_bricks.py --pvox $<TARGET_FILE:pvox>
            --mpiexec ${MPIEXEC_EXECUTABLE} --np 1,2,3 --threads 1,2 --via-read ${part})
  set_tests_properties(bricks.${part}_via_read PROPERTIES
    LABELS "grid;mpi" PROCESSORS 2 TIMEOUT 600 SKIP_RETURN_CODE 77
    ENVIRONMENT "${PV_MPI_ENV}")
endforeach()
