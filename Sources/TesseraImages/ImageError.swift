public import HTTPTypes
public import TesseraHTTP

/// Why an uploaded image was refused: a 4xx page that says what to send instead. Nothing is
/// stored when one is thrown.
public enum ImageError: HTTPResponseError, Equatable, CustomStringConvertible {
    /// The bytes are not a JPEG, PNG or WebP image, whatever the file is called.
    case notAnImage
    /// More pixels than ``ImageProcessor/Limits`` allow: a small file can decode into gigabytes
    /// (a decompression bomb).
    case tooManyPixels(width: Int, height: Int)
    /// The image is damaged or cut short.
    case damaged(String)

    public var status: HTTPResponse.Status {
        switch self {
        case .notAnImage: .unsupportedMediaType
        case .tooManyPixels, .damaged: .unprocessableContent
        }
    }

    public var publicMessage: String {
        switch self {
        case .notAnImage: "That file is not a photo. Send a JPEG, PNG or WebP image."
        case .tooManyPixels(let width, let height):
            "That image is \(width) × \(height) pixels, more than this site takes. Send one of at most 40 megapixels."
        case .damaged: "That image is damaged or incomplete. Send it again, or another one."
        }
    }

    public var description: String {
        switch self {
        case .notAnImage: "not a JPEG, PNG or WebP image"
        case .tooManyPixels(let width, let height): "\(width) × \(height) pixels"
        case .damaged(let reason): "damaged: \(reason)"
        }
    }
}
