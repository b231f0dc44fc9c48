# Locates the Debian LLVM/MLIR 22 toolchain and the other build dependencies,
# and refuses a toolchain whose parts disagree (contract D3).

set(NPUC_LLVM_PREFIX "/usr/lib/llvm-22" CACHE PATH "Prefix of the LLVM/MLIR 22 installation")
find_package(MLIR REQUIRED CONFIG HINTS "${NPUC_LLVM_PREFIX}/lib/cmake/mlir")
if(NOT LLVM_VERSION_MAJOR EQUAL 22)
  message(FATAL_ERROR "npuc: needs LLVM/MLIR 22, found ${LLVM_PACKAGE_VERSION} at ${MLIR_DIR}")
endif()
message(STATUS "npuc: MLIR from ${MLIR_DIR}, LLVM ${LLVM_PACKAGE_VERSION}")

list(APPEND CMAKE_MODULE_PATH "${MLIR_CMAKE_DIR}" "${LLVM_CMAKE_DIR}")
set(LLVM_RUNTIME_OUTPUT_INTDIR ${CMAKE_BINARY_DIR}/bin)
set(LLVM_LIBRARY_OUTPUT_INTDIR ${CMAKE_BINARY_DIR}/lib)
set(MLIR_BINARY_DIR ${CMAKE_BINARY_DIR})
include(TableGen)
include(AddLLVM)
include(AddMLIR)
include(HandleLLVMOptions)

include_directories(SYSTEM ${LLVM_INCLUDE_DIRS} ${MLIR_INCLUDE_DIRS})
link_directories(${LLVM_BUILD_LIBRARY_DIR})
# HandleLLVMOptions already adds LLVM_DEFINITIONS (adding them again redefines macros).

# mlir-tblgen must come from the same release as the MLIR headers it generates
# code for: a mismatched pair produces code that compiles against the wrong API.
set(NPUC_MLIR_TBLGEN "${LLVM_TOOLS_BINARY_DIR}/mlir-tblgen" CACHE FILEPATH "mlir-tblgen to use")
if(NOT EXISTS "${NPUC_MLIR_TBLGEN}")
  message(FATAL_ERROR "npuc: mlir-tblgen not found at ${NPUC_MLIR_TBLGEN} (install mlir-22-tools)")
endif()
execute_process(COMMAND "${NPUC_MLIR_TBLGEN}" --version OUTPUT_VARIABLE _tblgen_version_text
  ERROR_VARIABLE _tblgen_version_text RESULT_VARIABLE _rc)
string(REGEX MATCH "LLVM version ([0-9]+\\.[0-9]+\\.[0-9]+)" _m "${_tblgen_version_text}")
set(NPUC_MLIR_TBLGEN_VERSION "${CMAKE_MATCH_1}")
if(NOT NPUC_MLIR_TBLGEN_VERSION STREQUAL LLVM_PACKAGE_VERSION)
  message(FATAL_ERROR "npuc: toolchain mismatch: ${NPUC_MLIR_TBLGEN} reports version "
    "'${NPUC_MLIR_TBLGEN_VERSION}' but the MLIR headers in ${MLIR_INCLUDE_DIRS} are "
    "${LLVM_PACKAGE_VERSION}; use the mlir-tblgen of the same release (NPUC_MLIR_TBLGEN)")
endif()
set(MLIR_TABLEGEN_EXE "${NPUC_MLIR_TBLGEN}")
set(MLIR_TABLEGEN_TARGET "")

find_program(NPUC_LIT lit HINTS "${LLVM_TOOLS_BINARY_DIR}" NO_DEFAULT_PATH)
find_program(NPUC_FILECHECK FileCheck HINTS "${LLVM_TOOLS_BINARY_DIR}" NO_DEFAULT_PATH)
if(NOT NPUC_LIT OR NOT NPUC_FILECHECK)
  message(FATAL_ERROR "npuc: lit/FileCheck not found in ${LLVM_TOOLS_BINARY_DIR} (install llvm-22-tools)")
endif()

find_package(CLI11 CONFIG QUIET)
if(NOT CLI11_FOUND AND NOT EXISTS /usr/include/CLI/CLI.hpp)
  message(FATAL_ERROR "npuc: CLI11 not found (install libcli11-dev)")
endif()

find_package(GTest REQUIRED)
find_package(Threads REQUIRED)
find_package(Python3 REQUIRED COMPONENTS Interpreter)
