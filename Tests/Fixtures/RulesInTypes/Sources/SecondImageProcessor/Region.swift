import TesseraImages

/// libvips runs on one thread per process, the shared processor's: a second cannot be made.
enum Photos {
    static let mine = ImageProcessor.shared
    static let another = ImageProcessor()
}
