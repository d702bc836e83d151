# Runs a command on every program of the end-to-end corpus and fails if it
# fails on any, naming each failure and its output:
#   sh for-each-program.sh CORPUS_DIR COMMAND ARGS...   (the program is appended)
# Programs marked "// Not for GPU targets: <why>" are skipped (the GPU targets
# reject them with an error that a test of their own checks).
# Prints "N programs, M failed".
dir=$1
shift
total=0
failed=0
for program in "$dir"/*.mlir; do
  if grep -q '^// Not for GPU targets:' "$program"; then
    continue
  fi
  total=$((total + 1))
  if ! output=$("$@" "$program" 2>&1); then
    failed=$((failed + 1))
    echo "FAILED: $* $program"
    echo "$output" | head -20
  fi
done
echo "$total programs, $failed failed"
test "$failed" -eq 0
