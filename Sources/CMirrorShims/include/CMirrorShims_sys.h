// C-library calls that Glibc's Swift overlay does not expose (they need _GNU_SOURCE), plus
// `stdout`/`stderr`, which Swift 6 rejects as mutable globals.
#ifndef CMIRRORSHIMS_SYS_H
#define CMIRRORSHIMS_SYS_H

#include <stdio.h>

FILE *CMirrorShims_stderr(void);
FILE *CMirrorShims_stdout(void);

#endif
