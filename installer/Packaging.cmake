# Debian packages with CPack (bash installer/build-packages.sh, or `cpack` in a build folder):
#   outboxctl       the CLI, relay, consumer, serve, the embedded broker, systemd units, the
#                   configuration example and the man page; no Qt Widgets or Charts
#   outbox-console  the desktop console with its translations, icons, desktop entry and
#                   AppStream metainfo; depends on outboxctl
# Library dependencies are computed by dpkg-shlibdeps; the version is the project's version.

if(NOT SYSTEMD_FOUND)
  # The units are Type=notify: a package whose outboxctl cannot notify would hang at start.
  message(STATUS "Debian packages disabled: libsystemd-dev is missing")
  return()
endif()
# cpack installs what is built; it does not build the test suite first
# (installer/build-packages.sh builds the packaged targets).
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY ON)

set(OUTBOX_MAINTAINER "Outbox Console maintainers <maintainers@users.noreply.a-seed-db57dd89.example>"
    CACHE STRING "Maintainer field of the Debian packages")

set(OUTBOX_PACKAGE_COMPONENTS outboxctl)
if(OUTBOX_GUI)
  list(APPEND OUTBOX_PACKAGE_COMPONENTS console)
endif()

# Per package: /usr/share/doc/PACKAGE/{copyright,changelog.gz} (Debian policy), from
# installer/debian/*.in.
execute_process(COMMAND date -u -R -d "${OUTBOX_RELEASE_DATE} 12:00:00"
                OUTPUT_VARIABLE OUTBOX_CHANGELOG_DATE OUTPUT_STRIP_TRAILING_WHITESPACE COMMAND_ERROR_IS_FATAL ANY)
set(_outbox_package_of_outboxctl outboxctl)
set(_outbox_package_of_console outbox-console)
foreach(component ${OUTBOX_PACKAGE_COMPONENTS})
  set(OUTBOX_PACKAGE ${_outbox_package_of_${component}})
  set(dir ${CMAKE_BINARY_DIR}/packaging/${OUTBOX_PACKAGE})
  configure_file(${CMAKE_CURRENT_LIST_DIR}/debian/copyright.in ${dir}/copyright @ONLY)
  configure_file(${CMAKE_CURRENT_LIST_DIR}/debian/changelog.in ${dir}/changelog @ONLY)
  execute_process(COMMAND gzip -9n -c ${dir}/changelog OUTPUT_FILE ${dir}/changelog.gz COMMAND_ERROR_IS_FATAL ANY)
  install(FILES ${dir}/copyright ${dir}/changelog.gz DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/${OUTBOX_PACKAGE}
          COMPONENT ${component})
endforeach()

# Maintainer scripts of outboxctl (the system user) and its conffile.
set(_outbox_control ${CMAKE_BINARY_DIR}/packaging/outboxctl/control)
foreach(script postinst prerm postrm)
  configure_file(${CMAKE_CURRENT_LIST_DIR}/debian/outboxctl.${script} ${_outbox_control}/${script} COPYONLY)
endforeach()
file(WRITE ${_outbox_control}/conffiles "/etc/outbox/outbox.ini.example\n")

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME outbox-console)
set(CPACK_PACKAGE_VENDOR "The Outbox Console developers")
set(CPACK_PACKAGE_CONTACT "${OUTBOX_MAINTAINER}")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_PACKAGE_DIRECTORY ${CMAKE_BINARY_DIR}/packages)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL ${OUTBOX_PACKAGE_COMPONENTS})
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${OUTBOX_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_SECTION admin)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS OFF)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_DEBIAN_COMPRESSION_TYPE xz)

set(CPACK_DEBIAN_OUTBOXCTL_PACKAGE_NAME outboxctl)
set(CPACK_COMPONENT_OUTBOXCTL_DESCRIPTION
    "transactional outbox relay, operations CLI and NOC server
outboxctl delivers the events that business transactions write into an
outbox table (PostgreSQL, MariaDB/MySQL or SQLite) to Kafka or RabbitMQ, with leases,
fencing, retries and dead letters. It also migrates the schema, browses
and repairs events with audited operator actions, runs the consumer side
(inbox, dead-letter replay, reconciliation) and serves a NOC dashboard, a
JSON API and Prometheus metrics. systemd units run the relay, the server
and a periodic doctor per configuration file in /etc/outbox.")
# Beyond the libraries dpkg-shlibdeps finds: the Qt SQL drivers (plugins), Chart.js for the
# dashboard, adduser for the system user where systemd-sysusers is missing, and rabbitmq-c (AMQP).
set(CPACK_DEBIAN_OUTBOXCTL_PACKAGE_DEPENDS "libqt6sql6-sqlite, libjs-chart.js, adduser, librabbitmq4, libpq5")
set(CPACK_DEBIAN_OUTBOXCTL_PACKAGE_RECOMMENDS "libqt6sql6-psql, libqt6sql6-mysql")
set(CPACK_DEBIAN_OUTBOXCTL_PACKAGE_CONTROL_EXTRA
    "${_outbox_control}/postinst;${_outbox_control}/prerm;${_outbox_control}/postrm;${_outbox_control}/conffiles")

set(CPACK_DEBIAN_CONSOLE_PACKAGE_NAME outbox-console)
set(CPACK_DEBIAN_CONSOLE_PACKAGE_SECTION utils)
set(CPACK_COMPONENT_CONSOLE_DESCRIPTION
    "desktop console for a transactional outbox
Outbox Console shows the live health of a transactional outbox (backlog,
throughput, failures, relays) and runs audited operator actions with a
preview: requeue, mark dead, dead-letter replay and discard. Its event
browser scrolls tables of millions of rows. PostgreSQL, MariaDB/MySQL and
SQLite.")
set(CPACK_COMPONENT_CONSOLE_DEPENDS outboxctl)
set(CPACK_DEBIAN_ENABLE_COMPONENT_DEPENDS ON)
# The Qt platform plugins and Qt's own catalogues (qtbase_zh_CN: dialog buttons, the file dialog)
# are loaded at run time, so dpkg-shlibdeps cannot see them.
set(CPACK_DEBIAN_CONSOLE_PACKAGE_DEPENDS "qt6-qpa-plugins, qt6-translations-l10n")

include(CPack)
