// Opening a library at run time (dlopen(3)) and looking its functions up, for the libraries
// that are not linked so that they load after `main` has started (issue #27): libcurl and
// libxml2 on a thread of their own while the program starts, Brotli's decoder, libdeflate and
// libp11 by the first call that needs them.
#ifndef CMIRRORSHIMS_DL_H
#define CMIRRORSHIMS_DL_H

#include <pthread.h>
#include <stddef.h>

/// What a library opened at run time keeps: its one load (pthread_once), whether it succeeded,
/// and why not.
typedef struct {
    pthread_once_t once;
    int loaded;
    char error[512];
} CMirrorShims_library_state;

#define CMIRRORSHIMS_LIBRARY_STATE_INIT { PTHREAD_ONCE_INIT, 0, "" }

/// dlopen(3) `library` (RTLD_LAZY | RTLD_LOCAL) and look up `count` symbols into `table`: 0, or
/// -1 with the reason in `error` (a library that cannot be opened, or a missing symbol) and
/// every entry of `table` NULL.
int CMirrorShims_library_open(const char *library, void **table, const char *const *names, int count, char *error, size_t size);

#endif
