#define _GNU_SOURCE
#include "CMirrorShims_sys.h"

FILE *CMirrorShims_stderr(void) { return stderr; }
FILE *CMirrorShims_stdout(void) { return stdout; }
