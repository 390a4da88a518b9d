# The CUDA backend (cuda/*.cu): included by the top-level CMakeLists.txt when
# a CUDA compiler was found and QRU_WITH_CUDA is not OFF.
#
# Kernels are written once in kernels/*.cl against kernels/qru_kdefs.h and
# compiled here by nvcc as templates over the element type; cuBLAS does the
# level-3 BLAS.  The library then links the CUDA runtime, cuBLAS and cuSOLVER.
# Machines without a GPU still build and link it: the backend's probe then
# reports QRU_ERR_BACKEND_UNAVAILABLE at run time.

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
target_sources(qru_objects PRIVATE ${QRU_CUDA_SOURCES})
# The .cu files #include the kernel bodies; list them so that IDEs show them
# (header-only: not compiled on their own).
set_source_files_properties(${QRU_CUDA_KERNELS} PROPERTIES HEADER_FILE_ONLY ON)
target_sources(qru_objects PRIVATE ${QRU_CUDA_KERNELS})

target_include_directories(qru_objects PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/../cuda ${CMAKE_CURRENT_LIST_DIR}/../kernels)
target_compile_definitions(qru_objects PRIVATE QRU_HAVE_CUDA)
target_compile_options(qru_objects PRIVATE
  $<$<COMPILE_LANGUAGE:CUDA>:-std=c++20 -Xcompiler=-Wall,-Wextra,-Wno-comment>)
# (C++20 for the designated initialisers of the table in cuda_table.cu;
# set as a flag because CMake 3.25 does not know nvcc's CUDA20 flag.)
list(APPEND QRU_LINK_DEPS CUDA::cudart CUDA::cublas CUDA::cusolver)
# qru was created before this file was included, so its CUDA properties
# are set here.
set_target_properties(qru_objects qru qru_internal PROPERTIES
  CUDA_ARCHITECTURES "${CMAKE_CUDA_ARCHITECTURES}"
  CUDA_RUNTIME_LIBRARY Shared)
# linked by the CUDA driver (the C++ runtime as the toolkit expects it)
set_target_properties(qru qru_internal PROPERTIES LINKER_LANGUAGE CUDA)

set(QRU_HAVE_CUDA ON)
# pkg-config Libs.private of a static libqru (a string: it goes into qru.pc)
string(APPEND QRU_PC_PRIVATE_LIBS
  " -L${CUDAToolkit_LIBRARY_DIR} -lcusolver -lcublas -lcudart")
message(STATUS "qru: CUDA backend enabled (nvcc ${CMAKE_CUDA_COMPILER_VERSION}, "
  "architectures ${CMAKE_CUDA_ARCHITECTURES})")
