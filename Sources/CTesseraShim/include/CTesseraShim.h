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

/// Opens the listening TCP socket that every daemon of a server shares: `host` (a numeric
/// IPv4/IPv6 address or a host name; NULL or empty means all IPv4 interfaces) and `port` (0
/// picks a free one), non-blocking. Returns the socket, with its port in `*bound_port` and
/// whether it is IPv6 in `*is_ipv6`; or -1 with a reason in `error`.
int tessera_listen(const char *host, uint16_t port, unsigned int backlog, uint16_t *bound_port, int *is_ipv6,
                   char *error, size_t error_len);

/// Everything `tessera_mhd_start` needs, gathered in one struct so Swift can fill it field by field.
typedef struct tessera_daemon_options {
  unsigned int flags;
  int listen_socket;                // from tessera_listen, shared by every daemon of a server
  int is_ipv6;
  unsigned int connection_limit;
  unsigned int per_ip_connection_limit;  // 0 means unlimited
  unsigned int connection_timeout_seconds;
  size_t connection_memory_limit;

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
  // What libmicrohttpd refuses by itself goes to this (patch 0007), with access_handler_cls.
  struct MHD_Response *(*error_page)(void *cls, struct MHD_Connection *connection, unsigned int status_code,
                                     const char *message);
} tessera_daemon_options;

/// A running daemon together with the logger context that must outlive it.
typedef struct tessera_daemon tessera_daemon;

/// Starts a daemon with no thread of its own, on the shared listening socket: the caller's
/// event loop waits on `tessera_mhd_epoll_fd` and calls `tessera_mhd_run`. On failure returns
/// NULL and writes a reason into `error` (may be NULL).
tessera_daemon *tessera_mhd_start(const tessera_daemon_options *options, char *error, size_t error_len);

/// The epoll instance the daemon watches its sockets with; readable when it has work.
int tessera_mhd_epoll_fd(tessera_daemon *daemon);

/// Does what the daemon's sockets and timeouts ask for, without blocking.
void tessera_mhd_run(tessera_daemon *daemon);

/// Milliseconds until the daemon must run for a connection's timeout, or -1 for none.
int tessera_mhd_timeout_ms(tessera_daemon *daemon);

/// Stops accepting new connections on the shared socket (it stays open); open ones go on.
void tessera_mhd_quiesce(tessera_daemon *daemon);

/// Stops the daemon (every connection must have been resumed) and frees the handle; the shared
/// listening socket is the caller's to close.
void tessera_mhd_stop(tessera_daemon *daemon);

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
