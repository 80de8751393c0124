import CTesseraImages
import Foundation
public import Tessera

/// Images for the web, through libvips: checks what users upload, makes the variants pages
/// show (JPEG and WebP, at the widths a `srcset` offers, without metadata).
///
/// libvips decodes and encodes on one thread of its own, never on the threads that serve pages.
/// An image spooled to disk is read from its file's path, so an upload written to disk as it
/// arrived is never copied into memory; a small one is read where it is, in memory.
///
/// There is one processor per process, ``shared``, and so one libvips thread: no init is public,
/// so a second cannot be made by accident.
public final class ImageProcessor: Sendable {
    /// What an image may be.
    public struct Limits: Sendable {
        /// Width times height: 40 megapixels by default, more than any phone camera makes.
        public var maxPixels = 40_000_000
        /// The longest side.
        public var maxSide = 16_384

        public init() {}
    }

    /// An image's header, as ``inspect(_:)`` read it.
    public struct Inspection: Sendable, Equatable {
        public let format: ImageFormat
        public let width: Int
        public let height: Int
    }

    /// An encoded variant.
    public struct Encoded: Sendable {
        public let bytes: [UInt8]
        public let width: Int
        public let height: Int
    }

    /// The process's image processor, made (with its thread, and libvips started) when first used.
    public static let shared = ImageProcessor()

    /// The one thread libvips runs on, with 32 jobs waiting at most.
    private let pool: WorkerPool

    private init() {
        precondition(tessera_images_start() == 0, "libvips did not start")
        pool = WorkerPool(name: "images", threads: 1, queueLimit: 32)
    }

    /// Checks the `image`: a JPEG, PNG or WebP by its first bytes and by libvips's reading of its
    /// header, within `limits`. Only the header is read: a decompression bomb is refused before a
    /// pixel of it is decoded.
    public func inspect(_ image: RequestBody, within limits: Limits = Limits()) async throws -> Inspection {
        guard let format = ImageFormat(sniffing: try image.prefix(16)) else { throw ImageError.notAnImage }
        return try await pool.run {
            var width: Int32 = 0, height: Int32 = 0
            var loader = [CChar](repeating: 0, count: 64)
            var error = [CChar](repeating: 0, count: 512)
            guard
                Self.withSource(
                    image,
                    { path, buffer, size in
                        tessera_image_probe(path, buffer, size, &width, &height, &loader, loader.count, &error, error.count)
                    }) == 0
            else {
                throw ImageError.notAnImage
            }
            // libvips must read it as the same kind the bytes say.
            guard Self.text(loader).lowercased().hasPrefix(format == .jpeg ? "vipsforeignloadjpeg" : "vipsforeignload\(format.rawValue)") else {
                throw ImageError.notAnImage
            }
            let (w, h) = (Int(width), Int(height))
            guard w > 0, h > 0, w <= limits.maxSide, h <= limits.maxSide, w * h <= limits.maxPixels else {
                throw ImageError.tooManyPixels(width: w, height: h)
            }
            return Inspection(format: format, width: w, height: h)
        }
    }

    /// The `image`, upright, at most `width` pixels wide (never enlarged), as `format`
    /// at `quality` (1–100), with no metadata: no EXIF, no GPS position, no camera serial. (A
    /// WebP from libvips 8.14 still carries a minimal EXIF block it writes itself: resolution
    /// and orientation, nothing about who took the photo or where.)
    /// A damaged or truncated image is ``ImageError/damaged(_:)``.
    public func variant(of image: RequestBody, width: Int, format: VariantFormat, quality: Int = 80) async throws -> Encoded {
        try await pool.run {
            var bytes: UnsafeMutableRawPointer?
            var size = 0
            var outWidth: Int32 = 0, outHeight: Int32 = 0
            var error = [CChar](repeating: 0, count: 512)
            guard
                Self.withSource(
                    image,
                    { path, buffer, length in
                        tessera_image_variant(
                            path, buffer, length, Int32(width), format == .webp ? 1 : 0, Int32(quality), &bytes, &size, &outWidth, &outHeight,
                            &error, error.count)
                    }) == 0, let bytes
            else {
                throw ImageError.damaged(Self.text(error).trimmingCharacters(in: .whitespacesAndNewlines))
            }
            defer { tessera_image_free(bytes) }
            return Encoded(bytes: Array(UnsafeRawBufferPointer(start: bytes, count: size)), width: Int(outWidth), height: Int(outHeight))
        }
    }

    /// `width` × `height` pixels of 8-bit RGB (three bytes each, row after row) as `format` at
    /// `quality`: an image painted in code (seed data, a test's picture) made into a file.
    public func encode(rgb pixels: [UInt8], width: Int, height: Int, as format: VariantFormat, quality: Int = 88) async throws -> [UInt8] {
        precondition(width > 0 && height > 0 && pixels.count == width * height * 3, "three bytes for each of width × height pixels")
        return try await pool.run {
            var bytes: UnsafeMutableRawPointer?
            var size = 0
            var error = [CChar](repeating: 0, count: 512)
            guard
                pixels.withUnsafeBytes({
                    tessera_image_encode_rgb(
                        $0.baseAddress, Int32(width), Int32(height), format == .webp ? 1 : 0, Int32(quality),
                        &bytes, &size, &error, error.count)
                }) == 0, let bytes
            else {
                throw ImageError.damaged(Self.text(error))
            }
            defer { tessera_image_free(bytes) }
            return Array(UnsafeRawBufferPointer(start: bytes, count: size))
        }
    }

    /// Calls `call` with what libvips reads the image from: a spooled file's path (the file held
    /// open by `image` meanwhile), or the bytes in memory.
    private static func withSource(_ image: RequestBody, _ call: (UnsafePointer<CChar>?, UnsafeRawPointer?, Int) -> Int32) -> Int32 {
        switch image {
        case .spooled(let file): file.path.withCString { call($0, nil, 0) }
        case .memory(let bytes): bytes.withUnsafeBytes { call(nil, $0.baseAddress, $0.count) }
        }
    }

    /// The text a C function wrote into `buffer`, up to its NUL.
    static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
