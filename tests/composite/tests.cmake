# Composite tests render their scenes with the rasteriser: link the render module too
# (the composite library itself uses only core and MPI).
foreach(pv_ct composite_test_composite_mpi composite_test_composite_blend)
  if(TARGET ${pv_ct})
    target_link_libraries(${pv_ct} PRIVATE pv_render)
  endif()
endforeach()
