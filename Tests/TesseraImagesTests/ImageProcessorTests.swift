import Foundation
import Tessera
import TesseraImages
import TesseraTesting
import Testing

@testable import TesseraHTTP

/// The checks an upload meets and the variants pages show, on real libvips: formats told by
/// their bytes, a decompression bomb refused from its header, a truncated JPEG refused, metadata
/// (EXIF with a GPS position) left out of every variant, sizes never enlarged.
@Suite struct ImageProcessorTests {
    let images = ImageProcessor.shared

    /// `bytes` as a small upload arrives, in memory (a large one's spooled file is read by its
    /// path: `aSpooledImageIsReadByItsPathAsTheSameImage`).
    func spooled(_ bytes: [UInt8]) throws -> RequestBody {
        .memory(bytes)
    }

    /// A JPEG of `width` × `height` with something in it: a diagonal gradient, red across and
    /// blue down.
    func demo(width: Int = 1280, height: Int = 960) async throws -> [UInt8] {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let at = (y * width + x) * 3
                pixels[at] = UInt8(x * 255 / width)
                pixels[at + 1] = 96
                pixels[at + 2] = UInt8(y * 255 / height)
            }
        }
        return try await images.encode(rgb: pixels, width: width, height: height, as: .jpeg)
    }

    @Test func formatsAreToldByTheirBytesNotTheirNames() throws {
        #expect(ImageFormat(sniffing: [0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10]) == .jpeg)
        #expect(ImageFormat(sniffing: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]) == .png)
        #expect(ImageFormat(sniffing: Array("RIFF\u{1}\u{2}\u{3}\u{4}WEBPVP8 ".utf8)) == .webp)
        for other in [
            Array("just text, named photo.jpg".utf8), [0x7F, 0x45, 0x4C, 0x46, 2, 1, 1], Array("GIF89a......".utf8), Array("RIFF....WAVE".utf8), [],
        ] {
            #expect(ImageFormat(sniffing: other) == nil)
        }
    }

    @Test func variantsAreJPEGAndWebPAtEachWidthNeverEnlarged() async throws {
        let original = try spooled(try await demo())
        let inspection = try await images.inspect(original)
        #expect(inspection.format == .jpeg && inspection.width == 1280 && inspection.height == 960)
        for width in [320, 640, 1280, 2560] {
            for format in VariantFormat.allCases {
                let variant = try await images.variant(of: original, width: width, format: format)
                #expect(variant.width == min(width, 1280))
                #expect(variant.height == min(width, 1280) * 3 / 4)
                #expect(ImageFormat(sniffing: variant.bytes)?.rawValue == format.rawValue)
            }
        }
        let small = try await images.variant(of: original, width: 320, format: .webp)
        #expect(small.bytes.count < 20_000, "a 320 px WebP is small: \(small.bytes.count) bytes")
    }

    @Test func aPortraitPhotoIsAsWideAsAskedNotSquashedIntoASquare() async throws {
        let portrait = try spooled(try await demo(width: 600, height: 900))
        let small = try await images.variant(of: portrait, width: 320, format: .webp)
        #expect((small.width, small.height) == (320, 480))
        let capped = try await images.variant(of: portrait, width: 640, format: .jpeg)
        #expect((capped.width, capped.height) == (600, 900), "never enlarged")
    }

    @Test func metadataLikeAGPSPositionIsLeftOutOfEveryVariant() async throws {
        let photo = try await demo(width: 640, height: 480)
        let tagged = TestImages.withEXIF(photo, description: "SECRET-PLACE-52.5163N-13.3777E")
        #expect(tagged.count > photo.count)
        let original = try spooled(tagged)
        _ = try await images.inspect(original)
        for format in VariantFormat.allCases {
            let variant = try await images.variant(of: original, width: 320, format: format)
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
        await #expect(throws: ImageError.notAnImage) { try await images.inspect(text) }
        // JPEG's first bytes, then nothing a decoder can read.
        let fake = try spooled([0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 0x41, count: 200))
        await #expect(throws: (any Error).self) {
            _ = try await images.inspect(fake)
            _ = try await images.variant(of: fake, width: 320, format: .jpeg)
        }
    }

    @Test func aTruncatedJPEGIsDamaged() async throws {
        let photo = try await demo()
        let cut = try spooled(Array(photo.prefix(photo.count * 6 / 10)))
        _ = try await images.inspect(cut)
        await #expect {
            _ = try await images.variant(of: cut, width: 640, format: .webp)
        } throws: { error in
            guard case ImageError.damaged = error else { return false }
            return true
        }
    }

    @Test func aDecompressionBombIsRefusedFromItsHeader() async throws {
        for (width, height) in [(20_000, 20_000), (50_000, 10), (8_000, 6_000)] {
            let bomb = try spooled(TestImages.pngHeader(width: width, height: height))
            let error = await #expect(throws: ImageError.self) { try await images.inspect(bomb) }
            #expect(error == .tooManyPixels(width: width, height: height))
        }
    }

    @Test func aSpooledImageIsReadByItsPathAsTheSameImage() async throws {
        let photo = try await demo(width: 800, height: 600)
        let file = try SpooledFile()
        try file.append(photo)
        let fromDisk = try await images.variant(of: .spooled(file), width: 320, format: .jpeg)
        let fromMemory = try await images.variant(of: .memory(photo), width: 320, format: .jpeg)
        #expect(try await images.inspect(.spooled(file)) == images.inspect(.memory(photo)))
        #expect(fromDisk.bytes == fromMemory.bytes && fromDisk.width == 320)
    }
}
