# Ties through VTK (run_ties_vtk.sh): ties.gp's meshes, points merged by coordinates, are
# closed 2-manifolds (no boundary, non-manifold or collapsed edge, no pinched point) at 1
# to 4 ranks, and the .vtp is byte-identical to 1 rank's.
foreach(np 1 2 3 4)
  add_test(NAME iso.ties_vtk.np${np}
    COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/run_ties_vtk.sh $<TARGET_FILE:pvox>
            ${MPIEXEC_EXECUTABLE} ${np})
  set_tests_properties(iso.ties_vtk.np${np} PROPERTIES
    LABELS "iso;mpi" PROCESSORS 2 SKIP_RETURN_CODE 77 TIMEOUT 300 ENVIRONMENT "${PV_MPI_ENV}")
endforeach()
