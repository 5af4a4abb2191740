# The fuzz targets in the ordinary suite (tests/fuzz/README.md).
#
# fuzz.replay_<target> (label lang): the target's LLVMFuzzerTestOneInput, built with the
# suite's compiler and a replay main instead of libFuzzer, runs every kept crasher
# (crashers/<target>/) and every seed (make_seeds.sh, written by the fuzz.seeds fixture).
# fuzz.short_run (label fuzz): builds the libFuzzer targets with clang in a build directory
# of its own and fuzzes each for a short while; without clang's libFuzzer it skips, and
# fails under CI=true.
set(pv_fuzz_dir ${CMAKE_SOURCE_DIR}/tests/fuzz)
set(pv_fuzz_seeds ${CMAKE_BINARY_DIR}/fuzz-seeds)

add_test(NAME fuzz.seeds COMMAND sh ${pv_fuzz_dir}/make_seeds.sh ${CMAKE_SOURCE_DIR} ${pv_fuzz_seeds})
set_tests_properties(fuzz.seeds PROPERTIES LABELS lang FIXTURES_SETUP pv_fuzz_seeds TIMEOUT 120)

foreach(target script datafile)
  add_executable(fuzz_replay_${target} ${pv_fuzz_dir}/replay.c ${pv_fuzz_dir}/fuzz_${target}.c)
  target_include_directories(fuzz_replay_${target} PRIVATE ${pv_fuzz_dir})
  set_target_properties(fuzz_replay_${target} PROPERTIES
    RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tests)
  add_test(NAME fuzz.replay_${target}
    COMMAND fuzz_replay_${target} ${pv_fuzz_dir}/crashers/${target} ${pv_fuzz_seeds}/${target})
  set_tests_properties(fuzz.replay_${target} PROPERTIES
    LABELS lang FIXTURES_REQUIRED pv_fuzz_seeds TIMEOUT 300 WORKING_DIRECTORY ${pv_fuzz_seeds})
endforeach()
# the script target drives the interpreter's check pass (exec's private header)
target_include_directories(fuzz_replay_script PRIVATE ${CMAKE_SOURCE_DIR}/src/exec)
target_link_libraries(fuzz_replay_script PRIVATE pv_warnings ${PV_MODULES})
target_link_libraries(fuzz_replay_datafile PRIVATE pv_warnings pv_lang)

add_test(NAME fuzz.short_run
  COMMAND sh ${pv_fuzz_dir}/short_run.sh ${CMAKE_SOURCE_DIR} ${CMAKE_BINARY_DIR}/fuzz-clang 25)
set_tests_properties(fuzz.short_run PROPERTIES
  LABELS fuzz PROCESSORS 2 TIMEOUT 900 SKIP_RETURN_CODE 77)
