# The CUDA backend (cuda/*.cu): included by the top-level CMakeLists.txt when
# a CUDA compiler was found and QRU_WITH_CUDA is not OFF.
#
# Kernels are written once in kernels/*.cl against kernels/qru_kdefs.h and
# compiled here by nvcc as templates over the element type; cuBLAS does the
# level-3 BLAS.  The backend is the module libqru_cuda.so
# (qru_add_backend_module, src/qru_module.h), which links the CUDA runtime,
# cuBLAS and cuSOLVER; libqru loads it at the first CUDA context and links
# none of them.  Machines without a GPU still build it: there the loader
# reports no driver, or the backend's probe no device
# (QRU_ERR_BACKEND_UNAVAILABLE).
#
# Sets QRU_HAVE_CUDA (ON) and the target qru_cuda.

if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
  # Hopper machine code plus PTX that newer GPUs compile when loading.
  set(CMAKE_CUDA_ARCHITECTURES "90-real;90-virtual")
endif()
enable_language(CUDA)
find_package(CUDAToolkit REQUIRED)

file(GLOB QRU_CUDA_SOURCES CONFIGURE_DEPENDS
  ${CMAKE_CURRENT_LIST_DIR}/../cuda/*.cu)
file(GLOB QRU_CUDA_KERNELS CONFIGURE_DEPENDS
  ${CMAKE_CURRENT_LIST_DIR}/../kernels/*.cl
  ${CMAKE_CURRENT_LIST_DIR}/../kernels/*.h)
qru_add_backend_module(qru_cuda ${QRU_CUDA_SOURCES})
# The .cu files #include the kernel bodies; list them so that IDEs show them
# (header-only: not compiled on their own).
set_source_files_properties(${QRU_CUDA_KERNELS} PROPERTIES HEADER_FILE_ONLY ON)
target_sources(qru_cuda PRIVATE ${QRU_CUDA_KERNELS})

target_include_directories(qru_cuda PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/../cuda ${CMAKE_CURRENT_LIST_DIR}/../kernels)
target_compile_definitions(qru_cuda PRIVATE QRU_MODULE_CUDA)
target_compile_options(qru_cuda PRIVATE
  $<$<COMPILE_LANGUAGE:CUDA>:-std=c++20 -Xcompiler=-Wall,-Wextra,-Wno-comment>)
# (C++20 for the designated initialisers of the table in cuda_table.cu;
# set as a flag because CMake 3.25 does not know nvcc's CUDA20 flag.)
target_link_libraries(qru_cuda PRIVATE CUDA::cudart CUDA::cublas
  CUDA::cusolver)
# The shared runtime: one CUDA runtime in the process, shared with the
# caller's CUDA code (the context adopts the caller's streams and handles).
# Linked by the CUDA driver (the C++ runtime as the toolkit expects it).
# The installed module (and the wheel's) keeps the toolkit's library
# directory as its run path, for a toolkit outside the loader's default
# directories (the link path does not name it: it is nvcc's own).
set_target_properties(qru_cuda PROPERTIES
  CUDA_ARCHITECTURES "${CMAKE_CUDA_ARCHITECTURES}"
  CUDA_RUNTIME_LIBRARY Shared
  LINKER_LANGUAGE CUDA
  INSTALL_RPATH "${CUDAToolkit_LIBRARY_DIR}")

set(QRU_HAVE_CUDA ON)
message(STATUS "qru: CUDA backend enabled (nvcc ${CMAKE_CUDA_COMPILER_VERSION}, "
  "architectures ${CMAKE_CUDA_ARCHITECTURES})")
