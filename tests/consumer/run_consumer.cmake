# Install test, run with cmake -P:
#   cmake --install the build tree into a temporary prefix, then build and
#   run tests/consumer (1) with find_package(qru) and (2) with pkg-config.
# Inputs: QRU_BUILD_DIR, QRU_CONSUMER_SRC, QRU_WORK_DIR, QRU_C_COMPILER,
# QRU_MODULES.
set(QRU_INPUTS QRU_BUILD_DIR QRU_CONSUMER_SRC QRU_WORK_DIR QRU_C_COMPILER)
include(${CMAKE_CURRENT_LIST_DIR}/consumer_common.cmake)

# 1. install
run(${CMAKE_COMMAND} --install ${QRU_BUILD_DIR} --prefix ${prefix})
if(NOT EXISTS ${prefix}/include/qru.h)
  message(FATAL_ERROR "qru.h was not installed into ${prefix}/include")
endif()
file(GLOB_RECURSE config_files ${prefix}/*/qruConfig.cmake)
file(GLOB_RECURSE pc_files ${prefix}/*/qru.pc)
if(NOT config_files OR NOT pc_files)
  message(FATAL_ERROR "qruConfig.cmake or qru.pc missing under ${prefix}")
endif()
list(GET pc_files 0 pc_file)
get_filename_component(pc_dir ${pc_file} DIRECTORY)
get_filename_component(libdir ${pc_dir} DIRECTORY)

# the installed command-line program runs as installed (its run path finds
# the installed library; no LD_LIBRARY_PATH)
if(NOT EXISTS ${prefix}/bin/qru)
  message(FATAL_ERROR "bin/qru was not installed into ${prefix}")
endif()
run(${CMAKE_COMMAND} -E env --unset=LD_LIBRARY_PATH ${prefix}/bin/qru --version)
message(STATUS "installed qru --version: ${run_out}")

# the backend modules built (QRU_MODULES: "cuda,opencl", "" for none) are
# installed into <libdir>/qru, and the installed library finds them there
# (not in the build tree): `qru info` names the installed module of every
# usable one
run(${CMAKE_COMMAND} -E env --unset=LD_LIBRARY_PATH ${prefix}/bin/qru info)
message(STATUS "installed qru info:\n${run_out}")
string(REPLACE "," ";" modules "${QRU_MODULES}")
foreach(m IN LISTS modules)
  file(GLOB found ${libdir}/qru/*qru_${m}*)
  if(NOT found)
    message(FATAL_ERROR "the ${m} module is not installed in ${libdir}/qru")
  endif()
  if(run_out MATCHES "\n  ${m} +usable: [^\n]*module ([^\n]*)")
    set(loaded "${CMAKE_MATCH_1}")
    if(NOT loaded MATCHES "^${libdir}/qru/")
      message(FATAL_ERROR "the installed qru loaded ${loaded}, "
        "not the ${m} module of ${libdir}/qru")
    endif()
  endif()
endforeach()

# 2. find_package(qru) consumer
run(${CMAKE_COMMAND} -S ${QRU_CONSUMER_SRC} -B ${QRU_WORK_DIR}/build
    -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_C_COMPILER=${QRU_C_COMPILER}
    -DCMAKE_BUILD_TYPE=Release)
run(${CMAKE_COMMAND} --build ${QRU_WORK_DIR}/build)
run(${CMAKE_COMMAND} -E env LD_LIBRARY_PATH=${libdir}
    ${QRU_WORK_DIR}/build/qru_consumer)
message(STATUS "find_package consumer: ${run_out}")

# 3. pkg-config consumer
find_program(PKG_CONFIG_EXE NAMES pkg-config pkgconf REQUIRED)
# qru.pc derives its prefix from its own location (${pcfiledir}), so an
# install with --prefix elsewhere needs no override.
run(${CMAKE_COMMAND} -E env PKG_CONFIG_PATH=${pc_dir}
    ${PKG_CONFIG_EXE} --cflags --libs qru)
string(STRIP "${run_out}" flags)
separate_arguments(flags UNIX_COMMAND "${flags}")
run(${QRU_C_COMPILER} -std=c99 -Wall -o ${QRU_WORK_DIR}/consumer_pc
    ${QRU_CONSUMER_SRC}/main.c ${flags} -lm)
run(${CMAKE_COMMAND} -E env LD_LIBRARY_PATH=${libdir}
    ${QRU_WORK_DIR}/consumer_pc)
message(STATUS "pkg-config consumer: ${run_out}")

# a static link of libqru needs LAPACKE and the BLAS: qru.pc names them
run(${CMAKE_COMMAND} -E env PKG_CONFIG_PATH=${pc_dir}
    ${PKG_CONFIG_EXE} --static --libs qru)
if(NOT run_out MATCHES "-llapacke" OR NOT run_out MATCHES "-lm")
  message(FATAL_ERROR "pkg-config --static --libs qru lacks LAPACKE or libm: ${run_out}")
endif()
message(STATUS "pkg-config --static: ${run_out}")

# 4. the README's example program, compiled and run as it stands
if(DEFINED QRU_README)
  file(READ ${QRU_README} readme)
  string(FIND "${readme}" "## Using the library" at)
  string(SUBSTRING "${readme}" ${at} -1 readme)
  string(FIND "${readme}" "```c\n" c0)
  math(EXPR c0 "${c0} + 5")
  string(SUBSTRING "${readme}" ${c0} -1 readme)
  string(FIND "${readme}" "```" c1)
  string(SUBSTRING "${readme}" 0 ${c1} example)
  file(WRITE ${QRU_WORK_DIR}/readme_example.c "${example}")
  run(${QRU_C_COMPILER} -std=c99 -Wall -Werror -o ${QRU_WORK_DIR}/readme_example
      ${QRU_WORK_DIR}/readme_example.c ${flags} -lm)
  run(${CMAKE_COMMAND} -E env LD_LIBRARY_PATH=${libdir}
      ${QRU_WORK_DIR}/readme_example)
  message(STATUS "README example: ${run_out}")
endif()
