#include "CMirrorShims_curl.h"
#include "CMirrorShims_dl.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

// libcurl is opened with dlopen(3), not linked: Debian's libcurl4 brings 30 libraries
// (GnuTLS, Kerberos, LDAP, librtmp …) whose loading and constructors took 4.8 ms of every
// run's start before `main`. CMirrorShims_curl_preload() opens it on a thread of its own
// while the program reads its identity; every call below waits for that (pthread_once), so no
// call can reach libcurl before curl_global_init(3) has run (issue #27). RTLD_LOCAL: its
// symbols stay its own; the libssl it uses is the process's, already loaded. RTLD_LAZY: the
// 30 libraries' function references are bound at their first call instead of all at once,
// which took the load from 6–9 ms to 5–6 ms on its thread; a missing symbol among the 22
// below is still found here, by dlsym(3).

#define CMIRRORSHIMS_CURL_LIBRARY "libcurl.so.4"

static struct {
    __typeof__(curl_global_init) *global_init;
    __typeof__(curl_easy_init) *easy_init;
    __typeof__(curl_easy_cleanup) *easy_cleanup;
    __typeof__(curl_easy_reset) *easy_reset;
    __typeof__(curl_easy_strerror) *easy_strerror;
    __typeof__(curl_easy_setopt) *easy_setopt;
    __typeof__(curl_easy_getinfo) *easy_getinfo;
    __typeof__(curl_multi_init) *multi_init;
    __typeof__(curl_multi_cleanup) *multi_cleanup;
    __typeof__(curl_multi_add_handle) *multi_add_handle;
    __typeof__(curl_multi_remove_handle) *multi_remove_handle;
    __typeof__(curl_multi_perform) *multi_perform;
    __typeof__(curl_multi_poll) *multi_poll;
    __typeof__(curl_multi_wakeup) *multi_wakeup;
    __typeof__(curl_multi_info_read) *multi_info_read;
    __typeof__(curl_multi_strerror) *multi_strerror;
    __typeof__(curl_multi_setopt) *multi_setopt;
    __typeof__(curl_share_init) *share_init;
    __typeof__(curl_share_cleanup) *share_cleanup;
    __typeof__(curl_share_setopt) *share_setopt;
    __typeof__(curl_slist_append) *slist_append;
    __typeof__(curl_slist_free_all) *slist_free_all;
} api;

static CMirrorShims_library_state state = CMIRRORSHIMS_LIBRARY_STATE_INIT;

static void load(void) {
    static const char *const names[] = {
        "curl_global_init", "curl_easy_init", "curl_easy_cleanup", "curl_easy_reset", "curl_easy_strerror",
        "curl_easy_setopt", "curl_easy_getinfo", "curl_multi_init", "curl_multi_cleanup", "curl_multi_add_handle",
        "curl_multi_remove_handle", "curl_multi_perform", "curl_multi_poll", "curl_multi_wakeup", "curl_multi_info_read",
        "curl_multi_strerror", "curl_multi_setopt", "curl_share_init", "curl_share_cleanup", "curl_share_setopt",
        "curl_slist_append", "curl_slist_free_all",
    };
    _Static_assert(sizeof(api) == sizeof(names) / sizeof(names[0]) * sizeof(void *), "one name per entry");
    int count = (int)(sizeof(names) / sizeof(names[0]));
    if (CMirrorShims_library_open(CMIRRORSHIMS_CURL_LIBRARY, (void **)&api, names, count, state.error, sizeof(state.error)) != 0) return;
    CURLcode code = api.global_init(CURL_GLOBAL_ALL);
    if (code != CURLE_OK) {
        snprintf(state.error, sizeof(state.error), "curl_global_init failed: %s", api.easy_strerror(code));
        return;
    }
    state.loaded = 1;
}

static int ready(void) {
    pthread_once(&state.once, load);
    return state.loaded;
}

static void *preload(void *next) {
    ready();
    if (next != NULL) ((void (*)(void))next)();
    return NULL;
}

void CMirrorShims_curl_preload(void) { CMirrorShims_curl_preload_then(NULL); }

void CMirrorShims_curl_preload_then(void (*next)(void)) {
    static atomic_flag started = ATOMIC_FLAG_INIT;
    if (atomic_flag_test_and_set(&started)) return;
    pthread_t thread;
    pthread_attr_t attributes;
    if (pthread_attr_init(&attributes) != 0) return;
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    // On failure the first call loads libcurl instead (and `next`'s library its own way).
    (void)pthread_create(&thread, &attributes, preload, (void *)next);
    pthread_attr_destroy(&attributes);
}

int CMirrorShims_curl_load(void) { return ready() ? 0 : -1; }

const char *CMirrorShims_curl_load_error(void) { return ready() ? NULL : state.error; }

const char *CMirrorShims_curl_library_name(void) { return CMIRRORSHIMS_CURL_LIBRARY; }

CURL *CMirrorShims_curl_easy_init(void) { return ready() ? api.easy_init() : NULL; }
void CMirrorShims_curl_easy_cleanup(CURL *curl) { if (ready()) api.easy_cleanup(curl); }
void CMirrorShims_curl_easy_reset(CURL *curl) { if (ready()) api.easy_reset(curl); }
const char *CMirrorShims_curl_easy_strerror(CURLcode code) { return ready() ? api.easy_strerror(code) : state.error; }

CURLM *CMirrorShims_curl_multi_init(void) { return ready() ? api.multi_init() : NULL; }
CURLMcode CMirrorShims_curl_multi_cleanup(CURLM *multi) { return ready() ? api.multi_cleanup(multi) : CURLM_INTERNAL_ERROR; }
CURLMcode CMirrorShims_curl_multi_add_handle(CURLM *multi, CURL *curl) { return ready() ? api.multi_add_handle(multi, curl) : CURLM_INTERNAL_ERROR; }
CURLMcode CMirrorShims_curl_multi_remove_handle(CURLM *multi, CURL *curl) { return ready() ? api.multi_remove_handle(multi, curl) : CURLM_INTERNAL_ERROR; }
CURLMcode CMirrorShims_curl_multi_perform(CURLM *multi, int *running) { return ready() ? api.multi_perform(multi, running) : CURLM_INTERNAL_ERROR; }
CURLMcode CMirrorShims_curl_multi_poll(CURLM *multi, struct curl_waitfd extra[], unsigned int count, int timeout, int *ready_count) {
    return ready() ? api.multi_poll(multi, extra, count, timeout, ready_count) : CURLM_INTERNAL_ERROR;
}
CURLMcode CMirrorShims_curl_multi_wakeup(CURLM *multi) { return ready() ? api.multi_wakeup(multi) : CURLM_INTERNAL_ERROR; }
CURLMsg *CMirrorShims_curl_multi_info_read(CURLM *multi, int *left) { return ready() ? api.multi_info_read(multi, left) : NULL; }
const char *CMirrorShims_curl_multi_strerror(CURLMcode code) { return ready() ? api.multi_strerror(code) : state.error; }

CURLSH *CMirrorShims_curl_share_init(void) { return ready() ? api.share_init() : NULL; }
CURLSHcode CMirrorShims_curl_share_cleanup(CURLSH *share) { return ready() ? api.share_cleanup(share) : CURLSHE_NOT_BUILT_IN; }

struct curl_slist *CMirrorShims_curl_slist_append(struct curl_slist *list, const char *text) { return ready() ? api.slist_append(list, text) : NULL; }
void CMirrorShims_curl_slist_free_all(struct curl_slist *list) { if (ready()) api.slist_free_all(list); }

#define SETOPT(curl, option, value) (ready() ? api.easy_setopt((curl), (option), (value)) : CURLE_FAILED_INIT)
#define GETINFO(curl, info, value) (ready() ? api.easy_getinfo((curl), (info), (value)) : CURLE_FAILED_INIT)

CURLcode CMirrorShims_curl_easy_setopt_long(CURL *curl, CURLoption option, long value) { return SETOPT(curl, option, value); }
CURLcode CMirrorShims_curl_easy_setopt_off(CURL *curl, CURLoption option, curl_off_t value) { return SETOPT(curl, option, value); }
CURLcode CMirrorShims_curl_easy_setopt_ptr(CURL *curl, CURLoption option, const void *value) { return SETOPT(curl, option, value); }
CURLcode CMirrorShims_curl_easy_setopt_string(CURL *curl, CURLoption option, const char *value) { return SETOPT(curl, option, value); }
CURLcode CMirrorShims_curl_easy_setopt_data_callback(CURL *curl, CURLoption option, CMirrorShims_curl_data_callback cb) { return SETOPT(curl, option, cb); }
CURLcode CMirrorShims_curl_easy_setopt_ssl_ctx_callback(CURL *curl, CMirrorShims_curl_ssl_ctx_callback cb) { return SETOPT(curl, CURLOPT_SSL_CTX_FUNCTION, cb); }
CURLcode CMirrorShims_curl_easy_setopt_prereq_callback(CURL *curl, curl_prereq_callback cb) { return SETOPT(curl, CURLOPT_PREREQFUNCTION, cb); }
CURLcode CMirrorShims_curl_easy_setopt_debug_callback(CURL *curl, curl_debug_callback cb) { return SETOPT(curl, CURLOPT_DEBUGFUNCTION, cb); }

CURLcode CMirrorShims_curl_easy_getinfo_long(CURL *curl, CURLINFO info, long *value) { return GETINFO(curl, info, value); }
CURLcode CMirrorShims_curl_easy_getinfo_off(CURL *curl, CURLINFO info, curl_off_t *value) { return GETINFO(curl, info, value); }
CURLcode CMirrorShims_curl_easy_getinfo_double(CURL *curl, CURLINFO info, double *value) { return GETINFO(curl, info, value); }
CURLcode CMirrorShims_curl_easy_getinfo_string(CURL *curl, CURLINFO info, const char **value) { return GETINFO(curl, info, value); }
CURLcode CMirrorShims_curl_easy_getinfo_ptr(CURL *curl, CURLINFO info, void **value) { return GETINFO(curl, info, value); }
CURLcode CMirrorShims_curl_easy_getinfo_tls_session(CURL *curl, struct curl_tlssessioninfo **value) { return GETINFO(curl, CURLINFO_TLS_SSL_PTR, value); }

CURLMcode CMirrorShims_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return ready() ? api.multi_setopt(multi, option, value) : CURLM_INTERNAL_ERROR;
}
CURLSHcode CMirrorShims_curl_share_setopt_long(CURLSH *share, CURLSHoption option, long value) {
    return ready() ? api.share_setopt(share, option, value) : CURLSHE_NOT_BUILT_IN;
}

CURLcode CMirrorShims_curl_msg_result(const CURLMsg *msg) { return msg->data.result; }
