// libcurl's setopt/getinfo functions are variadic, which Swift cannot call. These typed
// wrappers forward to them, one per argument type (as swift-corelibs-foundation does).
#ifndef CMIRRORSHIMS_CURL_H
#define CMIRRORSHIMS_CURL_H

#include <curl/curl.h>

typedef size_t (*CMirrorShims_curl_data_callback)(char *data, size_t size, size_t nitems, void *userdata);
typedef CURLcode (*CMirrorShims_curl_ssl_ctx_callback)(CURL *curl, void *ssl_ctx, void *userdata);

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
