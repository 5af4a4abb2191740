# HDF5 checkpoints (ARCH-10). test_h5_mpi.c (the io API at 1..4 ranks) is registered by the
# glob; these are the script-level checks:
# - io.h5_roundtrip: vsave at 1..4 ranks, vload of each file at 1..4 ranks; values against
#   the formulas, whole-grid checksums, h5dump's view of the layout (run_h5_scripts.py);
# - io.h5_errors: every tests/io/cases/NAME.gp at 1 and 3 ranks against NAME.err/NAME.rc;
# - io.h5_fulldisk.np<N>: a full 1 MiB tmpfs (or ulimit -f) keeps the old checkpoint;
# - io.h5_paraview: pvbatch reads the XDMF sidecar and reports the expected grids;
# - io.h5_damage.np<N>: bytes flipped in a grid's voxels fail vload and --resume (exit 3),
#   undamaged files load bit for bit, files without checksums load unchecked;
# - io.h5_midwrite.np<N>: a disk that fills inside the voxels, links planted under the
#   temporary names (fail_write_shim.so, LD_PRELOAD): exit 3, the old checkpoint kept.
foreach(part roundtrip errors)
  add_test(NAME io.h5_${part}
    COMMAND ${PV_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/run_h5_scripts.py
            --pvox $<TARGET_FILE:pvox> --mpiexec ${MPIEXEC_EXECUTABLE} --only ${part})
  set_tests_properties(io.h5_${part} PROPERTIES
    LABELS "io;mpi" PROCESSORS 2 SKIP_RETURN_CODE 77 TIMEOUT 300
    ENVIRONMENT "${PV_MPI_ENV}")
endforeach()
foreach(np 1 2 3)
  add_test(NAME io.h5_fulldisk.np${np}
    COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/run_h5_fulldisk.sh $<TARGET_FILE:pvox>
            ${MPIEXEC_EXECUTABLE} ${np})
  # RUN_SERIAL: the tmpfs mount and the file size limit are process-wide conditions
  set_tests_properties(io.h5_fulldisk.np${np} PROPERTIES
    LABELS "io;mpi" PROCESSORS 2 TIMEOUT 300 RUN_SERIAL TRUE ENVIRONMENT "${PV_MPI_ENV}")
endforeach()
add_test(NAME io.h5_paraview
  COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/run_h5_paraview.sh $<TARGET_FILE:pvox>
          ${MPIEXEC_EXECUTABLE})
set_tests_properties(io.h5_paraview PROPERTIES
  LABELS "io;mpi" PROCESSORS 2 SKIP_RETURN_CODE 77 TIMEOUT 300 ENVIRONMENT "${PV_MPI_ENV}")
# --checkpoint files ParaView opens by itself: VTKHDFReader on the .h5 (/VTKHDF), the
# sidecar as ./ck.xmf, absolute, and by its bare name (run_h5_vtkhdf.sh, check_vtkhdf.py)
foreach(np 1 3)
  add_test(NAME io.h5_vtkhdf.np${np}
    COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/run_h5_vtkhdf.sh $<TARGET_FILE:pvox>
            ${MPIEXEC_EXECUTABLE} ${np})
  set_tests_properties(io.h5_vtkhdf.np${np} PROPERTIES
    LABELS "io;mpi" PROCESSORS 2 SKIP_RETURN_CODE 77 TIMEOUT 300 ENVIRONMENT "${PV_MPI_ENV}")
endforeach()
# --checkpoint / --resume: interrupted at one rank count, resumed at another (run_ckpt.sh)
foreach(pair "1;3" "2;1" "3;2")
  list(GET pair 0 np1)
  list(GET pair 1 np2)
  add_test(NAME io.ckpt_resume.np${np1}to${np2}
    COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/run_ckpt.sh $<TARGET_FILE:pvox>
            ${MPIEXEC_EXECUTABLE} ${np1} ${np2})
  set_tests_properties(io.ckpt_resume.np${np1}to${np2} PROPERTIES
    LABELS "io;mpi" PROCESSORS 2 TIMEOUT 300 ENVIRONMENT "${PV_MPI_ENV}")
endforeach()
# The mesh writer's files through VTK (ParaView's pvpython): test_mesh_mpi keeps its meshes
# and check_mesh.py counts boundary and non-manifold edges (run_mesh_paraview.sh).
foreach(np 1 3)
  add_test(NAME io.mesh_paraview.np${np}
    COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/run_mesh_paraview.sh $<TARGET_FILE:io_test_mesh_mpi>
            ${MPIEXEC_EXECUTABLE} ${np})
  set_tests_properties(io.mesh_paraview.np${np} PROPERTIES
    LABELS "io;mpi" PROCESSORS 2 SKIP_RETURN_CODE 77 TIMEOUT 300 ENVIRONMENT "${PV_MPI_ENV}")
endforeach()
# pvox's own isosurface meshes (`set table "x.vtp"`): byte-identical across rank counts,
# closed as VTK reads them, sphere Euler 2, torus 0 (run_iso_mesh.sh).
foreach(np 2 4)
  add_test(NAME io.iso_mesh_vtk.np${np}
    COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/run_iso_mesh.sh $<TARGET_FILE:pvox>
            ${MPIEXEC_EXECUTABLE} ${np})
  set_tests_properties(io.iso_mesh_vtk.np${np} PROPERTIES
    LABELS "io;mpi" PROCESSORS 2 SKIP_RETURN_CODE 77 TIMEOUT 300 ENVIRONMENT "${PV_MPI_ENV}")
endforeach()
# Checksums: damaged files refused, undamaged ones load bit for bit (run_h5_damage.sh)
foreach(np 1 3)
  add_test(NAME io.h5_damage.np${np}
    COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/run_h5_damage.sh $<TARGET_FILE:pvox>
            ${MPIEXEC_EXECUTABLE} ${np})
  set_tests_properties(io.h5_damage.np${np} PROPERTIES
    LABELS "io;mpi" PROCESSORS 2 SKIP_RETURN_CODE 77 TIMEOUT 300 ENVIRONMENT "${PV_MPI_ENV}")
endforeach()
# Writes that fail half-way and taken temporary names, through an LD_PRELOAD shim (no
# privileges). Not under the sanitizers: their runtime must be the first library loaded.
if(NOT PV_SANITIZE)
  add_library(io_fail_write_shim MODULE ${CMAKE_CURRENT_LIST_DIR}/fail_write_shim.c)
  target_link_libraries(io_fail_write_shim PRIVATE ${CMAKE_DL_LIBS})
  foreach(np 1 3)
    add_test(NAME io.h5_midwrite.np${np}
      COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/run_h5_midwrite.sh $<TARGET_FILE:pvox>
              ${MPIEXEC_EXECUTABLE} ${np} $<TARGET_FILE:io_fail_write_shim>)
    set_tests_properties(io.h5_midwrite.np${np} PROPERTIES
      LABELS "io;mpi" PROCESSORS 2 TIMEOUT 300 ENVIRONMENT "${PV_MPI_ENV}")
  endforeach()
endif()
# The metadata checksum and its checks (README "Checksums and failed writes"):
# - io.test_h5_flip (test_h5_flip.c, registered by the glob) and io.test_h5_flip.part1,
#   .part2: every bit of a checkpoint's metadata flipped in turn (a third of the bits
#   each), each load identical or refused with exit code 3, never a signal (two worker
#   processes; about 75 s each alone on a 2-core machine);
# - io.ckpt_meta.np<N>: all scripts of the command line in the job hash, an edited or
#   garbage job_state refused, 50 flipped bits loaded through pvox itself (run_ckpt_meta.sh);
# - io.h5_many_grids: vsave and vload of 5,000 grids (run_h5_many.sh).
set_tests_properties(io.test_h5_flip PROPERTIES PROCESSORS 2 TIMEOUT 1200)
# the other two thirds of the bits; the sanitizer build, about ten times slower, runs
# every 34th bit only (the normal build's three parts cover every bit)
if(PV_SANITIZE)
  set_property(TEST io.test_h5_flip APPEND PROPERTY ENVIRONMENT "PV_FLIP_STRIDE=34")
else()
  foreach(part 1 2)
    add_test(NAME io.test_h5_flip.part${part} COMMAND io_test_h5_flip 3 ${part})
    set_tests_properties(io.test_h5_flip.part${part} PROPERTIES LABELS io PROCESSORS 2
      TIMEOUT 1200 ENVIRONMENT "${PV_MPI_ENV}")
  endforeach()
endif()
foreach(np 1 3)
  add_test(NAME io.ckpt_meta.np${np}
    COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/run_ckpt_meta.sh $<TARGET_FILE:pvox>
            ${MPIEXEC_EXECUTABLE} ${np})
  set_tests_properties(io.ckpt_meta.np${np} PROPERTIES
    LABELS "io;mpi" PROCESSORS 2 SKIP_RETURN_CODE 77 TIMEOUT 600 ENVIRONMENT "${PV_MPI_ENV}")
endforeach()
add_test(NAME io.h5_many_grids
  COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/run_h5_many.sh $<TARGET_FILE:pvox> ${MPIEXEC_EXECUTABLE})
set_tests_properties(io.h5_many_grids PROPERTIES
  LABELS "io;mpi" PROCESSORS 2 TIMEOUT 600 ENVIRONMENT "${PV_MPI_ENV}")
# Other programs' HDF5 datasets (README "Bringing your data", ext_h5.py): a real Meep run,
# h5py (chunked/deflated/shuffled, every integer type, float32, big-endian, VTKHDF), a
# netCDF-4 file from ncgen; io.ext_h5_load.np<N> loads them and compares every voxel with
# h5py's values, io.ext_h5_errors.np<N> the bad inputs' located errors and exit codes,
# io.ext_h5_vfill.np<N> a dataset as vfill's source against the same numbers as text.
foreach(np 1 2 3)
  foreach(part load errors vfill)
    add_test(NAME io.ext_h5_${part}.np${np}
      COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/ext_h5.py --pvox $<TARGET_FILE:pvox>
              --mpiexec ${MPIEXEC_EXECUTABLE} --np ${np} --part ${part})
    set_tests_properties(io.ext_h5_${part}.np${np} PROPERTIES
      LABELS "io;mpi" PROCESSORS 2 SKIP_RETURN_CODE 77 TIMEOUT 300 ENVIRONMENT "${PV_MPI_ENV}")
  endforeach()
endforeach()
