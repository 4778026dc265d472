#include <zlib.h>

// deflateInit2 is a macro; Swift needs a function.
static inline int czlib_deflate_init(z_stream *stream, int level, int windowBits) {
    return deflateInit2(stream, level, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY);
}

// inflateInit2 is a macro too.
static inline int czlib_inflate_init(z_stream *stream, int windowBits) {
    return inflateInit2(stream, windowBits);
}
