# OpenCL backend (opencl/*.c): OpenCL runtime + CLBlast, kernels embedded as
# program text.  Included by the top-level CMakeLists.txt unless
# QRU_WITH_OPENCL=OFF.  With QRU_WITH_OPENCL=ON a missing OpenCL or CLBlast
# is a configuration error; with AUTO the backend is silently left out.
#
# The backend is the module libqru_opencl.so (qru_add_backend_module,
# src/qru_module.h), which links CLBlast and the OpenCL ICD loader; libqru
# loads it at the first OpenCL context and links neither.
#
# Sets (plain variables, this file is included):
#   QRU_HAVE_OPENCL  ON when the backend is built
# and the target qru_opencl: the sources opencl/*.c plus the generated
# ${CMAKE_CURRENT_BINARY_DIR}/qru_ocl_sources.c (kernels/qru_kdefs.h +
# kernels/*.cl as C string literals, regenerated whenever one of them
# changes).

set(QRU_HAVE_OPENCL OFF)
find_package(OpenCL QUIET)

set(QRU_CLBLAST_FOUND OFF)
if(PKG_CONFIG_FOUND)
  pkg_check_modules(QRU_CLBLAST QUIET clblast)
  if(QRU_CLBLAST_FOUND)
    find_library(QRU_CLBLAST_LIB NAMES clblast
      HINTS ${QRU_CLBLAST_LIBRARY_DIRS})
    find_path(QRU_CLBLAST_INCLUDE clblast_c.h
      HINTS ${QRU_CLBLAST_INCLUDE_DIRS})
  endif()
endif()
if(NOT QRU_CLBLAST_LIB OR NOT QRU_CLBLAST_INCLUDE)
  find_library(QRU_CLBLAST_LIB NAMES clblast)
  find_path(QRU_CLBLAST_INCLUDE clblast_c.h)
endif()
if(QRU_CLBLAST_LIB AND QRU_CLBLAST_INCLUDE)
  set(QRU_CLBLAST_FOUND ON)
endif()

if(NOT OpenCL_FOUND OR NOT QRU_CLBLAST_FOUND)
  if(QRU_WITH_OPENCL STREQUAL "ON")
    message(FATAL_ERROR "QRU_WITH_OPENCL=ON but OpenCL (${OpenCL_FOUND}) or "
      "CLBlast (${QRU_CLBLAST_FOUND}) was not found "
      "(Debian: ocl-icd-opencl-dev, libclblast-dev)")
  endif()
  message(STATUS "OpenCL backend: not built (OpenCL ${OpenCL_FOUND}, "
    "CLBlast ${QRU_CLBLAST_FOUND})")
  return()
endif()

# ---- kernels as program text -------------------------------------------------
file(GLOB QRU_OCL_KERNEL_FILES CONFIGURE_DEPENDS
  ${CMAKE_CURRENT_SOURCE_DIR}/kernels/*.cl)
list(SORT QRU_OCL_KERNEL_FILES)
set(QRU_OCL_KERNEL_INPUTS
  ${CMAKE_CURRENT_SOURCE_DIR}/kernels/qru_kdefs.h ${QRU_OCL_KERNEL_FILES})
set(QRU_OCL_GENERATED ${CMAKE_CURRENT_BINARY_DIR}/qru_ocl_sources.c)
string(REPLACE ";" "|" QRU_OCL_KERNEL_ARG "${QRU_OCL_KERNEL_INPUTS}")
add_custom_command(OUTPUT ${QRU_OCL_GENERATED}
  COMMAND ${CMAKE_COMMAND} "-DINPUTS=${QRU_OCL_KERNEL_ARG}"
          -DOUTPUT=${QRU_OCL_GENERATED}
          -P ${CMAKE_CURRENT_SOURCE_DIR}/cmake/qru_embed_kernels.cmake
  DEPENDS ${QRU_OCL_KERNEL_INPUTS}
          ${CMAKE_CURRENT_SOURCE_DIR}/cmake/qru_embed_kernels.cmake
  COMMENT "Embedding OpenCL kernel sources"
  VERBATIM)

file(GLOB QRU_OCL_SOURCES CONFIGURE_DEPENDS
  ${CMAKE_CURRENT_SOURCE_DIR}/opencl/*.c)
qru_add_backend_module(qru_opencl ${QRU_OCL_SOURCES} ${QRU_OCL_GENERATED})
target_include_directories(qru_opencl PRIVATE ${QRU_CLBLAST_INCLUDE}
  ${CMAKE_CURRENT_SOURCE_DIR}/opencl)
target_compile_definitions(qru_opencl PRIVATE QRU_MODULE_OPENCL
  CL_TARGET_OPENCL_VERSION=120)
target_link_libraries(qru_opencl PRIVATE ${QRU_CLBLAST_LIB} OpenCL::OpenCL m)
set(QRU_HAVE_OPENCL ON)
message(STATUS "OpenCL backend: OpenCL ${OpenCL_VERSION_STRING}, "
  "CLBlast ${QRU_CLBLAST_LIB}")
