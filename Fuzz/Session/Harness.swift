import Foundation

/// libFuzzer's entry for what reads a session cookie once it is opened: base64url, then the
/// record. Any text is bytes or `nil`, and bytes encode back to text that decodes to them; any
/// bytes are a record or `nil`, and a record written again reads back equal.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSession(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let text = String(decoding: bytes, as: UTF8.self)
    if let decoded = Base64URL.decode(Substring(text)) {
        precondition(Base64URL.decode(Substring(Base64URL.encode(decoded))) == decoded, "base64url does not read back what it wrote")
    }
    let longAgo = Date(timeIntervalSince1970: 0)
    if let record = SessionRecord(bytes: bytes, now: longAgo) {
        precondition(SessionRecord(bytes: record.bytes, now: longAgo) == record, "a record written again reads back different")
    }
    return 0
}
