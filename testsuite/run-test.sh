#!/bin/sh
# Automake's log compiler for .c tests: programs under diag/ are
# diagnostic tests, under multidev/ tests of several devices, the others
# end-to-end tests.
case $1 in
  */diag/*) exec "$(dirname "$0")/run-diag.sh" "$1" ;;
  */multidev/*) exec "$(dirname "$0")/run-multidev.sh" "$1" ;;
  *) exec "$(dirname "$0")/run-e2e.sh" "$1" ;;
esac
