#define _GNU_SOURCE
#include <fcntl.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <linux/fs.h>
#include "CMirrorShims_fs.h"

int CMirrorShims_syncfs(int fd) { return syncfs(fd); }
int CMirrorShims_sync_file_range_write(int fd, long long offset, long long count) {
    return sync_file_range(fd, offset, count, SYNC_FILE_RANGE_WRITE);
}
int CMirrorShims_open_tmpfile(const char *directory, unsigned int mode) {
    return open(directory, O_TMPFILE | O_WRONLY | O_CLOEXEC, (mode_t)mode);
}
int CMirrorShims_link_descriptor(int fd, const char *path) {
    return linkat(fd, "", AT_FDCWD, path, AT_EMPTY_PATH);
}
int CMirrorShims_get_inode_flags(int fd, int *flags) { return ioctl(fd, FS_IOC_GETFLAGS, flags); }
int CMirrorShims_set_inode_flags(int fd, int flags) { return ioctl(fd, FS_IOC_SETFLAGS, &flags); }
int CMirrorShims_topdir_flag(void) { return FS_TOPDIR_FL; }
