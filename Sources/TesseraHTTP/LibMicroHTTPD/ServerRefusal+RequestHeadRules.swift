/// The refusal each broken head rule (``RequestHeadRules``) is answered with.
extension ServerRefusal {
    init(_ problem: TransferEncoding.Problem) {
        switch problem {
        case .repeated: self = .transferEncodingRepeated
        case .unsupported: self = .transferCodingUnsupported
        }
    }

    init(_ problem: ContentLength.Problem) {
        switch problem {
        case .withTransferEncoding: self = .contentLengthWithTransferEncoding
        case .notANumber: self = .contentLengthNotANumber
        case .conflicting: self = .contentLengthConflicting
        }
    }
}
