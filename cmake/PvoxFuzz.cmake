# libFuzzer targets (tests/fuzz/README.md): fuzz_script (lexer, command parsers, expression
# compilers) and fuzz_datafile (the data-file reader). Clang only, in a build directory of
# their own:
#   CC=clang cmake -S . -B /tmp/b-fuzz -DPV_FUZZ=ON -DPV_BUILD_TESTS=OFF -DPV_BUILD_BENCH=OFF
#   cmake --build /tmp/b-fuzz --target fuzz_script fuzz_datafile
# Every library is compiled with the fuzzer's coverage and with ASan and UBSan (through
# pv_warnings, which each module links, as PV_SANITIZE does); only the two targets link
# libFuzzer's main. The ordinary suite replays the targets without libFuzzer
# (tests/fuzz/tests.cmake).
option(PV_FUZZ "Build the libFuzzer targets of tests/fuzz (needs clang)" OFF)
if(NOT PV_FUZZ)
  return()
endif()
if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR "PV_FUZZ needs clang's libFuzzer: configure a separate build directory "
    "with CC=clang (tests/fuzz/README.md)")
endif()
target_compile_options(pv_warnings INTERFACE -fsanitize=fuzzer-no-link,address,undefined
  -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
target_link_options(pv_warnings INTERFACE -fsanitize=address,undefined)

add_executable(fuzz_script ${CMAKE_SOURCE_DIR}/tests/fuzz/fuzz_script.c)
# the script target drives the interpreter's check pass, so it reaches exec's private header
target_include_directories(fuzz_script PRIVATE ${CMAKE_SOURCE_DIR}/src/exec)
target_link_libraries(fuzz_script PRIVATE ${PV_MODULES} pv_warnings)
add_executable(fuzz_datafile ${CMAKE_SOURCE_DIR}/tests/fuzz/fuzz_datafile.c)
target_link_libraries(fuzz_datafile PRIVATE pv_lang pv_warnings)
foreach(t fuzz_script fuzz_datafile)
  target_link_options(${t} PRIVATE -fsanitize=fuzzer)
  set_target_properties(${t} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/fuzz)
endforeach()
