#include <zlib.h>

/// deflateInit2 is a macro, which Swift cannot call; this is the same call as a function, for a
/// gzip stream (a header and trailer around the deflate data) with the given window and memory.
static inline int czlib_deflate_init_gzip(z_streamp stream, int level, int windowBits, int memLevel) {
    return deflateInit2(stream, level, Z_DEFLATED, windowBits + 16, memLevel, Z_DEFAULT_STRATEGY);
}
