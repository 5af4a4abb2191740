# Picture tests of the renderer (tests/picture/README.md), label "picture":
#   picture.reference          renders scenes/*.gp at 1 rank, 1 thread (fixture)
#   picture.determinism.npN    the same scenes at N = 1..4 ranks, 1 and 2 threads: max
#                              channel difference 2 on at most 0.1% of the pixels
#   picture.golden             the reference against golden/*.png (8 levels, 0.5%)
#   picture.fidelity.npN       fidelity/*.gp against gnuplot 5.4's svg (and pngcairo):
#                              positions, pm3d colours, marker counts and colours, lines,
#                              whole pictures pixel by pixel (pixels:)
# picture.py needs numpy and PIL: use the interpreter find_package(Python3) finds if it
# can import them, else /usr/bin/python3 (Debian's python3-numpy, python3-pil). Without
# them, or without gnuplot, the tests skip (77), or fail when the environment has CI=true.
find_package(Python3 COMPONENTS Interpreter QUIET)
set(pv_picture_python "")
foreach(py ${Python3_EXECUTABLE} /usr/bin/python3)
  if(py AND NOT pv_picture_python)
    execute_process(COMMAND ${py} -c "import numpy, PIL.Image"
      RESULT_VARIABLE pv_picture_rc OUTPUT_QUIET ERROR_QUIET)
    if(pv_picture_rc EQUAL 0)
      set(pv_picture_python ${py})
    endif()
  endif()
endforeach()
if(NOT pv_picture_python)
  # runs anyway, so the test reports the missing modules (skip, or failure under CI)
  if(Python3_EXECUTABLE)
    set(pv_picture_python ${Python3_EXECUTABLE})
  else()
    set(pv_picture_python python3)
  endif()
endif()

set(pv_picture_dir ${CMAKE_CURRENT_LIST_DIR})
set(pv_picture_cmd ${pv_picture_python} ${pv_picture_dir}/picture.py)
set(pv_picture_ref ${CMAKE_BINARY_DIR}/picture-ref)
set(pv_picture_scenes
  ${pv_picture_dir}/scenes/points.gp ${pv_picture_dir}/scenes/jitter.gp
  ${pv_picture_dir}/scenes/alpha.gp ${pv_picture_dir}/scenes/slices.gp
  ${pv_picture_dir}/scenes/below.gp ${pv_picture_dir}/scenes/overlap.gp
  ${pv_picture_dir}/scenes/clipz.gp ${pv_picture_dir}/scenes/iso.gp
  ${pv_picture_dir}/scenes/iso_nested.gp ${pv_picture_dir}/scenes/iso_styles.gp
  ${pv_picture_dir}/scenes/iso_border.gp ${pv_picture_dir}/scenes/split.gp
  ${pv_picture_dir}/scenes/lines.gp ${pv_picture_dir}/scenes/ortho.gp
  ${pv_picture_dir}/scenes/functions.gp ${pv_picture_dir}/scenes/hidden.gp
  ${pv_picture_dir}/scenes/vectors.gp ${pv_picture_dir}/scenes/plot2d.gp
  ${pv_picture_dir}/scenes/image3d.gp ${pv_picture_dir}/scenes/log3d.gp
  ${pv_picture_dir}/scenes/polygons.gp ${pv_picture_dir}/scenes/boxes2d.gp)
set(pv_picture_env ${PV_MPI_ENV} "PV_PICTURE_KEEP=${CMAKE_BINARY_DIR}/picture-failures")

add_test(NAME picture.reference
  COMMAND ${pv_picture_cmd} render --pvox $<TARGET_FILE:pvox> --mpiexec ${MPIEXEC_EXECUTABLE}
          --out ${pv_picture_ref} ${pv_picture_scenes})
set_tests_properties(picture.reference PROPERTIES
  LABELS "picture" FIXTURES_SETUP pv_picture_ref SKIP_RETURN_CODE 77 TIMEOUT 300
  ENVIRONMENT "${pv_picture_env}")

foreach(np 1 2 3 4)
  set(pv_picture_procs ${np})
  if(pv_picture_procs GREATER 2)
    set(pv_picture_procs 2)
  endif()
  add_test(NAME picture.determinism.np${np}
    COMMAND ${pv_picture_cmd} determinism --pvox $<TARGET_FILE:pvox>
            --mpiexec ${MPIEXEC_EXECUTABLE} --np ${np} --threads 1,2 --ref ${pv_picture_ref}
            ${pv_picture_scenes})
  set_tests_properties(picture.determinism.np${np} PROPERTIES
    LABELS "picture;mpi" FIXTURES_REQUIRED pv_picture_ref PROCESSORS ${pv_picture_procs}
    SKIP_RETURN_CODE 77 TIMEOUT 300 ENVIRONMENT "${pv_picture_env}")
endforeach()

# isosurface frames drawn in many z steps (a tiny triangle budget) must equal the one-step
# reference too
foreach(np 1 3)
  set(pv_picture_procs ${np})
  if(pv_picture_procs GREATER 2)
    set(pv_picture_procs 2)
  endif()
  add_test(NAME picture.steps.np${np}
    COMMAND ${pv_picture_cmd} determinism --pvox $<TARGET_FILE:pvox>
            --mpiexec ${MPIEXEC_EXECUTABLE} --np ${np} --threads 2 --ref ${pv_picture_ref}
            "--pvox-args=--batch-triangles 600"
            ${pv_picture_dir}/scenes/iso.gp ${pv_picture_dir}/scenes/iso_nested.gp
            ${pv_picture_dir}/scenes/iso_styles.gp)
  set_tests_properties(picture.steps.np${np} PROPERTIES
    LABELS "picture;mpi" FIXTURES_REQUIRED pv_picture_ref PROCESSORS ${pv_picture_procs}
    SKIP_RETURN_CODE 77 TIMEOUT 300 ENVIRONMENT "${pv_picture_env}")
endforeach()

# frame sequences at 2 to 8 ranks (2, 3, 4, 5, 8): every rank writes frames (rotating writers) with the
# bytes rank 0 would write, the frames equal the 1-rank frames within the determinism
# tolerance (at 8 ranks, 7 slab planes cross the transparent isosurfaces of this small
# canvas: the seams' per-sample colours keep them within it), and the writer's compositor
# bytes stay under two images (--stats).
foreach(np 2 3 4 5 8)
  set(pv_picture_procs ${np})
  if(pv_picture_procs GREATER 2)
    set(pv_picture_procs 2)
  endif()
  set(pv_seq_threads 1,2)
  if(np GREATER 3)
    set(pv_seq_threads 1)
  endif()
  add_test(NAME picture.sequence.np${np}
    COMMAND ${pv_picture_cmd} sequence --pvox $<TARGET_FILE:pvox>
            --mpiexec ${MPIEXEC_EXECUTABLE} --np ${np} --threads ${pv_seq_threads}
            --timeout 240 ${pv_picture_dir}/scenes/sequence.gp)
  set_tests_properties(picture.sequence.np${np} PROPERTIES
    LABELS "picture;mpi" PROCESSORS ${pv_picture_procs} SKIP_RETURN_CODE 77 TIMEOUT 600
    ENVIRONMENT "${pv_picture_env}")
endforeach()

add_test(NAME picture.golden
  COMMAND ${pv_picture_cmd} golden --pvox $<TARGET_FILE:pvox> --golden ${pv_picture_dir}/golden
          --ref ${pv_picture_ref} ${pv_picture_scenes})
set_tests_properties(picture.golden PROPERTIES
  LABELS "picture" FIXTURES_REQUIRED pv_picture_ref SKIP_RETURN_CODE 77 TIMEOUT 300
  ENVIRONMENT "${pv_picture_env}")

set(pv_picture_fidelity
  positions:${pv_picture_dir}/fidelity/pos_view65.gp
  positions:${pv_picture_dir}/fidelity/pos_default.gp
  positions:${pv_picture_dir}/fidelity/box_view65.gp
  positions:${pv_picture_dir}/fidelity/box_below.gp
  pm3d:${pv_picture_dir}/fidelity/pm3d_slice.gp
  pm3d:${pv_picture_dir}/fidelity/pm3d_flat.gp
  counts:${pv_picture_dir}/fidelity/count_above0.gp
  counts:${pv_picture_dir}/fidelity/count_above2.gp
  counts:${pv_picture_dir}/fidelity/count_alpha.gp
  counts:${pv_picture_dir}/fidelity/count_pi2.gp
  counts:${pv_picture_dir}/fidelity/count_pi3.gp
  lines:${pv_picture_dir}/fidelity/lines_mesh.gp
  lines:${pv_picture_dir}/fidelity/lines_clip.gp
  lines:${pv_picture_dir}/fidelity/lines_function.gp
  lines:${pv_picture_dir}/fidelity/lines_parametric.gp
  lines:${pv_picture_dir}/fidelity/lines_hidden3d.gp
  lines:${pv_picture_dir}/fidelity/lines_vectors.gp
  lines:${pv_picture_dir}/fidelity/lines_plot2d.gp
  lines:${pv_picture_dir}/fidelity/lines_log3d.gp
  lines:${pv_picture_dir}/fidelity/lines_boxes.gp
  pm3d:${pv_picture_dir}/fidelity/pm3d_function.gp
  pm3d:${pv_picture_dir}/fidelity/pm3d_at_base.gp
  pixels:${pv_picture_dir}/fidelity/px_ticstep_key.gp
  pixels:${pv_picture_dir}/fidelity/px_axes_labels.gp
  pixels:${pv_picture_dir}/fidelity/px_poles.gp
  pixels:${pv_picture_dir}/fidelity/px_map.gp
  pixels:${pv_picture_dir}/fidelity/px_grid.gp
  pixels:${pv_picture_dir}/fidelity/px_grid_map.gp
  pixels:${pv_picture_dir}/fidelity/px_arrows.gp
  pixels:${pv_picture_dir}/fidelity/px_data_labels.gp
  pixels:${pv_picture_dir}/fidelity/px_map_rotated.gp
  pixels:${pv_picture_dir}/fidelity/px_enhanced.gp
  pixels:${pv_picture_dir}/fidelity/px_plot2d.gp
  pixels:${pv_picture_dir}/fidelity/px_image.gp
  pixels:${pv_picture_dir}/fidelity/px_rgbimage.gp
  pixels:${pv_picture_dir}/fidelity/px_log2d.gp
  pixels:${pv_picture_dir}/fidelity/px_log2d_tics.gp
  pixels:${pv_picture_dir}/fidelity/px_objects.gp
  pixels:${pv_picture_dir}/fidelity/px_bars.gp)
# 1 rank, and 3 ranks (uneven slabs: `pi k` and `above` must use global node indices)
foreach(np 1 3)
  set(pv_picture_procs ${np})
  if(pv_picture_procs GREATER 2)
    set(pv_picture_procs 2)
  endif()
  add_test(NAME picture.fidelity.np${np}
    COMMAND ${pv_picture_cmd} fidelity --pvox $<TARGET_FILE:pvox>
            --mpiexec ${MPIEXEC_EXECUTABLE} --np ${np} ${pv_picture_fidelity})
  set_tests_properties(picture.fidelity.np${np} PROPERTIES
    LABELS "picture;oracle;mpi" PROCESSORS ${pv_picture_procs} SKIP_RETURN_CODE 77 TIMEOUT 300
    ENVIRONMENT "${pv_picture_env}")
endforeach()
