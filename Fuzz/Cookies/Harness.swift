/// libFuzzer's entry for the `Cookie` header's two readers: ``Cookies/init(headerValues:)``,
/// which parses them all, and ``Cookies/scan(_:_:)``, which a step that wants one cookie uses.
/// Whatever a client sends, neither crashes, and both find the same names and values.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCookies(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let header = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let parsed = Cookies(headerValues: [header]).pairs.map { [$0.name, $0.value] }
    var scanned: [[String]] = []
    let finished = Cookies.scan(Array(header.utf8)[...]) { name, value in
        scanned.append([String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self)])
        return true
    }
    precondition(finished, "scan stopped though never asked to")
    precondition(parsed == scanned, "the two readers disagree: \(parsed) and \(scanned)")
    return 0
}
