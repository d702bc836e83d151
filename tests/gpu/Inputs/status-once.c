// Calls the bias-exp kernel once and prints its status and the runtime's
// reason; exits with 1 if the call succeeded (the tests using it expect a
// failure).
#include "bias-exp.h"
#include "polyblocks/runtime.h"

#include <stdio.h>

int main(void) {
  int status = bias_exp(NULL, NULL, NULL, NULL);
  printf("status %d: %s\n", status, pbrtGetLastError());
  return status == PB_STATUS_SUCCESS;
}
