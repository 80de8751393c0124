#ifndef CTESSERA_IMAGES_H
#define CTESSERA_IMAGES_H

#include <stddef.h>

// libvips through calls Swift can make: its own API takes optional arguments as C varargs.
// Each returns 0, or -1 with libvips's message copied into `error`.

/// Starts libvips once per process: no operation cache, one worker thread per operation.
int tessera_images_start(void);

/// Reads only the header of the image at `path` (or, when `path` is NULL, of the `buffer_size`
/// bytes at `buffer`): its size and libvips's loader for it.
int tessera_image_probe(const char *path, const void *buffer, size_t buffer_size, int *width, int *height,
                        char *loader, size_t loader_size, char *error, size_t error_size);

/// Decodes the image at `path` (or in `buffer`, as for the probe) (failing on a truncated file), turns it upright, shrinks it to at
/// most `width` pixels wide, and encodes it as JPEG (`format` 0) or WebP (1) at `quality`, with
/// every piece of metadata (EXIF, GPS, XMP, ICC) left out. `*out` is freed with
/// `tessera_image_free`.
int tessera_image_variant(const char *path, const void *buffer, size_t buffer_size, int width, int format, int quality,
                          void **out, size_t *out_size, int *out_width, int *out_height, char *error, size_t error_size);

/// Encodes `width` × `height` pixels of 8-bit RGB, row after row, as JPEG (`format` 0) or WebP
/// (1) at `quality`. `*out` is freed with `tessera_image_free`.
int tessera_image_encode_rgb(const void *pixels, int width, int height, int format, int quality,
                             void **out, size_t *out_size, char *error, size_t error_size);

void tessera_image_free(void *bytes);

#endif
