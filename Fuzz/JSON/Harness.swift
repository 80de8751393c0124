import Foundation

/// libFuzzer's entry for ``JSONWriter``: the input becomes a random `Encodable` value
/// (``JSONSample``), which this writer and Foundation's `JSONEncoder` both encode. Whatever the
/// value, both throw or neither does, this writer's JSON parses, and `JSONDecoder` reads back
/// the same from both.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = JSONSampleBytes(Array(UnsafeBufferPointer(start: data, count: size)))
    let sample = JSONSample.make(from: &input)
    let ours = try? JSONWriter().bytes(sample)
    let theirs = try? JSONEncoder().encode(sample)
    precondition(
        (ours == nil) == (theirs == nil), "one encoder threw and the other did not: \(String(describing: ours)) \(String(describing: theirs))")
    guard let ours, let theirs else { return 0 }
    let readOurs = JSONReadBack.read(ours)
    let readTheirs = JSONReadBack.read(Array(theirs))
    precondition(
        readOurs == readTheirs,
        "read back differently: \(String(decoding: ours, as: UTF8.self)) against \(String(decoding: theirs, as: UTF8.self))")
    return 0
}
