# The output folder rules (docs/output.md) through the CLI: full disk, read-only folder, SIGKILL at
# random moments, two writers at once. The work is in include/output_rules.sh (bash: ulimit, kill).
execute_process(COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/include/output_rules.sh ${FFTGEN} ${WORK_DIR}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message(STATUS "${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "output rules failed (${rc}):\n${err}")
endif()
