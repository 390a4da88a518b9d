#include <stdio.h>
#include "qru.h"
int main(void) { printf("qru %s\n", qru_version()); return 0; }
