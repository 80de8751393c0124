/*
 * The reference for `make bench`: the fastest plain-C libmicrohttpd server we know how to write
 * for the benchmark routes, with the same daemon flags as Tessera (epoll, one thread per core,
 * turbo) and the same response headers (Tessera's default security headers), so both send the
 * same bytes. Anything built on libmicrohttpd can at best match it.
 *
 * - GET /plaintext: "Hello, World!", one response built once and reused.
 * - GET /fortunes: the TechEmpower Fortunes page, built for every request: the 12 stored rows
 *   plus one added at request time, sorted by message, escaped, in the page markup.
 * - GET /db-fortunes: the same page from the `fortune` table of the SQLite file FORTUNES_DB, read
 *   on every request by the TechEmpower rules: a statement prepared once per thread and stepped
 *   per request, no ORDER BY, the rows sorted here. The limit for libmicrohttpd plus SQLite.
 * - GET /pg-fortunes: the same page from the `fortune` table of the PostgreSQL database at
 *   FORTUNES_POSTGRES (a libpq connection string or URL), by the same rules: one connection and
 *   one prepared statement per thread, executed per request. The limit for libmicrohttpd plus
 *   libpq.
 *
 * Responses are queued on the second call of the access handler so that keep-alive works.
 *
 *   cc -O2 -o plaintext-reference plaintext.c -lmicrohttpd -lsqlite3 -I/usr/include/postgresql -lpq
 *   PORT=8090 FORTUNES_DB=fortunes.sqlite FORTUNES_POSTGRES=postgres://… ./plaintext-reference
 */
#include <libpq-fe.h>
#include <microhttpd.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct MHD_Response *plaintext;
static struct MHD_Response *not_found;
static volatile sig_atomic_t stopping = 0;

static const char *security_headers[][2] = {
  {"Content-Security-Policy", "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"},
  {"X-Content-Type-Options", "nosniff"},
  {"Referrer-Policy", "strict-origin-when-cross-origin"},
  {"X-Frame-Options", "DENY"},
};

static void add_security_headers(struct MHD_Response *response) {
  for (size_t i = 0; i < sizeof security_headers / sizeof security_headers[0]; i++)
    MHD_add_response_header(response, security_headers[i][0], security_headers[i][1]);
}

struct fortune { int id; const char *message; };

static const struct fortune stored_fortunes[] = {
  {1, "fortune: No such file or directory"},
  {2, "A computer scientist is someone who fixes things that aren't broken."},
  {3, "After enough decimal places, nobody gives a damn."},
  {4, "A bad random number generator: 1, 1, 1, 1, 1, 4.33e+67, 1, 1, 1"},
  {5, "A computer program does what you tell it to do, not what you want it to do."},
  {6, "Emacs is a nice operating system, but I prefer UNIX. \xe2\x80\x94 Tom Christaensen"},
  {7, "Any program that runs right is obsolete."},
  {8, "A list is only as strong as its weakest link. \xe2\x80\x94 Donald Knuth"},
  {9, "Feature: A bug with seniority."},
  {10, "Computers make very fast, very accurate mistakes."},
  {11, "<script>alert(\"This should not be displayed in a browser alert box.\");</script>"},
  {12, "\xe3\x83\x95\xe3\x83\xac\xe3\x83\xbc\xe3\x83\xa0\xe3\x83\xaf\xe3\x83\xbc\xe3\x82\xaf\xe3\x81\xae\xe3\x83\x99\xe3\x83\xb3\xe3\x83\x81\xe3\x83\x9e\xe3\x83\xbc\xe3\x82\xaf"},
};

static int by_message(const void *a, const void *b) {
  return strcmp(((const struct fortune *)a)->message, ((const struct fortune *)b)->message);
}

struct buffer { char *data; size_t length, capacity; };

static void append(struct buffer *b, const char *text, size_t length) {
  if (b->length + length > b->capacity) {
    b->capacity = (b->length + length) * 2;
    b->data = realloc(b->data, b->capacity);
  }
  memcpy(b->data + b->length, text, length);
  b->length += length;
}

static void append_escaped(struct buffer *b, const char *text) {
  for (const char *p = text; *p; p++) {
    switch (*p) {
      case '&': append(b, "&amp;", 5); break;
      case '<': append(b, "&lt;", 4); break;
      case '>': append(b, "&gt;", 4); break;
      case '"': append(b, "&quot;", 6); break;
      case '\'': append(b, "&#39;", 5); break;
      default: append(b, p, 1);
    }
  }
}

static const struct fortune added_fortune = {0, "Additional fortune added at request time."};

/* The page for `count` fortunes, sorted here. */
static struct MHD_Response *render_fortunes(struct fortune *fortunes, int count) {
  qsort(fortunes, (size_t)count, sizeof fortunes[0], by_message);

  struct buffer page = {malloc(2048), 0, 2048};
  static const char head[] = "<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table><tr><th>id</th><th>message</th></tr>";
  append(&page, head, sizeof head - 1);
  for (int i = 0; i < count; i++) {
    char id[16];
    int length = snprintf(id, sizeof id, "%d", fortunes[i].id);
    append(&page, "<tr><td>", 8);
    append(&page, id, (size_t)length);
    append(&page, "</td><td>", 9);
    append_escaped(&page, fortunes[i].message);
    append(&page, "</td></tr>", 10);
  }
  static const char tail[] = "</table></body></html>";
  append(&page, tail, sizeof tail - 1);

  struct MHD_Response *response = MHD_create_response_from_buffer_with_free_callback(page.length, page.data, free);
  MHD_add_response_header(response, "Content-Type", "text/html; charset=utf-8");
  add_security_headers(response);
  return response;
}

static struct MHD_Response *fortunes_page(void) {
  enum { count = sizeof stored_fortunes / sizeof stored_fortunes[0] + 1 };
  struct fortune fortunes[count];
  memcpy(fortunes, stored_fortunes, sizeof stored_fortunes);
  fortunes[count - 1] = added_fortune;
  return render_fortunes(fortunes, count);
}

static const char *database_path;
/* Each of libmicrohttpd's threads has its own connection and statement: no lock, no re-parse. */
static __thread sqlite3 *thread_database;
static __thread sqlite3_stmt *thread_select;

static struct MHD_Response *database_fortunes_page(void) {
  if (thread_select == NULL) {
    if (database_path == NULL
        || sqlite3_open_v2(database_path, &thread_database, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK
        || sqlite3_prepare_v3(thread_database, "SELECT id, message FROM fortune", -1, SQLITE_PREPARE_PERSISTENT, &thread_select, NULL) != SQLITE_OK)
      return NULL;
  }
  struct fortune fortunes[64];
  char *messages[64];
  int count = 0;
  while (count < 63 && sqlite3_step(thread_select) == SQLITE_ROW) {
    messages[count] = strdup((const char *)sqlite3_column_text(thread_select, 1));
    fortunes[count] = (struct fortune){sqlite3_column_int(thread_select, 0), messages[count]};
    count++;
  }
  sqlite3_reset(thread_select);
  fortunes[count] = added_fortune;
  struct MHD_Response *response = render_fortunes(fortunes, count + 1);
  for (int i = 0; i < count; i++) free(messages[i]);
  return response;
}

static const char *postgres_url;
/* As for SQLite: each thread its own connection, with the statement prepared on it once. */
static __thread PGconn *thread_postgres;

static struct MHD_Response *postgres_fortunes_page(void) {
  if (thread_postgres == NULL) {
    if (postgres_url == NULL) return NULL;
    thread_postgres = PQconnectdb(postgres_url);
    PGresult *prepared = PQprepare(thread_postgres, "fortunes", "SELECT id, message FROM fortune", 0, NULL);
    int failed = PQstatus(thread_postgres) != CONNECTION_OK || PQresultStatus(prepared) != PGRES_COMMAND_OK;
    PQclear(prepared);
    if (failed) {
      PQfinish(thread_postgres);
      thread_postgres = NULL;
      return NULL;
    }
  }
  PGresult *result = PQexecPrepared(thread_postgres, "fortunes", 0, NULL, NULL, NULL, 0);
  if (PQresultStatus(result) != PGRES_TUPLES_OK) {
    PQclear(result);
    return NULL;
  }
  struct fortune fortunes[64];
  int count = 0;
  for (int row = 0; row < PQntuples(result) && count < 63; row++, count++)
    fortunes[count] = (struct fortune){atoi(PQgetvalue(result, row, 0)), PQgetvalue(result, row, 1)};
  fortunes[count] = added_fortune;
  struct MHD_Response *response = render_fortunes(fortunes, count + 1);
  PQclear(result);
  return response;
}

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
  if (strcmp(url, "/fortunes") == 0 || strcmp(url, "/db-fortunes") == 0 || strcmp(url, "/pg-fortunes") == 0) {
    struct MHD_Response *response = url[1] == 'f' ? fortunes_page() : url[1] == 'd' ? database_fortunes_page() : postgres_fortunes_page();
    if (response == NULL) return MHD_queue_response(connection, MHD_HTTP_INTERNAL_SERVER_ERROR, not_found);
    enum MHD_Result result = MHD_queue_response(connection, MHD_HTTP_OK, response);
    MHD_destroy_response(response);
    return result;
  }
  return MHD_queue_response(connection, MHD_HTTP_NOT_FOUND, not_found);
}

static void on_signal(int signal) { (void)signal; stopping = 1; }

int main(void) {
  database_path = getenv("FORTUNES_DB");
  postgres_url = getenv("FORTUNES_POSTGRES");
  const char *port_text = getenv("PORT");
  unsigned short port = port_text ? (unsigned short)atoi(port_text) : 8090;
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  const char *threads_text = getenv("THREADS");
  unsigned int threads = threads_text ? (unsigned int)atoi(threads_text) : (unsigned int)(cores > 0 ? cores : 1);

  static const char body[] = "Hello, World!";
  plaintext = MHD_create_response_from_buffer(strlen(body), (void *)body, MHD_RESPMEM_PERSISTENT);
  MHD_add_response_header(plaintext, "Content-Type", "text/plain; charset=utf-8");
  add_security_headers(plaintext);
  not_found = MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT);

  unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_TURBO | MHD_USE_ERROR_LOG;
  struct MHD_Daemon *daemon = threads > 1
    ? MHD_start_daemon(flags, port, NULL, NULL, &handle, NULL,
                       MHD_OPTION_THREAD_POOL_SIZE, threads, MHD_OPTION_CONNECTION_LIMIT, 4096u,
                       MHD_OPTION_CONNECTION_TIMEOUT, 15u, MHD_OPTION_LISTEN_BACKLOG_SIZE, 1024u, MHD_OPTION_END)
    : MHD_start_daemon(flags, port, NULL, NULL, &handle, NULL,
                       MHD_OPTION_CONNECTION_LIMIT, 4096u,
                       MHD_OPTION_CONNECTION_TIMEOUT, 15u, MHD_OPTION_LISTEN_BACKLOG_SIZE, 1024u, MHD_OPTION_END);
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
