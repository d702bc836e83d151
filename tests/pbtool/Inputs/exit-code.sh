# Runs the command given as arguments, then prints "exit code: N" with its
# exit status on standard output, and itself always succeeds, so that a lit
# test can FileCheck the exact exit code of pbtool next to its diagnostics:
#   RUN: sh %S/Inputs/exit-code.sh %pbtool ... 2>&1 | FileCheck %s
#   CHECK: exit code: 2
"$@"
echo "exit code: $?"
