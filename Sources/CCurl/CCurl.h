// Umbrella header for libcurl (Debian: libcurl4-openssl-dev, the OpenSSL flavour): its types
// and constants. The library itself is not linked: CMirrorShims opens it at run time and is
// the only way to call it (CMirrorShims_curl.h).
#include <curl/curl.h>
