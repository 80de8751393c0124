#ifndef CTESSERA_TLS_H
#define CTESSERA_TLS_H

#include <stddef.h>

/// A TLS client on a connected, non-blocking socket, through the system's OpenSSL (which libpq
/// links as well). Each call does what it can without blocking and says what it waits for.
typedef struct tessera_tls tessera_tls;

/// What a call waits for, or how it ended.
enum {
  TESSERA_TLS_DONE = 0,
  TESSERA_TLS_WANT_READ = -1,
  TESSERA_TLS_WANT_WRITE = -2,
  TESSERA_TLS_CLOSED = -3,
  TESSERA_TLS_FAILED = -4,
};

/// A client for `fd` that will verify the server's certificate against the CA certificates in
/// `ca_file` (the system's store when NULL) and check that it names `host` (a name or an IP
/// address), TLS 1.2 at least. NULL, with `error` filled, when it cannot be made.
tessera_tls *tessera_tls_client(int fd, const char *host, const char *ca_file, char *error, size_t error_len);

/// Advances the handshake: TESSERA_TLS_DONE, a TESSERA_TLS_WANT_*, or TESSERA_TLS_FAILED with
/// `error` filled (a certificate refused says why, as OpenSSL's verifier does).
int tessera_tls_handshake(tessera_tls *tls, char *error, size_t error_len);

/// Bytes read (> 0), or a TESSERA_TLS_WANT_*, TESSERA_TLS_CLOSED or TESSERA_TLS_FAILED.
long tessera_tls_read(tessera_tls *tls, void *buffer, size_t length);

/// Bytes written (> 0), or a TESSERA_TLS_WANT_* or TESSERA_TLS_FAILED.
long tessera_tls_write(tessera_tls *tls, const void *buffer, size_t length);

/// Sends close_notify when it can without waiting, and frees everything. The socket stays open.
void tessera_tls_free(tessera_tls *tls);

/// Decrypted bytes OpenSSL holds for the `SSL *` that libpq's `PQsslStruct(conn, "OpenSSL")`
/// returns: the socket will not be readable for them, so whoever waits on it must read them first.
int tessera_tls_pending(void *openssl_connection);

#endif
