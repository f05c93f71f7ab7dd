#!/usr/bin/env bash
# The console's desktop entry (desktop-file-validate) and AppStream metainfo
# (appstreamcli validate, offline). Warnings are printed; errors fail.
# usage: validate-desktop.sh FILE.desktop FILE.metainfo.xml
set -euo pipefail
desktop-file-validate "$1"
echo "desktop-file-validate: $1 ok"
appstreamcli validate --no-net --explain "$2"
