#include "CTesseraImages.h"

#include <pthread.h>
#include <stdio.h>
#include <vips/vips.h>

static pthread_once_t started_once = PTHREAD_ONCE_INIT;
static int started = -1;

static void start(void) {
    started = VIPS_INIT("tessera");
    if (started == 0) {
        vips_cache_set_max(0);
        vips_concurrency_set(1);
        // The starting thread is whichever first asked (a task's, on the global executor): it
        // keeps nothing of libvips's, or its exit, whenever the executor retires it, would free
        // (and allocate, in glib) long after.
        vips_thread_shutdown();
    }
}

int tessera_images_start(void) {
    pthread_once(&started_once, start);
    return started;
}

static int failed(char *error, size_t error_size) {
    // Copied and cleared in one locked step: the buffer is the process's, shared by every thread.
    char *message = vips_error_buffer_copy();
    if (error && error_size) snprintf(error, error_size, "%s", message ? message : "");
    g_free(message);
    return -1;
}

// The image at `path`, or else in `buffer`, read in one pass; `fail_on_truncated` refuses a cut file.
static VipsImage *open_image(const char *path, const void *buffer, size_t buffer_size, int fail_on_truncated) {
    if (path) {
        return fail_on_truncated
            ? vips_image_new_from_file(path, "access", VIPS_ACCESS_SEQUENTIAL, "fail_on", VIPS_FAIL_ON_TRUNCATED, NULL)
            : vips_image_new_from_file(path, "access", VIPS_ACCESS_SEQUENTIAL, NULL);
    }
    return fail_on_truncated
        ? vips_image_new_from_buffer(buffer, buffer_size, "", "access", VIPS_ACCESS_SEQUENTIAL, "fail_on", VIPS_FAIL_ON_TRUNCATED, NULL)
        : vips_image_new_from_buffer(buffer, buffer_size, "", "access", VIPS_ACCESS_SEQUENTIAL, NULL);
}

int tessera_image_probe(const char *path, const void *buffer, size_t buffer_size, int *width, int *height,
                        char *loader, size_t loader_size, char *error, size_t error_size) {
    const char *name = path ? vips_foreign_find_load(path) : vips_foreign_find_load_buffer(buffer, buffer_size);
    if (!name) return failed(error, error_size);
    snprintf(loader, loader_size, "%s", name);
    VipsImage *image = open_image(path, buffer, buffer_size, 0);
    if (!image) return failed(error, error_size);
    *width = vips_image_get_width(image);
    *height = vips_image_get_height(image);
    g_object_unref(image);
    return 0;
}

int tessera_image_variant(const char *path, const void *buffer, size_t buffer_size, int width, int format, int quality,
                          void **out, size_t *out_size, int *out_width, int *out_height, char *error, size_t error_size) {
    VipsImage *image = open_image(path, buffer, buffer_size, 1);
    if (!image) return failed(error, error_size);
    VipsImage *shrunk = NULL;
    // `width` wide whatever the height (a portrait photo too), never enlarged, in sRGB: a photo
    // in Display P3 or Adobe RGB keeps its colours once its profile is gone. An 8-bit RGB or grey
    // image with no profile is sRGB already: converting it from sRGB to sRGB through lcms would
    // cost a quarter of the work and change nothing. Anything else (CMYK, 16 bits) goes through.
    VipsInterpretation interpretation = vips_image_get_interpretation(image);
    int managed = vips_image_get_typeof(image, VIPS_META_ICC_NAME) != 0
        || (interpretation != VIPS_INTERPRETATION_sRGB && interpretation != VIPS_INTERPRETATION_B_W)
        || vips_image_get_format(image) != VIPS_FORMAT_UCHAR;
    int result = managed
        ? vips_thumbnail_image(image, &shrunk, width, "height", VIPS_MAX_COORD, "size", VIPS_SIZE_DOWN, "export_profile", "srgb", NULL)
        : vips_thumbnail_image(image, &shrunk, width, "height", VIPS_MAX_COORD, "size", VIPS_SIZE_DOWN, NULL);
    g_object_unref(image);
    if (result) return failed(error, error_size);
    *out_width = vips_image_get_width(shrunk);
    *out_height = vips_image_get_height(shrunk);
    // Every saver's "strip" is asked for too, but libvips 8.14's WebP saver still writes EXIF:
    // the metadata goes from the image itself first. A copy: the pixels are shared, not copied.
    VipsImage *bare = NULL;
    result = vips_copy(shrunk, &bare, NULL);
    g_object_unref(shrunk);
    if (result) return failed(error, error_size);
    shrunk = bare;
    char **fields = vips_image_get_fields(shrunk);
    for (char **field = fields; *field; field++) {
        if (vips_isprefix("exif-", *field) || vips_isprefix("xmp-", *field) || vips_isprefix("iptc-", *field)
            || vips_isprefix("icc-", *field) || vips_isprefix("jpeg-thumbnail", *field) || vips_isprefix("orientation", *field)) {
            vips_image_remove(shrunk, *field);
        }
    }
    g_strfreev(fields);
    result = format == 1
        ? vips_webpsave_buffer(shrunk, out, out_size, "Q", quality, "strip", TRUE, NULL)
        : vips_jpegsave_buffer(shrunk, out, out_size, "Q", quality, "strip", TRUE, "interlace", TRUE, "optimize_coding", TRUE, NULL);
    g_object_unref(shrunk);
    return result ? failed(error, error_size) : 0;
}

int tessera_image_encode_rgb(const void *pixels, int width, int height, int format, int quality,
                             void **out, size_t *out_size, char *error, size_t error_size) {
    VipsImage *image = vips_image_new_from_memory(pixels, (size_t)width * height * 3, width, height, 3, VIPS_FORMAT_UCHAR);
    if (!image) return failed(error, error_size);
    int result = format == 1
        ? vips_webpsave_buffer(image, out, out_size, "Q", quality, NULL)
        : vips_jpegsave_buffer(image, out, out_size, "Q", quality, NULL);
    g_object_unref(image);
    return result ? failed(error, error_size) : 0;
}

void tessera_image_free(void *bytes) {
    g_free(bytes);
}
