// libcurl, opened at run time (dlopen(3)) instead of linked, so that its 30 libraries load on
// a thread of their own while the program starts (issue #27). Swift calls libcurl only through
// these functions; each waits until libcurl is open and curl_global_init(3) has run. The
// setopt/getinfo functions are variadic, which Swift cannot call: typed wrappers forward to
// them, one per argument type (as swift-corelibs-foundation does).
#ifndef CMIRRORSHIMS_CURL_H
#define CMIRRORSHIMS_CURL_H

#include <curl/curl.h>

typedef size_t (*CMirrorShims_curl_data_callback)(char *data, size_t size, size_t nitems, void *userdata);
typedef CURLcode (*CMirrorShims_curl_ssl_ctx_callback)(CURL *curl, void *ssl_ctx, void *userdata);

/// Starts opening libcurl on a detached thread; returns at once.
void CMirrorShims_curl_preload(void);
/// The same, then calls `next` on that thread (another library to open there, after libcurl);
/// nothing, and `next` is not called, when the load has started already.
void CMirrorShims_curl_preload_then(void (*next)(void));
/// Opens libcurl (once) and initialises it: 0, or -1 when it cannot be (see
/// CMirrorShims_curl_load_error).
int CMirrorShims_curl_load(void);
/// Why libcurl could not be opened or initialised; NULL when it was.
const char *CMirrorShims_curl_load_error(void);
/// The file name opened: "libcurl.so.4" (Debian's libcurl4, the OpenSSL flavour).
const char *CMirrorShims_curl_library_name(void);

CURL *CMirrorShims_curl_easy_init(void);
void CMirrorShims_curl_easy_cleanup(CURL *curl);
void CMirrorShims_curl_easy_reset(CURL *curl);
const char *CMirrorShims_curl_easy_strerror(CURLcode code);
CURLM *CMirrorShims_curl_multi_init(void);
CURLMcode CMirrorShims_curl_multi_cleanup(CURLM *multi);
CURLMcode CMirrorShims_curl_multi_add_handle(CURLM *multi, CURL *curl);
CURLMcode CMirrorShims_curl_multi_remove_handle(CURLM *multi, CURL *curl);
CURLMcode CMirrorShims_curl_multi_perform(CURLM *multi, int *running);
CURLMcode CMirrorShims_curl_multi_poll(CURLM *multi, struct curl_waitfd extra[], unsigned int count, int timeout, int *ready_count);
CURLMcode CMirrorShims_curl_multi_wakeup(CURLM *multi);
CURLMsg *CMirrorShims_curl_multi_info_read(CURLM *multi, int *left);
const char *CMirrorShims_curl_multi_strerror(CURLMcode code);
CURLSH *CMirrorShims_curl_share_init(void);
CURLSHcode CMirrorShims_curl_share_cleanup(CURLSH *share);
struct curl_slist *CMirrorShims_curl_slist_append(struct curl_slist *list, const char *text);
void CMirrorShims_curl_slist_free_all(struct curl_slist *list);

CURLcode CMirrorShims_curl_easy_setopt_long(CURL *curl, CURLoption option, long value);
CURLcode CMirrorShims_curl_easy_setopt_off(CURL *curl, CURLoption option, curl_off_t value);
CURLcode CMirrorShims_curl_easy_setopt_ptr(CURL *curl, CURLoption option, const void *value);
CURLcode CMirrorShims_curl_easy_setopt_string(CURL *curl, CURLoption option, const char *value);
CURLcode CMirrorShims_curl_easy_setopt_data_callback(CURL *curl, CURLoption option, CMirrorShims_curl_data_callback cb);
CURLcode CMirrorShims_curl_easy_setopt_ssl_ctx_callback(CURL *curl, CMirrorShims_curl_ssl_ctx_callback cb);
CURLcode CMirrorShims_curl_easy_setopt_prereq_callback(CURL *curl, curl_prereq_callback cb);
/// CURLOPT_DEBUGFUNCTION: how an archive capture sees the request header block as sent.
CURLcode CMirrorShims_curl_easy_setopt_debug_callback(CURL *curl, curl_debug_callback cb);

CURLcode CMirrorShims_curl_easy_getinfo_long(CURL *curl, CURLINFO info, long *value);
CURLcode CMirrorShims_curl_easy_getinfo_off(CURL *curl, CURLINFO info, curl_off_t *value);
CURLcode CMirrorShims_curl_easy_getinfo_double(CURL *curl, CURLINFO info, double *value);
CURLcode CMirrorShims_curl_easy_getinfo_string(CURL *curl, CURLINFO info, const char **value);
CURLcode CMirrorShims_curl_easy_getinfo_ptr(CURL *curl, CURLINFO info, void **value);
/// CURLINFO_TLS_SSL_PTR fills a struct curl_tlssessioninfo pointer.
CURLcode CMirrorShims_curl_easy_getinfo_tls_session(CURL *curl, struct curl_tlssessioninfo **value);

CURLMcode CMirrorShims_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value);
CURLSHcode CMirrorShims_curl_share_setopt_long(CURLSH *share, CURLSHoption option, long value);

/// CURLMsg.data is a union; read its CURLcode member.
CURLcode CMirrorShims_curl_msg_result(const CURLMsg *msg);

#endif
