// Umbrella header for libcurl (Debian: libcurl4-openssl-dev, the OpenSSL flavour).
#include <curl/curl.h>
