/*
 * The reference for `make bench`: the fastest plain-C libmicrohttpd server we know how to write
 * for GET /plaintext, with the same daemon flags as Tessera (epoll, one thread per core, turbo).
 * The response is built once and reused; it is queued on the second call of the access handler
 * so that keep-alive works. Anything built on libmicrohttpd can at best match it.
 *
 *   cc -O2 -o plaintext-reference plaintext.c -lmicrohttpd && PORT=8090 ./plaintext-reference
 */
#include <microhttpd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct MHD_Response *plaintext;
static struct MHD_Response *not_found;
static volatile sig_atomic_t stopping = 0;

static enum MHD_Result handle(void *cls, struct MHD_Connection *connection, const char *url, const char *method,
                              const char *version, const char *upload_data, size_t *upload_data_size, void **con_cls) {
  (void)cls; (void)method; (void)version; (void)upload_data;
  static int first_call_marker;
  if (*con_cls == NULL) {           /* first call: headers only; answer on the next one */
    *con_cls = &first_call_marker;
    return MHD_YES;
  }
  *upload_data_size = 0;
  if (strcmp(url, "/plaintext") == 0) return MHD_queue_response(connection, MHD_HTTP_OK, plaintext);
  return MHD_queue_response(connection, MHD_HTTP_NOT_FOUND, not_found);
}

static void on_signal(int signal) { (void)signal; stopping = 1; }

int main(void) {
  const char *port_text = getenv("PORT");
  unsigned short port = port_text ? (unsigned short)atoi(port_text) : 8090;
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  const char *threads_text = getenv("THREADS");
  unsigned int threads = threads_text ? (unsigned int)atoi(threads_text) : (unsigned int)(cores > 0 ? cores : 1);

  static const char body[] = "Hello, World!";
  plaintext = MHD_create_response_from_buffer(strlen(body), (void *)body, MHD_RESPMEM_PERSISTENT);
  MHD_add_response_header(plaintext, "Content-Type", "text/plain; charset=utf-8");
  not_found = MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT);

  struct MHD_Daemon *daemon = MHD_start_daemon(
      MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_TURBO | MHD_USE_ERROR_LOG, port, NULL, NULL,
      &handle, NULL,
      MHD_OPTION_THREAD_POOL_SIZE, threads,
      MHD_OPTION_CONNECTION_LIMIT, 4096u,
      MHD_OPTION_CONNECTION_TIMEOUT, 15u,
      MHD_OPTION_LISTEN_BACKLOG_SIZE, 1024u,
      MHD_OPTION_END);
  if (daemon == NULL) { fprintf(stderr, "could not start on port %u\n", port); return 1; }
  printf("listening on port %u with %u threads\n", port, threads);
  fflush(stdout);

  signal(SIGTERM, on_signal);
  signal(SIGINT, on_signal);
  while (!stopping) pause();
  MHD_stop_daemon(daemon);
  MHD_destroy_response(plaintext);
  MHD_destroy_response(not_found);
  return 0;
}
