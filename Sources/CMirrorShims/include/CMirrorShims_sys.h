// C-library calls that Glibc's Swift overlay does not expose (they need _GNU_SOURCE).
#ifndef CMIRRORSHIMS_SYS_H
#define CMIRRORSHIMS_SYS_H

#include <stdio.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef __linux__
#include <sys/epoll.h>
#include <sys/socket.h>
#endif

// pthread_setname_np/pthread_getname_np (GNU extensions; another signature on macOS) for the
// calling thread. Names are at most 15 bytes on Linux.
int CMirrorShims_set_thread_name(const char *name);
int CMirrorShims_thread_name(char *buffer, size_t length);

#ifdef __linux__
// glibc's <malloc.h>, which Swift's Glibc module does not export: mallopt(M_MMAP_THRESHOLD,
// bytes) and malloc_trim(0). Both return what glibc returns (1 on success / memory released).
int CMirrorShims_set_mmap_threshold(int bytes);
int CMirrorShims_malloc_trim(void);
// mallinfo2().fordblks: the bytes of free chunks the arenas hold, all arenas together.
size_t CMirrorShims_malloc_free_bytes(void);
// epoll(7): declared by <sys/epoll.h> only with _GNU_SOURCE under Swift's Glibc module.
int CMirrorShims_epoll_create1(int flags);
int CMirrorShims_epoll_ctl(int epfd, int op, int fd, struct epoll_event *event);
int CMirrorShims_epoll_wait(int epfd, struct epoll_event *events, int maxevents, int timeout);
// The EPOLL* flags are enum constants tied to macros; these return them as plain integers.
uint32_t CMirrorShims_EPOLLIN(void);
uint32_t CMirrorShims_EPOLLOUT(void);
uint32_t CMirrorShims_EPOLLERR(void);
uint32_t CMirrorShims_EPOLLHUP(void);
// accept4(2) needs _GNU_SOURCE; it sets SOCK_NONBLOCK | SOCK_CLOEXEC atomically.
int CMirrorShims_accept4(int fd, struct sockaddr *addr, socklen_t *len, int flags);
// eventfd(2) lives in <sys/eventfd.h>, which the Glibc module does not include.
int CMirrorShims_eventfd(unsigned int initval, int flags);
int CMirrorShims_EFD_NONBLOCK(void);
int CMirrorShims_EFD_CLOEXEC(void);
// gettid(2) needs _GNU_SOURCE: the calling thread's id, for a per-thread setpriority(2) (the
// archive's writer runs at a lower priority than the crawl it records).
pid_t CMirrorShims_gettid(void);
// sendfile(2) lives in <sys/sendfile.h>, which the Glibc module does not include.
ssize_t CMirrorShims_sendfile(int out_fd, int in_fd, off_t *offset, size_t count);
// posix_spawn_file_actions_addclosefrom_np (glibc 2.34) needs _GNU_SOURCE: the render mode's
// browser must inherit no descriptor of ours but its DevTools pipe.
int CMirrorShims_posix_spawn_file_actions_addclosefrom(void *actions, int from);
// sched_getaffinity(2) and CPU_COUNT need _GNU_SOURCE: the CPUs this process may run on, or -1.
int CMirrorShims_affinity_count(void);
#endif

#endif
