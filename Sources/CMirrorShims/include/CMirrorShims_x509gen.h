// Certificate generation for `mtls-mirror demo` (MirrorTLS/Generate). OpenSSL 3 generates EC
// keys through the variadic EVP_PKEY_Q_keygen, reached by the EVP_EC_gen macro; Swift can call
// neither, so one wrapper forwards to the macro.
#ifndef CMIRRORSHIMS_X509GEN_H
#define CMIRRORSHIMS_X509GEN_H

#include <openssl/evp.h>
#include <openssl/ec.h>

/// EVP_EC_gen(curve): a new EC key on the named curve ("P-256"), or NULL. Exists because the
/// macro expands to the variadic EVP_PKEY_Q_keygen.
EVP_PKEY *CMirrorShims_EVP_EC_gen(const char *curve);

#endif
