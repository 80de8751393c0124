#include <zlib.h>

/// deflateInit2 is a macro, which Swift cannot call; this is the same call as a function.
static inline int czlib_deflate_init_gzip(z_streamp stream, int level) {
    // 15 + 16: a 32 KiB window with a gzip header and trailer; memLevel 8 is zlib's default.
    return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}
