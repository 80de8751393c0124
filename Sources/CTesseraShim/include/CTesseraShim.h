// A thin C layer over the parts of libmicrohttpd that Swift cannot call directly:
// variadic functions (MHD_start_daemon, MHD_get_*_info) and the va_list logger.
#ifndef TESSERA_SHIM_H
#define TESSERA_SHIM_H

#include <microhttpd.h>

#ifndef TESSERA_MHD_PATCHES
#error "This is the system's unpatched libmicrohttpd. Run `make deps`, then build through make, or export PKG_CONFIG_PATH=$PWD/.build-deps/libmicrohttpd/lib/pkgconfig (see README)."
#endif
#include <stddef.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <stdint.h>

/// The content reader's end markers; the MHD macros are casts, which Swift does not import.
#define TESSERA_READER_END_OF_STREAM (-1)
#define TESSERA_READER_END_WITH_ERROR (-2)

/// Everything `tessera_mhd_start` needs, gathered in one struct so Swift can fill it field by field.
typedef struct tessera_daemon_options {
  unsigned int flags;
  const char *host;                 // numeric IPv4/IPv6 address or host name; NULL means all IPv4 interfaces
  uint16_t port;                    // 0 picks a free port
  unsigned int thread_pool_size;
  unsigned int connection_limit;
  unsigned int per_ip_connection_limit;  // 0 means unlimited
  unsigned int connection_timeout_seconds;
  size_t connection_memory_limit;
  unsigned int listen_backlog;

  MHD_AccessHandlerCallback access_handler;
  void *access_handler_cls;
  MHD_RequestCompletedCallback request_completed;
  void *request_completed_cls;
  void *(*uri_logger)(void *cls, const char *uri, struct MHD_Connection *connection);
  void *uri_logger_cls;
  void (*error_logger)(void *cls, const char *message);
  void *error_logger_cls;
  MHD_NotifyConnectionCallback connection_notified;
  void *connection_notified_cls;
} tessera_daemon_options;

/// A running daemon together with the logger context that must outlive it.
typedef struct tessera_daemon tessera_daemon;

/// Starts a daemon. On failure returns NULL and writes a reason into `error` (may be NULL).
tessera_daemon *tessera_mhd_start(const tessera_daemon_options *options, char *error, size_t error_len);

/// Stops accepting new connections and closes the listening socket; open connections go on.
void tessera_mhd_quiesce(tessera_daemon *daemon);

/// Stops the daemon (every connection must have been resumed) and frees the handle.
void tessera_mhd_stop(tessera_daemon *daemon);

/// The port the daemon is bound to (useful when it was asked for port 0).
uint16_t tessera_mhd_bound_port(tessera_daemon *daemon);

/// Number of open connections, idle keep-alive ones included.
unsigned int tessera_mhd_current_connections(tessera_daemon *daemon);

/// Copies the client's address into `bytes` (4 bytes for IPv4, 16 for IPv6) and returns how
/// many were written, or 0 when the address is not IP. Formatting is left to the caller, to be
/// done only when someone reads it.
int tessera_mhd_client_address(struct MHD_Connection *connection, uint8_t bytes[16]);

/// The connection's socket, or -1.
int tessera_mhd_connection_fd(struct MHD_Connection *connection);

/// The size of the current request's head (request line, headers, line ends), or 0.
size_t tessera_mhd_header_size(struct MHD_Connection *connection);

/// The pointer the connection-notify callback stored for this connection, or NULL.
void *tessera_mhd_socket_context(struct MHD_Connection *connection);

/// Returns the allocator's free pages to the system (glibc's malloc_trim); nothing elsewhere.
static inline void tessera_release_free_memory(void) {
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}

#endif
