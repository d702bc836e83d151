# Builds examples/torchvision-resnet as a user would (exporting the network
# with the Python environment's polyblocks, compiling it with
# polyblocks_add_kernel against the build tree) and runs it.
#   cmake -DEXAMPLE_DIR=... -DWORK_DIR=... -DPACKAGE_DIR=... -DPYTHON=...
#         -P BuildTorchExample.cmake

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "command failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
  set(out "${out}${err}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE "${WORK_DIR}")
run("${CMAKE_COMMAND}" -S "${EXAMPLE_DIR}" -B "${WORK_DIR}" -G Ninja
    "-DPolyBlocks_DIR=${PACKAGE_DIR}" "-DPython3_EXECUTABLE=${PYTHON}")
run("${CMAKE_COMMAND}" --build "${WORK_DIR}")
run("${WORK_DIR}/resnet18" "${WORK_DIR}")
message(STATUS "resnet18 printed:\n${out}")
if(NOT out MATCHES "\nOK")
  message(FATAL_ERROR "the example did not report OK")
endif()
