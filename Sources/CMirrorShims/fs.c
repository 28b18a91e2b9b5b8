#define _GNU_SOURCE
#include <unistd.h>
#include "CMirrorShims_fs.h"

int CMirrorShims_syncfs(int fd) { return syncfs(fd); }
