import Foundation
import Testing
import Tessera
import TesseraHTTP
import TesseraImages

/// The checks an upload meets and the variants pages show, on real libvips: formats told by
/// their bytes, a decompression bomb refused from its header, a truncated JPEG refused, metadata
/// (EXIF with a GPS position) left out of every variant, sizes never enlarged.
@Suite struct ImageProcessorTests {
    let images = ImageProcessor()

    /// `bytes` in a spooled file, as an upload arrives: its path is what libvips opens.
    func spooled(_ bytes: [UInt8]) throws -> SpooledFile {
        let file = try SpooledFile()
        try file.append(bytes)
        return file
    }

    func demo(width: Int = 1280, height: Int = 960) async throws -> [UInt8] {
        try await images.demoPhoto(width: width, height: height, from: 0x1D4E89, to: 0xF4A259, disc: 0xF2F2F2)
    }

    @Test func formatsAreToldByTheirBytesNotTheirNames() throws {
        #expect(ImageFormat(sniffing: [0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10]) == .jpeg)
        #expect(ImageFormat(sniffing: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]) == .png)
        #expect(ImageFormat(sniffing: Array("RIFF\u{1}\u{2}\u{3}\u{4}WEBPVP8 ".utf8)) == .webp)
        for other in [Array("just text, named photo.jpg".utf8), [0x7F, 0x45, 0x4C, 0x46, 2, 1, 1], Array("GIF89a......".utf8), Array("RIFF....WAVE".utf8), []] {
            #expect(ImageFormat(sniffing: other) == nil)
        }
    }

    @Test func variantsAreJPEGAndWebPAtEachWidthNeverEnlarged() async throws {
        let original = try spooled(try await demo())
        let inspection = try await images.inspect(path: original.path, head: try original.read(at: 0, count: 16))
        #expect(inspection.format == .jpeg && inspection.width == 1280 && inspection.height == 960)
        for width in [320, 640, 1280, 2560] {
            for format in VariantFormat.allCases {
                let variant = try await images.variant(of: original.path, width: width, format: format)
                #expect(variant.width == min(width, 1280))
                #expect(variant.height == min(width, 1280) * 3 / 4)
                #expect(ImageFormat(sniffing: variant.bytes)?.rawValue == format.rawValue)
            }
        }
        let small = try await images.variant(of: original.path, width: 320, format: .webp)
        #expect(small.bytes.count < 20_000, "a 320 px WebP is small: \(small.bytes.count) bytes")
    }

    @Test func metadataLikeAGPSPositionIsLeftOutOfEveryVariant() async throws {
        let photo = try await demo(width: 640, height: 480)
        let tagged = Self.withEXIF(photo, description: "SECRET-PLACE-52.5163N-13.3777E")
        #expect(tagged.count > photo.count)
        let original = try spooled(tagged)
        _ = try await images.inspect(path: original.path, head: tagged)
        for format in VariantFormat.allCases {
            let variant = try await images.variant(of: original.path, width: 320, format: format)
            #expect(variant.bytes.firstRange(of: Array("SECRET-PLACE".utf8)) == nil, "\(format) keeps the EXIF description")
            // The GPS IFD pointer (tag 0x8825, type LONG, little-endian).
            #expect(variant.bytes.firstRange(of: [0x25, 0x88, 0x04, 0x00]) == nil, "\(format) keeps a GPS position")
            if format == .jpeg {
                #expect(variant.bytes.firstRange(of: Array("Exif".utf8)) == nil, "the JPEG keeps an EXIF block")
            }
        }
    }

    @Test func aFileThatIsNotAnImageIsRefusedWhateverItsName() async throws {
        let text = try spooled(Array("<?php echo 'photo.jpg'; ?>".utf8))
        await #expect(throws: ImageError.notAnImage) { try await images.inspect(path: text.path, head: try text.readAll()) }
        // JPEG's first bytes, then nothing a decoder can read.
        let fake = try spooled([0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 0x41, count: 200))
        await #expect(throws: (any Error).self) {
            _ = try await images.inspect(path: fake.path, head: try fake.readAll())
            _ = try await images.variant(of: fake.path, width: 320, format: .jpeg)
        }
    }

    @Test func aTruncatedJPEGIsDamaged() async throws {
        let photo = try await demo()
        let cut = try spooled(Array(photo.prefix(photo.count * 6 / 10)))
        _ = try await images.inspect(path: cut.path, head: try cut.read(at: 0, count: 16))
        await #expect {
            _ = try await images.variant(of: cut.path, width: 640, format: .webp)
        } throws: { error in
            guard case ImageError.damaged = error else { return false }
            return true
        }
    }

    @Test func aDecompressionBombIsRefusedFromItsHeader() async throws {
        for (width, height) in [(20_000, 20_000), (50_000, 10), (8_000, 6_000)] {
            let bomb = try spooled(Self.png(width: width, height: height))
            let error = await #expect(throws: ImageError.self) { try await images.inspect(path: bomb.path, head: try bomb.readAll()) }
            #expect(error == .tooManyPixels(width: width, height: height))
        }
    }

    // MARK: Files made by hand

    /// A PNG that says it is `width` × `height` but carries almost no data: a decompression bomb's header.
    static func png(width: Int, height: Int) -> [UInt8] {
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
        }
        let header = bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, 2, 0, 0, 0]
        let idat: [UInt8] = [0x78, 0x9C, 0x63, 0x60, 0x00, 0x00, 0x00, 0x02, 0x00, 0x01]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", idat) + chunk("IEND", [])
    }

    /// `jpeg` with an EXIF block (APP1) after its start: an image description and a GPS
    /// latitude reference, as a phone writes where a photo was taken.
    static func withEXIF(_ jpeg: [UInt8], description: String) -> [UInt8] {
        let text = Array(description.utf8) + [0]
        // TIFF, little-endian: IFD0 at 8 with two entries (ImageDescription, GPSInfo pointer),
        // then the GPS IFD with GPSLatitudeRef "N", then the description's text.
        let ifd0 = 8, gpsIFD = ifd0 + 2 + 2 * 12 + 4, textOffset = gpsIFD + 2 + 12 + 4
        var tiff: [UInt8] = Array("II".utf8) + [42, 0] + littleEndian(UInt32(ifd0))
        tiff += littleEndian16(2)
        tiff += littleEndian16(0x010E) + littleEndian16(2) + littleEndian(UInt32(text.count)) + littleEndian(UInt32(textOffset))
        tiff += littleEndian16(0x8825) + littleEndian16(4) + littleEndian(1) + littleEndian(UInt32(gpsIFD))
        tiff += littleEndian(0)
        tiff += littleEndian16(1)
        tiff += littleEndian16(0x0001) + littleEndian16(2) + littleEndian(2) + Array("N".utf8) + [0, 0, 0]
        tiff += littleEndian(0)
        tiff += text
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let app1: [UInt8] = [0xFF, 0xE1] + [UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
        return Array(jpeg.prefix(2)) + app1 + jpeg.dropFirst(2)
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.bigEndian) { Array($0) } }
    static func littleEndian(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.littleEndian) { Array($0) } }
    static func littleEndian16(_ value: UInt16) -> [UInt8] { withUnsafeBytes(of: value.littleEndian) { Array($0) } }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
