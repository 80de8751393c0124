/// The refusal each ``MultipartParser/Failure`` is answered with.
extension ServerRefusal {
    init(_ failure: MultipartParser.Failure) {
        switch failure {
        case .malformed(let detail): self = .multipartMalformed(detail)
        case .tooManyParts: self = .multipartTooManyParts
        case .tooManyFiles(let max): self = .multipartTooManyFiles(max: max)
        case .textTooLarge: self = .multipartTextTooLarge
        case .notStored: self = .uploadNotStored
        case .notRead: self = .uploadNotRead
        }
    }
}
