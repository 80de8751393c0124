/// libFuzzer's entry for the head rules request smuggling plays on. The input's first byte says
/// whether a `Transfer-Encoding` came too; the rest is header values, one per line. A length is
/// accepted only as RFC 9110 writes it (digits, the same number in every item); `chunked` alone
/// is the only coding let through.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHeadRules(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let values = String(decoding: bytes.dropFirst(), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let hasTransferEncoding = bytes[0] & 1 == 1

    switch ContentLength.check(values, hasTransferEncoding: hasTransferEncoding) {
    case .length(let length):
        precondition(!hasTransferEncoding && length >= 0)
        for item in values.joined(separator: ",").split(separator: ",", omittingEmptySubsequences: false) {
            let digits = item.trimmingSpaces()
            precondition(!digits.isEmpty && digits.utf8.allSatisfy { (48...57).contains($0) }, "accepted \(item.debugDescription)")
            precondition(Int(digits) == length, "\(item.debugDescription) is not \(length)")
        }
    case .absent:
        precondition(values.isEmpty)
    case .invalid:
        break
    }

    if TransferEncoding.check(values) == nil {
        precondition(values.isEmpty || (values.count == 1 && values[0][...].trimmingSpaces().lowercased() == "chunked"))
    }
    return 0
}
