# polyblocks_add_kernel(<target>
#                       SOURCES k.mlir [more.mlir ...]
#                       [TARGET cpu|nvgpu|amdgpu] # code generation target (default: cpu)
#                       [CPU <name>]            # CPU to generate code for (default: host)
#                       [CHIP <name>]           # GPU to generate code for (nvgpu: sm_70 ... sm_90a, default sm_80;
#                                               #   amdgpu: gfx90a, gfx942 or gfx1100, default gfx90a)
#                       [OPTIONS <pbtool flags>...])
#
# Compiles each .mlir tensor program with `pbtool compile` at build time into
# an object file and a C header named after the source (k.mlir -> k.h), and
# creates a STATIC library <target> holding the objects. Linking <target>
# puts the headers on the include path and brings in what the generated code
# needs (PolyBlocks::runtime for CPUs; PolyBlocks::gpu_runtime, the shared
# runtime that loads the CUDA driver or the HIP runtime at run time, for GPUs). A source is recompiled
# when it or pbtool
# changes, through a depfile, with Ninja and with Makefiles.
#
# Every kernel's flags are also recorded in
# ${CMAKE_BINARY_DIR}/polyblocks_commands.json, which pb-lsp reads to compile
# each file the way the build does.

include_guard(GLOBAL)

function(polyblocks_add_kernel target)
  cmake_parse_arguments(PARSE_ARGV 1 PB "" "TARGET;CPU;CHIP" "SOURCES;OPTIONS")
  if(PB_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "polyblocks_add_kernel(${target}): unexpected arguments: ${PB_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT PB_SOURCES)
    message(FATAL_ERROR "polyblocks_add_kernel(${target}): SOURCES is required (the .mlir files to compile)")
  endif()
  if(NOT PB_TARGET)
    set(PB_TARGET cpu)
  endif()
  if(NOT PB_TARGET MATCHES "^(cpu|nvgpu|amdgpu)$")
    message(FATAL_ERROR "polyblocks_add_kernel(${target}): unknown TARGET '${PB_TARGET}' (known targets: cpu, nvgpu, amdgpu)")
  endif()
  if(PB_CHIP AND PB_TARGET STREQUAL "cpu")
    message(FATAL_ERROR "polyblocks_add_kernel(${target}): CHIP names a GPU; for TARGET cpu use CPU <name>")
  endif()

  set(flags "--target=${PB_TARGET}")
  if(PB_CPU)
    list(APPEND flags "--cpu=${PB_CPU}")
  endif()
  if(PB_CHIP)
    list(APPEND flags "--chip=${PB_CHIP}")
  endif()
  list(APPEND flags ${PB_OPTIONS})

  set(out_dir "${CMAKE_CURRENT_BINARY_DIR}/${target}.polyblocks")
  set(objects)
  set(headers)
  foreach(source IN LISTS PB_SOURCES)
    get_filename_component(source "${source}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    get_filename_component(name "${source}" NAME_WE)
    set(object "${out_dir}/${name}.o")
    set(header "${out_dir}/include/${name}.h")
    set(depfile "${out_dir}/${name}.d")
    add_custom_command(
      OUTPUT "${object}" "${header}"
      COMMAND "${CMAKE_COMMAND}" -E make_directory "${out_dir}/include"
      COMMAND PolyBlocks::pbtool compile "${source}" ${flags}
              -o "${object}" --header "${header}" --depfile "${depfile}"
      DEPENDS "${source}" PolyBlocks::pbtool
      DEPFILE "${depfile}"
      COMMENT "PolyBlocks: compiling ${name}.mlir for ${PB_TARGET}"
      VERBATIM)
    list(APPEND objects "${object}")
    list(APPEND headers "${header}")
    _polyblocks_record_command("${source}" "${target}" "${flags}")
  endforeach()

  add_library(${target} STATIC ${objects} ${headers})
  # The archive holds only generated objects: archive it with whichever of
  # the project's languages is enabled.
  get_property(languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  if("CXX" IN_LIST languages)
    set_target_properties(${target} PROPERTIES LINKER_LANGUAGE CXX)
  else()
    set_target_properties(${target} PROPERTIES LINKER_LANGUAGE C)
  endif()
  target_include_directories(${target} PUBLIC "$<BUILD_INTERFACE:${out_dir}/include>")
  if(PB_TARGET STREQUAL "cpu")
    target_link_libraries(${target} PUBLIC PolyBlocks::runtime)
  else()
    target_link_libraries(${target} PUBLIC PolyBlocks::gpu_runtime)
  endif()
endfunction()

# Records one kernel's flags for polyblocks_commands.json, written once at
# the end of configuration.
function(_polyblocks_record_command source target flags)
  set(args "\"compile\"")
  foreach(flag IN LISTS flags)
    string(REPLACE "\\" "\\\\" flag "${flag}")
    string(REPLACE "\"" "\\\"" flag "${flag}")
    string(APPEND args ", \"${flag}\"")
  endforeach()
  set_property(GLOBAL APPEND PROPERTY _POLYBLOCKS_COMMANDS
    "  {\"file\": \"${source}\", \"kernel\": \"${target}\", \"directory\": \"${CMAKE_CURRENT_BINARY_DIR}\", \"arguments\": [${args}]}")
  get_property(scheduled GLOBAL PROPERTY _POLYBLOCKS_COMMANDS_SCHEDULED)
  if(NOT scheduled)
    set_property(GLOBAL PROPERTY _POLYBLOCKS_COMMANDS_SCHEDULED TRUE)
    cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}" CALL _polyblocks_write_commands)
  endif()
endfunction()

function(_polyblocks_write_commands)
  get_property(entries GLOBAL PROPERTY _POLYBLOCKS_COMMANDS)
  list(JOIN entries ",\n" body)
  file(CONFIGURE OUTPUT "${CMAKE_BINARY_DIR}/polyblocks_commands.json"
       CONTENT "[\n${body}\n]\n" @ONLY)
endfunction()
