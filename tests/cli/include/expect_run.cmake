# Shared by the CLI test scripts: expect_run(RC OUT_VAR ARGS...) runs ${FFTGEN} ARGS (or
# ${EXPECT_RUN_PROGRAM}, where a script tests another program), fails the test unless it exits
# with RC, and returns stdout and stderr together in OUT_VAR.
function(expect_run expected_rc out_var)
  set(program ${FFTGEN})
  if(DEFINED EXPECT_RUN_PROGRAM)
    set(program ${EXPECT_RUN_PROGRAM})
  endif()
  execute_process(COMMAND ${program} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL expected_rc)
    get_filename_component(name ${program} NAME)
    message(FATAL_ERROR "${name} ${ARGN}: exit ${rc}, expected ${expected_rc}\n${out}\n${err}")
  endif()
  set(${out_var} "${out}${err}" PARENT_SCOPE)
endfunction()
