// OpenSSL 3 exposes many calls as function-like macros (stacks, ctrl wrappers, ex_data
// indexes, OPENSSL_free), which Swift cannot import. Each wrapper forwards to one macro.
#ifndef CMIRRORSHIMS_OPENSSL_H
#define CMIRRORSHIMS_OPENSSL_H

#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/ocsp.h>
#include <openssl/sha.h>
#include <openssl/pkcs12.h>

// Stacks of X509
int CMirrorShims_sk_X509_num(const STACK_OF(X509) *stack);
X509 *CMirrorShims_sk_X509_value(const STACK_OF(X509) *stack, int index);
STACK_OF(X509) *CMirrorShims_sk_X509_new_null(void);
int CMirrorShims_sk_X509_push(STACK_OF(X509) *stack, X509 *cert);
void CMirrorShims_sk_X509_pop_free(STACK_OF(X509) *stack);

// Subject alternative names
int CMirrorShims_sk_GENERAL_NAME_num(const GENERAL_NAMES *names);
GENERAL_NAME *CMirrorShims_sk_GENERAL_NAME_value(const GENERAL_NAMES *names, int index);
void CMirrorShims_GENERAL_NAMES_free(GENERAL_NAMES *names);

// SSL_CTX ctrl macros
long CMirrorShims_SSL_CTX_add1_chain_cert(SSL_CTX *ctx, X509 *cert);
long CMirrorShims_SSL_CTX_set_tlsext_status_type(SSL_CTX *ctx, int type);
long CMirrorShims_SSL_get_tlsext_status_ocsp_resp(SSL *ssl, const unsigned char **resp);
int CMirrorShims_SSL_CTX_get_ex_new_index(CRYPTO_EX_free *free_func);

// Name printing: XN_FLAG_RFC2253 is an OR of nested macros that Swift does not import.
unsigned long CMirrorShims_XN_FLAG_RFC2253(void);

// Memory
void CMirrorShims_OPENSSL_free(void *ptr);
long CMirrorShims_BIO_get_mem_data(BIO *bio, char **data);

// SHA-256's streaming calls, which OpenSSL 3 deprecates for EVP's. EVP copies a context with an
// allocation and a provider call, and PBKDF2 restarts HMAC from a saved context twice per
// round (MirrorTLS.PBKDF2). Each wrapper forwards to one call.
int CMirrorShims_SHA256_Init(SHA256_CTX *context);
int CMirrorShims_SHA256_Update(SHA256_CTX *context, const void *data, size_t length);
int CMirrorShims_SHA256_Final(unsigned char *digest, SHA256_CTX *context);

// Stacks of a PKCS#12 file's content infos and safe bags.
int CMirrorShims_sk_PKCS7_num(const STACK_OF(PKCS7) *stack);
PKCS7 *CMirrorShims_sk_PKCS7_value(const STACK_OF(PKCS7) *stack, int index);
void CMirrorShims_sk_PKCS7_pop_free(STACK_OF(PKCS7) *stack);
int CMirrorShims_sk_PKCS12_SAFEBAG_num(const STACK_OF(PKCS12_SAFEBAG) *stack);
PKCS12_SAFEBAG *CMirrorShims_sk_PKCS12_SAFEBAG_value(const STACK_OF(PKCS12_SAFEBAG) *stack, int index);
void CMirrorShims_sk_PKCS12_SAFEBAG_pop_free(STACK_OF(PKCS12_SAFEBAG) *stack);

// RSA and EC private keys read by their own DER decoders, which OpenSSL 3 deprecates for its
// decoder framework. Building a decoder context for a PKCS#8 key took 0.7-1.6 ms a key on
// this project's VM, on the way to a run's first connection (MirrorTLS.PrivateKeyDecoder);
// these take 0.03 ms. Each wrapper forwards to one call.
RSA *CMirrorShims_d2i_RSAPrivateKey(const unsigned char **input, long length);
void CMirrorShims_RSA_free(RSA *key);
EC_KEY *CMirrorShims_EC_KEY_new_by_curve_name(int nid);
EC_KEY *CMirrorShims_d2i_ECPrivateKey(EC_KEY **key, const unsigned char **input, long length);
void CMirrorShims_EC_KEY_free(EC_KEY *key);
int CMirrorShims_EVP_PKEY_assign(EVP_PKEY *pkey, int type, void *key);

#endif
