// RUN: pb-opt %s -split-input-file -verify-diagnostics -pb-lower-assertions
// RUN: not pb-opt %s -pb-lower-assertions=mode=sometimes 2>&1 | FileCheck %s --check-prefix=MODE

// Errors of pb-lower-assertions.

// Only entry points (with a status result) can report a failed check.
func.func private @check_outside_an_entry_point(%ok: i1) {
  // expected-error@+1 {{'cf.assert' op is in a function without a status result; pb-lower-assertions expects the public entry points of pb-return-status}}
  cf.assert %ok, "never reported"
  return
}

// MODE: error: unknown mode 'sometimes' of pb-lower-assertions (expected guard, drop or reject)
