import Catalog
import Tessera
import TesseraImages

/// The demo shop's photos: for each demo product, a diagonal gradient and a disc in colours of
/// its own, painted here and added as staff add an upload, so nothing is downloaded. Only
/// `storefront seed` adds them; the server never draws.
enum DemoPhotos {
    static let width = 1280
    static let height = 960

    /// Gives each of these products that has no photo its demo photo; returns how many it added.
    static func add(to productIDs: [Int], through photos: PhotoService) async throws -> Int {
        let existing = try await photos.photos(of: productIDs, within: .outsideRequest)
        var added = 0
        // One after another: libvips has one thread in this process.
        for id in productIDs where existing[id, default: []].isEmpty {
            try await photos.add(.memory(try await jpeg(for: id)), to: id, within: .outsideRequest)
            added += 1
        }
        return added
    }

    /// The product's photo as a JPEG. Its colours follow from the number alone, so every seed
    /// paints the same picture for the same product.
    static func jpeg(for productID: Int) async throws -> [UInt8] {
        let hue = Double((productID * 47) % 360)
        let pixels = paint(from: rgb(hue: hue, lightness: 0.35), to: rgb(hue: hue + 40, lightness: 0.75), disc: rgb(hue: hue + 180, lightness: 0.9))
        return try await ImageProcessor.shared.encode(rgb: pixels, width: width, height: height, as: .jpeg)
    }

    /// A gradient from `from` at the top left to `to` at the bottom right, with a disc of `disc`
    /// right of the middle: 8-bit RGB, row after row.
    static func paint(from: RGB, to: RGB, disc: RGB) -> [UInt8] {
        // Along a row the gradient moves one step a pixel, and each row starts further along,
        // so every row is a stretch of one ramp of 2 × width colours, copied whole.
        let ramp = (0..<2 * width).flatMap { step in
            let colour = from.mixed(with: to, at: Double(step) / Double(2 * width - 1))
            return [colour.red, colour.green, colour.blue]
        }
        let radius = min(width, height) / 4
        let (centreX, centreY) = (width * 3 / 5, height / 2)
        return [UInt8](unsafeUninitializedCapacity: width * height * 3) { pixels, count in
            ramp.withUnsafeBufferPointer { ramp in
                for y in 0..<height {
                    let row = pixels.baseAddress! + y * width * 3
                    let start = y * (width - 1) / (height - 1)
                    row.initialize(from: ramp.baseAddress! + start * 3, count: width * 3)
                    let dy = y - centreY
                    guard dy * dy <= radius * radius else { continue }
                    let half = Int(Double(radius * radius - dy * dy).squareRoot())
                    for x in (centreX - half)...(centreX + half) {
                        (row[x * 3], row[x * 3 + 1], row[x * 3 + 2]) = (disc.red, disc.green, disc.blue)
                    }
                }
            }
            count = width * height * 3
        }
    }

    /// A colour of `hue` (degrees) at `lightness` (0–1), fairly saturated.
    static func rgb(hue: Double, lightness: Double) -> RGB {
        let h = hue.truncatingRemainder(dividingBy: 360) / 60
        let chroma = (1 - abs(2 * lightness - 1)) * 0.65
        let x = chroma * (1 - abs(h.truncatingRemainder(dividingBy: 2) - 1))
        let (r, g, b): (Double, Double, Double) =
            switch Int(h) {
            case 0: (chroma, x, 0)
            case 1: (x, chroma, 0)
            case 2: (0, chroma, x)
            case 3: (0, x, chroma)
            case 4: (x, 0, chroma)
            default: (chroma, 0, x)
            }
        let m = lightness - chroma / 2
        func byte(_ value: Double) -> UInt8 { UInt8(max(0, min(255, ((value + m) * 255).rounded()))) }
        return RGB(red: byte(r), green: byte(g), blue: byte(b))
    }

    /// One pixel's colour.
    struct RGB: Equatable {
        var red, green, blue: UInt8

        /// This colour moved `fraction` (0–1) of the way to `other`.
        func mixed(with other: RGB, at fraction: Double) -> RGB {
            func mix(_ a: UInt8, _ b: UInt8) -> UInt8 { UInt8((Double(a) + (Double(b) - Double(a)) * fraction).rounded()) }
            return RGB(red: mix(red, other.red), green: mix(green, other.green), blue: mix(blue, other.blue))
        }
    }
}
