#include "CTesseraTLS.h"

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <stdio.h>
#include <stdlib.h>

struct tessera_tls {
  SSL_CTX *context;
  SSL *connection;
};

/// OpenSSL's last error on this thread, else `fallback`, into `error`.
static void describe(const char *fallback, char *error, size_t error_len) {
  unsigned long code = ERR_peek_last_error();
  if (code != 0) {
    char reason[256];
    ERR_error_string_n(code, reason, sizeof reason);
    snprintf(error, error_len, "%s: %s", fallback, reason);
  } else {
    snprintf(error, error_len, "%s", fallback);
  }
  ERR_clear_error();
}

tessera_tls *tessera_tls_client(int fd, const char *host, const char *ca_file, char *error, size_t error_len) {
  ERR_clear_error();
  tessera_tls *tls = calloc(1, sizeof *tls);
  if (tls == NULL) {
    snprintf(error, error_len, "out of memory");
    return NULL;
  }
  tls->context = SSL_CTX_new(TLS_client_method());
  if (tls->context == NULL) {
    describe("OpenSSL could not make a TLS context", error, error_len);
    goto failed;
  }
  SSL_CTX_set_min_proto_version(tls->context, TLS1_2_VERSION);
  SSL_CTX_set_verify(tls->context, SSL_VERIFY_PEER, NULL);
  if (ca_file != NULL) {
    if (SSL_CTX_load_verify_locations(tls->context, ca_file, NULL) != 1) {
      char what[512];
      snprintf(what, sizeof what, "cannot read CA certificates from %s", ca_file);
      describe(what, error, error_len);
      goto failed;
    }
  } else if (SSL_CTX_set_default_verify_paths(tls->context) != 1) {
    describe("cannot read the system's CA certificates", error, error_len);
    goto failed;
  }
  tls->connection = SSL_new(tls->context);
  if (tls->connection == NULL || SSL_set_fd(tls->connection, fd) != 1) {
    describe("OpenSSL could not make a TLS connection", error, error_len);
    goto failed;
  }
  // An IP address is checked against the certificate's IP entries; a name against its DNS
  // entries, and sent as SNI.
  X509_VERIFY_PARAM *parameters = SSL_get0_param(tls->connection);
  if (X509_VERIFY_PARAM_set1_ip_asc(parameters, host) != 1) {
    ERR_clear_error();
    if (SSL_set1_host(tls->connection, host) != 1 || SSL_set_tlsext_host_name(tls->connection, host) != 1) {
      describe("cannot check the certificate against the host name", error, error_len);
      goto failed;
    }
  }
  SSL_set_connect_state(tls->connection);
  return tls;

failed:
  tessera_tls_free(tls);
  return NULL;
}

/// What SSL_get_error says of `result`, as this API's codes.
static int outcome(tessera_tls *tls, int result) {
  switch (SSL_get_error(tls->connection, result)) {
  case SSL_ERROR_WANT_READ:
    return TESSERA_TLS_WANT_READ;
  case SSL_ERROR_WANT_WRITE:
    return TESSERA_TLS_WANT_WRITE;
  case SSL_ERROR_ZERO_RETURN:
    return TESSERA_TLS_CLOSED;
  case SSL_ERROR_SYSCALL:
    return ERR_peek_error() == 0 ? TESSERA_TLS_CLOSED : TESSERA_TLS_FAILED;
  default:
    return TESSERA_TLS_FAILED;
  }
}

int tessera_tls_handshake(tessera_tls *tls, char *error, size_t error_len) {
  ERR_clear_error();
  int result = SSL_do_handshake(tls->connection);
  if (result == 1) return TESSERA_TLS_DONE;
  int status = outcome(tls, result);
  if (status == TESSERA_TLS_WANT_READ || status == TESSERA_TLS_WANT_WRITE) return status;
  long verified = SSL_get_verify_result(tls->connection);
  if (verified != X509_V_OK) {
    snprintf(error, error_len, "the server's certificate was refused: %s", X509_verify_cert_error_string(verified));
    ERR_clear_error();
  } else if (status == TESSERA_TLS_CLOSED) {
    snprintf(error, error_len, "the server closed the connection during the TLS handshake");
  } else {
    describe("the TLS handshake failed", error, error_len);
  }
  return TESSERA_TLS_FAILED;
}

long tessera_tls_read(tessera_tls *tls, void *buffer, size_t length) {
  ERR_clear_error();
  size_t count = 0;
  int result = SSL_read_ex(tls->connection, buffer, length, &count);
  return result == 1 ? (long)count : outcome(tls, result);
}

long tessera_tls_write(tessera_tls *tls, const void *buffer, size_t length) {
  ERR_clear_error();
  size_t count = 0;
  int result = SSL_write_ex(tls->connection, buffer, length, &count);
  if (result == 1) return (long)count;
  int status = outcome(tls, result);
  return status == TESSERA_TLS_CLOSED ? TESSERA_TLS_FAILED : status;
}

void tessera_tls_free(tessera_tls *tls) {
  if (tls == NULL) return;
  if (tls->connection != NULL) {
    if (SSL_is_init_finished(tls->connection)) SSL_shutdown(tls->connection);
    SSL_free(tls->connection);
  }
  if (tls->context != NULL) SSL_CTX_free(tls->context);
  ERR_clear_error();
  free(tls);
}

int tessera_tls_pending(void *openssl_connection) {
  return openssl_connection == NULL ? 0 : SSL_pending((SSL *)openssl_connection);
}
