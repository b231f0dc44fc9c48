# What `cmake --install` puts beside the tools and libraries, and the CPack
# packages built from it (docs/install.md):
#
#   cpack --config build/CPackConfig.cmake -B build/packages
#
# writes npuc_<version>_amd64.deb and npuc-<version>-Linux.tar.gz. Both are
# byte-reproducible (contract D8, scripts/check-reproducible-packages.sh):
# every file time is SOURCE_DATE_EPOCH (the last commit's time unless the
# environment sets it), entries are sorted, owners are root:root with fixed
# modes, and no binary holds a build path (-ffile-prefix-map).

install(FILES ${NPUC_SOURCE_DIR}/LICENSE ${NPUC_SOURCE_DIR}/README.md
  DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT runtime)
install(DIRECTORY ${NPUC_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs
  COMPONENT runtime FILES_MATCHING PATTERN "*.md")

set(CPACK_PACKAGE_NAME npuc)
set(CPACK_PACKAGE_VENDOR "npuc")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Ahead-of-time ONNX compiler for the NPU-v1 reference NPU, and its simulator")
set(CPACK_PACKAGE_CONTACT "npuc developers <npuc@localhost>")
set(CPACK_RESOURCE_FILE_LICENSE ${NPUC_SOURCE_DIR}/LICENSE)
set(CPACK_GENERATOR "DEB;TGZ")
set(CPACK_STRIP_FILES ON)
set(CPACK_SET_DESTDIR OFF)
set(CPACK_SOURCE_IGNORE_FILES "/build/;/\\\\.git/")
set(CPACK_ARCHIVE_THREADS 1)

# .tar.gz: a relocatable tree, unpacked anywhere (npuc-<version>-Linux/bin, ...);
# the .deb installs under /usr (CPack's default prefix for it).
set(CPACK_ARCHIVE_COMPONENT_INSTALL OFF)

# .deb: installs under /usr; the Debian packages of the shared libraries the
# tools load (the same the build uses).
set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE amd64)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_DEPENDS
  "libmlir-22, libllvm22, libonnx1, libprotobuf32, libstdc++6, libc6")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS OFF)
set(CPACK_DEBIAN_COMPRESSION_TYPE xz)

include(CPack)
