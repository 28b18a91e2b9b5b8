// File-system calls that Glibc's Swift overlay hides behind _GNU_SOURCE.
#ifndef CMIRRORSHIMS_FS_H
#define CMIRRORSHIMS_FS_H

/// syncfs(2): flush every file of the file system holding `fd` (one call before a snapshot
/// is published, instead of one fsync per file).
int CMirrorShims_syncfs(int fd);

#endif
