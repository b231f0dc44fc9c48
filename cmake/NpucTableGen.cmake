# npuc_tablegen(<ofn> <backend-flag> [extra args...]): runs the project's own
# TableGen backend (tools/npuc-tblgen) on LLVM_TARGET_DEFINITIONS, like
# mlir_tablegen does for mlir-tblgen.
function(npuc_tablegen ofn)
  tablegen(NPUC ${ofn} ${ARGN}
    "-I${NPUC_SOURCE_DIR}/include" "-I${CMAKE_CURRENT_SOURCE_DIR}")
  set(TABLEGEN_OUTPUT ${TABLEGEN_OUTPUT} ${CMAKE_CURRENT_BINARY_DIR}/${ofn} PARENT_SCOPE)
endfunction()
