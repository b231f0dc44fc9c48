# npuc_tablegen(<ofn> <backend-flag> [extra args...]): runs the project's own
# TableGen backend (tools/npuc-tblgen) on LLVM_TARGET_DEFINITIONS, like
# mlir_tablegen does for mlir-tblgen.
function(npuc_tablegen ofn)
  tablegen(NPUC ${ofn} ${ARGN}
    "-I${NPUC_SOURCE_DIR}/include" "-I${CMAKE_CURRENT_SOURCE_DIR}")
  set(TABLEGEN_OUTPUT ${TABLEGEN_OUTPUT} ${CMAKE_CURRENT_BINARY_DIR}/${ofn} PARENT_SCOPE)
endfunction()

# npuc_dialect_tablegen(<Name> <dialect> [ENUMS] [ATTRIBUTES] [TYPES]): the
# mlir-tblgen outputs of include/npuc/Dialect/<Name>/IR/<Name>Ops.td and the
# target Npuc<Name>IncGen that builds them.
function(npuc_dialect_tablegen name dialect)
  cmake_parse_arguments(ARG "ENUMS;ATTRIBUTES;TYPES;INTERFACES" "" "" ${ARGN})
  set(LLVM_TARGET_DEFINITIONS ${name}Ops.td)
  mlir_tablegen(${name}Ops.h.inc -gen-op-decls)
  mlir_tablegen(${name}Ops.cpp.inc -gen-op-defs)
  mlir_tablegen(${name}Dialect.h.inc -gen-dialect-decls -dialect=${dialect})
  mlir_tablegen(${name}Dialect.cpp.inc -gen-dialect-defs -dialect=${dialect})
  if(ARG_ENUMS)
    mlir_tablegen(${name}Enums.h.inc -gen-enum-decls)
    mlir_tablegen(${name}Enums.cpp.inc -gen-enum-defs)
  endif()
  if(ARG_ATTRIBUTES)
    mlir_tablegen(${name}Attributes.h.inc -gen-attrdef-decls -attrdefs-dialect=${dialect})
    mlir_tablegen(${name}Attributes.cpp.inc -gen-attrdef-defs -attrdefs-dialect=${dialect})
  endif()
  if(ARG_TYPES)
    mlir_tablegen(${name}Types.h.inc -gen-typedef-decls -typedefs-dialect=${dialect})
    mlir_tablegen(${name}Types.cpp.inc -gen-typedef-defs -typedefs-dialect=${dialect})
  endif()
  if(ARG_INTERFACES)
    set(LLVM_TARGET_DEFINITIONS ${name}Interfaces.td)
    mlir_tablegen(${name}Interfaces.h.inc -gen-op-interface-decls)
    mlir_tablegen(${name}Interfaces.cpp.inc -gen-op-interface-defs)
  endif()
  add_public_tablegen_target(Npuc${name}IncGen)
endfunction()
