# CMake package for Strata: compile a model as part of a build and link it.
#
#   find_package(Strata REQUIRED)        # -DStrata_DIR=<strata checkout>/tools/cmake
#   strata_add_model(model model.mlir)   # any input `strata compile` reads
#   target_link_libraries(app PRIVATE model)
#
# strata_add_model(<target> <model> [SHARED] [NAME <prefix>] [OPTIONS <compile options>...])
# runs `strata compile` at build time whenever the model changes and defines <target>: an
# imported static library (SHARED: shared) whose headers <target>.h (C) and <target>.hpp (C++20:
# namespace strata::<prefix>, std::span buffers, exceptions) are on its include path and
# whose link dependencies (libm, pthread, libdl for the static runtime) come with it. The symbol
# prefix is <target> unless NAME says otherwise; OPTIONS go to `strata compile` as they are
# (`--target-cpu host`, `--dim b=64`, ...).
#
# The driver: STRATA_EXECUTABLE if set, else `strata` on the PATH, else the build tree this
# file belongs to (target/release/strata).

include_guard(GLOBAL)

find_program(STRATA_EXECUTABLE strata
  HINTS "${CMAKE_CURRENT_LIST_DIR}/../../target/release"
  DOC "The Strata compiler driver")
if(NOT STRATA_EXECUTABLE)
  set(Strata_FOUND FALSE)
  set(Strata_NOT_FOUND_MESSAGE "the strata driver was not found: set STRATA_EXECUTABLE")
  return()
endif()
set(Strata_FOUND TRUE)

function(strata_add_model target model)
  cmake_parse_arguments(ARG "SHARED" "NAME" "OPTIONS" ${ARGN})
  get_filename_component(model "${model}" ABSOLUTE)
  set(prefix "${target}")
  if(ARG_NAME)
    set(prefix "${ARG_NAME}")
  endif()
  set(dir "${CMAKE_CURRENT_BINARY_DIR}/strata_${target}")
  if(ARG_SHARED)
    set(lib "${dir}/lib${target}.so")
    set(kind SHARED)
  else()
    set(lib "${dir}/lib${target}.a")
    set(kind STATIC)
  endif()
  set(header "${dir}/${target}.h")
  set(header_cpp "${dir}/${target}.hpp")
  file(MAKE_DIRECTORY "${dir}")
  add_custom_command(
    OUTPUT "${lib}" "${header}" "${header_cpp}"
    COMMAND "${STRATA_EXECUTABLE}" compile "${model}" -o "${lib}" --header "${header}"
            --header-cpp "${header_cpp}" --name "${prefix}" ${ARG_OPTIONS}
    DEPENDS "${model}" "${STRATA_EXECUTABLE}"
    COMMENT "strata compile ${model}"
    VERBATIM)
  add_custom_target(${target}_strata DEPENDS "${lib}" "${header}" "${header_cpp}")
  add_library(${target} ${kind} IMPORTED GLOBAL)
  add_dependencies(${target} ${target}_strata)
  set_target_properties(${target} PROPERTIES
    IMPORTED_LOCATION "${lib}"
    INTERFACE_INCLUDE_DIRECTORIES "${dir}")
  if(NOT ARG_SHARED)
    set_property(TARGET ${target} PROPERTY INTERFACE_LINK_LIBRARIES m pthread dl)
  endif()
endfunction()
