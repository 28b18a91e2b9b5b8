// File-system calls that Glibc's Swift overlay hides behind _GNU_SOURCE.
#ifndef CMIRRORSHIMS_FS_H
#define CMIRRORSHIMS_FS_H

/// syncfs(2): flush every file of the file system holding `fd` (one call before a snapshot
/// is published, instead of one fsync per file).
int CMirrorShims_syncfs(int fd);

/// sync_file_range(2) with SYNC_FILE_RANGE_WRITE: start writing a range of a file out without
/// waiting (a WARC file being written, so that the snapshot's syncfs and the file's own fsync
/// find little left to write).
int CMirrorShims_sync_file_range_write(int fd, long long offset, long long count);

/// open(2) with O_TMPFILE | O_WRONLY | O_CLOEXEC: an unnamed file in the folder `directory`,
/// given a name later with linkat(2) (O_TMPFILE is a macro Swift does not import).
int CMirrorShims_open_tmpfile(const char *directory, unsigned int mode);

/// linkat(2) of the open file `fd` itself to `path` (AT_EMPTY_PATH, a macro Swift does not
/// import). Recent kernels allow it for a file the caller opened (Linux 6.18, unprivileged);
/// older ones need CAP_DAC_READ_SEARCH and fail with ENOENT without it.
int CMirrorShims_link_descriptor(int fd, const char *path);

/// ioctl(2) FS_IOC_GETFLAGS and FS_IOC_SETFLAGS: an open file's inode flags (chattr(1)'s
/// letters; the request macros are not imported by Swift). -1 with errno (ENOTTY,
/// EOPNOTSUPP) where the file system keeps no such flags.
int CMirrorShims_get_inode_flags(int fd, int *flags);
int CMirrorShims_set_inode_flags(int fd, int flags);

/// FS_TOPDIR_FL, chattr's `T`: the folders made in this one are tops of unrelated trees, which
/// ext2/3/4's Orlov allocator spreads over the disk.
int CMirrorShims_topdir_flag(void);

#endif
