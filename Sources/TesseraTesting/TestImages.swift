/// Image files made by hand for tests of uploads: a decompression bomb's header, and a JPEG with
/// the metadata a phone writes (an EXIF description and a GPS position).
public enum TestImages {
    /// A PNG that says it is `width` × `height` but carries almost no data.
    public static func pngHeader(width: Int, height: Int) -> [UInt8] {
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
        }
        let header = bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, 2, 0, 0, 0]
        let idat: [UInt8] = [0x78, 0x9C, 0x63, 0x60, 0x00, 0x00, 0x00, 0x02, 0x00, 0x01]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", idat) + chunk("IEND", [])
    }

    /// `jpeg` with an EXIF block (APP1) after its start: `description` as the image description,
    /// and a GPS latitude reference, as a phone writes where a photo was taken.
    public static func withEXIF(_ jpeg: [UInt8], description: String) -> [UInt8] {
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

    /// A `multipart/form-data` body with one file field, and its `Content-Type`.
    public static func multipart(
        field: String, fileName: String, contentType: String, bytes: [UInt8]
    ) -> (body: [UInt8], contentType: String) {
        let boundary = "tessera-test-\(bytes.count)"
        var body: [UInt8] = []
        body += Array(
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(field)\"; filename=\"\(fileName)\"\r\nContent-Type: \(contentType)\r\n\r\n"
                .utf8)
        body += bytes + Array("\r\n--\(boundary)--\r\n".utf8)
        return (body, "multipart/form-data; boundary=\(boundary)")
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
