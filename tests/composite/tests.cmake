# Composite tests render their scenes with the rasteriser (the render module, which the
# composite library links for its tiles).
foreach(pv_ct composite_test_composite_mpi composite_test_composite_blend)
  if(TARGET ${pv_ct})
    target_link_libraries(${pv_ct} PRIVATE pv_render)
  endif()
endforeach()
