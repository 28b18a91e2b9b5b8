#define _GNU_SOURCE
#include "CMirrorShims_sys.h"
#include <pthread.h>

#ifdef __linux__
#include <sys/socket.h>
#include <sys/eventfd.h>
#include <sys/sendfile.h>
#include <unistd.h>
#include <spawn.h>
#include <malloc.h>
#include <sched.h>
#endif

int CMirrorShims_set_thread_name(const char *name) {
#ifdef __APPLE__
    return pthread_setname_np(name);
#else
    return pthread_setname_np(pthread_self(), name);
#endif
}
int CMirrorShims_thread_name(char *buffer, size_t length) { return pthread_getname_np(pthread_self(), buffer, length); }

#ifdef __linux__
int CMirrorShims_set_mmap_threshold(int bytes) { return mallopt(M_MMAP_THRESHOLD, bytes); }
int CMirrorShims_malloc_trim(void) { return malloc_trim(0); }
size_t CMirrorShims_malloc_free_bytes(void) { return mallinfo2().fordblks; }
int CMirrorShims_epoll_create1(int flags) { return epoll_create1(flags); }
int CMirrorShims_epoll_ctl(int epfd, int op, int fd, struct epoll_event *event) { return epoll_ctl(epfd, op, fd, event); }
int CMirrorShims_epoll_wait(int epfd, struct epoll_event *events, int maxevents, int timeout) {
    return epoll_wait(epfd, events, maxevents, timeout);
}
uint32_t CMirrorShims_EPOLLIN(void) { return EPOLLIN; }
uint32_t CMirrorShims_EPOLLOUT(void) { return EPOLLOUT; }
uint32_t CMirrorShims_EPOLLERR(void) { return EPOLLERR; }
uint32_t CMirrorShims_EPOLLHUP(void) { return EPOLLHUP; }
int CMirrorShims_accept4(int fd, struct sockaddr *addr, socklen_t *len, int flags) { return accept4(fd, addr, len, flags); }
int CMirrorShims_eventfd(unsigned int initval, int flags) { return eventfd(initval, flags); }
int CMirrorShims_EFD_NONBLOCK(void) { return EFD_NONBLOCK; }
int CMirrorShims_EFD_CLOEXEC(void) { return EFD_CLOEXEC; }
ssize_t CMirrorShims_sendfile(int out_fd, int in_fd, off_t *offset, size_t count) { return sendfile(out_fd, in_fd, offset, count); }
pid_t CMirrorShims_gettid(void) { return gettid(); }
#endif

#ifdef __linux__
int CMirrorShims_posix_spawn_file_actions_addclosefrom(void *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np((posix_spawn_file_actions_t *)actions, from);
}
#endif

#ifdef __linux__
int CMirrorShims_affinity_count(void) {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof(set), &set) != 0) return -1;
    return CPU_COUNT(&set);
}
#endif
