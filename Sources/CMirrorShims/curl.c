#include "CMirrorShims_curl.h"

CURLcode CMirrorShims_curl_easy_setopt_long(CURL *curl, CURLoption option, long value) { return curl_easy_setopt(curl, option, value); }
CURLcode CMirrorShims_curl_easy_setopt_off(CURL *curl, CURLoption option, curl_off_t value) { return curl_easy_setopt(curl, option, value); }
CURLcode CMirrorShims_curl_easy_setopt_ptr(CURL *curl, CURLoption option, const void *value) { return curl_easy_setopt(curl, option, value); }
CURLcode CMirrorShims_curl_easy_setopt_string(CURL *curl, CURLoption option, const char *value) { return curl_easy_setopt(curl, option, value); }
CURLcode CMirrorShims_curl_easy_setopt_data_callback(CURL *curl, CURLoption option, CMirrorShims_curl_data_callback cb) { return curl_easy_setopt(curl, option, cb); }
CURLcode CMirrorShims_curl_easy_setopt_ssl_ctx_callback(CURL *curl, CMirrorShims_curl_ssl_ctx_callback cb) { return curl_easy_setopt(curl, CURLOPT_SSL_CTX_FUNCTION, cb); }
CURLcode CMirrorShims_curl_easy_setopt_prereq_callback(CURL *curl, curl_prereq_callback cb) { return curl_easy_setopt(curl, CURLOPT_PREREQFUNCTION, cb); }
CURLcode CMirrorShims_curl_easy_setopt_debug_callback(CURL *curl, curl_debug_callback cb) { return curl_easy_setopt(curl, CURLOPT_DEBUGFUNCTION, cb); }

CURLcode CMirrorShims_curl_easy_getinfo_long(CURL *curl, CURLINFO info, long *value) { return curl_easy_getinfo(curl, info, value); }
CURLcode CMirrorShims_curl_easy_getinfo_off(CURL *curl, CURLINFO info, curl_off_t *value) { return curl_easy_getinfo(curl, info, value); }
CURLcode CMirrorShims_curl_easy_getinfo_double(CURL *curl, CURLINFO info, double *value) { return curl_easy_getinfo(curl, info, value); }
CURLcode CMirrorShims_curl_easy_getinfo_string(CURL *curl, CURLINFO info, const char **value) { return curl_easy_getinfo(curl, info, value); }
CURLcode CMirrorShims_curl_easy_getinfo_ptr(CURL *curl, CURLINFO info, void **value) { return curl_easy_getinfo(curl, info, value); }
CURLcode CMirrorShims_curl_easy_getinfo_tls_session(CURL *curl, struct curl_tlssessioninfo **value) { return curl_easy_getinfo(curl, CURLINFO_TLS_SSL_PTR, value); }

CURLMcode CMirrorShims_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) { return curl_multi_setopt(multi, option, value); }
CURLSHcode CMirrorShims_curl_share_setopt_long(CURLSH *share, CURLSHoption option, long value) { return curl_share_setopt(share, option, value); }

CURLcode CMirrorShims_curl_msg_result(const CURLMsg *msg) { return msg->data.result; }
