#define _GNU_SOURCE
#include "CTesseraShim.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdint.h>
#include <netinet/in.h>
#include <netdb.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>
#include <sys/socket.h>

typedef struct {
  void (*callback)(void *cls, const char *message);
  void *cls;
} tessera_logger;

struct tessera_daemon {
  struct MHD_Daemon *mhd;
  tessera_logger logger;
};

// MHD may log from any of its threads, so the logger context is immutable after start.
static void tessera_log_trampoline(void *cls, const char *format, va_list args) {
  const tessera_logger *logger = cls;
  char message[1024];
  vsnprintf(message, sizeof message, format, args);
  size_t len = strlen(message);
  while (len > 0 && (message[len - 1] == '\n' || message[len - 1] == '\r')) {
    message[--len] = '\0';
  }
  logger->callback(logger->cls, message);
}

int tessera_listen(const char *host, uint16_t port, unsigned int backlog, uint16_t *bound_port, int *is_ipv6,
                   char *error, size_t error_len) {
  struct sockaddr_storage address;
  memset(&address, 0, sizeof address);
  socklen_t length = sizeof(struct sockaddr_in);
  const char *shown = (host != NULL && host[0] != '\0') ? host : "0.0.0.0";
  if (host != NULL && host[0] != '\0') {
    struct addrinfo hints, *found = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE;
    int rc = getaddrinfo(host, NULL, &hints, &found);
    if (rc != 0 || found == NULL) {
      if (error) snprintf(error, error_len, "cannot resolve host '%s': %s", host, gai_strerror(rc));
      return -1;
    }
    memcpy(&address, found->ai_addr, found->ai_addrlen);
    length = found->ai_addrlen;
    freeaddrinfo(found);
  } else {
    address.ss_family = AF_INET;
  }
  *is_ipv6 = address.ss_family == AF_INET6;
  if (*is_ipv6) {
    ((struct sockaddr_in6 *)&address)->sin6_port = htons(port);
  } else {
    ((struct sockaddr_in *)&address)->sin_port = htons(port);
  }

  int fd = socket(address.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    if (error) snprintf(error, error_len, "cannot open a socket: %s", strerror(errno));
    return -1;
  }
  // SO_REUSEADDR lets a server restart at once on its port; no SO_REUSEPORT, with which a
  // second server on a taken port would start and silently take part of its connections.
  int on = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
  if (*is_ipv6) setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &on, sizeof on);
  if (bind(fd, (struct sockaddr *)&address, length) != 0 || listen(fd, (int)backlog) != 0) {
    int reason = errno;
    if (error)
      snprintf(error, error_len, "could not listen on %s port %u (%s)", shown, (unsigned)port,
               reason == EADDRINUSE ? "port in use" : strerror(reason));
    close(fd);
    return -1;
  }
  struct sockaddr_storage bound;
  socklen_t bound_length = sizeof bound;
  getsockname(fd, (struct sockaddr *)&bound, &bound_length);
  *bound_port = ntohs(bound.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&bound)->sin6_port
                                                  : ((struct sockaddr_in *)&bound)->sin_port);
  return fd;
}

tessera_daemon *tessera_mhd_start(const tessera_daemon_options *o, char *error, size_t error_len) {
  tessera_daemon *handle = calloc(1, sizeof *handle);
  if (handle == NULL) {
    if (error) snprintf(error, error_len, "out of memory");
    return NULL;
  }
  handle->logger.callback = o->error_logger;
  handle->logger.cls = o->error_logger_cls;

  struct MHD_OptionItem items[16];
  int n = 0;
  // The logger goes first, so that libmicrohttpd's messages about the other options reach it.
  if (o->error_logger != NULL)
    items[n++] = (struct MHD_OptionItem){MHD_OPTION_EXTERNAL_LOGGER, (intptr_t)tessera_log_trampoline, &handle->logger};
  items[n++] = (struct MHD_OptionItem){MHD_OPTION_LISTEN_SOCKET, o->listen_socket, NULL};
  items[n++] = (struct MHD_OptionItem){MHD_OPTION_CONNECTION_LIMIT, o->connection_limit, NULL};
  if (o->per_ip_connection_limit > 0)
    items[n++] = (struct MHD_OptionItem){MHD_OPTION_PER_IP_CONNECTION_LIMIT, o->per_ip_connection_limit, NULL};
  items[n++] = (struct MHD_OptionItem){MHD_OPTION_CONNECTION_TIMEOUT, o->connection_timeout_seconds, NULL};
  items[n++] = (struct MHD_OptionItem){MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t)o->connection_memory_limit, NULL};
  items[n++] = (struct MHD_OptionItem){MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)o->request_completed, o->request_completed_cls};
  items[n++] = (struct MHD_OptionItem){MHD_OPTION_URI_LOG_CALLBACK, (intptr_t)o->uri_logger, o->uri_logger_cls};
  if (o->connection_notified != NULL)
    items[n++] = (struct MHD_OptionItem){MHD_OPTION_NOTIFY_CONNECTION, (intptr_t)o->connection_notified, o->connection_notified_cls};
  items[n++] = (struct MHD_OptionItem){MHD_OPTION_END, 0, NULL};

  // One function for every daemon of the process, set before the first starts.
  if (o->error_page != NULL) tessera_error_page = o->error_page;
  unsigned int flags = o->flags | (o->is_ipv6 ? MHD_USE_IPv6 : 0);
  handle->mhd = MHD_start_daemon(flags, 0, NULL, NULL, o->access_handler, o->access_handler_cls,
                                 MHD_OPTION_ARRAY, items, MHD_OPTION_END);
  if (handle->mhd == NULL) {
    if (error) snprintf(error, error_len, "libmicrohttpd could not start a daemon (a limit too high?)");
    free(handle);
    return NULL;
  }
  return handle;
}

int tessera_mhd_epoll_fd(tessera_daemon *daemon) {
  const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon->mhd, MHD_DAEMON_INFO_EPOLL_FD);
  return info ? info->epoll_fd : -1;
}

void tessera_mhd_run(tessera_daemon *daemon) {
  MHD_run(daemon->mhd);
}

int tessera_mhd_timeout_ms(tessera_daemon *daemon) {
  MHD_UNSIGNED_LONG_LONG timeout = 0;
  if (MHD_get_timeout(daemon->mhd, &timeout) != MHD_YES) return -1;
  return timeout > INT32_MAX ? INT32_MAX : (int)timeout;
}

void tessera_mhd_quiesce(tessera_daemon *daemon) {
  // The socket is shared by the server's daemons: the server closes it once all have let go.
  (void)MHD_quiesce_daemon(daemon->mhd);
}

void tessera_mhd_stop(tessera_daemon *daemon) {
  // Quiesced first (again, if it was): a daemon stopped without it closes the listening
  // socket, which the server's other daemons share and the server closes itself.
  (void)MHD_quiesce_daemon(daemon->mhd);
  MHD_stop_daemon(daemon->mhd);
  free(daemon);
}

unsigned int tessera_mhd_current_connections(tessera_daemon *daemon) {
  const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon->mhd, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
  return info ? info->num_connections : 0;
}

int tessera_mhd_client_address(struct MHD_Connection *connection, uint8_t bytes[16]) {
  const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
  if (info == NULL || info->client_addr == NULL) return 0;
  const struct sockaddr *sa = info->client_addr;
  if (sa->sa_family == AF_INET) {
    memcpy(bytes, &((const struct sockaddr_in *)sa)->sin_addr, 4);
    return 4;
  }
  if (sa->sa_family == AF_INET6) {
    memcpy(bytes, &((const struct sockaddr_in6 *)sa)->sin6_addr, 16);
    return 16;
  }
  return 0;
}

int tessera_mhd_connection_fd(struct MHD_Connection *connection) {
  const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
  return info ? info->connect_fd : -1;
}

void *tessera_mhd_socket_context(struct MHD_Connection *connection) {
  const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
  return info ? info->socket_context : NULL;
}

size_t tessera_mhd_header_size(struct MHD_Connection *connection) {
  const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
  return info ? info->header_size : 0;
}
