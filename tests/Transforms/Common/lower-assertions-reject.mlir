// RUN: pb-opt %s -verify-diagnostics -pb-lower-assertions=mode=reject

// With mode=reject (GPU targets) every check is an error.
func.func @check_on_gpu(%ok: i1) -> i32 {
  %c0 = arith.constant 0 : i32
  // expected-error@+1 {{'cf.assert' op (a run-time check) is not supported for GPU targets: compile with --drop-assertions to run without the checks}}
  cf.assert %ok, "checked"
  return %c0 : i32
}
