# Shared by the CLI test scripts: expect_run(RC OUT_VAR ARGS...) runs ${FFTGEN} ARGS, fails the
# test unless it exits with RC, and returns stdout and stderr together in OUT_VAR.
function(expect_run expected_rc out_var)
  execute_process(COMMAND ${FFTGEN} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL expected_rc)
    message(FATAL_ERROR "fftgen ${ARGN}: exit ${rc}, expected ${expected_rc}\n${out}\n${err}")
  endif()
  set(${out_var} "${out}${err}" PARENT_SCOPE)
endfunction()
