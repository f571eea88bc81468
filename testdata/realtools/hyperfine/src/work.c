/* The command hyperfine times in perfpages' agreement suite (see
 * ../../README.md): `work N` runs N steps of a 64-bit LCG and prints the
 * result, so that no compiler folds the loop away. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: work N\n");
    return 2;
  }
  int64_t n = strtoll(argv[1], NULL, 10);
  uint64_t x = 1;
  for (int64_t i = 0; i < n; i++) x = x * 6364136223846793005ULL + (uint64_t)i;
  printf("%llu\n", (unsigned long long)x);
  return 0;
}
