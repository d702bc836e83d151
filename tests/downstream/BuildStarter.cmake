# Copies the starter project, configures it against a PolyBlocks package,
# builds and runs it, then checks that editing the kernel rebuilds it (the
# depfile path) and that a second build does nothing.
#   cmake -DSTARTER_DIR=... -DWORK_DIR=... -DGENERATOR=... -DPACKAGE_DIR=...
#         -P BuildStarter.cmake

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "command failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
  set(out "${out}${err}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE "${WORK_DIR}")
file(COPY "${STARTER_DIR}/" DESTINATION "${WORK_DIR}/src")
set(build "${WORK_DIR}/build")

run("${CMAKE_COMMAND}" -S "${WORK_DIR}/src" -B "${build}" -G "${GENERATOR}"
    "-DPolyBlocks_DIR=${PACKAGE_DIR}")
run("${CMAKE_COMMAND}" --build "${build}")
if(NOT out MATCHES "PolyBlocks: compiling kernel.mlir")
  message(FATAL_ERROR "the first build did not compile the kernel:\n${out}")
endif()
run("${build}/starter")
message(STATUS "starter printed:\n${out}")
if(NOT out MATCHES "OK")
  message(FATAL_ERROR "the starter program did not report OK")
endif()

# Nothing changed: nothing is rebuilt.
run("${CMAKE_COMMAND}" --build "${build}")
if(out MATCHES "PolyBlocks: compiling")
  message(FATAL_ERROR "a build with nothing changed recompiled the kernel:\n${out}")
endif()

# Editing the kernel recompiles it and relinks the program.
file(READ "${WORK_DIR}/src/kernel.mlir" kernel)
file(WRITE "${WORK_DIR}/src/kernel.mlir" "// edited\n${kernel}")
run("${CMAKE_COMMAND}" --build "${build}")
if(NOT out MATCHES "PolyBlocks: compiling kernel.mlir")
  message(FATAL_ERROR "editing kernel.mlir did not recompile it:\n${out}")
endif()
run("${build}/starter")
