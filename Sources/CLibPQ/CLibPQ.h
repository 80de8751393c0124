// libpq, the PostgreSQL project's own client (Debian's libpq-dev).
#include <libpq-fe.h>
