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

/* TLS 1.2 and 1.3 as gauged speaks them: no compression, no renegotiation. */
static inline void copenssl_ctx_disable_compression_and_renegotiation(SSL_CTX *context) {
  SSL_CTX_set_options(context, SSL_OP_NO_COMPRESSION | SSL_OP_NO_RENEGOTIATION);
}

/* The server's ALPN choice: h2 before http/1.1, whatever order the client
   lists them in; no overlap means no ALPN, and the server reads the first
   decrypted bytes to tell the protocols apart. In C because OpenSSL keeps
   the pointer it is given into the protocol list. */
static const unsigned char copenssl_server_alpn[] = "\x02h2\x08http/1.1";

static inline int copenssl_select_alpn(SSL *connection, const unsigned char **out,
                                       unsigned char *outlen, const unsigned char *in,
                                       unsigned int inlen, void *argument) {
  (void)connection;
  (void)argument;
  unsigned char *chosen = NULL;
  if (SSL_select_next_proto(&chosen, outlen, copenssl_server_alpn,
                            sizeof(copenssl_server_alpn) - 1, in, inlen)
      != OPENSSL_NPN_NEGOTIATED) {
    return SSL_TLSEXT_ERR_NOACK;
  }
  *out = chosen;
  return SSL_TLSEXT_ERR_OK;
}

static inline void copenssl_ctx_use_server_alpn(SSL_CTX *context) {
  SSL_CTX_set_alpn_select_cb(context, copenssl_select_alpn, NULL);
}

#endif
