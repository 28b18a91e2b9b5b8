// Umbrella header for OpenSSL 3 (Debian: libssl-dev).
#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/pem.h>
#include <openssl/pkcs12.h>
#include <openssl/provider.h>
#include <openssl/ocsp.h>
#include <openssl/bio.h>
#include <openssl/sha.h>
#include <openssl/rand.h>
