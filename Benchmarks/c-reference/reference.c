/*
 * The reference for `make bench`: the fastest plain-C libmicrohttpd server we know how to write
 * for the benchmark routes, TechEmpower's seven test types among them, with the same daemon flags
 * as Tessera (epoll, one thread per core, turbo) and the same response headers (Tessera's default
 * security headers, and the Server header TechEmpower requires), so both send the same bytes.
 * Anything built on libmicrohttpd can at best match it. Every route is a GET; anything else is a
 * 404, and a failed database read a 500, both with the same headers.
 *
 * - GET /plaintext: "Hello, World!", one response built once and reused.
 * - GET /json: {"message":"Hello, World!"}, serialized for every request (TechEmpower's rule).
 * - GET /db: one random row of the PostgreSQL table `world` (id 1...10000) as
 *   {"id":…,"randomNumber":…}, read with a statement prepared once per thread.
 * - GET /queries?queries=N: N random rows, one query each, as a JSON array. N is an integer;
 *   missing, empty, not a number or below 1 is 1, above 500 is 500 (TechEmpower's rule).
 * - GET /updates?queries=N: N rows read as /queries does, each given a new random randomNumber,
 *   written by ONE prepared UPDATE over two arrays, the ids sorted so that concurrent updates
 *   lock rows in the same order, a repeated id written once with its last value (which the answer
 *   shows too). The libpq baseline: reads one by one, the writes batched.
 * - GET /cached-queries?count=N: N random rows (same rule for N) from an in-memory copy of the
 *   10,000 `world` rows, loaded once per process on the first request (under a lock).
 * - GET /fortunes: the TechEmpower Fortunes page from the `fortune` table of the PostgreSQL
 *   database, by the TechEmpower rules: a statement prepared once per thread and executed per
 *   request, no ORDER BY, the rows plus one added at request time sorted here, escaped, in the
 *   page markup. The limit for libmicrohttpd plus libpq.
 * - GET /memory-fortunes: the same page from the 12 rows in memory: the limit for the markup.
 * - GET /sqlite-fortunes: the same page from the `fortune` table of the SQLite file FORTUNES_DB,
 *   a read-only connection and statement per thread, stepped per request. The limit for
 *   libmicrohttpd plus SQLite.
 *
 * PostgreSQL is the database at FORTUNES_POSTGRES (a libpq connection string or URL): one
 * connection per libmicrohttpd thread, with its statements prepared on it once; a broken one is
 * dropped and opened again on the next request. This server only reads the schema: the Tessera
 * bench app creates `world` (id integer PRIMARY KEY, randomnumber integer NOT NULL, 10,000 rows)
 * and `fortune`. Random numbers come from a per-thread xorshift generator, not rand() (a lock).
 *
 * Responses are queued on the second call of the access handler so that keep-alive works.
 *
 *   cc -O2 -Wall -o reference reference.c -lmicrohttpd -lsqlite3 -I/usr/include/postgresql -lpq
 *   PORT=8090 FORTUNES_DB=fortunes.sqlite FORTUNES_POSTGRES=postgres://… ./reference
 */
#include <libpq-fe.h>
#include <microhttpd.h>
#include <pthread.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static struct MHD_Response *plaintext;
static struct MHD_Response *not_found;
static struct MHD_Response *server_error;
static volatile sig_atomic_t stopping = 0;

static const char *security_headers[][2] = {
  {"Content-Security-Policy", "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"},
  {"X-Content-Type-Options", "nosniff"},
  {"Referrer-Policy", "strict-origin-when-cross-origin"},
  {"X-Frame-Options", "DENY"},
  {"Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=(), usb=()"},
};

/* The headers of every answer: its Content-Type (none for an empty one), Server, the security headers. */
static struct MHD_Response *with_headers(struct MHD_Response *response, const char *content_type) {
  if (content_type != NULL) MHD_add_response_header(response, "Content-Type", content_type);
  MHD_add_response_header(response, "Server", "C");
  for (size_t i = 0; i < sizeof security_headers / sizeof security_headers[0]; i++)
    MHD_add_response_header(response, security_headers[i][0], security_headers[i][1]);
  return response;
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

static void append_int(struct buffer *b, int value) {
  char digits[16];
  int length = snprintf(digits, sizeof digits, "%d", value);
  append(b, digits, (size_t)length);
}

/* The buffer as the body of an answer, which frees it. */
static struct MHD_Response *buffer_response(struct buffer *b, const char *content_type) {
  return with_headers(MHD_create_response_from_buffer_with_free_callback(b->length, b->data, free), content_type);
}

/* ---- Random numbers: xorshift64*, one state per thread, seeded on its first use. ---- */

static __thread uint64_t random_state;

static uint64_t next_random(void) {
  if (random_state == 0) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    random_state = ((uint64_t)now.tv_nsec << 20) ^ (uint64_t)now.tv_sec ^ (uint64_t)(uintptr_t)&random_state;
    if (random_state == 0) random_state = 0x9E3779B97F4A7C15ull;
  }
  random_state ^= random_state >> 12;
  random_state ^= random_state << 25;
  random_state ^= random_state >> 27;
  return random_state * 0x2545F4914F6CDD1Dull;
}

enum { world_rows = 10000, max_queries = 500 };

/* An id or a randomNumber: 1...10000. */
static int random_world_number(void) { return 1 + (int)((next_random() >> 32) % world_rows); }

/* ---- /plaintext's sibling: /json ---- */

static void append_json_string(struct buffer *b, const char *text) {
  append(b, "\"", 1);
  for (const char *p = text; *p; p++) {
    if (*p == '"' || *p == '\\') {
      char escaped[2] = {'\\', *p};
      append(b, escaped, 2);
    } else if ((unsigned char)*p < 0x20) {
      char escaped[8];
      append(b, escaped, (size_t)snprintf(escaped, sizeof escaped, "\\u%04x", *p));
    } else {
      append(b, p, 1);
    }
  }
  append(b, "\"", 1);
}

static struct MHD_Response *json_page(struct MHD_Connection *connection) {
  (void)connection;
  struct buffer json = {malloc(64), 0, 64};
  append(&json, "{\"message\":", 11);
  append_json_string(&json, "Hello, World!");
  append(&json, "}", 1);
  return buffer_response(&json, "application/json");
}

/* ---- Fortunes: the rows, however read, to the page ---- */

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
    append(&page, "<tr><td>", 8);
    append_int(&page, fortunes[i].id);
    append(&page, "</td><td>", 9);
    append_escaped(&page, fortunes[i].message);
    append(&page, "</td></tr>", 10);
  }
  static const char tail[] = "</table></body></html>";
  append(&page, tail, sizeof tail - 1);
  return buffer_response(&page, "text/html; charset=utf-8");
}

static struct MHD_Response *memory_fortunes_page(struct MHD_Connection *connection) {
  (void)connection;
  enum { count = sizeof stored_fortunes / sizeof stored_fortunes[0] + 1 };
  struct fortune fortunes[count];
  memcpy(fortunes, stored_fortunes, sizeof stored_fortunes);
  fortunes[count - 1] = added_fortune;
  return render_fortunes(fortunes, count);
}

/* ---- SQLite ---- */

static const char *database_path;
/* Each of libmicrohttpd's threads has its own connection and statement: no lock, no re-parse. */
static __thread sqlite3 *thread_database;
static __thread sqlite3_stmt *thread_select;

static struct MHD_Response *sqlite_fortunes_page(struct MHD_Connection *connection) {
  (void)connection;
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

/* ---- PostgreSQL ---- */

static const char *postgres_url;
/* As for SQLite: each thread its own connection, with the statements prepared on it once. */
static __thread PGconn *thread_postgres;

static const char *const statements[][2] = {
  {"fortunes", "SELECT id, message FROM fortune"},
  {"world", "SELECT id, randomnumber FROM world WHERE id = $1"},
  /* No SELECT in it: TechEmpower's verifier counts statements naming world and select as reads. */
  {"update", "UPDATE world SET randomnumber = new.randomnumber FROM unnest($1::integer[], $2::integer[]) AS new (id, randomnumber) "
             "WHERE world.id = new.id"},
};

/* The thread's connection, opened and prepared on first use; NULL when that fails. */
static PGconn *postgres(void) {
  if (thread_postgres != NULL || postgres_url == NULL) return thread_postgres;
  PGconn *connection = PQconnectdb(postgres_url);
  int failed = PQstatus(connection) != CONNECTION_OK;
  for (size_t i = 0; !failed && i < sizeof statements / sizeof statements[0]; i++) {
    PGresult *prepared = PQprepare(connection, statements[i][0], statements[i][1], 0, NULL);
    failed = PQresultStatus(prepared) != PGRES_COMMAND_OK;
    if (failed) fprintf(stderr, "prepare %s: %s", statements[i][0], PQerrorMessage(connection));
    PQclear(prepared);
  }
  if (failed) {
    PQfinish(connection);
    return NULL;
  }
  return thread_postgres = connection;
}

/* After a failed request: a broken connection is dropped, so that the next request opens a new one. */
static void drop_broken_postgres(void) {
  if (thread_postgres != NULL && PQstatus(thread_postgres) != CONNECTION_OK) {
    PQfinish(thread_postgres);
    thread_postgres = NULL;
  }
}

static struct MHD_Response *postgres_fortunes_page(struct MHD_Connection *connection) {
  (void)connection;
  PGconn *database = postgres();
  if (database == NULL) return NULL;
  PGresult *result = PQexecPrepared(database, "fortunes", 0, NULL, NULL, NULL, 0);
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

/* ---- world: /db, /queries, /updates, /cached-queries ---- */

struct world { int id, random_number; };

/* The query argument `name` by TechEmpower's rule: an integer, clamped to 1...500; 1 when it is
 * missing, empty or not a number. */
static int query_count(struct MHD_Connection *connection, const char *name) {
  const char *text = MHD_lookup_connection_value(connection, MHD_GET_ARGUMENT_KIND, name);
  if (text == NULL || *text == '\0') return 1;
  char *end;
  long count = strtol(text, &end, 10);
  if (*end != '\0' || count < 1) return 1;
  return count > max_queries ? max_queries : (int)count;
}

/* Row `id`, by the prepared statement: 0 when the query fails or finds no row. */
static int read_world(PGconn *database, int id, struct world *row) {
  char id_text[16];
  snprintf(id_text, sizeof id_text, "%d", id);
  const char *values[] = {id_text};
  PGresult *result = PQexecPrepared(database, "world", 1, values, NULL, NULL, 0);
  int found = PQresultStatus(result) == PGRES_TUPLES_OK && PQntuples(result) == 1;
  if (found) *row = (struct world){atoi(PQgetvalue(result, 0, 0)), atoi(PQgetvalue(result, 0, 1))};
  PQclear(result);
  return found;
}

/* `count` random rows, one query each. */
static int read_random_worlds(PGconn *database, struct world *rows, int count) {
  for (int i = 0; i < count; i++)
    if (!read_world(database, random_world_number(), &rows[i])) return 0;
  return 1;
}

static void append_world(struct buffer *b, struct world row) {
  append(b, "{\"id\":", 6);
  append_int(b, row.id);
  append(b, ",\"randomNumber\":", 16);
  append_int(b, row.random_number);
  append(b, "}", 1);
}

static struct MHD_Response *worlds_response(const struct world *rows, int count) {
  struct buffer json = {malloc(64 + 40 * (size_t)count), 0, 64 + 40 * (size_t)count};
  append(&json, "[", 1);
  for (int i = 0; i < count; i++) {
    if (i > 0) append(&json, ",", 1);
    append_world(&json, rows[i]);
  }
  append(&json, "]", 1);
  return buffer_response(&json, "application/json");
}

static struct MHD_Response *db_page(struct MHD_Connection *connection) {
  (void)connection;
  PGconn *database = postgres();
  struct world row;
  if (database == NULL || !read_world(database, random_world_number(), &row)) return NULL;
  struct buffer json = {malloc(64), 0, 64};
  append_world(&json, row);
  return buffer_response(&json, "application/json");
}

static struct MHD_Response *queries_page(struct MHD_Connection *connection) {
  int count = query_count(connection, "queries");
  PGconn *database = postgres();
  struct world rows[max_queries];
  if (database == NULL || !read_random_worlds(database, rows, count)) return NULL;
  return worlds_response(rows, count);
}

/* A row to write, and where it is in the answer: sorted by id, then by that place. */
struct pending_write { int id, random_number, index; };

static int by_id_then_index(const void *a, const void *b) {
  const struct pending_write *x = a, *y = b;
  if (x->id != y->id) return x->id < y->id ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index;
}

/* The rows' new numbers in one UPDATE: each id once, ascending, with its last value, which every
 * copy of the id in `rows` then shows. */
static int write_worlds(PGconn *database, struct world *rows, int count) {
  struct pending_write writes[max_queries];
  for (int i = 0; i < count; i++) writes[i] = (struct pending_write){rows[i].id, rows[i].random_number, i};
  qsort(writes, (size_t)count, sizeof writes[0], by_id_then_index);

  char ids[max_queries * 12 + 3], numbers[max_queries * 12 + 3];
  size_t ids_length = 0, numbers_length = 0;
  ids[ids_length++] = '{';
  numbers[numbers_length++] = '{';
  for (int first = 0, last; first < count; first = last + 1) {
    for (last = first; last + 1 < count && writes[last + 1].id == writes[first].id; last++) {}
    for (int i = first; i < last; i++) rows[writes[i].index].random_number = writes[last].random_number;
    const char *separator = first > 0 ? "," : "";
    ids_length += (size_t)snprintf(ids + ids_length, sizeof ids - ids_length, "%s%d", separator, writes[last].id);
    numbers_length += (size_t)snprintf(numbers + numbers_length, sizeof numbers - numbers_length, "%s%d",
                                       separator, writes[last].random_number);
  }
  memcpy(ids + ids_length, "}", 2);
  memcpy(numbers + numbers_length, "}", 2);

  const char *values[] = {ids, numbers};
  PGresult *result = PQexecPrepared(database, "update", 2, values, NULL, NULL, 0);
  int written = PQresultStatus(result) == PGRES_COMMAND_OK;
  if (!written) fprintf(stderr, "update: %s", PQerrorMessage(database));
  PQclear(result);
  return written;
}

static struct MHD_Response *updates_page(struct MHD_Connection *connection) {
  int count = query_count(connection, "queries");
  PGconn *database = postgres();
  struct world rows[max_queries];
  if (database == NULL || !read_random_worlds(database, rows, count)) return NULL;
  for (int i = 0; i < count; i++) rows[i].random_number = random_world_number();
  if (!write_worlds(database, rows, count)) return NULL;
  return worlds_response(rows, count);
}

/* The copy of `world` for /cached-queries: read once, by the first request that needs it, under
 * the lock; `cache_loaded` (set last, with release order) lets later requests skip the lock. */
static int cached_numbers[world_rows + 1];
static int cache_loaded;
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;

static int load_cache(void) {
  if (__atomic_load_n(&cache_loaded, __ATOMIC_ACQUIRE)) return 1;
  pthread_mutex_lock(&cache_lock);
  PGconn *database = cache_loaded ? NULL : postgres();
  if (database != NULL) {
    PGresult *result = PQexec(database, "SELECT id, randomnumber FROM world");
    if (PQresultStatus(result) == PGRES_TUPLES_OK) {
      for (int row = 0; row < PQntuples(result); row++) {
        int id = atoi(PQgetvalue(result, row, 0));
        if (id >= 1 && id <= world_rows) cached_numbers[id] = atoi(PQgetvalue(result, row, 1));
      }
      __atomic_store_n(&cache_loaded, 1, __ATOMIC_RELEASE);
    }
    PQclear(result);
  }
  int loaded = cache_loaded;
  pthread_mutex_unlock(&cache_lock);
  return loaded;
}

static struct MHD_Response *cached_queries_page(struct MHD_Connection *connection) {
  int count = query_count(connection, "count");
  if (!load_cache()) return NULL;
  struct world rows[max_queries];
  for (int i = 0; i < count; i++) {
    int id = random_world_number();
    rows[i] = (struct world){id, cached_numbers[id]};
  }
  return worlds_response(rows, count);
}

/* ---- Routing ---- */

/* A route's answer, built per request; NULL when its database failed (a 500). */
typedef struct MHD_Response *(*page)(struct MHD_Connection *connection);

static const struct { const char *path; page build; } routes[] = {
  {"/json", json_page},
  {"/db", db_page},
  {"/queries", queries_page},
  {"/updates", updates_page},
  {"/cached-queries", cached_queries_page},
  {"/fortunes", postgres_fortunes_page},
  {"/memory-fortunes", memory_fortunes_page},
  {"/sqlite-fortunes", sqlite_fortunes_page},
};

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
  for (size_t i = 0; i < sizeof routes / sizeof routes[0]; i++) {
    if (strcmp(url, routes[i].path) != 0) continue;
    struct MHD_Response *response = routes[i].build(connection);
    if (response == NULL) {
      drop_broken_postgres();
      return MHD_queue_response(connection, MHD_HTTP_INTERNAL_SERVER_ERROR, server_error);
    }
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
  plaintext = with_headers(MHD_create_response_from_buffer(strlen(body), (void *)body, MHD_RESPMEM_PERSISTENT),
                           "text/plain; charset=utf-8");
  not_found = with_headers(MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT), NULL);
  server_error = with_headers(MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT), NULL);

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
  MHD_destroy_response(server_error);
  return 0;
}
