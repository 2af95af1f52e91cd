#ifndef GAUGED_COPENSSL_SHIM_H
#define GAUGED_COPENSSL_SHIM_H
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/pem.h>

/* OpenSSL spells several settings as function-like macros over SSL_CTX_ctrl,
   which Swift cannot import. Each wrapper below stands for one of them. */

static inline int copenssl_ctx_set_min_proto_version(SSL_CTX *context, int version) {
  return (int)SSL_CTX_set_min_proto_version(context, version);
}

static inline int copenssl_ctx_set_max_proto_version(SSL_CTX *context, int version) {
  return (int)SSL_CTX_set_max_proto_version(context, version);
}

static inline long copenssl_ctx_set_mode(SSL_CTX *context, long mode) {
  return SSL_CTX_set_mode(context, mode);
}

static inline int copenssl_set_tlsext_host_name(SSL *connection, const char *name) {
  return (int)SSL_set_tlsext_host_name(connection, name);
}

#endif
