// The SHA-256 and RSA/EC key wrappers below call functions OpenSSL 3 marks deprecated.
#define OPENSSL_SUPPRESS_DEPRECATED
#include "CMirrorShims_openssl.h"
#include <openssl/ec.h>
#include <openssl/rsa.h>

int CMirrorShims_sk_X509_num(const STACK_OF(X509) *stack) { return sk_X509_num(stack); }
X509 *CMirrorShims_sk_X509_value(const STACK_OF(X509) *stack, int index) { return sk_X509_value(stack, index); }
STACK_OF(X509) *CMirrorShims_sk_X509_new_null(void) { return sk_X509_new_null(); }
int CMirrorShims_sk_X509_push(STACK_OF(X509) *stack, X509 *cert) { return sk_X509_push(stack, cert); }
void CMirrorShims_sk_X509_pop_free(STACK_OF(X509) *stack) { sk_X509_pop_free(stack, X509_free); }

int CMirrorShims_sk_GENERAL_NAME_num(const GENERAL_NAMES *names) { return sk_GENERAL_NAME_num(names); }
GENERAL_NAME *CMirrorShims_sk_GENERAL_NAME_value(const GENERAL_NAMES *names, int index) { return sk_GENERAL_NAME_value(names, index); }
void CMirrorShims_GENERAL_NAMES_free(GENERAL_NAMES *names) { GENERAL_NAMES_free(names); }

long CMirrorShims_SSL_CTX_add1_chain_cert(SSL_CTX *ctx, X509 *cert) { return SSL_CTX_add1_chain_cert(ctx, cert); }
long CMirrorShims_SSL_CTX_set_tlsext_status_type(SSL_CTX *ctx, int type) { return SSL_CTX_set_tlsext_status_type(ctx, type); }
long CMirrorShims_SSL_get_tlsext_status_ocsp_resp(SSL *ssl, const unsigned char **resp) { return SSL_get_tlsext_status_ocsp_resp(ssl, resp); }
int CMirrorShims_SSL_CTX_get_ex_new_index(CRYPTO_EX_free *free_func) { return SSL_CTX_get_ex_new_index(0, NULL, NULL, NULL, free_func); }

unsigned long CMirrorShims_XN_FLAG_RFC2253(void) { return XN_FLAG_RFC2253; }

void CMirrorShims_OPENSSL_free(void *ptr) { OPENSSL_free(ptr); }
long CMirrorShims_BIO_get_mem_data(BIO *bio, char **data) { return BIO_get_mem_data(bio, data); }

int CMirrorShims_SHA256_Init(SHA256_CTX *context) { return SHA256_Init(context); }
int CMirrorShims_SHA256_Update(SHA256_CTX *context, const void *data, size_t length) { return SHA256_Update(context, data, length); }
int CMirrorShims_SHA256_Final(unsigned char *digest, SHA256_CTX *context) { return SHA256_Final(digest, context); }

int CMirrorShims_sk_PKCS7_num(const STACK_OF(PKCS7) *stack) { return sk_PKCS7_num(stack); }
PKCS7 *CMirrorShims_sk_PKCS7_value(const STACK_OF(PKCS7) *stack, int index) { return sk_PKCS7_value(stack, index); }
void CMirrorShims_sk_PKCS7_pop_free(STACK_OF(PKCS7) *stack) { sk_PKCS7_pop_free(stack, PKCS7_free); }
int CMirrorShims_sk_PKCS12_SAFEBAG_num(const STACK_OF(PKCS12_SAFEBAG) *stack) { return sk_PKCS12_SAFEBAG_num(stack); }
PKCS12_SAFEBAG *CMirrorShims_sk_PKCS12_SAFEBAG_value(const STACK_OF(PKCS12_SAFEBAG) *stack, int index) { return sk_PKCS12_SAFEBAG_value(stack, index); }
void CMirrorShims_sk_PKCS12_SAFEBAG_pop_free(STACK_OF(PKCS12_SAFEBAG) *stack) { sk_PKCS12_SAFEBAG_pop_free(stack, PKCS12_SAFEBAG_free); }

RSA *CMirrorShims_d2i_RSAPrivateKey(const unsigned char **input, long length) { return d2i_RSAPrivateKey(NULL, input, length); }
void CMirrorShims_RSA_free(RSA *key) { RSA_free(key); }
EC_KEY *CMirrorShims_EC_KEY_new_by_curve_name(int nid) { return EC_KEY_new_by_curve_name(nid); }
EC_KEY *CMirrorShims_d2i_ECPrivateKey(EC_KEY **key, const unsigned char **input, long length) { return d2i_ECPrivateKey(key, input, length); }
void CMirrorShims_EC_KEY_free(EC_KEY *key) { EC_KEY_free(key); }
int CMirrorShims_EVP_PKEY_assign(EVP_PKEY *pkey, int type, void *key) { return EVP_PKEY_assign(pkey, type, key); }
