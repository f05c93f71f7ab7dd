# Installability tests (included from tests/CMakeLists.txt).

# The headless server build: -DOUTBOX_GUI=OFF in its own folder, which must configure without
# Qt Widgets/Charts/Linguist and build outboxctl without them. Only the outboxctl target is built,
# with the main build's type and flags, in a sibling folder of the build folder (`build` ->
# `build-headless`): under ccache its compiles are the main build's cache hits.
add_test(NAME packaging.headless_build
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/packaging/headless-build.sh ${CMAKE_SOURCE_DIR}
                 ${CMAKE_BINARY_DIR}-headless "${CMAKE_CXX_COMPILER_LAUNCHER}" ${OUTBOX_WERROR}
                 "${CMAKE_BUILD_TYPE}")
# One slot, not two: under `ctest -j 3` a test that needs two free slots waits until the very end and
# runs alone (29 s of the rehearsal of f243ec1); its compiles are cache hits, its own -j 2 links.
set_tests_properties(packaging.headless_build PROPERTIES TIMEOUT 1500)

if(OUTBOX_GUI)
  # The desktop entry and the AppStream metainfo as installed.
  add_test(NAME packaging.desktop_files
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/packaging/validate-desktop.sh
                   ${CMAKE_SOURCE_DIR}/resources/desktop/org.outboxconsole.OutboxConsole.desktop
                   ${CMAKE_BINARY_DIR}/resources/org.outboxconsole.OutboxConsole.metainfo.xml)
  set_tests_properties(packaging.desktop_files PROPERTIES TIMEOUT 120)
endif()

if(NOT SYSTEMD_FOUND OR NOT OUTBOX_GUI)
  return()
endif()

# sd_notify readiness/watchdog/stopping, journal priorities and the password credential of the
# real outboxctl relay and serve.
outbox_add_test(tst_systemdservice packaging/tst_systemdservice.cpp SERVERS)
add_dependencies(tst_systemdservice outboxctl)

# Both packages built by cpack from this build folder's binaries (fixture), then checked.
set(OUTBOX_PACKAGE_TEST bash ${CMAKE_CURRENT_SOURCE_DIR}/packaging/package-tests.sh ${CMAKE_BINARY_DIR})
add_test(NAME packaging.cpack COMMAND ${OUTBOX_PACKAGE_TEST} build)
set_tests_properties(packaging.cpack PROPERTIES FIXTURES_SETUP debs TIMEOUT 600)
foreach(check contents lintian installed units)
  add_test(NAME packaging.${check} COMMAND ${OUTBOX_PACKAGE_TEST} ${check})
  set_tests_properties(packaging.${check} PROPERTIES FIXTURES_REQUIRED debs TIMEOUT 600)
endforeach()
