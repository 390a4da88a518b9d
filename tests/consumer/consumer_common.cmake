# Shared by run_consumer.cmake and run_static_consumer.cmake: the check of
# the inputs named in QRU_INPUTS, run() (a command that must succeed; its
# output in run_out) and an empty QRU_WORK_DIR.
foreach(v ${QRU_INPUTS})
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "${CMAKE_SCRIPT_MODE_FILE}: ${v} is not set")
  endif()
endforeach()

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc
                  OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
  set(run_out "${out}" PARENT_SCOPE)
endfunction()

set(prefix ${QRU_WORK_DIR}/prefix)
file(REMOVE_RECURSE ${QRU_WORK_DIR})
file(MAKE_DIRECTORY ${QRU_WORK_DIR})
