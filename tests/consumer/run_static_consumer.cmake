# Static install test, run with cmake -P (CTest: install/static-consumer):
#   a static libqru (CPU backend; tests and benchmarks off) is configured,
#   built and installed into a temporary prefix from the source tree, then
#   tests/consumer is built and run (1) with find_package(qru): the exported
#   qru::qru must carry its link dependencies (LAPACKE, LAPACK, BLAS, libm),
#   and (2) with `pkg-config --static --libs qru`.
# Inputs: QRU_SOURCE_DIR, QRU_CONSUMER_SRC, QRU_WORK_DIR, QRU_C_COMPILER.
set(QRU_INPUTS QRU_SOURCE_DIR QRU_CONSUMER_SRC QRU_WORK_DIR QRU_C_COMPILER)
include(${CMAKE_CURRENT_LIST_DIR}/consumer_common.cmake)
cmake_host_system_information(RESULT ncpu QUERY NUMBER_OF_LOGICAL_CORES)

# 1. a static qru, installed
run(${CMAKE_COMMAND} -S ${QRU_SOURCE_DIR} -B ${QRU_WORK_DIR}/qru-build
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER=${QRU_C_COMPILER}
    -DBUILD_SHARED_LIBS=OFF -DQRU_WITH_CUDA=OFF -DQRU_WITH_OPENCL=OFF
    -DQRU_BUILD_TESTS=OFF -DQRU_BUILD_BENCH=OFF)
run(${CMAKE_COMMAND} --build ${QRU_WORK_DIR}/qru-build -j ${ncpu})
run(${CMAKE_COMMAND} --install ${QRU_WORK_DIR}/qru-build --prefix ${prefix})
file(GLOB_RECURSE static_libs ${prefix}/*/libqru.a)
file(GLOB_RECURSE shared_libs ${prefix}/*/libqru.so*)
if(NOT static_libs OR shared_libs)
  message(FATAL_ERROR "expected only a static libqru.a under ${prefix}: "
                      "'${static_libs}' / '${shared_libs}'")
endif()

# 2. find_package(qru): nothing but qru::qru is named by the consumer
run(${CMAKE_COMMAND} -S ${QRU_CONSUMER_SRC} -B ${QRU_WORK_DIR}/consumer
    -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_C_COMPILER=${QRU_C_COMPILER}
    -DCMAKE_BUILD_TYPE=Release)
run(${CMAKE_COMMAND} --build ${QRU_WORK_DIR}/consumer)
run(${QRU_WORK_DIR}/consumer/qru_consumer)
message(STATUS "static find_package consumer: ${run_out}")

# 3. pkg-config --static
list(GET static_libs 0 lib)
get_filename_component(libdir ${lib} DIRECTORY)
find_program(PKG_CONFIG_EXE NAMES pkg-config pkgconf REQUIRED)
run(${CMAKE_COMMAND} -E env PKG_CONFIG_PATH=${libdir}/pkgconfig
    ${PKG_CONFIG_EXE} --static --cflags --libs qru)
string(STRIP "${run_out}" flags)
separate_arguments(flags UNIX_COMMAND "${flags}")
run(${QRU_C_COMPILER} -std=c99 -Wall -o ${QRU_WORK_DIR}/consumer_pc_static
    ${QRU_CONSUMER_SRC}/main.c ${flags})
run(${QRU_WORK_DIR}/consumer_pc_static)
message(STATUS "static pkg-config consumer: ${run_out}")
